// Digital PID joint controller (e_GRASP eqs 24-25): samples the joint angle with its own period, holds the output
// between samples (zero-order hold), integral anti-windup by clamping, first-order filtered derivative, optional
// output saturation, n-bit D/A quantisation of the output and encoder quantisation of the measured angle.
// A plain class (compute(m, d, state)) for people who run their own loop, and the plugin type "pid".
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <vector>

namespace mjhand {

class PidController {
 public:
  enum class Derivative { kError, kMeasurement };
  // Why the controller stopped driving its actuators (sticky until reset or clear_fault).
  enum Fault : int { kOk = 0, kBadSetpoint = 1, kBadMeasurement = 2, kBadState = 3 };

  struct Options {
    std::vector<int> joints;     // measured joints (hinge or slide), one per actuator; -1 where tendons[j] is used
    // Measured tendons, one per actuator or empty (= all joints): tendons[j] >= 0 measures that tendon's length
    // d->ten_length [m, or rad for a fixed tendon of hinges] (MuJoCo computes it in mj_fwdPosition) instead of a
    // joint; the pid plugin fills it for an actuator whose transmission is a tendon.
    std::vector<int> tendons;
    std::vector<int> actuators;  // actuators whose d->ctrl the controller writes
    std::vector<double> setpoint;  // initial setpoints [rad or m], one per joint
    std::vector<double> kp, ki, kd;  // continuous gains: u = kp e + ki int(e) dt + kd de/dt (per joint)
    double period = 0.001;      // sample period T [s], >= the model timestep
    double tf = 0.0;            // derivative filter time constant [s]; 0 = plain backward difference (eq 25)
    Derivative derivative = Derivative::kError;
    std::vector<double> u_min, u_max;  // output saturation per joint (-inf/+inf = none)
    int dac_bits = 0;           // n-bit D/A over [u_min, u_max]; 0 = off
    double encoder_cpr = 0.0;   // encoder counts per revolution of the joint; 0 = off
    double fault_ctrl = 0.0;    // ctrl written after a fault (0 V = motor off)
    // Backward Euler on the P and D terms over the measured coordinate (core/mjhand/util/implicit_pd.h): stable at
    // any gain where the explicit output diverges on a light link; needs tf = 0 and (the plugin checks) period =
    // timestep. u = (kp e + (kd + T kp) de/dt) / (1 + T (kd + T kp) w) + I, w = J_y M^-1 m_a^T at the sample.
    bool implicit = false;
  };
  explicit PidController(Options options);

  // State layout: [last sample instant, next sample instant, sampled?, fault], then per joint kPerJoint numbers.
  static constexpr int kHeader = 4;
  static constexpr int kPerJoint = 8;
  int nstate() const { return kHeader + kPerJoint * static_cast<int>(opt_.joints.size()); }
  // Setpoints from the options, integrators cleared, first sample due at d->time.
  void reset(const mjModel* m, const mjData* d, mjtNum* state) const;
  // Takes a sample when d->time reaches the next sample instant (re-taken idempotently at that same instant,
  // so RK4's stage at t+h and the next step's start agree) and writes the held outputs to d->ctrl.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;

  // Changes joint j's setpoint at run time (taken at the next sample).
  static void set_setpoint(mjtNum* state, int j, double value) { state[kHeader + kPerJoint * j] = value; }
  // Sticky fault code (Fault); kOk while the controller runs.
  static int fault(const mjtNum* state) { return static_cast<int>(state[3]); }
  // Held output of joint j (what d->ctrl receives until the next sample).
  static double output(const mjtNum* state, int j) { return state[kHeader + kPerJoint * j + 7]; }
  // Integral term of joint j after the latest sample [ctrl units].
  static double integral(const mjtNum* state, int j) { return state[kHeader + kPerJoint * j + 4]; }
  // Clears a fault by re-initialising integrators and timing (setpoints must be finite again first).
  void clear_fault(const mjModel* m, const mjData* d, mjtNum* state) const;

  // Joint angle (or tendon length) as the encoder reports it (rounded to the nearest count when encoder_cpr > 0).
  double measure(const mjModel* m, const mjData* d, int j) const;
  // Output after saturation and D/A quantisation.
  double condition_output(int j, double u) const;

  const Options& options() const { return opt_; }

 private:
  void sample(const mjModel* m, mjData* d, mjtNum* state) const;
  void commit_and_sample(const mjModel* m, mjData* d, mjtNum* state, double instant) const;
  Options opt_;
};

}  // namespace mjhand
