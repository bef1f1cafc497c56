#include "hand_closure/hand_closure.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "hand/hand_spec.h"
#include "host/controller_plugin.h"
#include "sensors/contact_detection.h"

namespace mjhand {

namespace {
// A setpoint inside what actuator a accepts: its ctrlrange (position actuator), else its joint's range (the native
// servo, whose ctrl is not the setpoint).
double clamp_setpoint(const mjModel* m, int a, double s) {
  if (m->actuator_ctrllimited[a] && m->actuator_plugin[a] < 0) {
    return std::clamp(s, m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
  }
  const int j = m->actuator_trnid[2 * a];
  if (m->actuator_plugin[a] >= 0 && m->jnt_limited[j]) return std::clamp(s, m->jnt_range[2 * j], m->jnt_range[2 * j + 1]);
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
    state[1 + i] = clamp_setpoint(m, a, d->qpos[m->jnt_qposadr[m->actuator_trnid[2 * a]]]);
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
        state[1 + i] = clamp_setpoint(m, a, state[1 + i] + opt_.increment[i]);
      }
    }
  }
  for (size_t i = 0; i < opt_.actuators.size(); ++i) d->ctrl[opt_.actuators[i]] = state[1 + i];
}

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
    if (!cfg.native() && (m->actuator_biastype[a] != mjBIAS_AFFINE || m->actuator_gainprm[mjNGAIN * a] <= 0 ||
                          m->actuator_biasprm[mjNBIAS * a + 1] >= 0)) {
      cfg.fail("actuators", "actuator " + label + " is not a position servo (<position kp=...>)");
    }
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
  if (cfg.native()) {  // its own actuators are the servos (ServoPlugin); setpoints stay in the joints' ranges
    const double kp = cfg.get_double("kp", 0.0, 1e9);
    if (!(kp > 0)) cfg.fail("kp", "must be positive (the servo's stiffness, force per actuator length)");
    const double kv = cfg.get_double_or("kv", 0.0, 0.0, 1e9);
    return std::make_unique<ServoPlugin<HandClosureController>>(kp, kv, std::move(o));
  }
  return std::make_unique<ControllerPlugin<HandClosureController>>(std::move(o));
}

}  // namespace mjhand
