// mjhand's plugin types as MuJoCo runs them: a user-registered type with every capability a native plugin may have,
// state in mjData across threads, copies and resets, two models side by side, the registry's rules, malformed
// configurations, the on/off switch. (The built-in types have their own files; tests/plugin/native/test_native.cc the adapter.)
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <mjhand/host/registry.h>
#include <mjhand/native/instances.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;

namespace {

// A test type with every capability but control: a position-stage sensor writing time and an integrator of the
// state, an actuator model whose bias depends on that state (a spring plus an offset), a passive damper, and an
// end-of-step advance that sums the times it sees into the state (shown as the sensor's third value). A state
// mix-up between mjData, copies or models changes the physics and shows.
class ProbePlugin : public Plugin {
 public:
  ProbePlugin(int sensor, int actuator, double k) : sensor_(sensor), k_(k) {
    claim_sensor(sensor);
    claim_actuator(actuator);
  }
  int capabilities() const override { return kCapPassive | kCapSensor | kCapActuator | kCapAdvance; }
  int nstate() const override { return 3; }
  void reset(const mjModel*, const mjData* d, mjtNum* s) const override {
    s[0] = d->time;
    s[1] = 0.25;
  }
  void passive(const mjModel*, mjData* d, mjtNum*) const override { d->qfrc_passive[0] -= 0.01 * d->qvel[0]; }
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum* s) const override {
    if (stage != mjSTAGE_POS) return;
    if (d->time > s[0]) {  // time-triggered: repeated calls at one time do not integrate twice
      s[1] += (d->time - s[0]) * std::sin(d->qpos[0] * 3 + d->qvel[1]);
      s[0] = d->time;
    }
    d->sensordata[m->sensor_adr[sensor_]] = d->time;
    d->sensordata[m->sensor_adr[sensor_] + 1] = s[1];
    d->sensordata[m->sensor_adr[sensor_] + 2] = s[2];
  }
  // Not time-triggered on purpose: a second call per step, or one from mj_forward, would show in the sum.
  void advance(const mjModel* m, mjData* d, mjtNum* s) const override {
    s[2] += d->time;
    d->sensordata[m->sensor_adr[sensor_] + 2] = s[2];
  }
  int sensor_width(int id) const override { return id == sensor_ ? 3 : 0; }
  mjtNum actuator_gain(const mjModel*, const mjData*, int, const mjtNum*) const override { return 0.02; }
  mjtNum actuator_bias(const mjModel*, const mjData* d, int, const mjtNum* s) const override {
    return -k_ * d->qpos[1] + 0.01 * s[1];
  }

 private:
  int sensor_;  // the actuator is only claimed: its gain and bias do not depend on which one it is
  double k_;
};

void register_probe_once() {
  static bool done = [] {
    register_plugin_type(
        "test_probe", "test plugin with every native capability",
        [](const mjModel*, const Config& cfg) {
          const int s = cfg.get_object("sensor", mjOBJ_SENSOR);
          const int a = cfg.get_object("actuator", mjOBJ_ACTUATOR);
          const double k = cfg.get_double_or("k", 0.1, 0, 100);
          return std::unique_ptr<Plugin>(new ProbePlugin(s, a, k));
        },
        {"sensor", "actuator", "k"}, mjSTAGE_POS);
    register_native_plugins();  // a type added after start-up becomes "mjhand.test_probe"
    return true;
  }();
  (void)done;
}

std::string config(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string out;
  for (const auto& [k, v] : kv) out += "<config key=\"" + k + "\" value=\"" + v + "\"/>";
  return out;
}

// Two hinges driven by a posture servo (a1, a2), a probe actuator u1 on j2, the probe's sensor s1 at the tip and
// MuJoCo's own jointpos q1. `pose` and `probe` are the instances' <config> elements.
std::string arm_xml(const std::string& pose, const std::string& probe) {
  register_probe_once();
  return R"(<mujoco><compiler angle="radian"/><option timestep="0.002"/>
  <extension>
    <plugin plugin="mjhand.posture"><instance name="pose">)" + pose + R"(</instance></plugin>
    <plugin plugin="mjhand.test_probe"><instance name="probe">)" + probe + R"(</instance></plugin>
  </extension>
  )" + mjhand_test::two_link_arm_worldbody() + R"(
  <actuator>
    <plugin name="a1" joint="j1" instance="pose" ctrllimited="true" ctrlrange="-1 1"/>
    <plugin name="a2" joint="j2" instance="pose" ctrllimited="true" ctrlrange="-1 1"/>
    <plugin name="u1" joint="j2" instance="probe"/>
  </actuator>
  <sensor><plugin name="s1" instance="probe" objtype="site" objname="tip"/><jointpos name="q1" joint="j1"/></sensor>
  </mujoco>)";
}

std::string probe_model(double target = 0.6, double k = 0.1) {
  return arm_xml(config({{"actuators", "all"}, {"target", std::to_string(target)}, {"tau", "0.05"}, {"kp", "2"}}),
                 config({{"sensor", "s1"}, {"actuator", "u1"}, {"k", std::to_string(k)}}));
}

// Steps n times and returns the concatenated qpos, qvel, actuator forces and sensordata of every step.
std::vector<double> trajectory(const mjModel* m, mjData* d, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    mj_step(m, d);
    out.insert(out.end(), d->qpos, d->qpos + m->nq);
    out.insert(out.end(), d->qvel, d->qvel + m->nv);
    out.insert(out.end(), d->actuator_force, d->actuator_force + m->nu);
    out.insert(out.end(), d->sensordata, d->sensordata + m->nsensordata);
  }
  return out;
}

}  // namespace

TEST_CASE("a user-registered type runs natively: sensor, passive, actuator model, next to a posture servo",
          "[plugins]") {
  auto m = load_xml_string(probe_model());
  const InstanceList instances(m.get());
  REQUIRE(instances.size() == 2);
  const int probe = instances.at("probe").id;
  CHECK(native_type(m.get(), probe) == "test_probe");
  CHECK(native_state_size(m.get(), probe) == 3);
  CHECK(m->sensor_dim[0] == 3);  // sized by the plugin
  auto d = make_data(m.get());
  for (int i = 0; i < 499; ++i) mj_step(m.get(), d.get());
  const double q1_before_last_step = d->qpos[1];
  mj_step(m.get(), d.get());
  // posture: setpoints reached 0.6 * (1 - exp(-1/0.05)) ~ 0.6 after 1 s; the servos hold the joints near them.
  // an exact exponential: 0.6 e^(-1/0.05) = 1.2e-9 left at t = 1 s; 1e-6 is loose
  CHECK(native_state(m.get(), d.get(), instances.at("pose").id)[1] == Approx(0.6).margin(1e-6));
  // gravity on the 0.036-kg capsules: ~0.05 N m at j1 over kp = 2 leaves ~0.025 rad of proportional error
  CHECK(d->qpos[0] == Approx(0.6).margin(0.05));
  // The sensor ran at the position stage of the last step (time before that step's advance) and its integrator
  // moved from its reset value.
  // t summed over 500 steps of 2 ms: rounding ~500 eps x 1 s = 1e-13
  CHECK(d->sensordata[0] == Approx(d->time - m->opt.timestep).margin(1e-12));
  const double s1 = native_state(m.get(), d.get(), probe)[1];
  CHECK(d->sensordata[1] == s1);
  CHECK(s1 != 0.25);
  // Actuator model force = gain * ctrl + bias, at the positions the step started from.
  d->ctrl[2] = 0;  // it was 0 all along: nobody drives u1
  // the same products: rounding
  CHECK(d->actuator_force[2] == Approx(-0.1 * q1_before_last_step + 0.01 * s1).epsilon(1e-12));
  // advance ran once per step, after the step's time increment: the sum of h, 2h, ..., 500h, shown when mj_step
  // returned; mj_forward does not call it.
  // the advance sums 500 terms: rounding ~500 eps relative = 1e-13
  const double sum = m->opt.timestep * 500 * 501 / 2;
  CHECK(native_state(m.get(), d.get(), probe)[2] == Approx(sum).epsilon(1e-12));
  CHECK(d->sensordata[2] == native_state(m.get(), d.get(), probe)[2]);
  for (int i = 0; i < 3; ++i) mj_forward(m.get(), d.get());
  CHECK(native_state(m.get(), d.get(), probe)[2] == Approx(sum).epsilon(1e-12));
  CHECK(d->sensordata[2] == native_state(m.get(), d.get(), probe)[2]);
}

TEST_CASE("two threads stepping two mjData of one model match one thread", "[plugins]") {
  auto m = load_xml_string(probe_model());
  auto ref = make_data(m.get());
  const std::vector<double> expected = trajectory(m.get(), ref.get(), 1500);
  std::vector<double> out[2];
  std::thread threads[2];
  for (int t = 0; t < 2; ++t) {
    threads[t] = std::thread([&, t] {
      auto d = make_data(m.get());
      out[t] = trajectory(m.get(), d.get(), 1500);
    });
  }
  for (auto& th : threads) th.join();
  CHECK(out[0] == expected);
  CHECK(out[1] == expected);
}

TEST_CASE("mj_copyData clones plugin state with the physics and mj_resetData gives a fresh trajectory", "[plugins]") {
  auto m = load_xml_string(probe_model());
  auto a = make_data(m.get());
  trajectory(m.get(), a.get(), 300);
  auto b = make_data(m.get());
  mj_copyData(b.get(), m.get(), a.get());
  CHECK(trajectory(m.get(), a.get(), 700) == trajectory(m.get(), b.get(), 700));

  auto fresh = make_data(m.get());
  const auto expected = trajectory(m.get(), fresh.get(), 800);
  auto d = make_data(m.get());
  trajectory(m.get(), d.get(), 333);
  mj_resetData(m.get(), d.get());
  CHECK(trajectory(m.get(), d.get(), 800) == expected);
}

TEST_CASE("two models with different configurations stepped interleaved do not cross-talk", "[plugins]") {
  auto ma = load_xml_string(probe_model(0.6, 0.1));
  auto mb = load_xml_string(probe_model(-0.4, 2.0));
  std::vector<double> solo_a, solo_b;
  {
    auto da = make_data(ma.get());
    solo_a = trajectory(ma.get(), da.get(), 600);
    auto db = make_data(mb.get());
    solo_b = trajectory(mb.get(), db.get(), 600);
  }
  REQUIRE(solo_a != solo_b);
  auto da = make_data(ma.get());
  auto db = make_data(mb.get());
  std::vector<double> ta, tb;
  for (int i = 0; i < 600; ++i) {
    const auto sa = trajectory(ma.get(), da.get(), 1);
    const auto sb = trajectory(mb.get(), db.get(), 1);
    ta.insert(ta.end(), sa.begin(), sa.end());
    tb.insert(tb.end(), sb.begin(), sb.end());
  }
  CHECK(ta == solo_a);
  CHECK(tb == solo_b);
}

TEST_CASE("a user plugin type cannot be registered twice or under a bad name", "[plugins]") {
  register_probe_once();
  auto f = [](const mjModel*, const Config&) { return std::unique_ptr<Plugin>(); };
  CHECK_THROWS_WITH(register_plugin_type("test_probe", "", f), Catch::Contains("already registered"));
  CHECK_THROWS_WITH(register_plugin_type("bad name", "", f), Catch::Contains("may only hold"));
  CHECK(PluginRegistry::global().find("posture") != nullptr);
}

TEST_CASE("malformed configurations are load errors naming instance, key and value", "[plugins]") {
  using Catch::Contains;
  const std::string probe = config({{"sensor", "s1"}, {"actuator", "u1"}});
  const auto pose = [](const std::string& target, const std::string& extra = "") {
    return config({{"actuators", "all"}, {"kp", "2"}}) + (target.empty() ? "" : config({{"target", target}})) + extra;
  };
  struct Case {
    const char* what;
    std::string xml;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      {"unknown key (MuJoCo's check)", arm_xml(pose("0", config({{"tua", "0.1"}})), probe), {"tua"}},
      {"missing key", arm_xml(pose(""), probe), {"'pose'", "missing required key 'target'"}},
      {"bad number", arm_xml(pose("0.1x"), probe), {"'pose'", "key 'target'", "'0.1x'", "not a finite number"}},
      {"nan", arm_xml(pose("nan"), probe), {"key 'target'", "'nan'", "finite"}},
      {"out of bounds", arm_xml(pose("0", config({{"tau", "-1"}})), probe), {"key 'tau'", "'-1'", "must lie in"}},
      {"list length", arm_xml(pose("0,0,0"), probe), {"key 'target'", "needs 1 or 2 values"}},
      {"unknown sensor", arm_xml(pose("0"), config({{"sensor", "nope"}, {"actuator", "u1"}})),
       {"'probe'", "key 'sensor'", "no sensor named 'nope'"}},
      {"sensor not bound to it", arm_xml(pose("0"), config({{"sensor", "q1"}, {"actuator", "u1"}})),
       {"'probe'", "sensor 'q1' is not bound to this instance"}},
      {"its own actuator left unnamed (it names the posture's)",
       arm_xml(pose("0"), config({{"sensor", "s1"}, {"actuator", "a1"}})),
       {"'probe'", "actuator 'u1' is bound to this instance, but its configuration does not name it"}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string err = mjhand_test::attach_error(c.xml);
    REQUIRE_FALSE(err.empty());
    for (const auto& piece : c.expect) CHECK_THAT(err, Contains(piece));
  }
  // A servo target beyond a limited joint's range would only push into the limit.
  std::string limited = arm_xml(pose("0.5,2"), probe);
  const std::string j2 = "<joint name=\"j2\" axis=\"0 1 0\"";
  REQUIRE(limited.find(j2) != std::string::npos);
  limited.replace(limited.find(j2), j2.size(), j2 + " limited=\"true\" range=\"-1 1\"");
  CHECK_THAT(mjhand_test::attach_error(limited),
             Contains("key 'target'") && Contains("puts joint 'j2' at 2, outside its range [-1, 1]") && Contains("'a2'"));
  std::string unknown_type = probe_model();
  unknown_type.replace(unknown_type.find("mjhand.posture"), 14, "mjhand.postur");
  CHECK_THAT(mjhand_test::attach_error(unknown_type), Contains("mjhand.postur"));
}

TEST_CASE("an instance switched off has no effect, keeps its state and resumes when switched on", "[plugins]") {
  auto m = load_xml_string(probe_model());
  const InstanceList instances(m.get());
  const Instance& probe = instances.at("probe");
  REQUIRE(probe.config.size() == 3);  // sensor, actuator, k: as compiled, in the type's key order
  CHECK(probe.config[0] == std::make_pair(std::string("sensor"), std::string("s1")));
  CHECK(probe.config[2].first == "k");

  auto d = make_data(m.get());
  for (int i = 0; i < 100; ++i) mj_step(m.get(), d.get());
  CHECK(native_enabled(m.get(), d.get(), probe.id));
  set_native_enabled(m.get(), d.get(), probe.id, false);
  CHECK_FALSE(native_enabled(m.get(), d.get(), probe.id));
  const mjtNum frozen = native_state(m.get(), d.get(), probe.id)[1];
  const mjtNum frozen_sum = native_state(m.get(), d.get(), probe.id)[2];
  for (int i = 0; i < 50; ++i) mj_step(m.get(), d.get());
  CHECK(native_state(m.get(), d.get(), probe.id)[1] == frozen);
  CHECK(native_state(m.get(), d.get(), probe.id)[2] == frozen_sum);  // no advance while off
  CHECK(d->sensordata[0] == 0.0);  // its sensor reads 0, not a stale value
  CHECK(d->sensordata[1] == 0.0);
  CHECK(d->sensordata[2] == 0.0);
  CHECK(d->actuator_force[2] == 0.0);  // its actuator gives no force
  CHECK(d->qpos[0] > 0.1);             // the posture servo keeps running
  // Its passive damper is gone too: only the joint's own damping (0.05) acts.
  mj_forward(m.get(), d.get());
  CHECK(d->sensordata[3] == d->qpos[0]);  // MuJoCo's own sensor is untouched
  REQUIRE(d->qvel[0] != 0.0);
  // 0.05 qvel (+ 0.01 qvel): one or two products, rounding
  CHECK(d->qfrc_passive[0] == Approx(-0.05 * d->qvel[0]).epsilon(1e-12));
  set_native_enabled(m.get(), d.get(), probe.id, true);
  mj_forward(m.get(), d.get());
  CHECK(d->qfrc_passive[0] == Approx(-0.06 * d->qvel[0]).epsilon(1e-12));
  mj_step(m.get(), d.get());
  CHECK(d->sensordata[0] == Approx(d->time - m->opt.timestep).margin(1e-12));  // summed time, as above
  CHECK(d->actuator_force[2] != 0.0);
  CHECK(native_state(m.get(), d.get(), probe.id)[1] != frozen);  // resumed from the kept state
  CHECK(native_state(m.get(), d.get(), probe.id)[2] == frozen_sum + d->time);
}
