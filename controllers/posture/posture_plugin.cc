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
  o.target = t;
  o.tau = cfg.get_double_or("tau", 0.2, 1e-6, 1e6);
  o.start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
  // The instance's actuators are the servos: MuJoCo has no control stage for plugins, so the setpoint cannot be
  // another actuator's ctrl in time for the same step (docs/native-plugins.md).
  return make_servo_plugin<PostureController>(cfg, std::move(o));
}

}  // namespace mjhand
