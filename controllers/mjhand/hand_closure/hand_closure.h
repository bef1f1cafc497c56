// Hand-closure controller (SynGrasp-Simscape section 2.2.3.2): every position-controlled finger joint advances its
// setpoint by a fixed increment per simulation step unless the contact-detection signal of its phalanx, or of a more
// distal phalanx of the same finger, is 1; it holds while that lasts and resumes when the contact is lost.
#pragma once

#include <memory>
#include <vector>

#include <mujoco/mujoco.h>

namespace mjhand {

class HandClosureController {
 public:
  struct Options {
    std::vector<int> actuators;   // position actuators on finger joints; their ctrl is written
    std::vector<double> increment;  // setpoint change per step, one per actuator [rad or m]; sign = closing direction
    std::vector<std::vector<int>> blocking;  // per actuator: signal indices (its phalanx and the distal ones)
    int signal_sensor = -1;       // the contact_detection instance's signal sensor
    double start = 0;             // closure starts at this time [s]
    // The setpoint is a servo's target, not the actuator's ctrl (the plugin's ServoPlugin, or a Python HandClosure
    // whose actuators are motors): clamped to the joint's range instead of the actuator's ctrlrange.
    bool servo = false;
  };
  explicit HandClosureController(Options options);

  // State layout: [time of the last advance, setpoint per actuator]. One advance per distinct d->time.
  int nstate() const { return 1 + static_cast<int>(opt_.actuators.size()); }
  // Setpoints start at the joints' current positions, so a keyframe start does not jump.
  void reset(const mjModel* m, const mjData* d, mjtNum* state) const;
  // Once per step (d->time moved): advance every unblocked setpoint, clamped to the ctrlrange; writes d->ctrl.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;

  const Options& options() const { return opt_; }

 private:
  Options opt_;
};

}  // namespace mjhand
