// Posture controller: moves position-actuator setpoints toward a target posture with a first-order response.
// The smallest stateful controller: shows the pattern every mjhand controller follows (config validated once,
// state in mjData, time-triggered updates so RK4's repeated callbacks and mj_forward do not advance it twice).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <vector>

namespace mjhand {

class PostureController {
 public:
  struct Options {
    std::vector<int> actuators;  // actuator ids whose ctrl this controller writes
    std::vector<double> target;  // one setpoint per actuator (ctrl units: rad for joint position actuators)
    double tau = 0.2;            // time constant of the setpoint filter [s]
    double start = 0.0;          // time the motion starts [s]; before it the setpoints stay at their initial value
  };
  explicit PostureController(Options options);

  // State layout: [time of last update, setpoint per actuator].
  int nstate() const { return 1 + static_cast<int>(opt_.actuators.size()); }
  // Setpoints start from the actuators' current ctrl.
  void reset(const mjModel* m, const mjData* d, mjtNum* state) const;
  // Advances the setpoints to d->time (exactly, for any step size) and writes them to d->ctrl.
  void compute(const mjModel* m, mjData* d, mjtNum* state) const;

  const Options& options() const { return opt_; }

 private:
  Options opt_;
};

}  // namespace mjhand
