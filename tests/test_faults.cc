// Faults during a simulation: bad numbers a plugin writes are replaced by 0 before MuJoCo sees them and recorded
// per mjData (host/faults.h); MuJoCo's warnings and divergence are caught with time and cause (io/sim_monitor.h),
// also through `mjhand run`.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "host/host.h"
#include "host/registry.h"
#include "io/sim_monitor.h"
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::run_cli;

namespace {

// Writes one bad value (`value`: nan, inf or huge = 1e11 > mjMAXVAL) into the quantity `what` once d->time >= after,
// and harmless values otherwise. Owns ctrl a1, user actuators u1 (gain, bias) and u2 (dyn), user sensor s1.
class FaultWriter : public Plugin {
 public:
  FaultWriter(const mjModel* m, std::string what, double after, double value)
      : what_(std::move(what)), after_(after), value_(value) {
    a1_ = mj_name2id(m, mjOBJ_ACTUATOR, "a1");
    u1_ = mj_name2id(m, mjOBJ_ACTUATOR, "u1");
    u2_ = mj_name2id(m, mjOBJ_ACTUATOR, "u2");
    s1_ = mj_name2id(m, mjOBJ_SENSOR, "s1");
    l2_ = mj_name2id(m, mjOBJ_BODY, "l2");
    claim_ctrl(a1_);
    claim_actuator(u1_);
    claim_actuator(u2_);
    claim_sensor(s1_);
  }
  int capabilities() const override { return kCapControl | kCapPassive | kCapSensor | kCapActuator; }
  void control(const mjModel*, mjData* d, mjtNum*) const override {
    d->ctrl[a1_] = bad(d, "ctrl") ? value_ : 0.3;
    if (bad(d, "qfrc")) d->qfrc_applied[1] = value_;
    if (bad(d, "xfrc")) d->xfrc_applied[6 * l2_ + 4] = value_;
  }
  void passive(const mjModel*, mjData* d, mjtNum*) const override {
    d->qfrc_passive[0] += bad(d, "passive") ? value_ : -0.01 * d->qvel[0];
  }
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum*) const override {
    if (stage != mjSTAGE_POS) return;
    d->sensordata[m->sensor_adr[s1_]] = 1.0;
    d->sensordata[m->sensor_adr[s1_] + 1] = bad(d, "sensor") ? value_ : 2.0;
  }
  mjtNum actuator_gain(const mjModel*, const mjData* d, int, const mjtNum*) const override {
    return bad(d, "gain") ? value_ : 0.01;
  }
  mjtNum actuator_bias(const mjModel*, const mjData* d, int id, const mjtNum*) const override {
    return id == u1_ && bad(d, "bias") ? value_ : 0.0;
  }
  mjtNum actuator_dyn(const mjModel*, const mjData* d, int, const mjtNum*) const override {
    return bad(d, "dyn") ? value_ : 0.0;
  }

 private:
  bool bad(const mjData* d, const char* what) const { return what_ == what && d->time >= after_ - 1e-9; }
  std::string what_;
  double after_, value_;
  int a1_, u1_, u2_, s1_, l2_;
};

void register_fault_writer_once() {
  static const bool done = [] {
    register_plugin_type("test_fault_writer", "writes a bad value on purpose", [](const mjModel* m, const Config& c) {
      const std::string what =
          c.get_choice("what", {"none", "ctrl", "qfrc", "xfrc", "passive", "gain", "bias", "dyn", "sensor"});
      const double after = c.get_double("after", 0, 1e6);
      const std::string v = c.get_choice("value", {"nan", "inf", "huge"});
      const double value = v == "nan" ? std::nan("") : v == "inf" ? -HUGE_VAL : 1e11;
      return std::unique_ptr<Plugin>(new FaultWriter(m, what, after, value));
    });
    return true;
  }();
  (void)done;
}

std::string fault_model(const std::string& what, double after = 0.05, const std::string& value = "nan") {
  return R"(<mujoco><option timestep="0.002"/>
  )" + mjhand_test::two_link_arm_worldbody() + R"(
  <actuator>
    <position name="a1" joint="j1" kp="2"/>
    <general name="u1" joint="j2" gaintype="user" biastype="user"/>
    <general name="u2" joint="j1" dyntype="user" gainprm="0.01"/>
  </actuator>
  <sensor><user name="s1" objtype="site" objname="tip" datatype="real" needstage="pos" dim="2"/></sensor>
  <custom><text name="mjhand:bad" data="type=test_fault_writer what=)" +
         what + " after=" + std::to_string(after) + " value=" + value + R"("/></custom></mujoco>)";
}

bool state_finite(const mjModel* m, const mjData* d) {
  for (int i = 0; i < m->nq; ++i) {
    if (!std::isfinite(d->qpos[i])) return false;
  }
  for (int i = 0; i < m->nv; ++i) {
    if (!std::isfinite(d->qvel[i]) || !std::isfinite(d->qacc[i])) return false;
  }
  for (int i = 0; i < m->nu; ++i) {
    if (!std::isfinite(d->ctrl[i]) || !std::isfinite(d->actuator_force[i])) return false;
  }
  for (int i = 0; i < m->nsensordata; ++i) {
    if (!std::isfinite(d->sensordata[i])) return false;
  }
  return true;
}

int warnings(const mjData* d) {
  int n = 0;
  for (int w = 0; w < mjNWARNING; ++w) n += d->warning[w].number;
  return n;
}

// Steps until t >= duration.
void run_until(const mjModel* m, mjData* d, double duration) {
  while (d->time < duration - 1e-9) mj_step(m, d);
}
}  // namespace

TEST_CASE("a bad value a plugin writes is replaced by 0 and recorded with instance, quantity, object and time",
          "[faults]") {
  register_fault_writer_once();
  struct Case {
    const char* what;
    FaultKind kind;
    const char* object;  // id resolved by name below
    mjtObj type;
    int component;
    const char* described;
  };
  const Case cases[] = {
      {"ctrl", FaultKind::kCtrl, "a1", mjOBJ_ACTUATOR, 0, "into ctrl of actuator 'a1'"},
      {"qfrc", FaultKind::kQfrcApplied, "", mjOBJ_UNKNOWN, 0, "into qfrc_applied[1] (joint 'j2')"},
      {"xfrc", FaultKind::kXfrcApplied, "l2", mjOBJ_BODY, 4, "into xfrc_applied of body 'l2' component 4"},
      {"passive", FaultKind::kQfrcPassive, "", mjOBJ_UNKNOWN, 0, "into qfrc_passive[0] (joint 'j1')"},
      {"gain", FaultKind::kActuatorGain, "u1", mjOBJ_ACTUATOR, 0, "into the gain of user actuator 'u1'"},
      {"bias", FaultKind::kActuatorBias, "u1", mjOBJ_ACTUATOR, 0, "into the bias of user actuator 'u1'"},
      {"dyn", FaultKind::kActuatorDyn, "u2", mjOBJ_ACTUATOR, 0, "activation derivative (dyn) of user actuator 'u2'"},
      {"sensor", FaultKind::kSensor, "s1", mjOBJ_SENSOR, 1, "into sensor 's1' element 1"},
  };
  for (const Case& c : cases) {
    for (const char* value : {"nan", "inf", "huge"}) {
      INFO(c.what << " = " << value);
      ModelPtr m = load_xml_string(fault_model(c.what, 0.05, value));
      auto host = Host::attach(m.get());
      DataPtr d = make_data(m.get());
      run_until(m.get(), d.get(), 0.04);
      CHECK(host->faults(d.get()).count == 0);
      run_until(m.get(), d.get(), 0.1);
      // MuJoCo never saw the value: no warning, no reset (time went on), every number finite.
      CHECK(warnings(d.get()) == 0);
      CHECK(d->time == Approx(0.1));
      CHECK(state_finite(m.get(), d.get()));
      const FaultSummary f = host->faults(d.get());
      REQUIRE(f.count > 0);
      CHECK(f.first.instance == 0);
      CHECK(f.first.kind == c.kind);
      CHECK(f.first.index == (*c.object ? mj_name2id(m.get(), c.type, c.object) : c.kind == FaultKind::kQfrcApplied));
      CHECK(f.first.component == c.component);
      CHECK(mju_isBad(f.first.value));
      CHECK((std::string(value) == "nan") == std::isnan(f.first.value));
      // The first bad value is written at the first callback with time >= 0.05, i.e. in the step from t = 0.05.
      CHECK(f.first.time == Approx(0.05).margin(1e-9));
      CHECK(f.last_time >= 0.098);
      const std::string text = host->describe(f.first);
      CHECK_THAT(text, Catch::StartsWith("instance 'bad' (test_fault_writer) wrote ") && Catch::Contains(c.described) &&
                           Catch::Contains("at t = 0.05 s (replaced by 0)"));
    }
  }
}

TEST_CASE("the replaced values are 0: ctrl, sensors and user-actuator forces read 0", "[faults]") {
  register_fault_writer_once();
  const auto after = [](const std::string& what) {
    ModelPtr m = load_xml_string(fault_model(what, 0.0));
    auto host = Host::attach(m.get());
    DataPtr d = make_data(m.get());
    mj_step(m.get(), d.get());
    std::vector<double> out = {d->ctrl[0], d->sensordata[1], d->actuator_force[1], d->act_dot[0],
                               d->qfrc_applied[1], d->qfrc_passive[0]};
    return out;
  };
  CHECK(after("ctrl")[0] == 0.0);
  CHECK(after("none")[0] == 0.3);
  CHECK(after("sensor")[1] == 0.0);
  CHECK(after("none")[1] == 2.0);
  CHECK(after("gain")[2] == 0.0);  // gain 0 and bias 0: no force
  CHECK(after("dyn")[3] == 0.0);
  CHECK(after("qfrc")[4] == 0.0);
  CHECK(after("passive")[5] == 0.0);  // the damper's share went with it: the whole sum was bad
}

TEST_CASE("faults are kept per mjData, survive mj_resetData and go with clear_faults", "[faults]") {
  register_fault_writer_once();
  ModelPtr m = load_xml_string(fault_model("ctrl", 0.05));
  auto host = Host::attach(m.get());
  DataPtr a = make_data(m.get()), b = make_data(m.get());
  run_until(m.get(), a.get(), 0.06);
  run_until(m.get(), b.get(), 0.04);
  CHECK(host->faults(a.get()).count == 5);  // one control call per Euler step from t = 0.05 to 0.058
  CHECK(host->faults(b.get()).count == 0);
  mj_resetData(m.get(), a.get());  // a new episode does not hide what happened in the last one
  CHECK(host->faults(a.get()).count == 5);
  host->clear_faults(a.get());
  CHECK(host->faults(a.get()).count == 0);
  run_until(m.get(), a.get(), 0.052);
  CHECK(host->faults(a.get()).count == 1);
  CHECK(host->faults(a.get()).first.time == Approx(0.05));
}

TEST_CASE("bad applied forces the program wrote are left to MuJoCo, not blamed on or hidden by a plugin", "[faults]") {
  register_fault_writer_once();
  ModelPtr m = load_xml_string(fault_model("none"));
  auto host = Host::attach(m.get());
  DataPtr d = make_data(m.get());
  run_until(m.get(), d.get(), 0.02);
  d->qfrc_applied[0] = std::nan("");
  mj_step(m.get(), d.get());
  CHECK(host->faults(d.get()).count == 0);
  CHECK(d->warning[mjWARN_BADQACC].number == 1);  // MuJoCo's own reaction: warn and reset
}

TEST_CASE("threads stepping their own mjData record their own faults, and a full table still replaces", "[faults]") {
  register_fault_writer_once();
  ModelPtr m = load_xml_string(fault_model("ctrl", 0.05));
  auto host = Host::attach(m.get());
  std::vector<DataPtr> data;
  for (int i = 0; i < FaultTable::kSlots + 2; ++i) data.push_back(make_data(m.get()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < data.size(); i += 2) run_until(m.get(), data[i].get(), 0.05 + 0.002 * (i % 4));
    });
  }
  for (auto& th : threads) th.join();
  long tracked = 0;
  int with_faults = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    const FaultSummary f = host->faults(data[i].get());
    CHECK(warnings(data[i].get()) == 0);  // every bad ctrl was replaced, tracked or not
    if (f.count == 0) continue;
    ++with_faults;
    tracked += f.count;
    CHECK(f.count == static_cast<long>(i % 4));  // steps taken from t = 0.05 on
    CHECK(f.first.time == Approx(0.05));
  }
  long expected = 0;
  for (size_t i = 0; i < data.size(); ++i) expected += static_cast<long>(i % 4);
  CHECK(with_faults <= FaultTable::kSlots);
  CHECK(tracked + host->untracked_faults() == expected);
}

TEST_CASE("SimMonitor: a MuJoCo auto-reset is a divergence dated at the step it happened, not at the reset time",
          "[faults]") {
  // An undamped stiff joint with a coarse step (omega h = 3, beyond semi-implicit Euler's stability limit of 2): the
  // amplitude grows ~7x per step until qacc passes mjMAXVAL, MuJoCo warns BADQACC and resets to qpos0 and time 0.
  ModelPtr m = load_xml_string(R"(<mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody><body>
    <joint name="spring" type="slide" axis="1 0 0" stiffness="900" ref="0"/><geom type="sphere" size="0.01" mass="0.01"/>
    </body></worldbody><keyframe><key name="kick" qpos="0.001"/></keyframe></mujoco>)");
  DataPtr d = make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), 0);
  SimMonitor monitor(m.get());
  const char* why = nullptr;
  double t_before = 0;
  int steps = 0;
  while (!why && steps < 1000) {
    t_before = d->time;
    monitor.before_step(d.get());
    mj_step(m.get(), d.get());
    ++steps;
    why = monitor.after_step(d.get());
  }
  REQUIRE(why);
  CHECK(steps > 5);
  CHECK(monitor.diverged());
  CHECK(monitor.diverged_at() == t_before);
  CHECK(monitor.diverged_at() > 0.01);
  CHECK(d->time < monitor.diverged_at());  // what the old check reported: the time after MuJoCo's reset
  CHECK(d->qpos[0] == 0.0);                // the reset really happened
  CHECK_THAT(why, Catch::Contains("bad qacc at dof 0 (joint 'spring')") && Catch::Contains("reset the state"));
  CHECK(monitor.warning(mjWARN_BADQACC).count == 1);
  CHECK(monitor.warning(mjWARN_BADQACC).first_time == t_before);
  CHECK_THAT(monitor.report(), Catch::Contains("mjWARN_BADQACC: 1 time(s), first at t = "));
  mj_step(m.get(), d.get());  // sticky: the rollout stays diverged
  CHECK(monitor.after_step(d.get()) != nullptr);
}

TEST_CASE("SimMonitor: warnings that do not end the rollout are counted with their first time", "[faults]") {
  // Three spheres resting on the floor need three contacts; a 2 KB arena has room for two: MuJoCo warns CONTACTFULL
  // (and CNSTRFULL) every step. (MuJoCo 4 sizes contacts by arena memory; <size nconmax> no longer caps them.)
  ModelPtr m = load_xml_string(R"(<mujoco><size memory="2K"/><worldbody><geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.01"><freejoint/><geom type="sphere" size="0.0101"/></body>
    <body pos="0.1 0 0.01"><freejoint/><geom type="sphere" size="0.0101"/></body>
    <body pos="0.2 0 0.01"><freejoint/><geom type="sphere" size="0.0101"/></body></worldbody></mujoco>)");
  DataPtr d = make_data(m.get());
  SimMonitor monitor(m.get());
  for (int k = 0; k < 10; ++k) {
    monitor.before_step(d.get());
    mj_step(m.get(), d.get());
    CHECK(monitor.after_step(d.get()) == nullptr);
  }
  CHECK_FALSE(monitor.diverged());
  CHECK(monitor.warning(mjWARN_CONTACTFULL).count == d->warning[mjWARN_CONTACTFULL].number);
  CHECK(monitor.warning(mjWARN_CONTACTFULL).count >= 10);
  CHECK(monitor.warning(mjWARN_CONTACTFULL).first_time == 0.0);
  CHECK_THAT(monitor.report(), Catch::StartsWith("mjWARN_CONTACTFULL: "));

  // A non-finite state is named by array and index.
  monitor.before_step(d.get());
  d->qvel[4] = std::numeric_limits<double>::infinity();
  CHECK_THAT(monitor.after_step(d.get()), Catch::Equals("qvel[4] is not finite"));
}

TEST_CASE("mjhand run: divergence exits 1 naming the first time and cause, plugin faults exit 3 naming the plugin",
          "[faults]") {
  const std::string dir = mjhand_test::fresh_temp_dir("faults_cli");
  // Divergence: the time printed is the step where MuJoCo found the bad qacc, checked against an in-process run.
  const std::string spring = R"(<mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody><body>
    <joint name="spring" type="slide" axis="1 0 0" stiffness="900"/><geom type="sphere" size="0.01" mass="0.01"/>
    </body></worldbody><keyframe><key name="kick" qpos="0.001"/></keyframe></mujoco>)";
  std::ofstream(dir + "/spring.xml") << spring;
  ModelPtr m = load_xml_string(spring);
  DataPtr d = make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), 0);
  double t_bad = -1;
  for (int k = 0; k < 1000 && t_bad < 0; ++k) {
    const double t = d->time;
    mj_step(m.get(), d.get());
    if (d->warning[mjWARN_BADQACC].number) t_bad = t;
  }
  REQUIRE(t_bad > 0);
  char expected[64];
  std::snprintf(expected, sizeof(expected), "rollout diverged at t = %.6g s", t_bad);
  auto r = run_cli("run " + dir + "/spring.xml --keyframe kick --duration 5 --out " + dir + "/spring");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains(expected) && Catch::Contains("bad qacc at dof 0 (joint 'spring')") &&
                           Catch::Contains("(no results written)") && Catch::Contains("mjWARN_BADQACC: 1 time(s)"));
  CHECK_FALSE(std::filesystem::exists(dir + "/spring/trajectory.csv"));

  // A PID controller with an absurd gain asks for 5e10 N m, which MuJoCo would reject (|ctrl| > mjMAXVAL): the host
  // replaces it by 0, the run completes and writes its files, and exits 3 naming instance, actuator and time.
  std::ofstream(dir + "/pid.xml") << R"(<mujoco><size nuserdata="32"/><worldbody><body>
    <joint name="j" axis="0 1 0" damping="0.1"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/></body></worldbody>
    <actuator><motor name="m" joint="j"/></actuator>
    <custom><text name="mjhand:hold" data="type=pid actuators=m setpoint=5 kp=1e10 ki=0 kd=0 period=0.002"/></custom>
    </mujoco>)";
  r = run_cli("run " + dir + "/pid.xml --duration 0.01 --out " + dir + "/pid");
  INFO(r.output);
  CHECK(r.status == 3);
  // Six control calls: the initial mj_forward, then one per step.
  CHECK_THAT(r.output,
             Catch::Contains("plugin faults: 6 bad value(s) replaced by 0") &&
                 Catch::Contains("first: instance 'hold' (pid) wrote 5e+10 into ctrl of actuator 'm' at t = 0 s"));
  CHECK_THAT(mjhand_test::read_all(dir + "/pid/summary.txt"), Catch::Contains("plugin faults: 6 bad value(s)"));
  CHECK(std::filesystem::exists(dir + "/pid/trajectory.csv"));

  // A clean run says so.
  r = run_cli("run " + mjhand_test::source_path("models/pid_finger.xml") + " --duration 0.01 --out " + dir + "/clean");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("MuJoCo warnings: none; plugin faults: none"));
}
