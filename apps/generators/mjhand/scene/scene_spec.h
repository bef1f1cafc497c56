// A grasp scene as a YAML description: a hand description (a file or inline), objects (sphere, cylinder, cuboid,
// mesh from OBJ/STL; fixed or free), Kelvin-Voigt contact parameters, gravity, self-collision, and optionally the
// contact-detection + hand-closure plugins. Format reference: docs/scenes.md.
#pragma once

#include <Eigen/Geometry>
#include <map>
#include <string>
#include <vector>

#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/yaml_fields.h>
#include <mjhand/scene/kelvin_voigt.h>

namespace mjhand {

// A number in the scene description that may be a `${name}` placeholder for a batch sweep; value is the parameter's
// default (from `parameters:`), which is what every derived quantity uses.
struct SceneNumber {
  double value = 0;
  std::string placeholder;  // "" for a plain number, else the parameter name
};

enum class ObjectShape { kSphere, kCylinder, kBox, kMesh };

struct ObjectSpec {
  std::string name;
  ObjectShape shape = ObjectShape::kSphere;
  std::vector<SceneNumber> size;  // sphere [r]; cylinder [r, half_height]; box [hx, hy, hz]; mesh: scale [s] or [sx sy sz]
  std::string mesh_file;          // absolute path of the OBJ/STL file (mesh only)
  Eigen::Vector3d pos = Eigen::Vector3d::Zero();
  std::vector<SceneNumber> pos_values;  // the three entries of pos, with placeholders
  Eigen::Quaterniond quat = Eigen::Quaterniond::Identity();
  bool free = true;               // free 6-DOF (freejoint) or welded to the world
  bool has_mass = false;          // mass given, else density
  SceneNumber density{1000, ""};  // [kg/m^3]
  SceneNumber mass{0, ""};        // [kg]
  std::vector<SceneNumber> friction;  // sliding [, torsional [, rolling]]
  bool has_contact = false;       // per-object Kelvin-Voigt override
  KelvinVoigt contact;
  std::vector<SceneNumber> contact_numbers;  // stiffness, damping (placeholders allowed)
  double reference_mass = 0;      // explicit mass for the solref mapping; 0: the object's own (free) or the hand's
  std::string rgba = "0.3 0.6 0.9 1";
  YAML::Mark mark = YAML::Mark::null_mark();
};

// The contact-detection sensor + hand-closure controller the scene adds (`grasp:` section).
struct GraspSetup {
  bool enabled = false;
  double threshold = 0.01;     // [N]
  int samples = 10;
  double increment = 0.0005;   // [rad per step]; sign chooses the closing direction
  std::vector<double> increments;  // optional per-actuator list (overrides increment)
  bool where = true;           // also the contact point/normal sensor
  double start = 0;            // [s]
};

struct SceneSpec {
  std::string name;
  HandSpec hand;
  std::vector<ObjectSpec> objects;
  KelvinVoigt contact;                     // default for every object
  std::vector<SceneNumber> contact_numbers;  // stiffness, damping of the default (placeholders allowed)
  std::vector<double> friction = {1.0, 0.005, 0.0001};
  bool gravity = false;                    // off by default, as in the paper's experiments
  bool self_collision = false;
  double timestep = 1e-4;                  // [s]
  bool floor = false;                      // a ground plane at z = 0
  GraspSetup grasp;
  std::map<std::string, double> parameters;  // placeholder defaults, in name order
  std::string source_name;  // FILE in messages
  std::string base_dir;     // directory relative paths are resolved against
};

// Parses a scene held in memory; relative paths (hand file, meshes) are resolved against base_dir. Errors are
// SpecError "FILE:LINE:COLUMN: PATH: MESSAGE".
SceneSpec parse_scene_spec(const std::string& yaml_text, const std::string& source_name, const std::string& base_dir);
// Reads and parses a scene file; relative paths are resolved against the file's directory.
SceneSpec load_scene_spec(const std::string& path);

}  // namespace mjhand
