// Live grasp metrics for the viewer's text box: which body is the object, its contacts with the fingers,
// sigma_min(G), force closure and (optionally) Ferrari-Canny epsilon, computed with plugin/grasp as
// `mjhand analyze` and the grasp_analysis sensor do.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>

#include <mjhand/grasp/hand_structure.h>
#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/native/instances.h>
#include <mjhand/sensors/grasp_analysis.h>

namespace mjhand::view {

struct GraspMetrics {
  int object = -1;             // body id, -1 when the model has no free body
  std::string object_name;
  std::string object_source;   // "--object", "grasp_analysis instance 'x'" or "free body with most contacts"
  int contacts = 0;            // object-finger contacts in the grasp
  int other_contacts = 0;      // object contacts with bodies of no finger (palm, table)
  double sigma_min = 0;        // sigma_min(G) [-]
  double normal_force = 0;     // sum of the normal forces of the grasp contacts (mj_contactForce) [N]
  std::string closure = "-";   // force closure from the LP test: "yes", "no" or why not decided
  bool epsilon_on = false;
  double epsilon = 0;          // L1 Ferrari-Canny epsilon [N-scaled units], when on
  std::string epsilon_status;
  std::string error;           // why nothing could be computed (e.g. no finger bodies)
  // Kinematic manipulability ellipsoid (plugin/grasp/manipulability.h, joint inputs S = I), translation block: the
  // object-centre velocities reachable with unit-norm joint speeds compatible with the contacts.
  bool ellipsoid_ok = false;
  Eigen::Vector3d ellipsoid_centre = Eigen::Vector3d::Zero();  // G's reference point (object centre of mass) [m]
  Eigen::Vector3d ellipsoid_axes = Eigen::Vector3d::Zero();    // semi-axes, descending [m/s per unit joint speed]
  Eigen::Matrix3d ellipsoid_dirs = Eigen::Matrix3d::Identity();  // columns: unit directions (right-handed)
  int ellipsoid_indeterminate = 0;                              // 6 - rank(G)
};

class GraspMonitor {
 public:
  // forced_object: body name from --object ("" = choose automatically each update); throws std::runtime_error
  // when that body does not exist.
  GraspMonitor(const mjModel* m, const std::string& forced_object);
  // --palm/--fingers/--with-wrist (hand_structure.h): the hand of the metrics instead of the grasp_analysis
  // instance's or the inferred one. Throws GraspError naming an unknown body; structural errors show in the box.
  void set_hand_structure(const mjModel* m, const std::string& palm, const std::string& fingers, bool with_wrist,
                          const std::string& finger_tips = "");
  // Recomputes the metrics from d (after mj_step / mj_forward). instances may be null. epsilon: also run the (slower)
  // wrench-space hull.
  void update(const mjModel* m, const mjData* d, const InstanceList* instances, bool epsilon);
  const GraspMetrics& metrics() const { return metrics_; }
  // The metrics as the lines of the text box.
  std::string text() const;

 private:
  int choose_object(const mjModel* m, const mjData* d, const InstanceList* instances, std::string& source) const;
  void rebuild(const mjModel* m, int object, const InstanceList* instances);

  int forced_ = -1;
  HandStructureOptions structure_;
  bool structure_given_ = false;
  int built_for_ = -2;
  std::string build_error_;
  std::unique_ptr<HandModel> hand_;
  std::unique_ptr<GraspData> data_;
  ForceClosureLP closure_{64, 8};
  GraspMetrics metrics_;
};

}  // namespace mjhand::view
