#include <mjhand/hand_closure/hand_closure.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>


namespace mjhand {

namespace {
// A setpoint inside what actuator a accepts: its ctrlrange (position actuator), else, for a servo (whose ctrl is not
// the setpoint), its joint's range.
double clamp_setpoint(const mjModel* m, int a, double s, bool servo) {
  if (!servo && m->actuator_ctrllimited[a]) {
    return std::clamp(s, m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
  }
  const int j = m->actuator_trnid[2 * a];
  if (servo && m->jnt_limited[j]) return std::clamp(s, m->jnt_range[2 * j], m->jnt_range[2 * j + 1]);
  return s;
}
}  // namespace

HandClosureController::HandClosureController(Options options) : opt_(std::move(options)) {
  if (opt_.increment.size() != opt_.actuators.size() || opt_.blocking.size() != opt_.actuators.size()) {
    throw std::invalid_argument("hand_closure: one increment and one blocking set per actuator");
  }
}

void HandClosureController::reset(const mjModel* m, const mjData* d, mjtNum* state) const {
  state[0] = d->time - 1;  // the first instant already advances
  for (size_t i = 0; i < opt_.actuators.size(); ++i) {
    const int a = opt_.actuators[i];
    state[1 + i] = clamp_setpoint(m, a, d->qpos[m->jnt_qposadr[m->actuator_trnid[2 * a]]], opt_.servo);
  }
}

void HandClosureController::compute(const mjModel* m, mjData* d, mjtNum* state) const {
  if (d->time > state[0]) {
    state[0] = d->time;
    if (d->time >= opt_.start) {
      const mjtNum* signal = d->sensordata + m->sensor_adr[opt_.signal_sensor];
      for (size_t i = 0; i < opt_.actuators.size(); ++i) {
        bool blocked = false;
        for (int c : opt_.blocking[i]) blocked = blocked || signal[c] > 0.5;
        if (blocked) continue;
        const int a = opt_.actuators[i];
        state[1 + i] = clamp_setpoint(m, a, state[1 + i] + opt_.increment[i], opt_.servo);
      }
    }
  }
  for (size_t i = 0; i < opt_.actuators.size(); ++i) d->ctrl[opt_.actuators[i]] = state[1 + i];
}

}  // namespace mjhand
