#include "posture/posture.h"
#include "host/controller_plugin.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mjhand {

PostureController::PostureController(Options options) : opt_(std::move(options)) {
  if (opt_.target.size() != opt_.actuators.size()) throw std::invalid_argument("posture: one target per actuator");
  if (!(opt_.tau > 0)) throw std::invalid_argument("posture: tau must be positive");
}

void PostureController::reset(const mjModel*, const mjData* d, mjtNum* state) const {
  state[0] = d->time;
  for (size_t i = 0; i < opt_.actuators.size(); ++i) state[1 + i] = d->ctrl[opt_.actuators[i]];
}

void PostureController::compute(const mjModel*, mjData* d, mjtNum* state) const {
  const double from = std::max(state[0], opt_.start);
  if (d->time > from) {
    const double decay = std::exp(-(d->time - from) / opt_.tau);
    for (size_t i = 0; i < opt_.actuators.size(); ++i) {
      state[1 + i] = opt_.target[i] + (state[1 + i] - opt_.target[i]) * decay;
    }
  }
  if (d->time > state[0]) state[0] = d->time;
  for (size_t i = 0; i < opt_.actuators.size(); ++i) d->ctrl[opt_.actuators[i]] = state[1 + i];
}

std::unique_ptr<Plugin> make_posture_plugin(const mjModel* m, const Config& cfg) {
  PostureController::Options o;
  o.actuators = cfg.get_objects("actuators", mjOBJ_ACTUATOR, /*allow_all=*/true);
  if (o.actuators.empty()) cfg.fail("actuators", "the model has no actuators");
  std::vector<double> t = cfg.get_doubles("target");
  if (t.size() == 1) t.assign(o.actuators.size(), t[0]);
  if (t.size() != o.actuators.size()) {
    cfg.fail("target", "needs 1 or " + std::to_string(o.actuators.size()) + " values (one per actuator), got " +
                           std::to_string(t.size()));
  }
  for (size_t i = 0; i < t.size() && !cfg.native(); ++i) {  // native: the actuators' ctrl is not the setpoint
    const int a = o.actuators[i];
    if (m->actuator_ctrllimited[a] && (t[i] < m->actuator_ctrlrange[2 * a] || t[i] > m->actuator_ctrlrange[2 * a + 1])) {
      cfg.fail("target", "value " + std::to_string(t[i]) + " is outside the ctrlrange of actuator " +
                             object_label(m, mjOBJ_ACTUATOR, a));
    }
  }
  o.target = t;
  o.tau = cfg.get_double_or("tau", 0.2, 1e-6, 1e6);
  o.start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
  if (cfg.native()) {
    const double kp = cfg.get_double("kp", 0.0, 1e9);
    if (!(kp > 0)) cfg.fail("kp", "must be positive (the servo's stiffness, force per actuator length)");
    const double kv = cfg.get_double_or("kv", 0.0, 0.0, 1e9);
    return std::make_unique<ServoPlugin<PostureController>>(kp, kv, std::move(o));
  }
  return std::make_unique<ControllerPlugin<PostureController>>(std::move(o));
}

}  // namespace mjhand
