// Digital PID joint controller (eqs 24-25): sampling and hold, integral, anti-windup, derivative filter,
// quantisation, faults, configuration errors; plain class vs plugin; RK4 and mj_forward do not advance it twice.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "host/host.h"
#include "pid/pid.h"
#include "test_util.h"

using mjhand_test::attach_error;

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::run_cli;
using mjhand_test::source_path;

namespace {

// Joint "a" with torque motor "ma"; joint "b" with motor "mb". Measuring "a" while driving "mb" gives a constant
// error (the output moves another joint), which isolates the controller's arithmetic.
std::string two_joints(const std::string& pid_data, const std::string& integrator = "Euler",
                       const std::string& motor_attrs = "") {
  return R"(<mujoco><compiler angle="radian"/><option timestep="0.001" gravity="0 0 0" integrator=")" + integrator +
         R"("/><size nuserdata="40"/>
  <worldbody>
    <body name="A"><joint name="a" type="hinge" axis="0 0 1" damping="0.01"/><geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.005" contype="0" conaffinity="0" mass="0.02"/></body>
    <body name="B" pos="0 0.1 0"><joint name="b" type="hinge" axis="0 0 1" damping="0.01"/><geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.005" contype="0" conaffinity="0" mass="0.02"/></body>
  </worldbody>
  <actuator><motor name="ma" joint="a" )" + motor_attrs + R"(/><motor name="mb" joint="b" )" + motor_attrs + R"(/></actuator>
  <custom>)" + (pid_data.empty() ? "" : R"(<text name="mjhand:pid" data=")" + pid_data + R"("/>)") +
         "</custom></mujoco>";
}

mjtNum* pid_state(const Host& host, mjData* d) { return host.state(d, *host.find("pid")); }

}  // namespace

TEST_CASE("pid: output is held between samples and changes only on the sample grid", "[controllers]") {
  auto m = load_xml_string(two_joints("type=pid joints=a,b setpoint=0.4,-0.2 kp=0.05 kd=0.002 tf=0.003 period=0.005"));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  int changes = 0;
  double prev = std::nan("");
  for (int i = 0; i < 1000; ++i) {
    const double t = d->time;
    mj_step(m.get(), d.get());
    if (d->ctrl[0] != prev) {
      ++changes;
      const double k = t / 0.005;
      REQUIRE(std::abs(k - std::round(k)) < 1e-6);  // changes happen only at sample instants
    }
    prev = d->ctrl[0];
  }
  REQUIRE(changes > 150);                       // nearly every one of the 200 samples moved the output
  REQUIRE(d->qpos[0] == Approx(0.4).margin(0.02));  // and the loop works
  REQUIRE(d->qpos[1] == Approx(-0.2).margin(0.02));
}

TEST_CASE("pid: integral is eq 25's sum, RK4's four callbacks and extra mj_forward do not integrate twice",
          "[controllers]") {
  for (const std::string integ : {"Euler", "RK4"}) {
    // Error on joint a is constant 0.5 (a does not move: the output drives b).
    auto m = load_xml_string(two_joints("type=pid joints=a actuators=mb setpoint=0.5 kp=0 ki=2 period=0.004", integ));
    auto host = Host::attach(m.get());
    auto d = make_data(m.get());
    for (int i = 0; i < 100; ++i) {
      mj_step(m.get(), d.get());
      if (i % 7 == 0) mj_forward(m.get(), d.get());  // a viewer or logger calling mj_forward
    }
    // Samples at t = 0, 0.004, ..., 0.096; RK4's last stage of the final step runs at t = 0.1 and already takes
    // that instant's sample (which the next step re-takes, idempotently, from the true state): 25 or 26, never 4x.
    const int samples = integ == "RK4" ? 26 : 25;
    INFO(integ);
    REQUIRE(PidController::integral(pid_state(*host, d.get()), 0) == Approx(2 * 0.004 * 0.5 * samples).epsilon(1e-12));
    REQUIRE(d->ctrl[1] == Approx(2 * 0.004 * 0.5 * samples).epsilon(1e-12));
  }
}

TEST_CASE("pid: plain class in a user loop and the plugin give the same trajectory, bitwise", "[controllers]") {
  const std::string cfg = "type=pid joints=a,b setpoint=0.3,0.6 kp=0.05 ki=0.1 kd=0.002 tf=0.002 period=0.003 "
                          "u_min=-0.02 u_max=0.02 dac_bits=10 encoder_cpr=2000";
  auto m = load_xml_string(two_joints(cfg));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  for (int i = 0; i < 800; ++i) mj_step(m.get(), d.get());
  const std::vector<double> with_plugin(d->qpos, d->qpos + 2);
  host.reset();

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
      two_joints("type=pid joints=a actuators=mb setpoint=1 kp=0.1 ki=5 period=0.001 u_min=-0.3 u_max=0.3"));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  for (int i = 0; i < 2000; ++i) mj_step(m.get(), d.get());  // 2 s saturated: a windup would reach I = 10
  mjtNum* s = pid_state(*host, d.get());
  REQUIRE(d->ctrl[1] == 0.3);
  REQUIRE(PidController::integral(s, 0) == Approx(0.3 - 0.1 * 1).epsilon(1e-12));  // exactly the headroom
  PidController::set_setpoint(s, 0, -1);  // error reverses: the output must come off the limit at the next sample
  mj_step(m.get(), d.get());
  mj_step(m.get(), d.get());
  REQUIRE(d->ctrl[1] < 0.3);
  REQUIRE(d->ctrl[1] == Approx(-0.1 + PidController::integral(s, 0)).epsilon(1e-12));
}

TEST_CASE("pid: the derivative is kd s / (tf s + 1) discretised by backward Euler (tf = 0: eq 25)", "[controllers]") {
  const double kd = 0.01, T = 0.002, tf = 0.006;
  auto m = load_xml_string(two_joints("type=pid joints=a actuators=mb setpoint=0 kp=0 kd=0.01 tf=0.006 period=0.002"));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  mj_step(m.get(), d.get());
  REQUIRE(d->ctrl[1] == 0);  // no derivative kick on the first sample
  PidController::set_setpoint(pid_state(*host, d.get()), 0, 0.1);  // error step of 0.1
  mj_step(m.get(), d.get());
  mj_step(m.get(), d.get());  // sample at t = 0.002
  double expect = kd / (tf + T) * 0.1;
  for (int k = 0; k < 5; ++k) {
    REQUIRE(d->ctrl[1] == Approx(expect).epsilon(1e-12));
    expect *= tf / (tf + T);
    mj_step(m.get(), d.get());
    mj_step(m.get(), d.get());
  }
}

TEST_CASE("pid: D/A and encoder quantisation", "[controllers]") {
  auto m = load_xml_string(two_joints(
      "type=pid joints=a actuators=mb setpoint=0 kp=1 period=0.001 u_min=-1 u_max=1 dac_bits=3 encoder_cpr=1000"));
  auto host = Host::attach(m.get());
  const auto* plugin = host->find("pid")->plugin.get();
  REQUIRE(plugin->owned_ctrls() == std::vector<int>{1});
  auto d = make_data(m.get());
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
    REQUIRE(d->ctrl[1] == Approx(expect).margin(1e-12));
  }
}

TEST_CASE("pid: NaN/Inf in a setpoint or the state latches a fault and ctrl goes to fault_ctrl", "[controllers]") {
  auto m = load_xml_string(two_joints("type=pid joints=a,b setpoint=0.3 kp=0.05 ki=0.1 period=0.002 fault_ctrl=0"));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  for (int i = 0; i < 10; ++i) mj_step(m.get(), d.get());
  mjtNum* s = pid_state(*host, d.get());
  REQUIRE(PidController::fault(s) == PidController::kOk);
  REQUIRE(d->ctrl[0] != 0);
  PidController::set_setpoint(s, 1, std::numeric_limits<double>::quiet_NaN());
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kBadSetpoint);
  REQUIRE(d->ctrl[0] == 0);
  REQUIRE(d->ctrl[1] == 0);
  PidController::set_setpoint(s, 1, 0.3);  // sticky: a finite setpoint alone does not restart it
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kBadSetpoint);
  REQUIRE(d->ctrl[1] == 0);
  // Corrupted state (e.g. an Inf integral written by a buggy program) is caught too.
  mj_resetData(m.get(), d.get());
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  s = pid_state(*host, d.get());
  s[PidController::kHeader + 4] = std::numeric_limits<double>::infinity();  // joint 0's integral
  for (int i = 0; i < 3; ++i) mj_step(m.get(), d.get());
  REQUIRE(PidController::fault(s) == PidController::kBadState);
  REQUIRE(std::isfinite(d->ctrl[0]));
  REQUIRE(d->ctrl[0] == 0);
}

TEST_CASE("pid: invalid configurations are rejected at attach with the key named", "[controllers]") {
  auto err = [](const std::string& data) { return attach_error(two_joints(data)); };
  REQUIRE_THAT(err("type=pid joints=nope setpoint=0 kp=1 period=0.002"), Catch::Contains("nope"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=-1 period=0.002"), Catch::Contains("'kp'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=1 kd=-2 period=0.002"), Catch::Contains("'kd'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=1 period=0.0005"), Catch::Contains("below the model timestep"));
  REQUIRE_THAT(err("type=pid joints=a kp=1 period=0.002"), Catch::Contains("'setpoint'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 period=0.002"), Catch::Contains("'kp'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=1"), Catch::Contains("'period'"));
  REQUIRE_THAT(err("type=pid setpoint=0 kp=1 period=0.002"), Catch::Contains("'joints'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=1 period=0.002 dac_bits=8"), Catch::Contains("'dac_bits'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=1 period=0.002 u_min=-1"), Catch::Contains("u_max"));
  REQUIRE_THAT(err("type=pid joints=a,b setpoint=0,1,2 kp=1 period=0.002"), Catch::Contains("'setpoint'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=nan kp=1 period=0.002"), Catch::Contains("'setpoint'"));
  REQUIRE_THAT(err("type=pid joints=a actuators=ma,mb setpoint=0 kp=1 period=0.002"), Catch::Contains("'actuators'"));
  REQUIRE_THAT(err("type=pid joints=a setpoint=0 kp=1 period=0.002 kpp=3"), Catch::Contains("kpp"));
  REQUIRE(err("type=pid joints=a setpoint=0 kp=1 period=0.002").empty());
}

TEST_CASE("models/pid_finger.xml runs with mjhand run and holds its posture", "[controllers]") {
  auto m = mjhand_test::load_xml_file(source_path("models/pid_finger.xml"));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  for (int i = 0; i < 3000; ++i) mj_step(m.get(), d.get());
  REQUIRE(d->qpos[0] == Approx(0.6).margin(0.01));  // integral action removes gravity's offset
  REQUIRE(d->qpos[1] == Approx(0.5).margin(0.01));
  REQUIRE(d->qpos[2] == Approx(0.4).margin(0.01));
  host.reset();
  const std::string out = mjhand_test::fresh_temp_dir("pid_finger_run");
  const auto r = run_cli("run " + source_path("models/pid_finger.xml") + " --duration 0.5 --quiet --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
}
