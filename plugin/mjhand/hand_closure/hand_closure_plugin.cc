#include <mjhand/hand_closure/hand_closure_plugin.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <mjhand/hand_closure/hand_closure.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/contact_detection/contact_detection_plugin.h>
#include <mjhand/host/controller_plugin.h>

namespace mjhand {

std::unique_ptr<Plugin> make_hand_closure_plugin(const mjModel* m, const Config& cfg) {
  HandClosureController::Options o;
  const std::string detector = cfg.get_string("detector");
  ContactLayout layout;
  try {
    layout = declared_contact_layout(m, detector, &o.signal_sensor);
  } catch (const std::exception& e) {
    cfg.fail("detector", e.what());
  }
  if (o.signal_sensor < 0) cfg.fail("detector", "instance '" + detector + "' names no existing signal sensor");
  if (cfg.has("actuators")) {
    o.actuators = cfg.get_objects("actuators", mjOBJ_ACTUATOR, /*allow_all=*/true);
  } else {
    for (int a = 0; a < m->nu; ++a) o.actuators.push_back(a);
  }
  if (o.actuators.empty()) cfg.fail("actuators", "the model has no actuators");
  for (int a : o.actuators) {
    const std::string label = object_label(m, mjOBJ_ACTUATOR, a);
    if (m->actuator_trntype[a] != mjTRN_JOINT) cfg.fail("actuators", "actuator " + label + " does not drive a joint");
    const int joint = m->actuator_trnid[2 * a];
    const char* jname = mj_id2name(m, mjOBJ_JOINT, joint);
    const std::string name = jname ? jname : "";
    int found = -1;
    for (size_t f = 0; f < layout.fingers.size() && found < 0; ++f) {
      for (int k = 0; k < layout.phalanges; ++k) {
        if (name == joint_name(layout.fingers[f], k)) {
          found = static_cast<int>(f) * layout.phalanges + k;
          break;
        }
      }
    }
    if (found < 0) {
      cfg.fail("actuators", "actuator " + label + " drives joint '" + name + "', which is no finger joint watched by '" +
                                detector + "'");
    }
    std::vector<int> blocking;
    const int finger = found / layout.phalanges;
    for (int k = found % layout.phalanges; k < layout.phalanges; ++k) blocking.push_back(finger * layout.phalanges + k);
    o.blocking.push_back(blocking);
  }
  std::vector<double> inc = cfg.get_doubles("increment");
  if (inc.size() == 1) inc.assign(o.actuators.size(), inc[0]);
  if (inc.size() != o.actuators.size()) {
    cfg.fail("increment", "needs 1 or " + std::to_string(o.actuators.size()) + " values (one per actuator), got " +
                              std::to_string(inc.size()));
  }
  for (double v : inc) {
    if (std::abs(v) > 0.1) cfg.fail("increment", "|" + format_value(v) + "| rad per step is more than 0.1: a typo?");
  }
  o.increment = inc;
  o.start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
  // Its own actuators are the servos (ServoPlugin, as posture); setpoints stay in the joints' ranges, also for a
  // Python HandClosure, whose actuators are motors.
  o.servo = true;
  return make_servo_plugin<HandClosureController>(cfg, std::move(o));
}

PluginType hand_closure_plugin_type() {
  PluginType type;
  type.name = "hand_closure";
  type.summary = "closes position-controlled fingers by an increment per step until each phalanx touches";
  type.factory = make_hand_closure_plugin;
  type.keys = {"actuators", "detector", "increment", "start", "kp", "kv", "integration"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
