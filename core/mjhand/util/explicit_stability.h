// Stability of a controller's explicit PD force on light links. A force u = -kp y - kd y' computed from the state at
// the start of a step and applied through an actuator, integrated by MuJoCo's semi-implicit Euler, acts on the
// controlled coordinate y as  y'' = w u  with w = J_y M^-1 m_a^T (J_y: y's Jacobian, m_a: the actuator's moment
// row, M: the joint-space inertia). That step is stable only while
//     h^2 kp w + 2 h kd w < 4          (h: timestep; w = 1 / I for a coordinate of inertia I)
// (the same holds under implicit/implicitfast, which do not differentiate plugin forces). A 5 g finger link without
// armature has I ~ 1e-6 kg m^2: gains sized for a 100 g link are 100x over there. docs/controllers.md, "Stability
// on light links"; the coupling plugin's check (plugin/coupling) is the same rule.
#pragma once

#include <mujoco/mujoco.h>

#include <string>

namespace mjhand {

// w = J_y M^-1 m_a^T at qpos0 (a scratch mjData: kinematics, tendons, transmission, M), for actuator a's force and
// the coordinate y = joint `joint` (>= 0), else tendon `tendon` (>= 0), else the actuator's own length (J_y = m_a).
double actuator_loop_inverse_inertia_qpos0(const mjModel* m, int actuator, int joint, int tendon);

// h^2 kp w + 2 h kd w: the explicit PD step's load; semi-implicit Euler is stable below 4.
inline double explicit_pd_load(double h, double kp, double kd, double w) { return (h * h * kp + 2.0 * h * kd) * w; }

// Load above which the controllers refuse explicit gains at load time: half the limit 4, as the coupling plugin,
// because w changes with the posture and neighbouring joints' loops stiffen each other's modes.
constexpr double kExplicitPdLoadLimit = 2.0;

// "" when explicit_pd_load(h, kp, kd, w) <= kExplicitPdLoadLimit, else a message naming `what` (instance, joint or
// tendon), the gains, the timestep, the inertia 1/w, the load and the ways out.
std::string explicit_pd_stability_problem(const std::string& what, double h, double kp, double kd, double w,
                                          const std::string& kp_unit, const std::string& kd_unit);

}  // namespace mjhand
