// A robotic hand as a human-editable YAML description: palm, fingers as DH tables, actuators, plugin instances.
// Degrees appear only in the YAML (keys ending in _deg); everything in these structs is SI and radians.
// Format reference: docs/hand-description.md.
#pragma once

#include <Eigen/Geometry>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <mjhand/hand/yaml_fields.h>
#include <mjhand/kinematics/dh_chain.h>

namespace mjhand {

enum class PalmMount { kFixed, kFree };

struct PalmSpec {
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();  // palm frame in the world (initial pose when free)
  PalmMount mount = PalmMount::kFixed;
  Eigen::Vector3d half_size = Eigen::Vector3d::Zero();  // box half extents [m]
  Eigen::Vector3d box_pos = Eigen::Vector3d::Zero();    // box centre in the palm frame [m]
  double mass = 0.0;                                    // [kg]
};

// Mass properties given explicitly instead of derived from the capsule (a link that is not a uniform rod, e.g. the
// direct-drive hand's magnet + tube + coils). Expressed in the link's body frame, i.e. its joint frame: origin on the
// joint axis, z along it, joint at zero (for modified DH with d = 0 that is Craig's frame {i}).
struct InertialSpec {
  Eigen::Vector3d pos = Eigen::Vector3d::Zero();          // centre of mass [m]
  Eigen::Vector3d diaginertia = Eigen::Vector3d::Zero();  // principal moments about the centre of mass, along the
                                                          // body axes [kg m^2]
};

struct LinkSpec {
  DHLink dh;                       // lower/upper are +-infinity when the joint is unlimited
  double radius = 0.0;             // capsule radius [m]
  double mass = 0.0;               // [kg] (the inertial's mass when has_inertial)
  bool allow_zero_length = false;  // opt-out: a link whose joint-to-next-joint segment is empty gets a sphere
  bool has_inertial = false;       // true: <inertial> from `inertial` and `mass`; the capsule carries no mass
  InertialSpec inertial;
};

struct FingerSpec {
  std::string name;
  Eigen::Isometry3d base = Eigen::Isometry3d::Identity();  // DH frame 0 in the palm frame
  std::vector<LinkSpec> links;
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();  // fingertip frame in the last DH frame
  double damping = 0.0;   // joint damping [N m s/rad or N s/m]
  double armature = 0.0;  // joint armature [kg m^2 or kg]
};

// kPlugin: an <actuator><plugin instance=...> served by a native mjhand plugin (its force output, e.g. mjhand.posture's
// servos or a controller's torques), gear as for a motor.
enum class ActuatorType { kPosition, kVelocity, kMotor, kPlugin };

// Where a joint's DH row lives: spec.fingers[finger].links[link].
struct JointRef {
  int finger = -1;  // -1: no such joint
  int link = -1;
};

// One actuator entry; expands to one MuJoCo actuator per listed joint.
struct ActuatorSpec {
  ActuatorType type = ActuatorType::kPosition;
  std::vector<std::string> joints;  // resolved joint names ("all" already expanded)
  std::vector<JointRef> joint_refs;  // one per joints entry, resolved when parsed (see find_joint)
  double gain = 0.0;                // kp (position), kv (velocity), gear (motor, plugin)
  std::string instance;             // kPlugin: the plugin instance that computes the force
  bool ctrl_from_joint_range = true;  // position without ctrlrange: each joint's range
  bool ctrllimited = false;
  double ctrl_lower = 0.0, ctrl_upper = 0.0;  // [rad, m, or N m / N for motors]
  bool forcelimited = false;
  double force_lower = 0.0, force_upper = 0.0;
};

// An mjhand plugin instance, written into the model as the native plugin <extension><plugin plugin="mjhand.TYPE">
// <instance name="NAME"><config key= value=>. The marks let errors found only once MuJoCo compiles the model (the
// plugin's own validation) still cite the YAML line;
// they are null for a spec built in code.
struct PluginSpec {
  std::string name, type;
  std::vector<std::pair<std::string, std::string>> config;  // in file order
  YAML::Mark mark = YAML::Mark::null_mark();                // the entry
  YAML::Mark type_mark = YAML::Mark::null_mark();
  std::map<std::string, YAML::Mark> config_marks;           // the value of each config key
};

// A named joint configuration, written as an MJCF <keyframe><key>: one value per finger joint in spec order (fingers
// in order, links in order) [rad or m]; a free palm keeps its initial pose in the key.
struct KeyframeSpec {
  std::string name;
  std::vector<double> qpos;
};

// A coupling of two finger joints, theta_joint = sum coef[k] theta_driver^k with theta the DH angle (the row's
// theta offset + q), written as an MJCF joint equality (see docs/berul-coupling.md).
struct CouplingSpec {
  std::string joint, driver;      // driven joint, driving joint
  JointRef joint_ref, driver_ref;
  std::vector<double> coef;       // c0..c4, 1 to 5 values, SI (rad or m)
  std::vector<double> solref;     // MuJoCo solref (timeconst, dampratio) of the equality; empty = MuJoCo's default
  YAML::Mark mark = YAML::Mark::null_mark();
};

struct HandSpec {
  std::string name;
  DHConvention convention = DHConvention::kStandard;
  PalmSpec palm;
  std::vector<FingerSpec> fingers;
  std::vector<ActuatorSpec> actuators;
  std::vector<PluginSpec> plugins;
  std::vector<KeyframeSpec> keyframes;
  std::vector<CouplingSpec> couplings;  // joint equalities, in file order
  bool self_collision = false;  // false: hand geoms never collide with each other (see docs/hand-description.md)

  std::string source_name;  // FILE in messages (what parse_hand_spec was given); empty for a spec built in code
};

// Joint name of link k (0-based) of a finger: "<finger>_j<k+1>", shared by the writer and the model reader.
std::string joint_name(const std::string& finger, int k);
// Body name of link k (0-based): "<finger>_link<k+1>".
std::string link_body_name(const std::string& finger, int k);
// Fingertip site name: "<finger>_tip".
std::string tip_site_name(const std::string& finger);

// The finger and link of the joint called `name`; finger is -1 when the spec has no such joint.
JointRef find_joint(const HandSpec& spec, const std::string& name);
// The link that actuator joint i drives, through a.joint_refs; throws std::invalid_argument when joint_refs does not
// match a.joints (a spec built in code must fill it, e.g. with find_joint).
const LinkSpec& actuator_link(const HandSpec& spec, const ActuatorSpec& a, std::size_t i);

// Below this length a link's segment counts as empty: a capsule cannot span it.
constexpr double kZeroLinkLength = 1e-9;
// Link k's fixed offset from its joint frame to the next joint's frame (to the fingertip frame for the last link),
// joint at zero. Its translation is the segment the link's capsule spans; the generated model places the next body
// (or the tip site) there.
Eigen::Isometry3d link_to_next(DHConvention convention, const FingerSpec& finger, std::size_t k);

// Parses a description held in memory; source_name is what error messages cite as FILE.
HandSpec parse_hand_spec(const std::string& yaml_text, const std::string& source_name);
// Reads and parses a description file; errors cite the path as given.
HandSpec load_hand_spec(const std::string& path);
// Writes a description back as YAML that parse_hand_spec reads to an equal spec (rotations as axis + angle_deg).
std::string hand_spec_to_yaml(const HandSpec& spec);

}  // namespace mjhand
