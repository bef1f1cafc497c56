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
#include <mjhand/grasp/force_closure_lp.h>

namespace mjhand::view {

// The translation block of a manipulability ellipsoid (core/mjhand/grasp/manipulability.h). Kinematic: the object-centre
// velocities reachable with unit-norm inputs (joint speeds, or synergy speeds dz) compatible with rigid contacts.
// Force: the forces on the object exerted with unit-norm joint torques (or synergy forces sigma), rigid model.
struct GraspEllipsoid {
  bool ok = false;
  bool force = false;                                 // force_manipulability instead of kinematic_manipulability
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // G's reference point (object centre of mass) [m]
  Eigen::Vector3d axes = Eigen::Vector3d::Zero();    // semi-axes: +inf first (force only), then descending
                                                      // [m/s per unit input] or [N per unit input]
  Eigen::Matrix3d dirs = Eigen::Matrix3d::Identity();  // columns: unit directions (right-handed)
  int indeterminate = 0;                              // 6 - rank(G)
  int inputs = 0;                                     // columns of S (n_hand joints or k synergies)
  int compatible_inputs = 0;                          // kinematic: dim of the inputs compatible with the contacts;
                                                      // force: rank of [S^T J_H^T; G]
  int unbounded = 0;                                  // infinite semi-axes (force: held with zero input)
};

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
  // Kinematic manipulability ellipsoids (GraspEllipsoid): with joint inputs (S = I), and with the synergy inputs of
  // the model's first "synergy" plugin instance (its S on the hand's dofs, synergy_matrix_on_dofs: hand joints
  // outside the synergies held fixed).
  GraspEllipsoid ellipsoid;          // joint space
  GraspEllipsoid synergy_ellipsoid;  // synergy space, when the model has a synergy instance driving a hand joint
  // Force manipulability ellipsoids (force_manipulability, rigid contacts) with the same inputs.
  GraspEllipsoid force_ellipsoid;          // joint torques
  GraspEllipsoid synergy_force_ellipsoid;  // synergy forces sigma = S^T tau
  std::string synergy_instance;      // its name, "" when the model has none
  std::string synergy_note;          // why there is no synergy-space ellipsoid ("" when there is one)
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
  // Finds the first synergy instance and maps its S onto the hand's dofs.
  void find_synergies(const InstanceList* instances);

  int forced_ = -1;
  HandStructureOptions structure_;
  bool structure_given_ = false;
  int built_for_ = -2;
  std::string build_error_;
  std::unique_ptr<HandModel> hand_;
  std::unique_ptr<GraspData> data_;
  ForceClosureLP closure_{64, 8};
  GraspMetrics metrics_;
  bool has_synergies_ = false;                   // the instances include a synergy instance
  std::string synergy_name_;
  int synergy_used_ = 0;                         // synergy joints among the hand's dofs
  Eigen::MatrixXd S_hand_;                       // n_hand x k
};

}  // namespace mjhand::view
