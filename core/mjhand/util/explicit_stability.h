// Stability of a controller's explicit PD force on a light coordinate. A force u = -kp y - kd y' computed by a plugin
// from the state and applied through an actuator (or as a passive force) acts on the controlled coordinate y as
//     I y'' = u - c y'        I = 1 / (J_y M^-1 m_a^T) (armature included), c the model's damping seen by y,
// and MuJoCo integrates it as its integrator says (docs/controllers.md, "Stability on light links"):
//   Euler        semi-implicit; joint damping implicit (M + h D) unless eulerdamp is disabled, tendon damping explicit
//   implicit(fast) semi-implicit; joint and tendon damping implicit; plugin forces are not differentiated
//   RK4          four evaluations, every force explicit, the plugin's force recomputed at each stage
// The step is a linear map on (y, y'); it diverges when its spectral radius exceeds 1. That radius is computed here
// from the map itself (one step applied to a basis), so the verdict is exact for a single degree of freedom and is
// checked against MuJoCo on a grid (tests/plugin/host/test_stability_grid.cc). A 5 g finger link without armature
// has I ~ 1e-6 kg m^2: gains sized for a 100 g link are far over the limit there.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

namespace mjhand {

// How MuJoCo advances the loop over one step.
enum class StepScheme {
  kSemiImplicitEuler,  // Euler, implicit, implicitfast: v+ = v + h (u - c v) / (I + h c_implicit), y+ = y + h v+
  kRungeKutta4,        // RK4: the classical four stages on (y, y'), all damping explicit
};

// How the plugin's force reads the state inside a step.
enum class ForceTiming {
  kEveryEvaluation,  // u = -kp y - kd y' from each evaluation's state (servo, coupling spring, synergy, computed torque)
  kPidSamples,       // a pid with period = timestep: sampled at the step's instants t and t + h, held between (RK4's
                     // middle stages), its derivative the difference of the sampled y over h (eq 25), not y'
};

// One coordinate under an explicit PD force: what decides whether MuJoCo's step diverges.
struct ExplicitLoop {
  double h = 0;                 // timestep [s]
  double kp = 0, kd = 0;        // the plugin's explicit gains on y (force per unit y, per unit y')
  double inertia = 0;           // I = 1 / (J_y M^-1 m_a^T) at qpos0, armature included
  double implicit_damping = 0;  // damping on y that MuJoCo integrates implicitly (see above)
  double explicit_damping = 0;  // damping on y that MuJoCo integrates explicitly
  StepScheme scheme = StepScheme::kSemiImplicitEuler;
  ForceTiming timing = ForceTiming::kEveryEvaluation;
};

// How m's integrator and flags treat damping (the table above): the step scheme, and whether joint (dof) and tendon
// damping enter the implicit matrix; `damper` is false when damping is disabled altogether.
struct DampingFiling {
  StepScheme scheme = StepScheme::kSemiImplicitEuler;
  bool dof_implicit = false, tendon_implicit = false, damper = true;
};
DampingFiling damping_filing(const mjModel* m);

// The spectral radius of one step's linear map on (y, y') (and the previous sample of y for kPidSamples): above 1
// the motion grows every step.
double step_amplification(const ExplicitLoop& loop);

// Whether MuJoCo's step diverges on this loop (amplification above 1 beyond rounding).
bool explicit_loop_diverges(const ExplicitLoop& loop);

// The largest kp (kd and the rest as given) that does not diverge; 0 when even kp = 0 does (kd too high).
double max_stable_kp(const ExplicitLoop& loop);

// The loop of a force along the generalized direction `force` (nv: m_a^T, or a coupling's J^T) measured by `measure`
// (nv: J_y) in m at qpos0 (a scratch mjData): I = 1 / (J_y M^-1 m_a^T), the dof and tendon damping projected on y
// along the motion the force excites (M^-1 m_a^T), each filed implicit or explicit by m's integrator and flags
// (disabled damping counts 0). kp, kd are left 0. inertia is +inf when the force cannot move y.
ExplicitLoop explicit_loop_qpos0(const mjModel* m, const mjtNum* force, const mjtNum* measure);

// Actuator a's moment row m_a (its force direction) and J_y of the measured coordinate (below), nv each, at qpos0.
struct ActuatorLoopRows {
  std::vector<double> force, measure;
};
ActuatorLoopRows actuator_loop_rows(const mjModel* m, int actuator, int joint, int tendon);

// explicit_loop_qpos0 for actuator a's force on the coordinate y = joint `joint` (>= 0), else tendon `tendon` (>= 0),
// else the actuator's own length.
ExplicitLoop actuator_loop_qpos0(const mjModel* m, int actuator, int joint, int tendon);

// 1 / actuator_loop_qpos0(...).inertia: w = J_y M^-1 m_a^T.
double actuator_loop_inverse_inertia_qpos0(const mjModel* m, int actuator, int joint, int tendon);

}  // namespace mjhand
