// Computed-torque and feed-forward joint control (Ebner & Wallace 1994, section 4.2), with model-error injection
// (section 4.3) and the trajectories of controllers/trajectory. The dynamic model is MuJoCo's own (qM with armature,
// qfrc_bias) by default, or a user-supplied DynamicModel registered by name. Output: joint torques through motor
// actuators, one per controlled joint, whose ctrl the controller owns.
#pragma once

#include <mujoco/mujoco.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <mjhand/model_errors/model_errors.h>
#include <mjhand/trajectory/trajectory.h>

namespace mjhand {

// A rigid-body model of the controlled joints: M(q) and h(q, qd) = V(q, qd) + G(q) in the controller's joint order.
// Implementations must be immutable after construction (called from every thread) and must not allocate per call.
// Entry (i, j) of MuJoCo's sparse joint-space inertia d->M (MuJoCo 4: CSR lower triangle, docs/engine.md).
double sparse_inertia(const mjModel* m, const mjtNum* M, int i, int j);

class DynamicModel {
 public:
  virtual ~DynamicModel() = default;
  // Number of joints the model describes.
  virtual int dof() const = 0;
  // M: dof x dof row-major; h: dof values. q, qd in rad and rad/s; M in kg m^2, h in N m.
  virtual void evaluate(const double* q, const double* qd, double* M, double* h) const = 0;
};

// Builds a user model for the given joints (ids, in controller order); throws std::invalid_argument if it cannot.
using DynamicModelFactory =
    std::function<std::unique_ptr<DynamicModel>(const mjModel* m, const std::vector<int>& joints)>;

// Makes `model=NAME` available to computed_torque instances (the direct-drive hand registers its closed form here).
// Throws std::invalid_argument if the name is empty, "mujoco", or taken.
void register_dynamic_model(const std::string& name, DynamicModelFactory factory);
// The factory registered as `name`, or an empty function.
DynamicModelFactory find_dynamic_model(const std::string& name);

// Fault codes kept (sticky) in state[0]: the first non-finite quantity seen. While faulted, ctrl is 0 (no torque).
enum CtFault : int { kCtOk = 0, kCtBadSetpoint = 1, kCtBadState = 2, kCtBadOutput = 3 };

class ComputedTorqueController {
 public:
  static constexpr int kMaxJoints = 32;
  enum class Law { kComputedTorque, kFeedForward };

  struct Options {
    std::vector<int> joints;     // hinge/slide joint ids
    std::vector<int> actuators;  // the motor actuator driving each joint (ctrl = torque / (gain * gear))
    std::vector<double> kp, kv;  // per joint [1/s^2], [1/s] (computed torque) or [N m/rad], [N m s/rad] (feed-forward)
    Law law = Law::kComputedTorque;
    std::shared_ptr<const JointTrajectory> trajectory;  // dof() == joints.size()
    std::shared_ptr<const DynamicModel> model;          // nullptr: MuJoCo's own model
    ModelErrors errors;                                 // inactive by default
    bool compensate_passive = true;                     // subtract qfrc_passive (damping, springs) of the joints
  };

  // Throws std::invalid_argument for inconsistent options (lengths, joint types, actuators that are not motors).
  ComputedTorqueController(const mjModel* m, Options options);

  // State: [fault code, fault time, error sample index, draws taken, 4 n error draws].
  int nstate() const { return 4 + 4 * static_cast<int>(opt_.joints.size()); }
  // No fault, no draw yet.
  void reset(const mjModel* m, const mjData* d, mjtNum* state) const;
  // Writes the torque of every controlled joint to its actuator's ctrl. Repeated calls at one d->time (RK4 stages,
  // mj_forward) redraw nothing, so they return the same output for the same state.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;

  // Torques tau (n values) the law asks for at d's current state and time, without errors or state; for checks.
  void ideal_torque(const mjModel* m, mjData* d, double* tau) const;
  // MuJoCo's M (n x n, restricted to the joints' dofs) and bias at d's current state, as the controller reads them.
  void mujoco_terms(const mjModel* m, const mjData* d, double* M, double* h) const;
  // The same at another joint state (q, qd of the controlled joints), evaluated in d and restored bitwise after.
  void mujoco_terms_at(const mjModel* m, mjData* d, const double* q, const double* qd, double* M, double* h) const;

  static int fault(const mjtNum* state) { return static_cast<int>(state[0]); }
  static double draws_taken(const mjtNum* state) { return state[3]; }
  const Options& options() const { return opt_; }

 private:
  // tau from the law; u: 4 n error draws or nullptr. Returns false if anything non-finite appeared (code in *why).
  bool law(const mjModel* m, mjData* d, const double* u, double* tau, int* why) const;
  Options opt_;
  std::vector<int> qpos_adr_, dof_adr_;
  std::vector<double> ctrl_scale_;  // joint torque per unit ctrl (actuator gain * gear)
  bool implicit_damping_ = false;   // Euler integrates joint damping implicitly: tau needs + h B a*
};

}  // namespace mjhand
