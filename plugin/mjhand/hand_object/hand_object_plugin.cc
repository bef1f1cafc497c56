// The hand_object plugin type: reads and validates the MJCF keys of an instance and builds a HandObjectController.
#include <cmath>
#include <string>
#include <vector>

#include <mjhand/hand_object/hand_object_plugin.h>

#include <mjhand/hand_object/hand_object.h>
#include <mjhand/host/controller_plugin.h>

namespace mjhand {

// ---- plugin -----------------------------------------------------------------------------------------------------

namespace {

std::string dof_label(const mjModel* m, int v) { return object_label(m, mjOBJ_JOINT, m->dof_jntid[v]); }

// 1 or 3 values of `key` (fallback when absent).
Eigen::Vector3d three(const Config& cfg, const std::string& key, double fallback, double lo, double hi) {
  std::vector<double> v = cfg.has(key) ? cfg.get_doubles(key) : std::vector<double>{fallback};
  if (v.size() == 1) v.assign(3, v[0]);
  if (v.size() != 3) cfg.fail(key, "needs 1 or 3 values (x, y, z), got " + std::to_string(v.size()));
  for (double x : v) {
    if (x < lo || x > hi) {
      cfg.fail(key, "value " + format_value(x) + " must lie in [" + format_value(lo) + ", " + format_value(hi) + "]");
    }
  }
  return Eigen::Vector3d(v[0], v[1], v[2]);
}

}  // namespace

std::unique_ptr<Plugin> make_hand_object_plugin(const mjModel* m, const Config& cfg) {
  const int object = cfg.get_object("object", mjOBJ_BODY);
  if (!(m->body_jntnum[object] == 1 && m->jnt_type[m->body_jntadr[object]] == mjJNT_FREE)) {
    cfg.fail("object", "body " + object_label(m, mjOBJ_BODY, object) +
                           " has no free joint: the controlled object must be a free body (<freejoint/>)");
  }
  if (cfg.has("palm") == cfg.has("fingers")) {
    cfg.fail("palm", "give either palm (every child body is a finger) or fingers (the finger root bodies)");
  }
  HandObjectController::Options o;
  const std::string hand_key = cfg.has("palm") ? "palm" : "fingers";
  try {
    if (cfg.has("palm")) {
      o.hand = hand_from_palm(m, object, cfg.get_object("palm", mjOBJ_BODY));
    } else {
      o.hand = hand_from_finger_roots(m, object, cfg.get_objects("fingers", mjOBJ_BODY));
    }
  } catch (const GraspError& e) {
    cfg.fail(hand_key, e.what());
  }
  if (o.hand.num_hand_dofs() == 0) cfg.fail(hand_key, "the fingers have no joints");
  if (o.hand.num_fingers() > 31) cfg.fail(hand_key, "at most 31 fingers");
  for (int v : o.hand.dofs) {
    const int t = m->jnt_type[m->dof_jntid[v]];
    if (t != mjJNT_HINGE && t != mjJNT_SLIDE) {
      cfg.fail(hand_key, "hand joint " + dof_label(m, v) + " is not a hinge or slide joint");
    }
    const int a = hand_motor_actuator(m, v);
    const std::string joint = "hand joint " + dof_label(m, v);
    if (a == kHoNoActuator) {  // the native form: the torque actuators are the instance's own plugin actuators
      const char* jn = mj_id2name(m, mjOBJ_JOINT, m->dof_jntid[v]);
      cfg.fail(hand_key, joint + " has no actuator; add <actuator><plugin joint=\"" + (jn ? jn : "NAME") +
                             "\" instance=\"" + cfg.instance() + "\"/>");
    }
    if (a == kHoTwoActuators) cfg.fail(hand_key, joint + " is driven by more than one actuator");
    if (a == kHoNotAMotor) {
      cfg.fail(hand_key, "the actuator on hand joint " + dof_label(m, v) +
                             " is not a motor (fixed gain, no bias, no dynamics): the controller outputs torques");
    }
    o.actuators.push_back(a);
  }
  if (cfg.has("tips")) {
    o.tips = cfg.get_objects("tips", mjOBJ_SITE);
    if (static_cast<int>(o.tips.size()) != o.hand.num_fingers()) {
      cfg.fail("tips", "needs one site per finger (" + std::to_string(o.hand.num_fingers()) + "), got " +
                           std::to_string(o.tips.size()));
    }
    for (int f = 0; f < o.hand.num_fingers(); ++f) {
      if (o.hand.finger_of_body[m->site_bodyid[o.tips[f]]] != f) {
        cfg.fail("tips", "site " + object_label(m, mjOBJ_SITE, o.tips[f]) + " is not on finger '" +
                             o.hand.finger_names[f] + "' (sites must follow the finger order)");
      }
    }
  }
  constexpr double kBig = 1e9;
  o.kp = cfg.get_double_or("kp", o.kp, 0, kBig);
  o.ki = cfg.get_double_or("ki", o.ki, 0, kBig);
  o.kd = cfg.get_double_or("kd", o.kd, 0, kBig);
  o.kp_rot = cfg.get_double_or("kp_rot", o.kp_rot, 0, kBig);
  o.ki_rot = cfg.get_double_or("ki_rot", o.ki_rot, 0, kBig);
  o.kd_rot = cfg.get_double_or("kd_rot", o.kd_rot, 0, kBig);
  o.integral_limit = cfg.get_double_or("integral_limit", o.integral_limit, 0, kBig);
  o.integral_limit_rot = cfg.get_double_or("integral_limit_rot", o.integral_limit_rot, 0, kBig);
  o.forces.min_normal_force = cfg.get_double_or("min_normal_force", o.forces.min_normal_force, 0, 1e6);
  o.forces.friction_scale = cfg.get_double_or("friction_scale", o.forces.friction_scale, 1e-3, 1.0);
  o.lp_fallback = cfg.get_bool_or("lp_fallback", o.lp_fallback);
  o.approach_force = cfg.get_double_or("approach_force", o.approach_force, 0, 1e6);
  o.compensate_passive = cfg.get_bool_or("compensate_passive", o.compensate_passive);
  o.finger_acceleration = cfg.get_bool_or("finger_acceleration", o.finger_acceleration);
  if (cfg.has("center")) {
    o.fixed_center = true;
    o.center = three(cfg, "center", 0, -1e6, 1e6);
  }
  const std::string kind = cfg.get_choice_or("trajectory", "hold", {"hold", "sinusoid"});
  if (kind == "sinusoid") {
    const double deg = M_PI / 180;
    SinusoidMotion s;
    s.amplitude = three(cfg, "amplitude", 0, -10, 10);
    s.frequency = cfg.get_double("frequency", 0, 1e3);
    s.phase = three(cfg, "phase_deg", 0, -3600, 3600) * deg;
    s.rot_axis = three(cfg, "rot_axis", 0, -1e6, 1e6);
    if (!cfg.has("rot_axis")) s.rot_axis = Eigen::Vector3d::UnitZ();
    s.rot_amplitude = cfg.get_double_or("rot_amplitude_deg", 0, -180, 180) * deg;
    s.rot_phase = cfg.get_double_or("rot_phase_deg", 0, -3600, 3600) * deg;
    s.start = cfg.get_double_or("start", 0, 0, 1e9);
    s.ramp = cfg.get_double_or("ramp", 0, 0, 1e9);
    if (s.rot_amplitude != 0 && s.rot_axis.norm() < 1e-12) cfg.fail("rot_axis", "must not be the zero vector");
    if ((s.amplitude.norm() > 0 || s.rot_amplitude != 0) && s.frequency == 0) {
      cfg.fail("frequency", "must be > 0 when an amplitude is non-zero");
    }
    try {
      o.trajectory = ObjectTrajectory(s);
    } catch (const std::invalid_argument& e) {
      cfg.fail("trajectory", e.what());
    }
  } else {
    for (const char* key : {"amplitude", "frequency", "phase_deg", "rot_axis", "rot_amplitude_deg", "rot_phase_deg",
                            "ramp", "start"}) {
      if (cfg.has(key)) cfg.fail(key, "only used with trajectory=sinusoid");
    }
  }
  try {
    return std::make_unique<ControllerPlugin<HandObjectController>>(m, std::move(o));
  } catch (const std::invalid_argument& e) {
    cfg.fail(e.what());
  }
}

PluginType hand_object_plugin_type() {
  PluginType type;
  type.name = "hand_object";
  type.summary = "grasped-object pose control: Cartesian PID, G^+ W + squeeze";
  type.factory = make_hand_object_plugin;
  type.keys = {"object", "fingers", "tips", "palm", "trajectory", "start", "center", "amplitude", "frequency",
               "phase_deg", "rot_axis", "rot_amplitude_deg", "rot_phase_deg", "ramp", "kp", "kd", "ki", "kp_rot",
               "kd_rot", "ki_rot", "integral_limit", "integral_limit_rot", "approach_force", "min_normal_force",
               "friction_scale", "finger_acceleration", "compensate_passive", "lp_fallback"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
