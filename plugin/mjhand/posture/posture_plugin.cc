#include <mjhand/posture/posture_plugin.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <mjhand/posture/posture.h>
#include <mjhand/host/controller_plugin.h>

namespace mjhand {

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
  for (size_t i = 0; i < t.size() && !cfg.sizing(); ++i) {  // a servo target beyond the joint's range pushes into the limit
    const int a = o.actuators[i];
    const int j = m->actuator_trntype[a] == mjTRN_JOINT ? m->actuator_trnid[2 * a] : -1;
    const double gear = m->actuator_gear[6 * a];
    if (j < 0 || !m->jnt_limited[j] || gear == 0) continue;
    const double q = t[i] / gear, lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
    if (q < lo || q > hi) {
      cfg.fail("target", "value " + format_value(t[i]) + " puts joint " + object_label(m, mjOBJ_JOINT, j) + " at " +
                             format_value(q) + ", outside its range [" + format_value(lo) + ", " + format_value(hi) +
                             "] (actuator " + object_label(m, mjOBJ_ACTUATOR, a) + ")");
    }
  }
  o.target = t;
  o.tau = cfg.get_double_or("tau", 0.2, 1e-6, 1e6);
  o.start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
  // The instance's actuators are the servos: MuJoCo has no control stage for plugins, so the setpoint cannot be
  // another actuator's ctrl in time for the same step (docs/native-plugins.md).
  return make_servo_plugin<PostureController>(cfg, std::move(o));
}

PluginType posture_plugin_type() {
  PluginType type;
  type.name = "posture";
  type.summary = "moves actuator setpoints to a target posture (first-order, time constant tau)";
  type.factory = make_posture_plugin;
  type.keys = {"actuators", "target", "tau", "start", "kp", "kv", "integration"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
