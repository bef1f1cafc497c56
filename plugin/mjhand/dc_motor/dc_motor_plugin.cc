#include <mjhand/dc_motor/dc_motor_plugin.h>

#include <mjhand/dc_motor/dc_motor.h>

#include <cmath>
#include <sstream>
#include <string>

namespace mjhand {

namespace {
class DcMotorPlugin : public Plugin {
 public:
  DcMotorPlugin(const DcMotorParams& p, const std::vector<int>& actuators) : gain_(p.gain()), damping_(p.damping()) {
    for (int a : actuators) claim_actuator(a);
  }
  int capabilities() const override { return kCapActuator; }
  mjtNum actuator_gain(const mjModel*, const mjData*, int, const mjtNum*) const override { return gain_; }
  // actuator_velocity is gear * qdot = qdot (gear 1 is enforced), valid at the actuation stage.
  mjtNum actuator_bias(const mjModel*, const mjData* d, int id, const mjtNum*) const override {
    return -damping_ * d->actuator_velocity[id];
  }

 private:
  double gain_, damping_;
};

}  // namespace

std::unique_ptr<Plugin> make_dc_motor_plugin(const mjModel* m, const Config& cfg) {
  DcMotorParams p;
  const std::vector<int> acts = cfg.get_objects("actuators", mjOBJ_ACTUATOR, /*allow_all=*/false);
  if (acts.empty()) cfg.fail("actuators", "no actuators given");
  p.R = cfg.get_double("R", 1e-9, 1e9);
  p.ki = cfg.get_double("ki", 1e-12, 1e6);
  p.kb = cfg.get_double("kb", 0.0, 1e6);
  p.Jm = cfg.get_double("Jm", 0.0, 1e6);
  p.Ja = cfg.get_double_or("Ja", 0.0, 0.0, 1e6);
  p.Bm = cfg.get_double_or("Bm", 0.0, 0.0, 1e6);
  p.Ba = cfg.get_double_or("Ba", 0.0, 0.0, 1e6);
  p.n = cfg.get_double("n", 1e-9, 1e9);
  const bool check_armature = cfg.get_bool_or("check_armature", true);
  for (int a : acts) {
    const std::string label = "actuator " + object_label(m, mjOBJ_ACTUATOR, a);
    if (m->actuator_dyntype[a] != mjDYN_NONE || m->actuator_actnum[a] != 0) {
      cfg.fail("actuators", label + " must have no activation dynamics");
    }
    const int tr = m->actuator_trntype[a];
    if (tr != mjTRN_JOINT && tr != mjTRN_JOINTINPARENT) cfg.fail("actuators", label + " must drive a joint");
    const int j = m->actuator_trnid[2 * a];
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
      cfg.fail("actuators", label + " drives joint " + object_label(m, mjOBJ_JOINT, j) + ", not a hinge or slide");
    }
    // The gear ratio is the motor's n; a second ratio in the transmission would silently scale the torque.
    if (m->actuator_gear[6 * a] != 1.0) cfg.fail("actuators", label + " must have gear=\"1\" (use n= for the gear)");
    const double arm = m->dof_armature[m->jnt_dofadr[j]];
    const double want = p.armature();
    if (check_armature && std::abs(arm - want) > 1e-6 * want + 1e-15) {
      cfg.fail("actuators", "joint " + object_label(m, mjOBJ_JOINT, j) + " has armature " + format_value(arm) +
                                "; the motor's reflected inertia (Ja + Jm) / n^2 is " + format_value(want) +
                                ": set armature=\"" + format_value(want) + "\" (or check_armature=false)");
    }
  }
  return std::make_unique<DcMotorPlugin>(p, acts);
}

PluginType dc_motor_plugin_type() {
  PluginType type;
  type.name = "dc_motor";
  type.summary = "DC-motor joint actuator (voltage in, gear n): gain ki/(R n), back-EMF + friction bias";
  type.factory = make_dc_motor_plugin;
  type.keys = {"actuators", "n", "kb", "ki", "R", "Ja", "Jm", "Ba", "Bm", "check_armature"};
  type.sensor_stage = mjSTAGE_POS;
  type.actuator_model = true;
  type.capabilities = kCapActuator;
  return type;
}

}  // namespace mjhand
