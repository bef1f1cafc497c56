// Joint torque (force) control, e_GRASP eqs 31-38: a torque sensor of rotational stiffness k_theta (eqs 31-32,
// from the sensor geometry alpha, beta and the sensor stiffness chi) sits between the driving pulley and the
// link; the proportional law of eq 34, tau_a = k_ps (tau_r - tau_f), drives the joint actuator.
//
// In MJCF the sensor is a hinge joint (the "sensor joint") between the pulley body and the link body, with
// stiffness k_theta: MuJoCo then applies the sensor's elastic torque, and the measured torque is
// tau_f = -k_theta (q_sensor - springref), the torque the pulley transmits to the link (positive when the pulley
// drives the link in the joint's positive direction).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <vector>

namespace mjhand {

// Eqs 31-32: k_theta = gamma (cos a - sin a sin b tan(a + b)) chi, gamma = 1 / (8 sin b sin(a + b)). Angles in
// radians; chi in N m / rad. Returns NaN outside the geometry's domain (non-positive or non-finite result).
double sensor_stiffness(double alpha, double beta, double chi);

class TorqueController {
 public:
  enum Fault : int { kOk = 0, kBadReference = 1, kBadMeasurement = 2 };

  struct Options {
    std::vector<int> sensor_joints;  // torque-sensor joints (stiffness k_theta each)
    std::vector<int> actuators;      // joint actuators driven by the law (ctrl = tau_a in ctrl units)
    std::vector<double> k_theta;     // sensor stiffness per joint [N m / rad]
    std::vector<double> kps;         // force-loop gain per joint [ctrl units / (N m)]
    std::vector<double> torque_ref;  // initial reference torque tau_r per joint [N m]
    std::vector<double> u_min, u_max;  // output saturation (-inf/+inf = none)
    double fault_ctrl = 0.0;           // ctrl written after a fault
  };
  explicit TorqueController(Options options);

  // State layout: [fault, tau_r per joint].
  int nstate() const { return 1 + static_cast<int>(opt_.sensor_joints.size()); }
  // Reference torques from the options; no fault.
  void reset(const mjModel* m, const mjData* d, mjtNum* state) const;
  // Memoryless law, so evaluating it at every callback (RK4 stages, mj_forward) is exact, not a double update.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;
  // Torque the sensor of joint j measures now [N m].
  double measured_torque(const mjModel* m, const mjData* d, int j) const;

  // Changes joint j's reference torque at run time.
  static void set_reference(mjtNum* state, int j, double tau_r) { state[1 + j] = tau_r; }
  // Sticky fault code (Fault).
  static int fault(const mjtNum* state) { return static_cast<int>(state[0]); }
  // Clears a fault (the references must be finite again).
  static void clear_fault(mjtNum* state) { state[0] = kOk; }

  const Options& options() const { return opt_; }

 private:
  Options opt_;
};

}  // namespace mjhand
