// Cartesian computed-torque control of a grasped object (Mattar 2013, e_GRASP eqs 39-44): a PID on the object's pose
// error gives the desired object acceleration, the object's own dynamics turn it into the wrench the fingers must
// apply, the wrench is distributed over the fingertip contacts (G^+ W plus a squeeze in null(G) that keeps every
// contact inside its friction cone), and joint torques tau = J_H^T lambda + finger dynamics go to one motor actuator
// per hand joint. Contacts are MuJoCo's own (collect_contacts), so the contact points roll with the fingertips.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/hand_object/object_trajectory.h>
#include <mjhand/hand_object/squeeze_distribution.h>
#include <mjhand/util/scratch_pool.h>

namespace mjhand {

// Fault codes kept (sticky) in the state: the first non-finite quantity seen. While faulted, ctrl is 0.
enum HoFault : int { kHoOk = 0, kHoBadReference = 1, kHoBadState = 2, kHoBadOutput = 3 };

// Everything the controller reports per step, decoded from its state slice (HandObjectController::report).
struct HandObjectReport {
  int fault = kHoOk;
  double fault_time = 0;
  int contacts = 0;            // MuJoCo contacts between the object and the fingers this step
  int other_contacts = 0;      // contacts of the object with anything else (palm, floor): not controlled
  int fingers_in_contact = 0;  // fingers with at least one contact
  unsigned contact_mask = 0;   // bit k: finger k touches the object now
  unsigned lost_mask = 0;      // bit k: finger k touched the object earlier and does not now
  int lost_events = 0;         // how often a finger went from contact to no contact
  ForceMethod method = ForceMethod::kNoGrasp;  // how this step's forces were found
  int lp_steps = 0;            // steps that needed the LP
  int infeasible_steps = 0;    // steps with kBestEffort or kNoGrasp
  double squeeze = 0;          // size of the internal (squeeze) force [N]
  double normal_margin = 0;    // min over contacts of f_n - min_normal_force, commanded forces [N]
  double cone_margin = 0;      // min over contacts of friction_cone_margin (unscaled mu), commanded forces [N]
  double position_error = 0;   // |p_ref - p| [m]
  double orientation_error = 0;  // angle of q_ref q^-1 [rad]
};

class HandObjectController {
 public:
  static constexpr int kMaxContacts = 32;  // contacts kept per step (more are counted, not used)
  static constexpr int kWorkspaces = 4;    // preallocated per-thread scratch sets (more threads: allocate)
  static constexpr int kMaxFingerDofs = 16;  // per-finger solves on the stack up to this many joints per finger

  struct Options {
    HandModel hand;              // object body (with a free joint), fingers, hand dofs (J_H columns)
    std::vector<int> actuators;  // the motor actuator of each hand dof, in hand.dofs order (ctrl is claimed)
    std::vector<int> tips;       // one fingertip site per finger (re-approach after contact loss), or empty
    // PID on the pose error; computed-torque units: accelerations per error.
    double kp = 400, ki = 0, kd = 40;                  // [1/s^2], [1/s^3], [1/s] on position
    double kp_rot = 400, ki_rot = 0, kd_rot = 40;      // the same on orientation
    double integral_limit = 0.005;                     // |integral of e_p| per axis [m s] (anti-windup)
    double integral_limit_rot = 0.05;                  // |integral of e_R| per axis [rad s]
    SqueezeOptions forces;                             // min normal force, friction safety factor
    bool lp_fallback = true;                           // try GLPK when the squeeze cannot satisfy the cones
    double approach_force = 0.5;                       // [N] pushes a finger without contact toward the object
    ObjectTrajectory trajectory;                       // about the hold pose
    bool fixed_center = false;                         // hold `center` instead of the object's start position
    Eigen::Vector3d center = Eigen::Vector3d::Zero();  // [m, world]
    bool compensate_passive = true;                    // subtract qfrc_passive (joint damping, springs)
    bool finger_acceleration = true;                   // add M_hand qdd_d (fingertips follow the object)
  };

  // Options for `object_body` held by the fingers hanging from `palm_body`, with the motor actuator of every hand
  // dof found in the model; throws std::invalid_argument naming what is missing.
  static Options for_hand(const mjModel* m, int object_body, int palm_body);

  // Throws std::invalid_argument for inconsistent options (actuators, tips, gains, object without free joint).
  HandObjectController(const mjModel* m, Options options);
  ~HandObjectController();
  HandObjectController(const HandObjectController&) = delete;
  HandObjectController& operator=(const HandObjectController&) = delete;

  // State entries in d->plugin_state (layout in hand_object.cc).
  int nstate() const;
  // No fault, zero integral, hold pose = the object's current pose (or `center`).
  void reset(const mjModel* m, const mjData* d, mjtNum* state) const;
  // Writes the torque of every hand dof to its actuator's ctrl. Repeated calls at one d->time (mj_forward, RK4
  // stages at the same instant) give the same output: the integral advances only with d->time.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;

  // The hold pose (reference centre and orientation) in a state; changeable at run time. A non-finite pose faults
  // the controller at its next call (ctrl 0), it never reaches d->ctrl.
  static void set_hold_pose(mjtNum* state, const Eigen::Vector3d& p, const Eigen::Quaterniond& q);
  // The hold position [m, world] stored in a state.
  static Eigen::Vector3d hold_position(const mjtNum* state);
  // The hold orientation stored in a state (as stored: not normalised).
  static Eigen::Quaterniond hold_orientation(const mjtNum* state);
  // What happened at the last call.
  static HandObjectReport report(const mjtNum* state);
  // The reference at time t for this state's hold pose.
  ObjectReference reference(const mjtNum* state, double t) const;

  // The options the controller was built with (ControllerPlugin claims options().actuators).
  const Options& options() const { return opt_; }

 private:
  struct Workspace;
  // tau (n_hand values); returns false with *why set if anything non-finite appeared.
  bool law(const mjModel* m, mjData* d, mjtNum* state, bool advance, Workspace& ws, int* why) const;
  // The law's finger dynamics: the joint accelerations that move the contact points with the object (ws.qdd; zero
  // without finger_acceleration) and M qdd added to ws.tau.
  void add_finger_dynamics(const mjModel* m, mjData* d, Workspace& ws, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                           int rows, unsigned mask, const Eigen::Vector3d& p, const Eigen::Vector3d& a_d,
                           const Eigen::Vector3d& dw_d, const Eigen::Vector3d& w) const;

  Options opt_;
  std::vector<double> ctrl_scale_;  // joint torque per unit ctrl (gain * gear)
  bool implicit_damping_ = false;   // Euler integrates joint damping implicitly: tau needs + h B qdd
  std::vector<std::vector<int>> finger_cols_;  // J_H columns (hand dof index) of each finger
  bool shared_dofs_ = false;  // a hand dof moves several fingers (moving palm) or a finger is large: dense solve
  double object_mass_ = 0;
  Eigen::Matrix3d object_inertia_ = Eigen::Matrix3d::Zero();  // principal, in the inertial frame (ximat at run time)
  Eigen::Vector3d object_ipos_ = Eigen::Vector3d::Zero();     // centre of mass in the body frame
  // Scratch for the per-step computation, one set per concurrently stepping thread (the plugin object is shared by
  // every mjData of the model): leased per step and returned by the lease's destructor (also when the law throws),
  // so stepping never allocates unless more than kWorkspaces threads step this model at the same instant.
  mutable ScratchPool<Workspace> pool_;
};

// Why hand_motor_actuator found no usable actuator.
enum HoActuatorLookup : int { kHoNoActuator = -1, kHoTwoActuators = -2, kHoNotAMotor = -3 };

// The motor actuator (joint transmission, fixed gain, no bias, no dynamics) driving hinge/slide dof `dof`, or a
// negative HoActuatorLookup code: the controller outputs joint torques, so it needs exactly one motor per hand joint.
int hand_motor_actuator(const mjModel* m, int dof);

}  // namespace mjhand
