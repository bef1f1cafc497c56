#include <mjhand/torque_control/torque_control_plugin.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/torque_control/torque_control.h>
#include <mjhand/pid/pid.h>
#include <mjhand/pid/pid_plugin.h>
#include <mjhand/host/controller_plugin.h>

namespace mjhand {

std::unique_ptr<Plugin> make_torque_control_plugin(const mjModel* m, const Config& cfg) {
  TorqueController::Options o;
  o.sensor_joints = cfg.get_objects("sensor_joints", mjOBJ_JOINT);
  if (o.sensor_joints.empty()) cfg.fail("sensor_joints", "no joints given");
  o.actuators = cfg.get_objects("actuators", mjOBJ_ACTUATOR);
  const size_t n = o.sensor_joints.size();
  if (o.actuators.size() != n) {
    cfg.fail("actuators", "needs one actuator per sensor joint (" + std::to_string(n) + "), got " +
                              std::to_string(o.actuators.size()));
  }
  // k_theta from the sensor geometry (eqs 31-32), or given directly; not both.
  const bool geometry = cfg.has("alpha_deg") || cfg.has("beta_deg") || cfg.has("chi");
  if (geometry && cfg.has("k_theta")) cfg.fail("k_theta", "give either k_theta or alpha_deg, beta_deg and chi");
  if (geometry) {
    const double a = cfg.get_double("alpha_deg", -180, 180) * mjPI / 180;
    const double b = cfg.get_double("beta_deg", -180, 180) * mjPI / 180;
    const double chi = cfg.get_double("chi", 1e-12, 1e12);
    const double k = sensor_stiffness(a, b, chi);
    if (!std::isfinite(k)) {
      cfg.fail("alpha_deg", "eqs 31-32 give no positive finite stiffness for alpha_deg=" + format_value(a * 180 / mjPI) +
                                ", beta_deg=" + format_value(b * 180 / mjPI));
    }
    o.k_theta.assign(n, k);
  } else {
    o.k_theta = cfg.get_per_joint("k_theta", n, 1e-12, 1e12);
  }
  for (size_t j = 0; j < n; ++j) {
    const int jn = o.sensor_joints[j];
    if (m->jnt_type[jn] != mjJNT_HINGE && m->jnt_type[jn] != mjJNT_SLIDE) {
      cfg.fail("sensor_joints", "joint " + object_label(m, mjOBJ_JOINT, jn) + " is not a hinge or slide joint");
    }
    // MuJoCo applies the sensor's elasticity through the joint stiffness, so it must be the sensor's k_theta.
    const double k = m->jnt_stiffness[jn];
    if (std::abs(k - o.k_theta[j]) > 1e-6 * o.k_theta[j]) {
      cfg.fail("sensor_joints", "joint " + object_label(m, mjOBJ_JOINT, jn) + " has stiffness " + format_value(k) +
                                    "; the torque sensor's k_theta is " + format_value(o.k_theta[j]) + ": set stiffness=\"" +
                                    format_value(o.k_theta[j]) + "\"");
    }
  }
  o.kps = cfg.get_per_joint("kps", n, 0, mjMAXVAL);
  o.torque_ref = cfg.get_per_joint("torque_ref", n, -mjMAXVAL, mjMAXVAL);
  output_limits(m, cfg, o.actuators, &o.u_min, &o.u_max);
  o.fault_ctrl = cfg.get_double_or("fault_ctrl", 0.0);
  return std::make_unique<ControllerPlugin<TorqueController>>(std::move(o));
}

PluginType torque_control_plugin_type() {
  PluginType type;
  type.name = "torque_control";
  type.summary = "joint torque control tau_a = k_ps (tau_r - tau_f) with a compliant torque sensor";
  type.factory = make_torque_control_plugin;
  type.keys = {"actuators", "sensor_joints", "torque_ref", "kps", "k_theta", "chi", "alpha_deg", "beta_deg",
               "fault_ctrl"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
