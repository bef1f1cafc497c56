// Digital PID joint controller (eqs 24-25): sampling and hold, integral, anti-windup, derivative filter,
// quantisation, faults, configuration errors; plain class vs plugin; RK4 and mj_forward do not advance it twice.
// The plugin is native: its output is the force of the actuators bound to it (what it used to write into a motor's
// ctrl), so the checks read d->actuator_force after mj_step (the force used during that step).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <mjhand/native/native_plugins.h>
#include <mjhand/pid/pid.h>
#include "test_util.h"

using mjhand_test::attach_error;

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {

// Joint "a" with actuator "ma"; joint "b" with "mb". The actuators listed in `bound` belong to the pid instance
// (every one must be named by its configuration); the others are plain motors left at ctrl 0. Measuring "a" while
// driving "mb" gives a constant error (the output moves another joint), which isolates the controller's arithmetic.
// An empty `pid` gives the plugin-free twin (both motors), driven by the plain class.
std::string two_joints(const std::string& pid, const std::string& integrator = "Euler",
                       const std::string& bound = "ma,mb") {
  auto actuator = [&](const std::string& name, const std::string& joint) {
    const bool own = !pid.empty() && ("," + bound + ",").find("," + name + ",") != std::string::npos;
    return (own ? R"(<plugin name=")" : R"(<motor name=")") + name + R"(" joint=")" + joint +
           (own ? R"(" instance="pid"/>)" : R"("/>)");
  };
  const std::string extension =
      R"(<extension><plugin plugin="mjhand.pid"><instance name="pid"></instance></plugin></extension>)";
  const std::string xml =
      "<mujoco>" + (pid.empty() ? std::string() : extension) +
      R"(<compiler angle="radian"/><option timestep="0.001" gravity="0 0 0" integrator=")" + integrator + R"("/>
  <worldbody>
    <body name="A"><joint name="a" type="hinge" axis="0 0 1" damping="0.01"/><geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.005" contype="0" conaffinity="0" mass="0.02"/></body>
    <body name="B" pos="0 0.1 0"><joint name="b" type="hinge" axis="0 0 1" damping="0.01"/><geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.005" contype="0" conaffinity="0" mass="0.02"/></body>
  </worldbody>
  <actuator>)" + actuator("ma", "a") + actuator("mb", "b") + "</actuator></mujoco>";
  return pid.empty() ? xml : mjhand_test::with_instance(xml, "pid", pid);
}

int pid_id(const mjModel* m) { return mj_name2id(m, mjOBJ_PLUGIN, "pid"); }
mjtNum* pid_state(const mjModel* m, mjData* d) { return native_state(m, d, pid_id(m)); }

}  // namespace

TEST_CASE("pid: output is held between samples and changes only on the sample grid", "[controllers]") {
  auto m = load_xml_string(two_joints("joints=a,b setpoint=0.4,-0.2 kp=0.05 kd=0.002 tf=0.003 period=0.005"));
  auto d = make_data(m.get());
  int changes = 0;
  double prev = std::nan("");
  for (int i = 0; i < 1000; ++i) {
    const double t = d->time;
    mj_step(m.get(), d.get());
    if (d->actuator_force[0] != prev) {
      ++changes;
      const double k = t / 0.005;
      // t summed in 1-ms steps rounds to ~1e-13 (k to ~2e-11); an off-grid change would sit 0.2 periods away
      REQUIRE(std::abs(k - std::round(k)) < 1e-6);  // changes happen only at sample instants
    }
    prev = d->actuator_force[0];
  }
  REQUIRE(changes > 150);                       // nearly every one of the 200 samples moved the output
  // no gravity or load: the PD is overdamped (damping 0.01 + kd 0.002 against kp 0.05 on ~1.7e-5 kg m^2), slow pole
  // ~kp / c = 4 /s: ~e^-4 of the 0.4-rad step (0.007 rad) is left after 1 s (measured 0.006 rad)
  REQUIRE(d->qpos[0] == Approx(0.4).margin(0.02));  // and the loop works
  REQUIRE(d->qpos[1] == Approx(-0.2).margin(0.02));
}

TEST_CASE("pid: integral is eq 25's sum, RK4's four stages and extra mj_forward do not integrate twice",
          "[controllers]") {
  for (const std::string integ : {"Euler", "RK4"}) {
    // Error on joint a is constant 0.5 (a does not move: the output drives b).
    auto m = load_xml_string(two_joints("joints=a actuators=mb setpoint=0.5 kp=0 ki=2 period=0.004", integ, "mb"));
    auto d = make_data(m.get());
    for (int i = 0; i < 100; ++i) {
      mj_step(m.get(), d.get());
      if (i % 7 == 0) mj_forward(m.get(), d.get());  // a viewer or logger calling mj_forward
    }
    // Samples at t = 0, 0.004, ..., 0.096; RK4's last stage of the final step runs at t = 0.1 and already takes
    // that instant's sample (which the next step re-takes, idempotently, from the true state): 25 or 26, never 4x.
    const int samples = integ == "RK4" ? 26 : 25;
    INFO(integ);
    // 25 (26) equal additions of ki T e = 0.004: rounding
    REQUIRE(PidController::integral(pid_state(m.get(), d.get()), 0) ==
            Approx(2 * 0.004 * 0.5 * samples).epsilon(1e-12));
    REQUIRE(d->actuator_force[1] == Approx(2 * 0.004 * 0.5 * samples).epsilon(1e-12));
  }
}

TEST_CASE("pid: plain class in a user loop and the plugin give the same trajectory, bitwise", "[controllers]") {
  const std::string cfg = "joints=a,b setpoint=0.3,0.6 kp=0.05 ki=0.1 kd=0.002 tf=0.002 period=0.003 "
                          "u_min=-0.02 u_max=0.02 dac_bits=10 encoder_cpr=2000";
  auto m = load_xml_string(two_joints(cfg));
  auto d = make_data(m.get());
  for (int i = 0; i < 800; ++i) mj_step(m.get(), d.get());
  const std::vector<double> with_plugin(d->qpos, d->qpos + 2);

  // The plain class writes the ctrl of the plugin-free twin's motors (gain 1, gear 1): the same joint torques.
  auto m2 = load_xml_string(two_joints(""));
  PidController::Options o;
  o.joints = {0, 1};
  o.actuators = {0, 1};
  o.setpoint = {0.3, 0.6};
  o.kp = {0.05, 0.05};
  o.ki = {0.1, 0.1};
  o.kd = {0.002, 0.002};
  o.tf = 0.002;
  o.period = 0.003;
  o.u_min = {-0.02, -0.02};
  o.u_max = {0.02, 0.02};
  o.dac_bits = 10;
  o.encoder_cpr = 2000;
  PidController pid(o);
  auto d2 = make_data(m2.get());
  std::vector<mjtNum> state(pid.nstate());
  pid.reset(m2.get(), d2.get(), state.data());
  for (int i = 0; i < 800; ++i) {
    pid.compute(m2.get(), d2.get(), state.data());
    mj_step(m2.get(), d2.get());
  }
  REQUIRE(d2->qpos[0] == with_plugin[0]);
  REQUIRE(d2->qpos[1] == with_plugin[1]);
  REQUIRE(with_plugin[1] > 0.45);  // the saturated, quantised loop is on its way (torque limited to 0.02)
}

TEST_CASE("pid: anti-windup stops integrating into saturation and leaves it at once when the error reverses",
          "[controllers]") {
  auto m = load_xml_string(
      two_joints("joints=a actuators=mb setpoint=1 kp=0.1 ki=5 period=0.001 u_min=-0.3 u_max=0.3", "Euler", "mb"));
  auto d = make_data(m.get());
  for (int i = 0; i < 2000; ++i) mj_step(m.get(), d.get());  // 2 s saturated: a windup would reach I = 10
  mjtNum* s = pid_state(m.get(), d.get());
  REQUIRE(d->actuator_force[1] == 0.3);
  // the clamp's arithmetic: rounding
  REQUIRE(PidController::integral(s, 0) == Approx(0.3 - 0.1 * 1).epsilon(1e-12));  // exactly the headroom
  PidController::set_setpoint(s, 0, -1);  // error reverses: the output must come off the limit at the next sample
  mj_step(m.get(), d.get());
  mj_step(m.get(), d.get());
  REQUIRE(d->actuator_force[1] < 0.3);
  REQUIRE(d->actuator_force[1] == Approx(-0.1 + PidController::integral(s, 0)).epsilon(1e-12));
}

TEST_CASE("pid: the derivative is kd s / (tf s + 1) discretised by backward Euler (tf = 0: eq 25)", "[controllers]") {
  const double kd = 0.01, T = 0.002, tf = 0.006;
  auto m = load_xml_string(
      two_joints("joints=a actuators=mb setpoint=0 kp=0 kd=0.01 tf=0.006 period=0.002", "Euler", "mb"));
  auto d = make_data(m.get());
  mj_step(m.get(), d.get());
  REQUIRE(d->actuator_force[1] == 0);  // no derivative kick on the first sample
  PidController::set_setpoint(pid_state(m.get(), d.get()), 0, 0.1);  // error step of 0.1
  mj_step(m.get(), d.get());
  mj_step(m.get(), d.get());  // sample at t = 0.002
  double expect = kd / (tf + T) * 0.1;
  for (int k = 0; k < 5; ++k) {
    // kd/(tf + T) e (tf/(tf + T))^k: rounding of a few products
    REQUIRE(d->actuator_force[1] == Approx(expect).epsilon(1e-12));
    expect *= tf / (tf + T);
    mj_step(m.get(), d.get());
    mj_step(m.get(), d.get());
  }
}

TEST_CASE("pid: D/A and encoder quantisation", "[controllers]") {
  auto m = load_xml_string(two_joints(
      "joints=a actuators=mb setpoint=0 kp=1 period=0.001 u_min=-1 u_max=1 dac_bits=3 encoder_cpr=1000", "Euler",
      "mb"));
  auto d = make_data(m.get());
  const Plugin* plugin = native_plugin(m.get(), d.get(), pid_id(m.get()));
  REQUIRE(plugin != nullptr);
  REQUIRE(plugin->owned_ctrls() == std::vector<int>{1});
  const double count = 2 * mjPI / 1000;
  const double lsb = 2.0 / 7;  // 3 bits: 8 codes over [-1, 1]
  for (double q : {0.0031, 0.0032, -0.45 * count, 0.3, -0.2, 0.9}) {
    mj_resetData(m.get(), d.get());
    d->qpos[0] = q;
    mj_step(m.get(), d.get());
    const double measured = count * std::round(q / count);
    const double u = std::clamp(-measured, -1.0, 1.0);
    const double expect = -1 + lsb * std::round((u + 1) / lsb);
    INFO("q = " << q);
    // the 3-bit D/A and 1000-count encoder arithmetic repeated: rounding
    REQUIRE(d->actuator_force[1] == Approx(expect).margin(1e-12));
  }
}

TEST_CASE("pid: NaN/Inf in a setpoint or the state latches a fault and the output goes to fault_ctrl",
          "[controllers]") {
  auto m = load_xml_string(two_joints("joints=a,b setpoint=0.3 kp=0.05 ki=0.1 period=0.002 fault_ctrl=0"));
  auto d = make_data(m.get());
  for (int i = 0; i < 10; ++i) mj_step(m.get(), d.get());
  mjtNum* s = pid_state(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kOk);
  REQUIRE(d->actuator_force[0] != 0);
  PidController::set_setpoint(s, 1, std::numeric_limits<double>::quiet_NaN());
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kBadSetpoint);
  REQUIRE(d->actuator_force[0] == 0);
  REQUIRE(d->actuator_force[1] == 0);
  PidController::set_setpoint(s, 1, 0.3);  // sticky: a finite setpoint alone does not restart it
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kBadSetpoint);
  REQUIRE(d->actuator_force[1] == 0);
  // Corrupted state (e.g. an Inf integral written by a buggy program) is caught too.
  mj_resetData(m.get(), d.get());
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  s = pid_state(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kOk);  // the reset re-initialised the state from d
  s[PidController::kHeader + 4] = std::numeric_limits<double>::infinity();  // joint 0's integral
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kBadState);
  REQUIRE(std::isfinite(d->actuator_force[0]));
  REQUIRE(d->actuator_force[0] == 0);
  // The controller's own fault path gave fault_ctrl, a finite value: nothing for the native guard to replace.
  REQUIRE(native_faults(m.get(), d.get()).count == 0);
}

TEST_CASE("pid: invalid configurations are rejected at load with the key named", "[controllers]") {
  // Joint a's actuator ma is the instance's own unless the case binds others.
  auto err = [](const std::string& data, const std::string& bound = "ma") {
    return attach_error(two_joints(data, "Euler", bound));
  };
  REQUIRE_THAT(err("joints=nope setpoint=0 kp=1 period=0.002"), Catch::Contains("nope"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=-1 period=0.002"), Catch::Contains("'kp'"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1 kd=-2 period=0.002"), Catch::Contains("'kd'"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1 period=0.0005"), Catch::Contains("below the model timestep"));
  REQUIRE_THAT(err("joints=a kp=1 period=0.002"), Catch::Contains("'setpoint'"));
  REQUIRE_THAT(err("joints=a setpoint=0 period=0.002"), Catch::Contains("'kp'"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1"), Catch::Contains("'period'"));
  REQUIRE_THAT(err("setpoint=0 kp=1 period=0.002"), Catch::Contains("'joints'"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1 period=0.002 dac_bits=8"), Catch::Contains("'dac_bits'"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1 period=0.002 u_min=-1"), Catch::Contains("u_max"));
  REQUIRE_THAT(err("joints=a,b setpoint=0,1,2 kp=1 period=0.002", "ma,mb"), Catch::Contains("'setpoint'"));
  REQUIRE_THAT(err("joints=a setpoint=nan kp=1 period=0.002"), Catch::Contains("'setpoint'"));
  REQUIRE_THAT(err("joints=a actuators=ma,mb setpoint=0 kp=1 period=0.002", "ma,mb"), Catch::Contains("'actuators'"));
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1 period=0.002 kpp=3"), Catch::Contains("kpp"));
  // Native binding: an actuator bound to the instance that its configuration does not name would give no force.
  REQUIRE_THAT(err("joints=a setpoint=0 kp=1 period=0.002", "ma,mb"), Catch::Contains("mb") &&
                                                                          Catch::Contains("does not name it"));
  REQUIRE(err("joints=a setpoint=0 kp=1 period=0.002").empty());
}

namespace {

// models/real/shadow_hand.xml with its first-finger J0 = J1 + J2 tendon servo replaced by an actuator of a pid
// instance configured by `cfg` (the same tendon transmission, no joint named anywhere).
std::string shadow_with_tendon_pid(const std::string& cfg) {
  std::string xml = mjhand_test::read_all(source_path("models/real/shadow_hand.xml"));
  const std::string servo = R"(<position name="rh_A_FFJ0" tendon="rh_FFJ0" class="middle_distal"/>)";
  const size_t at = xml.find(servo);
  if (at == std::string::npos) throw std::runtime_error("shadow_hand.xml: no " + servo);
  xml.replace(at, servo.size(), R"(<plugin name="rh_A_FFJ0" tendon="rh_FFJ0" instance="pid"/>)");
  const size_t root = xml.find('>', xml.find("<mujoco")) + 1;
  xml.insert(root, R"(<extension><plugin plugin="mjhand.pid"><instance name="pid"></instance></plugin></extension>)");
  return mjhand_test::with_instance(xml, "pid", cfg);
}

}  // namespace

TEST_CASE("pid: an actuator on a tendon needs no joints=: it tracks the tendon length (Shadow J0 = J1 + J2)",
          "[controllers]") {
  // Gains well inside the explicit stability limit of the coupled distal pair (h^2 kp / I + 2 h kd / I < 4 with
  // I >= the tendon's ~4e-4 kg m^2 of armature alone: kp < 400, kd < 0.4 at h = 2 ms).
  const double kp = 0.5, ki = 2.0, kd = 0.005, r = 1.2, T = 0.002;
  auto m = load_xml_string(shadow_with_tendon_pid("actuators=rh_A_FFJ0 setpoint=1.2 kp=0.5 ki=2 kd=0.005 "
                                                  "period=0.002"));
  auto d = make_data(m.get());
  const int a = mj_name2id(m.get(), mjOBJ_ACTUATOR, "rh_A_FFJ0");
  const int t = mj_name2id(m.get(), mjOBJ_TENDON, "rh_FFJ0");
  const int j1 = m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT, "rh_FFJ1")];
  const int j2 = m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT, "rh_FFJ2")];
  REQUIRE(m->actuator_trntype[a] == mjTRN_TENDON);
  // The control law recomputed here from mjData: e_k = r - ten_length at the step's start (what mj_step leaves in
  // d->ten_length), I_k = I_{k-1} + ki T e_k (eq 25), D_k = kd (e_k - e_{k-1}) / T, no kick on the first sample.
  double integral = 0, e_prev = 0, worst_law = 0;
  for (int k = 0; k < 1500; ++k) {
    mj_step(m.get(), d.get());
    const double e = r - d->ten_length[t];
    integral += ki * T * e;
    const double u = kp * e + integral + (k == 0 ? 0.0 : kd * (e - e_prev) / T);
    e_prev = e;
    worst_law = std::max(worst_law, std::abs(d->actuator_force[a] - u));
  }
  // the same sums in the same order (measured 0); 1e-12 leaves room for FMA contraction of ~0.6 N m terms
  REQUIRE(worst_law < 1e-12);
  mj_forward(m.get(), d.get());
  // MuJoCo's tendon length is J1 + J2 (the fixed tendon's coefficients): rounding
  REQUIRE(d->ten_length[t] == Approx(d->qpos[j1] + d->qpos[j2]).margin(1e-12));
  // After 3 s the integral has removed gravity's offset: measured error 2.5e-4 rad; 1e-3 rad is 4x that and
  // below the 4.8e-3 rad a P-only loop would leave (the held force, 2.4e-3 N m against gravity, over kp = 0.5).
  REQUIRE(d->ten_length[t] == Approx(r).margin(1e-3));
  REQUIRE(d->actuator_length[a] == Approx(d->ten_length[t]).margin(1e-12));  // gear 1: the transmission length
}

TEST_CASE("pid: an actuator with a site transmission is refused by name (nothing to measure)", "[controllers]") {
  const std::string xml = R"(<mujoco><extension><plugin plugin="mjhand.pid"><instance name="pid"></instance></plugin></extension>
  <worldbody><body name="A"><joint name="a" type="hinge" axis="0 0 1"/><geom type="sphere" size="0.01" mass="0.02"/>
  <site name="s" pos="0.01 0 0"/></body></worldbody>
  <actuator><plugin name="push" site="s" gear="1 0 0 0 0 0" instance="pid"/></actuator></mujoco>)";
  const std::string err =
      attach_error(mjhand_test::with_instance(xml, "pid", "actuators=push setpoint=0 kp=1 period=0.002"));
  REQUIRE_THAT(err, Catch::Contains("push") && Catch::Contains("site transmission") && Catch::Contains("joints="));
}
