// DC-motor joint actuator (e_GRASP eq 26) as a MuJoCo user actuator: ctrl is the armature voltage, the actuator
// force is the motor torque reflected through the gear to the joint, force = gain * V + bias(qdot).
//
// Eq 26 on the motor side (theta_m motor angle, n = theta_joint / theta_m, so n < 1 for a reduction):
//   (Ja + Jm + n^2 JL) theta_m'' + (Ba + Bm + kb ki / R) theta_m' = (ki / R) V - n d
// With theta_m = q / n and divided by n, on the joint side:
//   ((Ja + Jm) / n^2 + JL) q'' + ((Ba + Bm + kb ki / R) / n^2) q' = (ki / (R n)) V - d
// JL (the link) is MuJoCo's own joint-space inertia; (Ja + Jm) / n^2 must be the joint's MJCF armature (checked at
// attach); gain = ki / (R n); bias = -((Ba + Bm + kb ki / R) / n^2) qdot.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <vector>

namespace mjhand {

struct DcMotorParams {
  double R = 1.0;   // armature resistance [ohm]
  double ki = 0.0;  // torque constant [N m / A]
  double kb = 0.0;  // back-EMF constant [V s / rad]
  double Jm = 0.0;  // rotor inertia [kg m^2]
  double Ja = 0.0;  // gear/actuator-shaft inertia on the motor side [kg m^2]
  double Bm = 0.0;  // motor viscous friction [N m s / rad]
  double Ba = 0.0;  // gear/actuator-shaft viscous friction on the motor side [N m s / rad]
  double n = 1.0;   // theta_joint / theta_motor (the paper's n; 0.01 for a 100:1 reduction)

  // Joint-side reflected motor inertia (Ja + Jm) / n^2: the MJCF armature the joint must have [kg m^2].
  double armature() const { return (Ja + Jm) / (n * n); }
  // Joint torque per volt ki / (R n) [N m / V].
  double gain() const { return ki / (R * n); }
  // Joint-side damping (Ba + Bm + kb ki / R) / n^2 [N m s / rad]; the bias is -damping() * qdot.
  double damping() const { return (Ba + Bm + kb * ki / R) / (n * n); }
  // Joint torque for voltage V at joint velocity qdot (what MuJoCo's actuator_force must equal).
  double torque(double V, double qdot) const { return gain() * V - damping() * qdot; }
  // Armature current (V - kb theta_m') / R for voltage V at joint velocity qdot [A].
  double current(double V, double qdot) const { return (V - kb * qdot / n) / R; }
};

}  // namespace mjhand
