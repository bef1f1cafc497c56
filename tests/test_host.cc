// Plugin host: routing, state in mjData, threads, copies, resets, several models, chaining, malformed configs.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "host/host.h"
#include "host/registry.h"
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;

namespace {

// Two hinge joints with position actuators, one user actuator, one user sensor. `customs` is spliced into <custom>.
std::string arm_xml(const std::string& customs, int nuserdata = 16) {
  return R"(<mujoco><compiler angle="radian"/><size nuserdata=")" + std::to_string(nuserdata) + R"("/>
  <option timestep="0.002"/>
  )" + mjhand_test::two_link_arm_worldbody() + R"(
  <actuator>
    <position name="a1" joint="j1" kp="2" ctrllimited="true" ctrlrange="-1 1"/>
    <position name="a2" joint="j2" kp="2" ctrllimited="true" ctrlrange="-1 1"/>
    <general name="u1" joint="j2" gaintype="user" biastype="user"/>
  </actuator>
  <sensor><user name="s1" objtype="site" objname="tip" datatype="real" needstage="pos" dim="2"/>
          <jointpos name="q1" joint="j1"/></sensor>
  <custom>)" + customs + R"(</custom></mujoco>)";
}

std::string text(const std::string& name, const std::string& data) {
  return "<text name=\"mjhand:" + name + "\" data=\"" + data + "\"/>";
}

// A test plugin type with every capability: a sensor writing time and an integrator, a user actuator whose
// bias is a spring, a passive damper, a control that accumulates state (so any state mix-up shows).
class ProbePlugin : public Plugin {
 public:
  ProbePlugin(int sensor, int actuator, double k) : sensor_(sensor), actuator_(actuator), k_(k) {
    claim_sensor(sensor);
    claim_actuator(actuator);
  }
  int capabilities() const override { return kCapControl | kCapPassive | kCapSensor | kCapActuator; }
  int nstate() const override { return 2; }
  void reset(const mjModel*, const mjData* d, mjtNum* s) const override {
    s[0] = d->time;
    s[1] = 0.25;
  }
  void control(const mjModel*, mjData* d, mjtNum* s) const override {
    if (d->time > s[0]) {  // time-triggered: repeated calls at one time do not integrate twice
      s[1] += (d->time - s[0]) * std::sin(d->qpos[0] * 3 + d->qvel[1]);
      s[0] = d->time;
    }
    d->ctrl[actuator_] = s[1];
  }
  void passive(const mjModel*, mjData* d, mjtNum*) const override { d->qfrc_passive[0] -= 0.01 * d->qvel[0]; }
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum* s) const override {
    if (stage != mjSTAGE_POS) return;
    d->sensordata[m->sensor_adr[sensor_]] = d->time;
    d->sensordata[m->sensor_adr[sensor_] + 1] = s[1];
  }
  mjtNum actuator_gain(const mjModel*, const mjData*, int, const mjtNum*) const override { return 0.02; }
  mjtNum actuator_bias(const mjModel*, const mjData* d, int, const mjtNum*) const override {
    return -k_ * d->qpos[1];
  }

 private:
  int sensor_, actuator_;
  double k_;
};

void register_probe_once() {
  static bool done = [] {
    register_plugin_type("test_probe", "test plugin with every capability", [](const mjModel*, const Config& cfg) {
      const int s = cfg.get_object("sensor", mjOBJ_SENSOR);
      const int a = cfg.get_object("actuator", mjOBJ_ACTUATOR);
      const double k = cfg.get_double_or("k", 0.1, 0, 100);
      return std::unique_ptr<Plugin>(new ProbePlugin(s, a, k));
    });
    return true;
  }();
  (void)done;
}

std::string probe_model(double target = 0.6, double k = 0.1) {
  return arm_xml(text("pose", "type=posture actuators=a1,a2 target=" + std::to_string(target) + " tau=0.05") +
                 text("probe", "type=test_probe sensor=s1 actuator=u1 k=" + std::to_string(k)));
}

// Steps n times and returns the concatenated qpos, qvel, ctrl, sensordata of every step.
std::vector<double> trajectory(const mjModel* m, mjData* d, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    mj_step(m, d);
    out.insert(out.end(), d->qpos, d->qpos + m->nq);
    out.insert(out.end(), d->qvel, d->qvel + m->nv);
    out.insert(out.end(), d->ctrl, d->ctrl + m->nu);
    out.insert(out.end(), d->sensordata, d->sensordata + m->nsensordata);
  }
  return out;
}

std::string attach_error(const std::string& xml) {
  register_probe_once();
  return mjhand_test::attach_error(xml);
}

}  // namespace

TEST_CASE("plugins declared in MJCF run: control, sensor, passive, user actuator", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());
  auto host = Host::attach(m.get());
  REQUIRE(host->instances().size() == 2);
  REQUIRE(host->userdata_size() == 1 + 3 + 2);
  auto d = make_data(m.get());
  REQUIRE_FALSE(host->state_ready(d.get()));
  for (int i = 0; i < 499; ++i) mj_step(m.get(), d.get());
  REQUIRE(host->state_ready(d.get()));
  const Instance* probe = host->find("probe");
  REQUIRE(probe);
  const double state_before_last_step = host->state(d.get(), *probe)[1];
  const double q1_before_last_step = d->qpos[1];
  mj_step(m.get(), d.get());
  // posture: setpoints reached 0.6 * (1 - exp(-1/0.05)) ~ 0.6 after 1 s.
  REQUIRE(d->ctrl[0] == Approx(0.6).margin(1e-6));
  REQUIRE(d->ctrl[1] == Approx(0.6).margin(1e-6));
  // sensor written by the plugin at the position stage of the last step (time before that step's advance).
  REQUIRE(d->sensordata[0] == Approx(d->time - m->opt.timestep).margin(1e-12));
  // The position-stage sensor runs before this step's control, so it reports the state of the step before.
  REQUIRE(d->sensordata[1] == state_before_last_step);
  REQUIRE(host->state(d.get(), *probe)[1] != state_before_last_step);
  // user actuator force = gain * ctrl + bias, as computed by the plugin (at the positions the step started from).
  REQUIRE(d->actuator_force[2] == Approx(0.02 * d->ctrl[2] - 0.1 * q1_before_last_step).epsilon(1e-12));
}

TEST_CASE("two threads stepping two mjData of one model match one thread", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());
  auto host = Host::attach(m.get());
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
  REQUIRE(out[0] == expected);
  REQUIRE(out[1] == expected);
}

TEST_CASE("mj_copyData clones plugin state with the physics", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());
  auto host = Host::attach(m.get());
  auto a = make_data(m.get());
  trajectory(m.get(), a.get(), 300);
  auto b = make_data(m.get());
  mj_copyData(b.get(), m.get(), a.get());
  REQUIRE(trajectory(m.get(), a.get(), 700) == trajectory(m.get(), b.get(), 700));
}

TEST_CASE("mj_resetData gives the trajectory of a fresh mjData", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());
  auto host = Host::attach(m.get());
  auto fresh = make_data(m.get());
  const auto expected = trajectory(m.get(), fresh.get(), 800);
  auto d = make_data(m.get());
  trajectory(m.get(), d.get(), 333);
  mj_resetData(m.get(), d.get());
  REQUIRE_FALSE(host->state_ready(d.get()));
  REQUIRE(trajectory(m.get(), d.get(), 800) == expected);
  // Explicit re-init right after the reset is equivalent.
  mj_resetData(m.get(), d.get());
  host->reset_state(d.get());
  REQUIRE(trajectory(m.get(), d.get(), 800) == expected);
}

TEST_CASE("two different models attached at once do not cross-talk", "[host]") {
  register_probe_once();
  auto ma = load_xml_string(probe_model(0.6, 0.1));
  auto mb = load_xml_string(probe_model(-0.4, 2.0));
  std::vector<double> solo_a, solo_b;
  {
    auto ha = Host::attach(ma.get());
    auto da = make_data(ma.get());
    solo_a = trajectory(ma.get(), da.get(), 600);
  }
  {
    auto hb = Host::attach(mb.get());
    auto db = make_data(mb.get());
    solo_b = trajectory(mb.get(), db.get(), 600);
  }
  REQUIRE(solo_a != solo_b);
  auto ha = Host::attach(ma.get());
  auto hb = Host::attach(mb.get());
  auto da = make_data(ma.get());
  auto db = make_data(mb.get());
  std::vector<double> ta, tb;
  for (int i = 0; i < 600; ++i) {  // interleaved, step by step
    auto sa = trajectory(ma.get(), da.get(), 1);
    auto sb = trajectory(mb.get(), db.get(), 1);
    ta.insert(ta.end(), sa.begin(), sa.end());
    tb.insert(tb.end(), sb.begin(), sb.end());
  }
  REQUIRE(ta == solo_a);
  REQUIRE(tb == solo_b);
}

namespace {
std::atomic<int> g_user_control_calls{0}, g_user_passive_calls{0}, g_user_sensor_calls{0};
std::atomic<int> g_user_gain_calls{0}, g_user_bias_calls{0}, g_user_dyn_calls{0};
void user_control(const mjModel*, mjData* d) {
  ++g_user_control_calls;
  d->qfrc_applied[0] = 0.001;  // the user's own effect must survive
}
void user_passive(const mjModel*, mjData*) { ++g_user_passive_calls; }
void user_sensor(const mjModel*, mjData*, int) { ++g_user_sensor_calls; }
mjtNum user_gain(const mjModel*, const mjData*, int) {
  ++g_user_gain_calls;
  return 0.5;
}
mjtNum user_bias(const mjModel*, const mjData*, int) {
  ++g_user_bias_calls;
  return 0.125;
}
mjtNum user_dyn(const mjModel*, const mjData*, int) {
  ++g_user_dyn_calls;
  return 1;  // activation grows at 1/s, so the gain term below is not zero
}
}  // namespace

TEST_CASE("every pre-installed callback keeps running, user actuators mjhand does not own stay the user's",
          "[host]") {
  register_probe_once();
  // u1 is owned by the probe; u2 (also user gain/bias/dyn) is not, so it must go to the user's callbacks.
  std::string xml = probe_model();
  xml.replace(xml.find("</actuator>"), 11,
              R"(<general name="u2" joint="j1" gaintype="user" biastype="user" dyntype="user"/></actuator>)");
  auto m = load_xml_string(xml);
  mjcb_control = user_control;
  mjcb_passive = user_passive;
  mjcb_sensor = user_sensor;
  mjcb_act_gain = user_gain;
  mjcb_act_bias = user_bias;
  mjcb_act_dyn = user_dyn;
  {
    auto host = Host::attach(m.get());
    auto d = make_data(m.get());
    const int u2 = mj_name2id(m.get(), mjOBJ_ACTUATOR, "u2");
    d->ctrl[u2] = 2.0;
    for (int i = 0; i < 4; ++i) mj_step(m.get(), d.get());
    const double act_before = d->act[0], q1_before = d->qpos[1];
    mj_step(m.get(), d.get());
    CHECK(g_user_passive_calls >= 5);
    CHECK(g_user_sensor_calls >= 5);
    CHECK(g_user_gain_calls >= 5);
    CHECK(g_user_bias_calls >= 5);
    CHECK(g_user_dyn_calls >= 5);
    REQUIRE(act_before > 0);
    CHECK(d->actuator_force[u2] == Approx(0.5 * act_before + 0.125).epsilon(1e-12));  // the user's gain and bias
    CHECK(d->actuator_force[2] == Approx(0.02 * d->ctrl[2] - 0.1 * q1_before).epsilon(1e-12));  // the probe's
  }
  CHECK(mjcb_passive == user_passive);
  CHECK(mjcb_act_dyn == user_dyn);
  mjcb_control = nullptr;
  mjcb_passive = nullptr;
  mjcb_sensor = nullptr;
  mjcb_act_gain = nullptr;
  mjcb_act_bias = nullptr;
  mjcb_act_dyn = nullptr;
}

TEST_CASE("a callback replaced after attach is reported at the next attach, detach and re-attach work", "[host]") {
  register_probe_once();
  auto ma = load_xml_string(probe_model(0.6));
  auto mb = load_xml_string(probe_model(-0.2));
  {
    auto ha = Host::attach(ma.get());
    mjcb_passive = user_passive;  // the program overwrites mjhand's trampoline
    REQUIRE_FALSE(callbacks_installed());
    REQUIRE_THROWS_WITH(Host::attach(mb.get()), Catch::Contains("mjcb_passive was replaced"));
  }
  mjcb_passive = nullptr;
  // Attach, detach, attach again (the first model's host is gone): the second model runs as if alone.
  std::vector<double> solo;
  {
    auto hb = Host::attach(mb.get());
    auto d = make_data(mb.get());
    solo = trajectory(mb.get(), d.get(), 200);
  }
  {
    auto ha = Host::attach(ma.get());
  }
  auto hb = Host::attach(mb.get());
  auto d = make_data(mb.get());
  REQUIRE(trajectory(mb.get(), d.get(), 200) == solo);
}

TEST_CASE("a callback installed before mjhand keeps running and is restored on detach", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());  // before installing: compiling runs mj_forward, hence mjcb_control
  mjcb_control = user_control;
  g_user_control_calls = 0;
  {
    auto host = Host::attach(m.get());
    REQUIRE(callbacks_installed());
    auto d = make_data(m.get());
    for (int i = 0; i < 10; ++i) mj_step(m.get(), d.get());
    REQUIRE(g_user_control_calls == 10);
    REQUIRE(d->qfrc_applied[0] == 0.001);
    REQUIRE(host->state_ready(d.get()));  // mjhand ran too
  }
  REQUIRE(mjcb_control == user_control);
  REQUIRE_FALSE(callbacks_installed());
  mjcb_control = nullptr;
}

TEST_CASE("a model without mjhand configuration passes through untouched", "[host]") {
  auto m = load_xml_string(arm_xml(""));
  auto bare = make_data(m.get());
  bare->ctrl[0] = 0.3;
  const auto expected = trajectory(m.get(), bare.get(), 300);
  auto host = Host::attach(m.get());
  REQUIRE(host->instances().empty());
  REQUIRE(host->userdata_size() == 0);
  // Attach another model so mjhand's trampolines are installed while the bare model steps.
  register_probe_once();
  auto other = load_xml_string(probe_model());
  auto other_host = Host::attach(other.get());
  REQUIRE(callbacks_installed());
  auto d = make_data(m.get());
  d->ctrl[0] = 0.3;
  REQUIRE(trajectory(m.get(), d.get(), 300) == expected);
}

TEST_CASE("ScopedStateRestore undoes state advanced by calls that step internally", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  trajectory(m.get(), d.get(), 50);
  std::vector<double> before(d->userdata, d->userdata + m->nuserdata);
  std::vector<mjtNum> A(2 * m->nv * 2 * m->nv), B(2 * m->nv * m->nu);
  {
    ScopedStateRestore guard(m.get(), d.get());
    mjd_transitionFD(m.get(), d.get(), 1e-6, 1, A.data(), B.data(), nullptr, nullptr);
  }
  REQUIRE(std::vector<double>(d->userdata, d->userdata + m->nuserdata) == before);
}

TEST_CASE("a user plugin type cannot be registered twice or under a bad name", "[host]") {
  register_probe_once();
  auto f = [](const mjModel*, const Config&) { return std::unique_ptr<Plugin>(); };
  REQUIRE_THROWS_WITH(register_plugin_type("test_probe", "", f), Catch::Contains("already registered"));
  REQUIRE_THROWS_WITH(register_plugin_type("bad name", "", f), Catch::Contains("may only hold"));
  REQUIRE(PluginRegistry::global().find("posture") != nullptr);
}

TEST_CASE("malformed configurations fail with a message naming instance, key and value", "[host]") {
  using Catch::Contains;
  const std::string probe = text("probe", "type=test_probe sensor=s1 actuator=u1");
  struct Case {
    const char* what;
    std::string xml;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      {"missing type", arm_xml(text("p", "actuators=a1 target=0")), {"'p'", "missing required key 'type'"}},
      {"unknown type", arm_xml(text("p", "type=pdi")), {"'p'", "'pdi'", "unknown plugin type", "posture"}},
      {"unknown key", arm_xml(text("p", "type=posture actuators=a1 target=0 tua=0.1")),
       {"'p'", "key 'tua'", "unknown key"}},
      {"missing key", arm_xml(text("p", "type=posture actuators=a1")), {"'p'", "missing required key 'target'"}},
      {"bad number", arm_xml(text("p", "type=posture actuators=a1 target=0.1x")),
       {"'p'", "key 'target'", "'0.1x'", "not a finite number"}},
      {"nan", arm_xml(text("p", "type=posture actuators=a1 target=nan")), {"key 'target'", "'nan'", "finite"}},
      {"out of bounds", arm_xml(text("p", "type=posture actuators=a1 target=0 tau=-1")),
       {"key 'tau'", "'-1'", "must lie in"}},
      {"unknown actuator", arm_xml(text("p", "type=posture actuators=a1,a9 target=0")),
       {"key 'actuators'", "no actuator named 'a9'"}},
      {"list length", arm_xml(text("p", "type=posture actuators=a1,a2 target=0,0,0")),
       {"key 'target'", "needs 1 or 2 values"}},
      {"outside ctrlrange", arm_xml(text("p", "type=posture actuators=a1 target=3")), {"outside the ctrlrange", "'a1'"}},
      {"token without =", arm_xml(text("p", "type=posture actuators a1 target=0")),
       {"'p'", "'actuators'", "not of the form key=value"}},
      {"duplicate key", arm_xml(text("p", "type=posture target=0 actuators=a1 target=1")), {"'target'", "twice"}},
      {"empty value", arm_xml(text("p", "type=posture target= actuators=a1")), {"'target'", "empty value"}},
      {"empty instance name", arm_xml(text("", "type=posture")), {"empty name"}},
      {"userdata too small", arm_xml(text("p", "type=posture actuators=a1,a2 target=0"), 2),
       {"need 4 entries", "nuserdata=2", "<size nuserdata=\"4\"/>"}},
      {"sensor not user", arm_xml(text("probe", "type=test_probe sensor=q1 actuator=u1")),
       {"'probe'", "sensor 'q1'", "not a <user> sensor"}},
      {"actuator not user", arm_xml(text("probe", "type=test_probe sensor=s1 actuator=a1")),
       {"'probe'", "actuator 'a1'", "user"}},
      {"two owners", arm_xml(probe + text("probe2", "type=test_probe sensor=s1 actuator=u1")),
       {"'probe'", "'probe2'", "both"}},
      {"unknown sensor", arm_xml(text("probe", "type=test_probe sensor=nope actuator=u1")),
       {"key 'sensor'", "no sensor named 'nope'"}},
      {"two controllers on one ctrl",
       arm_xml(text("p", "type=posture actuators=a1,a2 target=0") + text("q", "type=posture actuators=a2 target=0")),
       {"'p'", "'q'", "ctrl of actuator 'a2'"}},
      {"misspelt prefix (case)", arm_xml("<text name=\"MJHAND:p\" data=\"type=posture\"/>"),
       {"MJHAND:p", "looks like an mjhand plugin instance", "mjhand:NAME"}},
      {"misspelt prefix (separator)", arm_xml("<text name=\"mjhand_p\" data=\"type=posture\"/>"),
       {"mjhand_p", "looks like an mjhand plugin instance"}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string err = attach_error(c.xml);
    REQUIRE_FALSE(err.empty());
    for (const auto& piece : c.expect) CHECK_THAT(err, Contains(piece));
  }
}

TEST_CASE("errors name the MJCF line when the file is known, a model attaches only once", "[host]") {
  // A comment naming the instance first: the line must be that of the declaration, not of the comment.
  const std::string xml = arm_xml("\n<!-- name=\"mjhand:p\" is the posture below -->\n" +
                                  text("p", "type=posture actuators=a1 target=0 bogus=1"));
  auto m = load_xml_string(xml);
  char path[] = "/tmp/mjhand_line_XXXXXX.xml";
  const int fd = mkstemps(path, 4);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, xml.data(), xml.size()) == static_cast<ssize_t>(xml.size()));
  close(fd);
  int line = 1;
  for (char c : xml.substr(0, xml.find("<text name=\"mjhand:p\""))) line += c == '\n';
  AttachOptions opt;
  opt.xml_path = path;
  REQUIRE_THROWS_WITH(Host::attach(m.get(), opt),
                      Catch::Contains(std::string(path) + ":" + std::to_string(line)) && Catch::Contains("'bogus'"));
  std::remove(path);

  auto good = load_xml_string(arm_xml(text("p", "type=posture actuators=a1 target=0")));
  auto h = Host::attach(good.get());
  REQUIRE_THROWS_WITH(Host::attach(good.get()), Catch::Contains("already attached"));
}

TEST_CASE("configuration overrides replace or add keys, and are checked like the MJCF's own", "[host]") {
  using Catch::Contains;
  const std::string xml = arm_xml(text("p", "type=posture actuators=a1,a2 target=0.5"));
  auto m = load_xml_string(xml);
  AttachOptions opt;
  opt.overrides = {parse_override("p.target=-0.25", "--set"), parse_override("p.tau=0.01", "--set")};
  {
    auto host = Host::attach(m.get(), opt);
    auto d = make_data(m.get());
    for (int i = 0; i < 200; ++i) mj_step(m.get(), d.get());
    REQUIRE(d->ctrl[0] == Approx(-0.25).margin(1e-9));  // replaced value, reached fast thanks to the added tau
  }
  opt.overrides = {parse_override("q.target=0", "--set q.target=0")};
  REQUIRE_THROWS_WITH(Host::attach(m.get(), opt), Contains("no plugin instance named 'q'") && Contains("instances: p"));
  opt.overrides = {parse_override("p.tau=-1", "setpoints.txt:3")};
  REQUIRE_THROWS_WITH(Host::attach(m.get(), opt), Contains("key 'tau' = '-1' (from setpoints.txt:3)"));
  opt.overrides = {parse_override("p.type=pid", "--set")};
  REQUIRE_THROWS_WITH(Host::attach(m.get(), opt), Contains("cannot be overridden"));
  for (const char* bad : {"p", "p.tau", ".tau=1", "p.=1", "p.tau=", "ptau=1", "p.tau=1 2"}) {
    INFO(bad);
    REQUIRE_THROWS_WITH(parse_override(bad, "--set"), Contains("--set"));
  }
}

TEST_CASE("an instance switched off has no effect, keeps its state and resumes when switched on", "[host]") {
  register_probe_once();
  auto m = load_xml_string(probe_model());
  auto host = Host::attach(m.get());
  REQUIRE(host->enabled("probe"));
  REQUIRE_THROWS_WITH(host->set_enabled("nope", false), Catch::Contains("no plugin instance named 'nope'") &&
                                                            Catch::Contains("instances: pose, probe"));
  const Instance* probe = host->find("probe");
  REQUIRE(probe->config.size() == 4);  // type, sensor, actuator, k: resolved, in declaration order
  REQUIRE(probe->config[0] == std::make_pair(std::string("type"), std::string("test_probe")));
  REQUIRE(probe->config[3].first == "k");

  auto d = make_data(m.get());
  for (int i = 0; i < 100; ++i) mj_step(m.get(), d.get());
  host->set_enabled("probe", false);
  REQUIRE_FALSE(host->enabled("probe"));
  const mjtNum frozen = host->state(d.get(), *probe)[1];
  d->ctrl[2] = 0.7;  // the user's own value: a switched-off controller must not overwrite it
  for (int i = 0; i < 50; ++i) mj_step(m.get(), d.get());
  REQUIRE(d->ctrl[2] == 0.7);
  REQUIRE(host->state(d.get(), *probe)[1] == frozen);
  REQUIRE(d->sensordata[0] == 0.0);  // its sensor reads 0, not a stale value
  REQUIRE(d->sensordata[1] == 0.0);
  REQUIRE(d->actuator_force[2] == 0.0);  // its user actuator gives no force (gain and bias 0)
  // The other instance keeps running.
  REQUIRE(host->enabled("pose"));
  REQUIRE(d->ctrl[0] > 0.1);

  // Its passive damper is gone too: only the joint's own damping (0.05) acts.
  mj_forward(m.get(), d.get());
  REQUIRE(d->sensordata[0] == 0.0);
  REQUIRE(d->sensordata[2] == d->qpos[0]);  // MuJoCo's own sensor is untouched
  REQUIRE(d->qvel[0] != 0.0);
  REQUIRE(d->qfrc_passive[0] == Approx(-0.05 * d->qvel[0]).epsilon(1e-12));
  host->set_enabled("probe", true);
  mj_forward(m.get(), d.get());
  REQUIRE(d->qfrc_passive[0] == Approx(-0.06 * d->qvel[0]).epsilon(1e-12));
  mj_step(m.get(), d.get());
  REQUIRE(d->sensordata[0] == Approx(d->time - m->opt.timestep).margin(1e-12));
  REQUIRE(d->actuator_force[2] != 0.0);
  REQUIRE(host->state(d.get(), *probe)[1] != frozen);  // resumed from the kept state
}
