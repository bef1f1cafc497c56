// A PD force that stays stable at any gain on a light coordinate: backward Euler on the coordinate alone. With
// e' advancing by h w f over the step (w = J M^-1 J^T, the coordinate's inverse inertia), f = -kp (e + h e'+) - kd e'+
// solves to
//     f = -(kp e + (kd + h kp) e') / (1 + h (kd + h kp) w).
// It cannot see the step's other forces, so at rest its stiffness is kp / (1 + h (kd + h kp) w): softer than kp on
// light links (docs/controllers.md, "The implicit path"). Used by the coupling spring and the servos'
// integration=implicit.
#pragma once

#include <mujoco/mujoco.h>

namespace mjhand {

// The backward-Euler PD force above for error e and rate e' (SI units of the coordinate).
inline double implicit_pd_force(double kp, double kd, double h, double w, double e, double rate) {
  const double c = kd + h * kp;
  return -(kp * e + c * rate) / (1.0 + h * c * w);
}

// w = J_y M^-1 m_a^T of actuator a's force on y = joint `joint` (>= 0), else tendon `tendon` (>= 0), else the
// actuator's own length (J_y = m_a), at d's state: MuJoCo's factorisation (mj_factorM ran in the position stage),
// the actuator's moment row and the tendon Jacobian, on mjData's stack (no allocation).
double actuator_inverse_inertia(const mjModel* m, mjData* d, int actuator, int joint = -1, int tendon = -1);

}  // namespace mjhand
