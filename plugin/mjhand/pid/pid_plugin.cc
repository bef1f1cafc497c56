#include <mjhand/pid/pid_plugin.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <mjhand/pid/pid.h>
#include <mjhand/host/controller_plugin.h>
#include <mjhand/util/explicit_system.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

void resolve_joint_actuators(const mjModel* m, const Config& cfg, std::vector<int>* joints,
                             std::vector<int>* actuators, std::vector<int>* tendons) {
  const bool has_j = cfg.has("joints"), has_a = cfg.has("actuators");
  if (!has_j && !has_a) cfg.fail("joints", "missing key: give joints=... and/or actuators=...");
  auto joint_of = [m](int a) {
    const int tr = m->actuator_trntype[a];
    return (tr == mjTRN_JOINT || tr == mjTRN_JOINTINPARENT) ? m->actuator_trnid[2 * a] : -1;
  };
  if (has_a) {
    *actuators = cfg.get_objects("actuators", mjOBJ_ACTUATOR, /*allow_all=*/true);
    if (actuators->empty()) cfg.fail("actuators", "the model has no actuators");
  }
  if (has_j) {
    *joints = cfg.get_objects("joints", mjOBJ_JOINT, /*allow_all=*/false);
    if (joints->empty()) cfg.fail("joints", "no joints given");
  }
  if (tendons) tendons->clear();
  if (has_a && !has_j) {
    bool any_tendon = false;
    for (int a : *actuators) {
      const int j = joint_of(a);
      const int tr = m->actuator_trntype[a];
      if (j < 0 && tendons && tr == mjTRN_TENDON) {
        any_tendon = true;
        joints->push_back(-1);
        tendons->push_back(m->actuator_trnid[2 * a]);
        continue;
      }
      if (j < 0) {
        const char* kind = tr == mjTRN_TENDON ? "tendon" : tr == mjTRN_SITE ? "site" : tr == mjTRN_BODY ? "body"
                           : tr == mjTRN_SLIDERCRANK ? "slider-crank" : "non-joint";
        cfg.fail("actuators", "actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " has a " + kind +
                                  " transmission, which has no coordinate this controller can measure" +
                                  (tendons ? " (it measures a joint or a tendon)" : " (it measures a joint)") +
                                  ": name the measured joints with joints=...");
      }
      joints->push_back(j);
      if (tendons) tendons->push_back(-1);
    }
    if (tendons && !any_tendon) tendons->clear();
  } else if (has_j && !has_a) {
    for (int j : *joints) {
      int found = -1, count = 0;
      for (int a = 0; a < m->nu; ++a) {
        if (joint_of(a) == j) { found = a; ++count; }
      }
      if (count != 1) {
        cfg.fail("joints", "joint " + object_label(m, mjOBJ_JOINT, j) + " is driven by " + std::to_string(count) +
                               " actuators; name the one to use with actuators=...");
      }
      actuators->push_back(found);
    }
  } else if (joints->size() != actuators->size()) {
    cfg.fail("actuators", "needs one actuator per joint (" + std::to_string(joints->size()) + "), got " +
                              std::to_string(actuators->size()));
  }
  for (int j : *joints) {
    if (j < 0) continue;  // a measured tendon
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
      cfg.fail(has_j ? "joints" : "actuators",
               "joint " + object_label(m, mjOBJ_JOINT, j) + " is not a hinge or slide joint");
    }
  }
}

void output_limits(const mjModel* m, const Config& cfg, const std::vector<int>& actuators, std::vector<double>* u_min,
                   std::vector<double>* u_max) {
  const size_t n = actuators.size();
  if (cfg.has("u_min") != cfg.has("u_max")) cfg.fail(cfg.has("u_min") ? "u_min" : "u_max", "give both u_min and u_max");
  u_min->clear();
  u_max->clear();
  if (cfg.has("u_min")) {
    *u_min = cfg.get_per_joint("u_min", n, -mjMAXVAL, mjMAXVAL);
    *u_max = cfg.get_per_joint("u_max", n, -mjMAXVAL, mjMAXVAL);
    for (size_t j = 0; j < n; ++j) {
      if (!((*u_min)[j] < (*u_max)[j])) cfg.fail("u_max", "must be above u_min");
    }
    return;
  }
  for (int a : actuators) {
    const bool lim = m->actuator_ctrllimited[a];
    u_min->push_back(lim ? m->actuator_ctrlrange[2 * a] : -kInf);
    u_max->push_back(lim ? m->actuator_ctrlrange[2 * a + 1] : kInf);
  }
}

std::unique_ptr<Plugin> make_pid_plugin(const mjModel* m, const Config& cfg) {
  PidController::Options o;
  resolve_joint_actuators(m, cfg, &o.joints, &o.actuators, &o.tendons);
  const size_t n = o.joints.size();
  o.setpoint = cfg.get_per_joint("setpoint", n, -mjMAXVAL, mjMAXVAL);
  o.kp = cfg.get_per_joint("kp", n, 0, mjMAXVAL);
  o.ki = cfg.get_per_joint_or("ki", n, {0.0}, 0, mjMAXVAL);
  o.kd = cfg.get_per_joint_or("kd", n, {0.0}, 0, mjMAXVAL);
  o.period = cfg.get_double("period", 1e-9, 1e6);
  if (o.period < m->opt.timestep * (1 - 1e-9)) {
    cfg.fail("period", "sample period " + std::to_string(o.period) + " s is below the model timestep " +
                           std::to_string(m->opt.timestep) + " s");
  }
  o.tf = cfg.get_double_or("tf", 0.0, 0.0, 1e6);
  o.implicit = cfg.get_choice_or("integration", "explicit", {"explicit", "implicit"}) == "implicit";
  if (o.implicit && std::abs(o.period - m->opt.timestep) > 1e-9 * m->opt.timestep) {
    cfg.fail("integration", "implicit needs period = the model timestep (" + std::to_string(m->opt.timestep) +
                                " s), got " + std::to_string(o.period) + " s");
  }
  if (o.implicit && o.tf != 0) cfg.fail("integration", "implicit needs tf = 0 (no derivative filter)");
  o.derivative = cfg.get_choice_or("derivative", "error", {"error", "measurement"}) == "error"
                     ? PidController::Derivative::kError
                     : PidController::Derivative::kMeasurement;
  // Saturation: the keys, else the actuator's ctrlrange when it has one (so anti-windup knows the real limit).
  output_limits(m, cfg, o.actuators, &o.u_min, &o.u_max);
  o.dac_bits = cfg.get_int_or("dac_bits", 0, 0, 32);
  if (o.dac_bits > 0) {
    for (size_t j = 0; j < n; ++j) {
      if (!std::isfinite(o.u_min[j]) || !std::isfinite(o.u_max[j])) {
        cfg.fail("dac_bits", "the D/A needs an output range: give u_min and u_max (or a ctrlrange)");
      }
    }
  }
  o.encoder_cpr = cfg.get_double_or("encoder_cpr", 0.0, 0.0, 1e12);
  if (o.encoder_cpr > 0 && o.encoder_cpr < 1) cfg.fail("encoder_cpr", "must be 0 (off) or at least 1");
  o.fault_ctrl = cfg.get_double_or("fault_ctrl", 0.0);
  // Explicit force gains on the instance's own actuators: refused where MuJoCo's step diverges (light links).
  // Checked for the step h (a period T > h holds the force longer and lowers the limit further: not checked); an
  // output into a dc_motor/coil_actuator (volts, amperes) passes through the actuator model and is not checked.
  if (!cfg.sizing() && cfg.native()) {
    std::vector<ExplicitPd> loops;
    for (size_t j = 0; j < n; ++j) {
      const int a = o.actuators[j];
      if (m->actuator_plugin[a] != cfg.native_instance()) continue;
      const int tendon = o.tendons.empty() ? -1 : o.tendons[j];
      ExplicitPd loop = actuator_pd(m, a, o.joints[j], tendon, o.kp[j], o.kd[j],
                                    "actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " on " +
                                        (tendon >= 0 ? "tendon " + object_label(m, mjOBJ_TENDON, tendon)
                                                     : "joint " + object_label(m, mjOBJ_JOINT, o.joints[j])));
      if (o.implicit) {  // the backward-Euler output is a PD with these gains at qpos0 (util/implicit_pd.h)
        const double h = m->opt.timestep, c = o.kd[j] + h * o.kp[j];
        const double w = actuator_loop_inverse_inertia_qpos0(m, a, tendon >= 0 ? -1 : o.joints[j], tendon);
        loop.kp = o.kp[j] / (1 + h * c * w);
        loop.kd = c / (1 + h * c * w);
        loop.label += " (integration=implicit: its effective gains)";
      }
      loops.push_back(std::move(loop));
    }
    // Sampled at t and t + h, held between (RK4's middle stages), D from the sampled difference (eq 25).
    const std::string problem = explicit_loops_problem(
        m, loops, ForceTiming::kPidSamples, "(force per unit)", "(force s per unit)",
        o.implicit ? "shorten the timestep or use another integrator than RK4"
                   : "use integration=implicit (period = timestep, tf = 0), add armature or joint damping, or shorten "
                     "the timestep");
    if (!problem.empty()) cfg.fail(o.implicit ? "kp" : blamed_gain(m, loops, ForceTiming::kPidSamples, "kp", "kd"), problem);
  }
  return std::make_unique<ControllerPlugin<PidController>>(std::move(o));
}

PluginType pid_plugin_type() {
  PluginType type;
  type.name = "pid";
  type.summary = "digital PID joint controller: own sample period, zero-order hold, anti-windup, D/A + encoder";
  type.factory = make_pid_plugin;
  type.keys = {"joints", "actuators", "setpoint", "kp", "ki", "kd", "period", "tf", "derivative", "u_min", "u_max",
               "dac_bits", "encoder_cpr", "fault_ctrl", "integration"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
