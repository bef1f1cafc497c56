// What `mjhand analyze` finds out about one grasp state, computed once and then printed as text or JSON
// (docs/analyze.md lists every field with its unit).
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include <mjhand/grasp/actuation.h>
#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/force_closure_cost.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/manipulability.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/mobility.h>
#include <mjhand/grasp/wrench_space.h>

namespace mjhand::cli {

// One contact between the object and a finger, with the names a reader needs.
struct ReportContact {
  Contact contact;
  std::string finger, link, hand_geom, object_geom;
  Eigen::VectorXd force_mujoco;  // lambda_i from mj_contactForce in [n t o] (hand on object) [N, N m]
};

// A contact on the object that is not part of the grasp (palm, table, a body of no finger).
struct IgnoredContact {
  int index = -1;  // into d->contact
  std::string object_geom, other_geom, other_body, reason;
};

// The parallel-manipulator view (Borras & Dollar Table 1 column 2): reciprocal-screw Jacobian J_p (m x 6) and
// J_Theta (m x n_hand), and how far J_Theta^+ J_p is from J_H^+ G^T (section 2.3's equivalence).
struct ParallelSection {
  std::string source;  // what computed J_p and J_Theta
  Eigen::MatrixXd Jp, JTheta;
  Eigen::Vector3d jp_reference = Eigen::Vector3d::Zero();  // J_p's moment reference [m, world]
  // Section 2.3: |J_Theta^+ J_p S - J_H^+ G^T| (Frobenius), S moving J_p's reference to G's; and its relative size.
  double equivalence_residual = 0, relative_residual = 0;
  double jtheta_vs_jh = 0, jp_vs_gt = 0;  // |J_Theta - J_H|, |J_p S - G^T|: 0 for choice (b) up to round-off
  std::string note;
};

// Force-closure cost and potential contact robustness (Gabiccini et al. 2011 SGVcost; Pozzi et al. 2017 PCR) on the
// hard-finger rows of the contacts (torsion rows of soft fingers dropped, as the measures are defined for hard
// fingers), with E = controllable_internal_force_basis(G, J_H) (rigid joints).
struct RobustnessSection {
  bool computed = false;
  std::string note;                 // what was evaluated, or why nothing was
  VcostParams params;               // fmin, fmax, k used
  int internal_dims = 0;            // columns of E
  double vcost = 0;                 // min over y of V(-G^+ W + E y) for the weight W
  double vcost_max_sigma = 0;       // largest constraint value at that minimum [N] (< 0: all hold)
  Eigen::VectorXd vcost_lambda;     // the minimising forces (3 per contact) [N]
  double pcr = 0;                   // n_c / min over y of V(E y)
};

struct AnalyzeReport {
  // Where the state came from.
  std::string model_path;
  std::string state_source = "qpos0";  // "qpos0", "keyframe" or "qpos"
  std::string keyframe_name;
  int keyframe_index = -1;
  double settle_s = 0;
  long settle_steps = 0;
  double time = 0;
  int linf_max_points = kLinfMaxPoints;  // L-infinity epsilon is refused above this many Minkowski-sum points
  double linf_time_limit = kLinfTimeLimit;  // [s] and stopped after this long (0: no limit)

  // The object and the hand.
  int object = -1;
  std::string object_name, object_source;
  bool object_free = false;
  double object_mass = 0;                                   // subtree mass [kg]
  Eigen::Vector3d object_center = Eigen::Vector3d::Zero();  // centre of mass = G's moment reference [m]
  std::string hand_source;
  std::vector<std::string> finger_names;
  std::vector<std::vector<std::string>> finger_links;
  std::vector<std::string> finger_tips;  // per finger: the --finger-tips body, "" when none
  std::vector<std::string> dof_names;  // J_H's columns
  int actuated = 0;                    // rank of the actuation the equality constraints let through (actuation.h)
  // Hand structure (hand_structure.h) and actuation (actuation.h).
  std::string palm;                        // palm body, "" when there is none
  std::vector<std::string> palm_links;     // the palm and the bodies fixed to it
  std::vector<std::string> wrist_dofs;     // dofs of the palm and above (wrist, arm, free base)
  bool wrist_in_JH = false;                // --with-wrist: they are columns of J_H
  HandActuation actuation;                 // A (n x nout), J_eq and the counts on J_H's dofs
  std::vector<std::string> eq_row_names;   // equality name per row of actuation.Jeq
  ActuatorStatics actuator_optimal;        // actuator forces f holding tau_optimal: A f = tau - J_eq^T mu
  ContactOptions contact_options;          // input: e.g. the palm contacts' model (--palm-contact)
  // Control and load check.
  std::string ctrl_source = "zero";        // "zero", "keyframe", "--ctrl", "--ctrl-from-keyframe"
  std::vector<double> ctrl;                // d->ctrl at the analysed state
  std::vector<std::string> ctrl_readers;   // actuators whose force or activation rate changes with their ctrl
  double force_warning_factor = 20;        // warn when the contact normal forces exceed this many object weights
  double contact_normal_force = 0;         // sum of MuJoCo's normal forces over the grasp contacts [N]
  double weight = 0;                       // |object mass * gravity| [N]
  std::vector<std::string> warnings;       // printed on stderr too

  // The grasp.
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();  // moment reference of G and the wrenches [m, world]
  std::vector<ReportContact> contacts;  // ordered by finger, then by MuJoCo contact index
  std::vector<IgnoredContact> ignored;
  Eigen::MatrixXd G, JH;
  bool analysed = false;  // false when there is no contact: the results below stay empty
  GraspQuality quality;
  HandObjectMobility mobility;
  // Manipulability ellipsoids with joint inputs (S = I), when the hand has dofs (manipulability.h).
  bool ellipsoids = false;
  ManipulabilityEllipsoid kin_ellipsoid, force_ellipsoid;
  EpsilonResult eps_l1, eps_linf;
  Wrench gravity = Wrench::Zero();  // external wrench on the object: gravity about the reference [N, N m]
  Wrench mujoco_wrench = Wrench::Zero();  // -G lambda_mujoco: what MuJoCo's contact forces balance
  MinNormForces min_norm;
  ForceDistribution optimal;
  Eigen::VectorXd tau_optimal;  // J_H^T lambda_optimal [N m or N]
  ParallelSection parallel;
  RobustnessSection robustness;
  // Grasp stiffness K_O = G K G^T (docs/stiffness.md), only with --contact-stiffness / --joint-stiffness.
  bool stiffness_requested = false;
  Eigen::Vector3d contact_stiffness = Eigen::Vector3d::Zero();  // normal, tangential [N/m], torsion/rolling [N m/rad]; 0 = rigid
  double joint_stiffness = 0;                                    // [N m/rad or N/m]; 0 = rigid joints
  Eigen::Vector2d wrist_stiffness = Eigen::Vector2d::Zero();     // --wrist-stiffness KT [N/m], KR [N m/rad]; 0 = fixed base
  std::string wrist_body;                                        // the base it holds ("" without --wrist-stiffness)
  Eigen::Vector3d wrist_point = Eigen::Vector3d::Zero();         // the base body's origin [m, world]
  Eigen::MatrixXd KO;                                            // 6 x 6, empty when it could not be computed
  Eigen::VectorXd KO_eigenvalues;                                // ascending
  std::string stiffness_message;                                 // why KO is empty, else ""
  std::vector<std::string> notes;  // plain-language explanations of degenerate cases
};

// Fills the object, hand and grasp parts of r from the current state (after mj_forward): contacts, G, J_H, quality,
// mobility, epsilon L1/L-inf, min-norm and optimal forces for gravity. Degenerate grasps give notes, never NaN.
void analyze_grasp(const mjModel* m, const mjData* d, const HandModel& hand, AnalyzeReport& r);

// Human-readable report (sections), and the JSON document of docs/analyze.md.
std::string format_report_text(const AnalyzeReport& r);
std::string format_report_json(const AnalyzeReport& r);

// Name of body / geom / joint id for reports ("#ID" when unnamed).
std::string mj_name(const mjModel* m, mjtObj type, int id);

}  // namespace mjhand::cli
