// Faults during a simulation: bad numbers a plugin produces are replaced by 0 before MuJoCo uses them and counted per
// mjData with the first one described (native/native_plugins.h, native_faults); MuJoCo's warnings and divergence are
// caught with time and cause (io/sim_monitor.h), also through `mjhand run`.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <mjhand/host/registry.h>
#include <mjhand/io/sim_monitor.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::run_cli;

namespace {

bool bad_now(const mjData* d, const std::string& what, const char* quantity, double after) {
  // 1e-9: above the summed time's rounding (~50 steps x eps x 0.1 s = 1e-15), far below a 2-ms step
  return what == quantity && d->time >= after - 1e-9;
}

double bad_value(const std::string& v) { return v == "nan" ? std::nan("") : v == "inf" ? -HUGE_VAL : 1e11; }

// A controller, damper and sensor that writes one bad value (nan, inf or huge = 1e11 > mjMAXVAL) into the quantity
// `what` once d->time >= after, and harmless values otherwise; "advance" puts it into the state its end-of-step
// advance keeps and the sensor shows, "throw" makes advance throw. Drives its actuator c1, writes its sensor s1.
class FaultWriter : public Plugin {
 public:
  FaultWriter(const mjModel* m, std::string what, double after, double value)
      : what_(std::move(what)), after_(after), value_(value) {
    c1_ = mj_name2id(m, mjOBJ_ACTUATOR, "c1");
    s1_ = mj_name2id(m, mjOBJ_SENSOR, "s1");
    claim_ctrl(c1_);
    claim_sensor(s1_);
  }
  int capabilities() const override { return kCapControl | kCapPassive | kCapSensor | kCapAdvance; }
  int nstate() const override { return 1; }
  void control(const mjModel*, mjData* d, mjtNum*) const override {
    d->ctrl[c1_] = bad_now(d, what_, "ctrl", after_) ? value_ : 0.3;
  }
  void passive(const mjModel*, mjData* d, mjtNum*) const override {
    d->qfrc_passive[0] += bad_now(d, what_, "passive", after_) ? value_ : -0.01 * d->qvel[0];
  }
  // Six values, so that the bad ones fall both into the adapter's two-wide check (1, 2) and after it (5).
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum* s) const override {
    if (stage != mjSTAGE_POS) return;
    d->sensordata[m->sensor_adr[s1_]] = 1.0;
    d->sensordata[m->sensor_adr[s1_] + 1] = bad_now(d, what_, "sensor", after_) ? value_ : 2.0;
    d->sensordata[m->sensor_adr[s1_] + 2] = s[0];
    d->sensordata[m->sensor_adr[s1_] + 5] = bad_now(d, what_, "sensor_tail", after_) ? value_ : 6.0;
  }
  void advance(const mjModel* m, mjData* d, mjtNum* s) const override {
    if (bad_now(d, what_, "throw", after_)) throw std::runtime_error("advance failed on purpose");
    s[0] = bad_now(d, what_, "advance", after_) ? value_ : 3.0;
    d->sensordata[m->sensor_adr[s1_] + 2] = s[0];
  }
  int sensor_width(int id) const override { return id == s1_ ? 6 : 0; }

 private:
  std::string what_;
  double after_, value_;
  int c1_, s1_;
};

// An actuator model whose gain, bias or activation derivative turns bad: u1 stateless, u2 with one activation.
class FaultModel : public Plugin {
 public:
  FaultModel(const mjModel* m, std::string what, double after, double value)
      : what_(std::move(what)), after_(after), value_(value) {
    u1_ = mj_name2id(m, mjOBJ_ACTUATOR, "u1");
    claim_actuator(u1_);
    claim_actuator(mj_name2id(m, mjOBJ_ACTUATOR, "u2"));
  }
  int capabilities() const override { return kCapActuator; }
  mjtNum actuator_gain(const mjModel*, const mjData* d, int, const mjtNum*) const override {
    return bad_now(d, what_, "gain", after_) ? value_ : 0.01;
  }
  mjtNum actuator_bias(const mjModel*, const mjData* d, int id, const mjtNum*) const override {
    return id == u1_ && bad_now(d, what_, "bias", after_) ? value_ : 0.0;
  }
  mjtNum actuator_dyn(const mjModel*, const mjData* d, int, const mjtNum*) const override {
    return bad_now(d, what_, "dyn", after_) ? value_ : 0.0;
  }

 private:
  std::string what_;
  double after_, value_;
  int u1_;
};

// A factory for either test type: both take what=QUANTITY after=T value=nan|inf|huge.
template <typename Type>
PluginFactory fault_factory() {
  return [](const mjModel* m, const Config& c) {
    const std::string what =
        c.get_choice("what", {"none", "ctrl", "passive", "gain", "bias", "dyn", "sensor", "sensor_tail", "advance",
                              "throw"});
    const double after = c.get_double("after", 0, 1e6);
    const double value = bad_value(c.get_choice("value", {"nan", "inf", "huge"}));
    return std::unique_ptr<Plugin>(new Type(m, what, after, value));
  };
}

void register_fault_types_once() {
  static const bool done = [] {
    register_plugin_type("test_fault_writer", "writes a bad value on purpose", fault_factory<FaultWriter>(),
                         {"what", "after", "value"}, mjSTAGE_POS);
    register_plugin_type("test_fault_model", "an actuator model that turns bad on purpose",
                         fault_factory<FaultModel>(), {"what", "after", "value"});
    register_native_plugins();
    return true;
  }();
  (void)done;
}

std::string fault_model(const std::string& what, double after = 0.05, const std::string& value = "nan") {
  register_fault_types_once();
  const std::string cfg = "<config key=\"what\" value=\"" + what + "\"/><config key=\"after\" value=\"" +
                          std::to_string(after) + "\"/><config key=\"value\" value=\"" + value + "\"/>";
  return R"(<mujoco><option timestep="0.002"/>
  <extension>
    <plugin plugin="mjhand.test_fault_writer"><instance name="bad">)" + cfg + R"(</instance></plugin>
    <plugin plugin="mjhand.test_fault_model"><instance name="model">)" + cfg + R"(</instance></plugin>
  </extension>
  )" + mjhand_test::two_link_arm_worldbody() + R"(
  <actuator>
    <plugin name="c1" joint="j1" instance="bad"/>
    <plugin name="u1" joint="j2" instance="model"/>
    <plugin name="u2" joint="j1" instance="model" actdim="1"/>
  </actuator>
  <sensor><plugin name="s1" instance="bad" objtype="site" objname="tip"/></sensor></mujoco>)";
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
// the same slack as bad_now: a step's time summed with rounding, never a step too many
void run_until(const mjModel* m, mjData* d, double duration) {
  while (d->time < duration - 1e-9) mj_step(m, d);
}
}  // namespace

TEST_CASE("a bad value a plugin produces is replaced by 0 and described with instance, quantity, object and time",
          "[faults]") {
  struct Case {
    const char* what;
    const char* instance;  // the instance that produced it
    const char* described;
  };
  const Case cases[] = {
      {"ctrl", "'bad' (test_fault_writer)", "into the force of actuator 'c1'"},
      {"passive", "'bad' (test_fault_writer)", "into qfrc_passive of dof"},
      {"gain", "'model' (test_fault_model)", "into the force of actuator 'u1'"},
      {"bias", "'model' (test_fault_model)", "into the force of actuator 'u1'"},
      {"dyn", "'model' (test_fault_model)", "into act_dot of actuator 'u2'"},
      {"sensor", "'bad' (test_fault_writer)", "into sensordata of sensor 's1'"},
      {"sensor_tail", "'bad' (test_fault_writer)", "into sensordata of sensor 's1'"},
      {"advance", "'bad' (test_fault_writer)", "into sensordata of sensor 's1'"},  // at the end of the step to 0.05
  };
  for (const Case& c : cases) {
    for (const char* value : {"nan", "inf", "huge"}) {
      INFO(c.what << " = " << value);
      ModelPtr m = load_xml_string(fault_model(c.what, 0.05, value));
      DataPtr d = make_data(m.get());
      d->ctrl[1] = 1;  // u1's input: its force gain * 1 + bias shows a bad gain as it is (a zero input would hide it)
      run_until(m.get(), d.get(), 0.04);
      CHECK(native_faults(m.get(), d.get()).count == 0);
      run_until(m.get(), d.get(), 0.1);
      // MuJoCo never saw the value: no warning, no reset (time went on), every number finite.
      CHECK(warnings(d.get()) == 0);
      CHECK(d->time == Approx(0.1));  // 50 steps of 2 ms summed: rounding; a reset would show 0
      CHECK(state_finite(m.get(), d.get()));
      const NativeFaults f = native_faults(m.get(), d.get());
      CHECK(f.count > 0);
      // The first bad value is produced at the first call with time >= 0.05, i.e. in the step from t = 0.05.
      CHECK_THAT(f.first, Catch::StartsWith(std::string("instance ") + c.instance + " wrote ") &&
                              Catch::Contains(c.described) && Catch::Contains("at t = 0.05 s (replaced by 0)"));
      CHECK_THAT(f.first, Catch::Contains(std::string(value) == "huge" ? "1e+11" : value));
    }
  }
}

TEST_CASE("the replaced values are 0: actuator forces, activation rates, sensors, passive forces", "[faults]") {
  const auto after = [](const std::string& what) {
    ModelPtr m = load_xml_string(fault_model(what, 0.0));
    DataPtr d = make_data(m.get());
    mj_step(m.get(), d.get());
    std::vector<double> out = {d->actuator_force[0], d->sensordata[1], d->actuator_force[1], d->act_dot[0],
                               d->qfrc_passive[0], d->sensordata[2], d->sensordata[5]};
    return out;
  };
  CHECK(after("ctrl")[0] == 0.0);
  CHECK(after("none")[0] == 0.3);
  CHECK(after("sensor")[1] == 0.0);
  CHECK(after("none")[1] == 2.0);
  CHECK(after("gain")[2] == 0.0);  // the force gain * ctrl + bias was bad: replaced as a whole
  CHECK(after("dyn")[3] == 0.0);
  CHECK(after("passive")[4] == 0.0);  // the damper's share went with it: the whole sum was bad
  CHECK(after("advance")[5] == 0.0);  // written at the end of the step, replaced before mj_step returned
  CHECK(after("none")[5] == 3.0);
  CHECK(after("sensor_tail")[6] == 0.0);
  CHECK(after("none")[6] == 6.0);
}

namespace {
std::string last_warning;
void keep_warning(const char* text) { last_warning = text; }
}  // namespace

TEST_CASE("an exception thrown at the end of a step is MuJoCo's warning naming the instance, and the run goes on",
          "[faults]") {
  ModelPtr m = load_xml_string(fault_model("throw", 0.05));
  DataPtr d = make_data(m.get());
  last_warning.clear();
  void (*previous)(const char*) = mju_user_warning;
  mju_user_warning = keep_warning;
  run_until(m.get(), d.get(), 0.04);
  const std::string before = last_warning;
  run_until(m.get(), d.get(), 0.1);
  mju_user_warning = previous;
  CHECK(before.empty());
  CHECK_THAT(last_warning, Catch::Contains("mjhand: plugin instance 'bad': advance failed on purpose"));
  CHECK(d->time == Approx(0.1));  // as above
  CHECK(state_finite(m.get(), d.get()));
  CHECK(d->sensordata[2] == 3.0);  // the state of the last advance that completed, shown unchanged
}

TEST_CASE("faults are counted per mjData, go with mj_resetData, and threads count their own", "[faults]") {
  ModelPtr m = load_xml_string(fault_model("ctrl", 0.05));
  DataPtr a = make_data(m.get()), b = make_data(m.get());
  run_until(m.get(), a.get(), 0.06);
  run_until(m.get(), b.get(), 0.04);
  CHECK(native_faults(m.get(), a.get()).count == 5);  // one actuation per Euler step from t = 0.05 to 0.058
  CHECK(native_faults(m.get(), b.get()).count == 0);
  mj_resetData(m.get(), a.get());  // a new episode starts clean (MuJoCo's plugin reset)
  CHECK(native_faults(m.get(), a.get()).count == 0);
  run_until(m.get(), a.get(), 0.052);
  CHECK(native_faults(m.get(), a.get()).count == 1);
  // A copy carries no faults of its own yet: they belong to the mjData that produced them.
  DataPtr c(mj_copyData(nullptr, m.get(), a.get()));
  CHECK(native_faults(m.get(), c.get()).count == 0);

  std::vector<DataPtr> data;
  for (int i = 0; i < 8; ++i) data.push_back(make_data(m.get()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < data.size(); i += 2) run_until(m.get(), data[i].get(), 0.05 + 0.002 * (i % 4));
    });
  }
  for (auto& th : threads) th.join();
  for (size_t i = 0; i < data.size(); ++i) {
    CHECK(warnings(data[i].get()) == 0);  // every bad force was replaced
    CHECK(native_faults(m.get(), data[i].get()).count == static_cast<long>(i % 4));  // steps taken from t = 0.05 on
  }
}

TEST_CASE("bad applied forces the program wrote are left to MuJoCo, not blamed on or hidden by a plugin", "[faults]") {
  ModelPtr m = load_xml_string(fault_model("none"));
  DataPtr d = make_data(m.get());
  run_until(m.get(), d.get(), 0.02);
  d->qfrc_applied[0] = std::nan("");
  mj_step(m.get(), d.get());
  CHECK(native_faults(m.get(), d.get()).count == 0);
  CHECK(d->warning[mjWARN_BADQACC].number == 1);  // MuJoCo's own reaction: warn and reset
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

  // A PID controller with an absurd setpoint asks for 5e10 N m, which MuJoCo would reject (|force| > mjMAXVAL): mjhand
  // replaces it by 0, the run completes and writes its files, and exits 3 naming instance, actuator and time. (kp 10
  // is inside the link's explicit stability limit, ~64: a gain beyond it is refused at load.)
  std::ofstream(dir + "/pid.xml") << R"(<mujoco><extension><plugin plugin="mjhand.pid"><instance name="hold">
    <config key="actuators" value="m"/><config key="setpoint" value="5e9"/><config key="kp" value="10"/>
    <config key="ki" value="0"/><config key="kd" value="0"/><config key="period" value="0.002"/></instance></plugin>
    </extension><worldbody><body>
    <joint name="j" axis="0 1 0" damping="0.1"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/></body></worldbody>
    <actuator><plugin name="m" joint="j" instance="hold"/></actuator></mujoco>)";
  r = run_cli("run " + dir + "/pid.xml --duration 0.01 --out " + dir + "/pid");
  INFO(r.output);
  CHECK(r.status == 3);
  // Six actuations: the initial mj_forward, then one per step.
  CHECK_THAT(r.output,
             Catch::Contains("plugin faults: 6 bad value(s) replaced by 0") &&
                 Catch::Contains("first: instance 'hold' (pid) wrote 5e+10 into the force of actuator 'm' at t = 0 s"));
  CHECK_THAT(mjhand_test::read_all(dir + "/pid/summary.txt"), Catch::Contains("plugin faults: 6 bad value(s)"));
  CHECK(std::filesystem::exists(dir + "/pid/trajectory.csv"));

  // A clean run says so.
  r = run_cli("run " + mjhand_test::source_path("models/pid_finger.xml") + " --duration 0.01 --out " + dir + "/clean");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("MuJoCo warnings: none; plugin faults: none"));
}
