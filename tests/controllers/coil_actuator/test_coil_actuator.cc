// The direct-drive coil actuator (Ebner & Wallace 1994, 4.1 / 5.5 / 5.6): torque in MuJoCo vs the formula, the
// inverse map, clipping, R(T), the thermal model against the paper's heating tables and against the closed form,
// configuration errors, reset, and the fits that produce the shipped constants.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/coil_actuator/coil_actuator_plugin.h>
#include <mjhand/coil_actuator/coil_fit.h>
#include <mjhand/coil_actuator/coil_model.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::attach_error;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;

std::string data_dir() { return source_path("controllers/mjhand/coil_actuator/data"); }

using mjhand_test::num;

// One coil actuator: its MJCF name, whether it carries the thermal model (actdim="1": the temperature rise is its
// activation), and the native coil_actuator instance it is bound to.
struct CoilSpec {
  std::string name;
  bool thermal;
  std::string instance;
};
// A native coil_actuator instance: name and configuration in the callback-host form ("k=v k2=v2").
struct InstanceSpec {
  std::string name, config;
};

// One free-standing hinge per coil (no coupling between joints), gravity off. `coils` are in MJCF order: MuJoCo
// wants actuators without dynamics first. `extra` goes into <worldbody>-level siblings (equality...).
std::string coils_xml(const std::vector<CoilSpec>& coils, const std::vector<InstanceSpec>& instances,
                      const std::string& sensors = "", const std::string& joint_attrs = "",
                      const std::string& extra = "", const std::string& option = R"(timestep="0.001")") {
  std::string xml = "<mujoco><extension>";
  for (const auto& i : instances) {
    xml += R"(<plugin plugin="mjhand.coil_actuator"><instance name=")" + i.name + R"("></instance></plugin>)";
  }
  xml += R"(</extension><compiler angle="radian"/><option gravity="0 0 0" )" + option + R"(/><worldbody>)";
  for (const auto& c : coils) {
    xml += R"(<body name="b_)" + c.name + R"("><joint name="j_)" + c.name + R"(" type="hinge" axis="0 0 1" )" +
           joint_attrs + R"(/><inertial pos="0.03 0 0" mass="0.1" diaginertia="1e-5 1e-4 1e-4"/></body>)";
  }
  xml += "</worldbody>" + extra + "<actuator>";
  for (const auto& c : coils) {
    xml += R"(<plugin name=")" + c.name + R"(" joint="j_)" + c.name + R"(" instance=")" + c.instance + R"(")" +
           (c.thermal ? R"( actdim="1")" : "") + "/>";
  }
  xml += "</actuator>";
  if (!sensors.empty()) xml += "<sensor>" + sensors + "</sensor>";
  xml += "</mujoco>";
  for (const auto& i : instances) xml = mjhand_test::with_instance(xml, i.name, i.config);
  return xml;
}

// The coil's sensor (dT, applied current, clipped flag, power), bound to `instance`.
std::string coil_sensor(const std::string& name, const std::string& actuator, const std::string& instance) {
  return R"(<plugin name=")" + name + R"(" instance=")" + instance + R"(" objtype="actuator" objname=")" + actuator +
         R"("/>)";
}

// The parameters a configuration with `link`'s preset gives (as the factory builds them), written here rather than
// read back with find_coil: every use below is tied to the plugin's own copy by what MuJoCo applies (torque, current,
// power), so a mismatch fails the test.
CoilParams preset_coil(int link, KtModel model, double I_max = 3.0) {
  const CoilLinkPreset& pr = coil_link_preset(link);
  CoilParams c;
  c.kt = model == KtModel::kPoly ? TorqueConstant::polynomial(pr.kt_poly) : TorqueConstant::sin2(pr.kt_max);
  c.R0 = pr.R0;
  c.I_max = I_max;
  c.C = pr.C;
  c.R_th = pr.R_th;
  return c;
}

int actuator_id(const mjModel* m, const std::string& name) { return mj_name2id(m, mjOBJ_ACTUATOR, name.c_str()); }
int dof_of(const mjModel* m, int a) { return m->jnt_dofadr[m->actuator_trnid[2 * a]]; }
int qadr_of(const mjModel* m, int a) { return m->jnt_qposadr[m->actuator_trnid[2 * a]]; }
const mjtNum* sensor_of(const mjModel* m, const mjData* d, const std::string& name) {
  return d->sensordata + m->sensor_adr[mj_name2id(m, mjOBJ_SENSOR, name.c_str())];
}

// The paper's torque formulas, written out here independently of the plugin.
double kt_sin2(int link, double phi) {
  const double s = std::sin(phi + kPi / 4);
  return coil_link_preset(link).kt_max * s * s;
}
double kt_poly(int link, double phi) {
  const auto& c = coil_link_preset(link).kt_poly;
  const double x = std::min(std::max(phi, 0.0), kPi / 2);
  return c[0] + c[1] * x + c[2] * x * x + c[3] * x * x * x + c[4] * x * x * x * x;
}

}  // namespace

TEST_CASE("coil torque in MuJoCo equals K_T(phi) I for both K_T models and phi_offset", "[coil]") {
  // p1..p3: polynomial K_T, no thermal model (stateless, first); s1..s3: sin^2 K_T with the thermal model.
  const double alpha = kPi / 4 - std::atan(4.0 / 4.5);  // the paper's alpha (section B.3)
  const std::string xml = coils_xml(
      {{"p1", false, "poly"}, {"p2", false, "poly"}, {"p3", false, "poly"},
       {"s1", true, "sin"}, {"s2", true, "sin"}, {"s3", true, "sin"}},
      {{"poly", "actuators=p1,p2,p3 link=1,2,3 kt_model=poly thermal=false I_max=10"},
       {"sin", "actuators=s1,s2,s3 link=1,2,3 I_max=10 phi_offset=" + num(alpha) + ",0," + num(-alpha)}});
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  REQUIRE(m->na == 3);
  const double offsets[3] = {alpha, 0.0, -alpha};
  int checked = 0;
  for (double q : {-20.0, 0.0, 10.0, 22.5, 45.0, 60.0, 90.0, 120.0}) {
    for (double I : {-2.5, -0.4, 0.0, 0.3, 1.7, 4.9}) {
      for (int k = 0; k < 6; ++k) d->qpos[k] = (q + 3 * k) * kDeg;  // a different angle on every joint
      for (int k = 0; k < 6; ++k) d->ctrl[k] = I * (1 + 0.1 * k);
      for (int k = 0; k < 3; ++k) d->act[k] = 40.0 * k;  // temperature must not change the torque (no V_max)
      mj_forward(m.get(), d.get());
      for (int link = 1; link <= 3; ++link) {
        const int p = actuator_id(m.get(), "p" + std::to_string(link));
        const int s = actuator_id(m.get(), "s" + std::to_string(link));
        const double tau_p = kt_poly(link, d->qpos[qadr_of(m.get(), p)]) * d->ctrl[p];
        const double tau_s = kt_sin2(link, d->qpos[qadr_of(m.get(), s)] - offsets[link - 1]) * d->ctrl[s];
        // The plugin's K_T(phi) I recomputed: rounding (1e-12 relative; 1e-15 N m where the torque is ~0).
        CHECK(d->qfrc_actuator[dof_of(m.get(), p)] == Approx(tau_p).margin(1e-15).epsilon(1e-12));
        CHECK(d->qfrc_actuator[dof_of(m.get(), s)] == Approx(tau_s).margin(1e-15).epsilon(1e-12));
        CHECK(d->actuator_force[s] == Approx(tau_s).margin(1e-15).epsilon(1e-12));
        checked += 2;
      }
    }
  }
  CHECK(checked == 8 * 6 * 6);
  // Tie to the paper: at phi = 45 deg both models give the table's K_T (printed to 0.1 mN m/A).
  const double printed[3] = {62.8e-3, 43.6e-3, 21.0e-3};
  for (int link = 1; link <= 3; ++link) {
    CHECK(std::abs(kt_sin2(link, kPi / 4) - printed[link - 1]) <= 0.05e-3 + 1e-12);
    CHECK(std::abs(kt_poly(link, kPi / 4) - printed[link - 1]) <= 0.05e-3 + 1e-12);
  }
}

TEST_CASE("coil inverse map: torque -> current round trip, limits, singular angle", "[coil]") {
  const std::string xml = coils_xml({{"p", false, "poly"}, {"s", true, "sin"}},
                                    {{"poly", "actuators=p link=2 kt_model=poly thermal=false I_max=2 sensors=sp"},
                                     {"sin", "actuators=s link=1 I_max=2 sensors=ss"}},
                                    coil_sensor("sp", "p", "poly") + coil_sensor("ss", "s", "sin"));
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  const CoilParams poly = preset_coil(2, KtModel::kPoly, 2.0), sin2 = preset_coil(1, KtModel::kSin2, 2.0);
  for (const char* name : {"p", "s"}) {
    const int a = actuator_id(m.get(), name);
    const CoilParams* c = name[0] == 'p' ? &poly : &sin2;
    const std::string sensor = std::string("s") + name;
    for (double phi : {0.0, 0.3, 0.785, 1.2, 1.5707}) {
      for (double tau : {-0.03, -0.004, 0.0, 0.01, 0.035}) {
        const CurrentForTorque r = c->current_for_torque(tau, phi);
        REQUIRE(r.status == CurrentForTorque::kOk);
        d->qpos[qadr_of(m.get(), a)] = phi;
        d->ctrl[a] = r.current;
        mj_forward(m.get(), d.get());
        // Round trip I = tau / K_T, then K_T I: rounding only.
        CHECK(d->qfrc_actuator[dof_of(m.get(), a)] == Approx(tau).margin(1e-15).epsilon(1e-12));
        CHECK(sensor_of(m.get(), d.get(), sensor)[2] == kCoilNotClipped);
      }
    }
    // More torque than 2 A can give: the limit in the torque's direction, and MuJoCo applies exactly that.
    for (double sign : {-1.0, 1.0}) {
      const CurrentForTorque r = c->current_for_torque(sign * 1.0, 0.6);
      CHECK(r.status == CurrentForTorque::kLimited);
      CHECK(r.current == sign * 2.0);
      d->qpos[qadr_of(m.get(), a)] = 0.6;
      d->ctrl[a] = r.current;
      mj_forward(m.get(), d.get());
      CHECK(d->qfrc_actuator[dof_of(m.get(), a)] == Approx(sign * 2.0 * r.kt).epsilon(1e-12));  // rounding only
    }
    CHECK(c->current_for_torque(NAN, 0.3).status == CurrentForTorque::kBadInput);
    CHECK(c->current_for_torque(0.01, INFINITY).current == 0.0);
  }
  // sin^2 K_T vanishes at phi = 135 deg (and -45 deg): no current produces torque there, so 0 A and kSingular;
  // the threshold is 1e-3 K_Tmax, i.e. sin^2(x) <= 1e-3, |x| <= 0.0316 rad around the zero.
  for (double phi : {3 * kPi / 4, 3 * kPi / 4 + 0.03, -kPi / 4 - 0.03}) {
    const CurrentForTorque r = sin2.current_for_torque(0.01, phi);
    CHECK(r.status == CurrentForTorque::kSingular);
    CHECK(r.current == 0.0);
  }
  CHECK(sin2.current_for_torque(0.0001, 3 * kPi / 4 + 0.04).status == CurrentForTorque::kOk);
  // The polynomial is clamped to the measured range, where it is positive: never singular; MuJoCo's torque beyond
  // the range is the end value's too.
  CHECK(poly.current_for_torque(0.01, 3 * kPi / 4).status == CurrentForTorque::kOk);
  CHECK(poly.kt(3 * kPi / 4) == poly.kt(kPi / 2));
  const int p = actuator_id(m.get(), "p");
  double tau_at[2];
  for (int k = 0; k < 2; ++k) {
    d->qpos[qadr_of(m.get(), p)] = k == 0 ? 3 * kPi / 4 : kPi / 2;
    d->ctrl[p] = 1.0;
    mj_forward(m.get(), d.get());
    tau_at[k] = d->qfrc_actuator[dof_of(m.get(), p)];
  }
  CHECK(tau_at[0] == tau_at[1]);
  CHECK(tau_at[1] == Approx(poly.kt(kPi / 2)).epsilon(1e-12));  // the same K_T: rounding only
}

TEST_CASE("coil current clipping (I_max, V_max with R(dT) and back-EMF) is applied and reported", "[coil]") {
  const std::string xml = coils_xml({{"a", true, "coils"}, {"b", true, "coils"}},
                                    {{"coils", "actuators=a,b link=1 I_max=1.5,3 V_max=0,10 sensors=sa,sb"}},
                                    coil_sensor("sa", "a", "coils") + coil_sensor("sb", "b", "coils"));
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  const int a = actuator_id(m.get(), "a"), b = actuator_id(m.get(), "b");
  const double R0 = coil_link_preset(1).R0;
  const double phi = 0.5;
  d->qpos[qadr_of(m.get(), a)] = d->qpos[qadr_of(m.get(), b)] = phi;
  const double kt = kt_sin2(1, phi);

  // Current limit on a: 1.5 A.
  struct Case { double cmd, applied; int flag; };
  for (const Case& c : {Case{1.0, 1.0, 0}, Case{2.0, 1.5, 1}, Case{-7.0, -1.5, 1}, Case{1.5, 1.5, 0}}) {
    d->ctrl[a] = c.cmd;
    mj_forward(m.get(), d.get());
    const mjtNum* s = sensor_of(m.get(), d.get(), "sa");
    CHECK(s[1] == c.applied);
    CHECK(s[2] == c.flag);
    // Formulas recomputed here and below: 1e-12 is rounding.
    CHECK(s[3] == Approx(c.applied * c.applied * R0).epsilon(1e-12));  // at rest: Joule heat only
    CHECK(d->qfrc_actuator[dof_of(m.get(), a)] == Approx(kt * c.applied).epsilon(1e-12));
  }
  // Voltage limit on b: |I R(dT) + K_T phidot| <= 10 V, R(dT) = R0 (1 + 0.00393 dT).
  for (double dT : {0.0, 50.0, 120.0}) {
    for (double phidot : {0.0, 4.0, -4.0}) {
      d->act[b - (m->nu - m->na)] = dT;
      d->qvel[dof_of(m.get(), b)] = phidot;
      const double R = R0 * (1 + 0.00393 * dT), e = kt * phidot;
      for (double cmd : {5.0, -5.0, 0.1}) {
        d->ctrl[b] = cmd;
        mj_forward(m.get(), d.get());
        const mjtNum* s = sensor_of(m.get(), d.get(), "sb");
        const double hi = (10 - e) / R, lo = (-10 - e) / R;
        const double want = std::min(std::max(cmd, lo), hi);
        CHECK(s[0] == dT);
        // The clipping and power formulas recomputed: 1e-12 is rounding.
        CHECK(s[1] == Approx(want).epsilon(1e-12));
        CHECK(s[2] == (want == cmd ? 0 : 1));
        CHECK(s[3] == Approx(want * (want * R + e)).epsilon(1e-12));
        CHECK(d->actuator_force[b] == Approx(kt * want).epsilon(1e-12));
      }
    }
  }
  // A non-finite command never reaches the torque. (MuJoCo itself zeroes all ctrl on a bad number and warns, so
  // the plugin's own guard is checked by calling the instance's sensor and bias functions, which MuJoCo's plugin
  // calls run, on the NaN command directly.)
  d->ctrl[a] = NAN;
  const int coils = mj_name2id(m.get(), mjOBJ_PLUGIN, "coils");
  const Plugin* plugin = native_plugin(m.get(), d.get(), coils);
  REQUIRE(plugin != nullptr);
  mjtNum* state = native_state(m.get(), d.get(), coils);
  plugin->sensor(m.get(), d.get(), mjSTAGE_ACC, state);
  CHECK(sensor_of(m.get(), d.get(), "sa")[1] == 0.0);
  CHECK(sensor_of(m.get(), d.get(), "sa")[2] == kCoilBadCommand);
  CHECK(plugin->actuator_bias(m.get(), d.get(), a, state) == 0.0);
  CHECK(plugin->actuator_gain(m.get(), d.get(), a, state) == 0.0);
  mj_forward(m.get(), d.get());
  CHECK(std::isfinite(d->qfrc_actuator[dof_of(m.get(), a)]));
}

TEST_CASE("find_coil and coil_state give a controller the configured coil and the state the plugin applies",
          "[coil]") {
  const std::string xml = coils_xml({{"a", true, "coils"}, {"b", true, "coils"}},
                                    {{"coils", "actuators=a,b link=2 I_max=1.5,3 phi_offset=0,0.2 sensors=sa,sb"}},
                                    coil_sensor("sa", "a", "coils") + coil_sensor("sb", "b", "coils"));
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  const int a = actuator_id(m.get(), "a"), b = actuator_id(m.get(), "b");
  const CoilParams* pa = find_coil(m.get(), d.get(), a);
  const CoilParams* pb = find_coil(m.get(), d.get(), b);
  REQUIRE(pa != nullptr);
  REQUIRE(pb != nullptr);
  CHECK(pa != pb);
  // The configured values, each coil its own: link 2's preset, I_max and phi_offset per actuator.
  const CoilLinkPreset& preset = coil_link_preset(2);
  CHECK(pa->R0 == preset.R0);
  CHECK(pa->kt(0.3) == Approx(kt_sin2(2, 0.3)).epsilon(1e-12));  // the formula recomputed: 1e-12 is rounding
  CHECK(pa->I_max == 1.5);
  CHECK(pb->I_max == 3.0);
  CHECK(pa->phi_offset == 0.0);
  CHECK(pb->phi_offset == 0.2);
  CHECK(find_coil(m.get(), d.get(), m->nu) == nullptr);  // no coil drives it
  CHECK_THROWS_AS(coil_state(m.get(), d.get(), m->nu), std::invalid_argument);

  d->qpos[qadr_of(m.get(), b)] = 0.7;
  d->qvel[dof_of(m.get(), b)] = -2.0;
  d->act[b - (m->nu - m->na)] = 40.0;  // the temperature rise is the thermal coil's activation
  d->ctrl[b] = 5.0;                    // above I_max: the driver clips
  mj_forward(m.get(), d.get());
  const CoilState st = coil_state(m.get(), d.get(), b);
  CHECK(st.phi == 0.7 - 0.2);
  CHECK(st.phidot == -2.0);
  CHECK(st.dT == 40.0);
  // The current the plugin reports through its sensor and applies as torque.
  const mjtNum* sensor = sensor_of(m.get(), d.get(), "sb");
  CHECK(st.current.current == sensor[1]);
  CHECK(st.current.limit == sensor[2]);
  CHECK(st.current.limit != kCoilNotClipped);
  CHECK(d->actuator_force[b] == Approx(pb->kt(st.phi) * st.current.current).epsilon(1e-12));

  // A model without coils has none to find.
  auto plain = mjhand_test::load_xml_file(source_path("models/pid_finger.xml"));
  auto plain_data = make_data(plain.get());
  CHECK(find_coil(plain.get(), plain_data.get(), 0) == nullptr);
}

TEST_CASE("coil resistance R(dT) = R0 (1 + 0.00393 dT) rises with temperature and lowers the voltage-limited current",
          "[coil]") {
  CoilParams p;
  p.R0 = 22.1;
  double last = 0;
  for (double dT = 0; dT <= 200; dT += 10) {
    const double R = p.resistance(dT);
    CHECK(R == Approx(22.1 * (1 + kCopperAlpha * dT)).epsilon(1e-15));  // the same formula: rounding only
    CHECK(R > last);
    last = R;
  }
  CHECK(p.resistance(100) / p.resistance(0) == Approx(1.393).epsilon(1e-12));  // 1 + 0.393 exactly: rounding only
  // In MuJoCo: a coil at a fixed supply voltage carries less current, and so gives less torque, when hot.
  const std::string xml = coils_xml({{"c", true, "c"}}, {{"c", "actuators=c link=2 V_max=37.4 I_max=10 sensors=sc"}},
                                    coil_sensor("sc", "c", "c"));
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  d->qpos[0] = kPi / 4;
  d->ctrl[0] = 10;
  double last_I = INFINITY, last_tau = INFINITY;
  for (double dT : {0.0, 25.0, 50.0, 87.1}) {
    d->act[0] = dT;
    mj_forward(m.get(), d.get());
    const mjtNum* s = sensor_of(m.get(), d.get(), "sc");
    CHECK(s[1] == Approx(37.4 / (22.1 * (1 + 0.00393 * dT))).epsilon(1e-12));  // rounding only
    CHECK(s[1] < last_I);
    CHECK(d->qfrc_actuator[0] < last_tau);
    last_I = s[1];
    last_tau = d->qfrc_actuator[0];
  }
}

TEST_CASE("coil thermal model in MuJoCo matches the closed form (constant current) and its steady rise", "[coil]") {
  // With I constant the model is linear: C T' = a + b T, a = I^2 R0, b = I^2 R0 alpha - 1/R_th, so
  // T(t) = (a / -b) (1 - exp(b t / C)). Link 1's fitted C, R_th and R0; I = 1 A; 30 s.
  const CoilLinkPreset& pr = coil_link_preset(1);
  const double I = 1.0, a = I * I * pr.R0, b = I * I * pr.R0 * kCopperAlpha - 1 / pr.R_th;
  auto exact = [&](double t) { return a / -b * (1 - std::exp(b * t / pr.C)); };
  for (const char* integrator : {"RK4", "Euler"}) {
    const std::string xml = coils_xml({{"c", true, "c"}}, {{"c", "actuators=c link=1"}}, "", "",
                                      R"(<equality><joint joint1="j_c"/></equality>)",
                                      std::string("timestep=\"0.001\" integrator=\"") + integrator + "\"");
    auto m = load_xml_string(xml);
    auto d = make_data(m.get());
    double worst = 0;
    for (int k = 0; k < 30000; ++k) {
      d->ctrl[0] = I;
      mj_step(m.get(), d.get());
      if (k % 1000 == 999) worst = std::max(worst, std::abs(d->act[0] - exact(d->time)));
    }
    std::cout << "coil closed form, " << integrator << ": T(30 s) = " << d->act[0] << " K, exact " << exact(30.0)
              << " K, worst error " << worst << " K\n";
    CHECK(exact(30.0) > 10.0);
    // RK4 is exact to rounding here. Euler's local error h^2/2 T'' grows like the solution's own mode, so its global
    // error is (h/2) (b a / C^2) t exp(b t / C) at most (3.83e-6 K at 30 s); 10 % margin.
    const double euler = 0.5 * m->opt.timestep * std::abs(b) * a / (pr.C * pr.C) * 30.0 * std::exp(b * 30.0 / pr.C);
    CHECK(worst < (std::string(integrator) == "RK4" ? 1e-9 : 1.1 * euler));
  }
  // Steady rise: a short time constant (C = 0.5 J/K, 7.5 s with the resistance feedback); Euler's fixed point is
  // the ODE's, so the end state equals steady_rise() up to the transient left after 27 time constants.
  const std::string xml = coils_xml({{"c", true, "c"}}, {{"c", "actuators=c link=3 C=0.5"}}, "", "",
                                    R"(<equality><joint joint1="j_c"/></equality>)", "timestep=\"0.01\"");
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  for (int k = 0; k < 20000; ++k) {  // 200 s = 27 time constants
    d->ctrl[0] = 0.8;
    mj_step(m.get(), d.get());
  }
  CoilParams preset = preset_coil(3, KtModel::kSin2);
  preset.C = 0.5;
  const CoilParams* c = &preset;
  // Euler approaches the fixed point by (1 - dt / 7.5 s) per step: exp(-26.7) = 2.5e-12 of the start offset is left
  // after 20000 steps; measured -2.52e-12 relative. 1e-11 = 4x (the old 1e-9 was 400x).
  CHECK(d->act[0] == Approx(c->steady_rise(0.8)).epsilon(1e-11));
  // The closed form rearranged: rounding of a few operations, ~10 eps; measured 4.4e-16 relative.
  CHECK(c->steady_rise(0.8) == Approx(0.64 * 14.7 * c->R_th / (1 - 0.64 * 14.7 * c->R_th * kCopperAlpha)).epsilon(1e-14));
  CHECK(std::isinf(c->steady_rise(std::sqrt(1.0 / (14.7 * c->R_th * kCopperAlpha)) * 1.01)));  // thermal runaway
}

TEST_CASE("coil thermal model reproduces the paper's heating tables (5.6) within the fit's RMS", "[coil]") {
  // The experiment: each coil at constant voltage U_coil, joint held, for 60 s (40 V supply) or 150 s (20 V).
  // In MuJoCo: V_max = U_coil, R0 = U_coil / I(0) of the run, a command far above what the voltage allows, so the
  // driver applies I = U_coil / R(dT): the voltage source of the experiment. dT is the actuator activation.
  for (int link = 1; link <= 3; ++link) {
    const CoilFit fit = fit_coil_link(data_dir(), link);
    double sum2 = 0, sum2_fit = 0, sum2_I = 0, worst_vs_fit = 0;
    int n = 0;
    for (const HeatingRun& run : fit.runs) {
      const std::string xml = coils_xml(
          {{"c", true, "c"}},
          {{"c", "actuators=c link=" + std::to_string(link) + " V_max=" + num(run.U) + " R0=" + num(run.R0()) +
                     " I_max=100 sensors=sc"}},
          coil_sensor("sc", "c", "c"), R"(ref="0.7853981633974483")", R"(<equality><joint joint1="j_c"/></equality>)");
      auto m = load_xml_string(xml);
      const CoilParams coil = preset_coil(link, KtModel::kSin2);
      auto d = make_data(m.get());
      const std::vector<double> model = simulate_heating(run, fit.thermal.C, fit.thermal.R_th, kCopperAlpha);
      size_t i = 0;
      for (int k = 0; i < run.t.size(); ++k) {
        // d->time is summed step by step: rounding, far below the 1 ms step.
        if (std::abs(d->time - run.t[i]) < 1e-6) {
          d->ctrl[0] = 100;
          mj_forward(m.get(), d.get());
          const mjtNum* s = sensor_of(m.get(), d.get(), "sc");
          CHECK(s[2] == kCoilClipped);
          // I = (U - e) / R(dT); the held joint creeps at ~1e-5 rad/s, so the back-EMF e is ~1e-6 V.
          const double e = coil.kt(d->qpos[0]) * d->qvel[0];
          CHECK(std::abs(e) < 1e-4);
          // The driver's current recomputed: rounding only.
          CHECK(s[1] == Approx((run.U - e) / (run.R0() * (1 + kCopperAlpha * d->act[0]))).epsilon(1e-12));
          if (run.t[i] > 0) {
            sum2 += std::pow(d->act[0] - run.dT[i], 2);
            sum2_fit += std::pow(model[i] - run.dT[i], 2);
            sum2_I += std::pow(s[1] - run.I[i], 2);
            ++n;
          }
          worst_vs_fit = std::max(worst_vs_fit, std::abs(d->act[0] - model[i]));
          ++i;
        }
        d->ctrl[0] = 100;
        mj_step(m.get(), d.get());
      }
      // Held by a soft joint equality: it yields ~5 mrad under the coil's ~0.09 N m, which the heating ignores.
      CHECK(std::abs(d->qpos[0] - kPi / 4) < 0.01);
    }
    const double rms = std::sqrt(sum2 / n), rms_fit = std::sqrt(sum2_fit / n);
    std::cout << "coil link " << link << ": MuJoCo dT vs 5.6 tables RMS " << rms << " K (fit " << fit.thermal.rms
              << " K, " << n << " points), current RMS " << std::sqrt(sum2_I / n) << " A, max |MuJoCo - fit model| "
              << worst_vs_fit << " K\n";
    CHECK(rms_fit == Approx(fit.thermal.rms).epsilon(1e-9));  // rounding only
    // Euler at 1 ms vs the fit's RK4 at 10 ms: the two integrations of one model differ by Euler's O(dt) error,
    // measured 8.9e-5 / 2.6e-4 / 6.7e-4 K (links 1 / 2 / 3); 2 ms doubles it (1.36e-3 K on link 3), 0.5 ms halves it
    // (3.3e-4 K), so the dt -> 0 limit is ~0. Bound 2e-3 K = 3x link 3's (the old 0.02 was 30x).
    CHECK(worst_vs_fit < 2e-3);
    // So MuJoCo reproduces the tables as well as the fit does: |rms - rms_fit| <= RMS|MuJoCo - fit| <= worst_vs_fit
    // (Minkowski), measured 3.9e-6 / 1.7e-5 / 4.1e-5 K; the same 2e-3 K bound.
    CHECK(rms <= fit.thermal.rms + 2e-3);
    // And the fit itself against the paper's data, not only MuJoCo against the fit: the first-order model must follow
    // the heating curves to a few percent of the largest rise (measured 1.9 / 2.9 / 2.1 %: 0.84 / 2.57 / 3.08 K of
    // 45 / 87 / 144 K). The tables' dT are computed from currents printed to 3 digits, which alone quantises them by
    // up to 1.3 K, so a bound much below 1 K would test the rounding; 5 % fails a model that misses the curve's shape.
    double largest = 0;
    for (const HeatingRun& run : fit.runs) {
      for (double v : run.dT) largest = std::max(largest, v);
    }
    CHECK(fit.thermal.rms < 0.05 * largest);
  }
}

TEST_CASE("coil fits: the paper's K_T, the reconstructed double line, the shipped constants, RMS of both models",
          "[coil]") {
  for (int link = 1; link <= 3; ++link) {
    const CoilFit fit = fit_coil_link(data_dir(), link);
    const TorqueTable& t = fit.table;
    // K_T = mean tau/I below the double line reproduces every printed K_T to its last digit (0.1 mN m/A), and no
    // other first row does: the reconstruction of the lost line is unique.
    auto reproduces = [&](int first) {
      const std::vector<double> kt = kt_mean_ratio(t, first);
      for (size_t a = 0; a < kt.size(); ++a) {
        if (std::abs(kt[a] - t.kt_printed[a]) > 0.05e-3 + 1e-12) return false;
      }
      return true;
    };
    CHECK(reproduces(t.first_used_row));
    int matches = 0;
    for (int first = 0; first + 2 < static_cast<int>(t.tau.size()); ++first) matches += reproduces(first) ? 1 : 0;
    CHECK(matches == 1);
    // The shipped preset is what the fit produces.
    const CoilLinkPreset& shipped = coil_link_preset(link);
    const CoilLinkPreset fitted = preset_from_fit(fit);
    // kt_max is a mean of ratios (rounding); kt_poly solves a 5x5 Vandermonde system (rounding times its condition).
    // All measured 0 here (the presets were printed by this build with 17 digits); the bounds are for other
    // compilers: perturbing V and K_T by 1 ulp moves the coefficients by <= 7e-13 relative (link 3's small c1;
    // cond(V) = 577 at 0..90 deg), so 1e-11 = 14x (the old 1e-10 was 140x).
    CHECK(shipped.kt_max == Approx(fitted.kt_max).epsilon(1e-12));
    for (int k = 0; k < 5; ++k) CHECK(shipped.kt_poly[k] == Approx(fitted.kt_poly[k]).epsilon(1e-11));
    CHECK(shipped.R0 == fitted.R0);
    // C and R_th: Levenberg-Marquardt stops when the cost no longer decreases; at the flat minimum a cost change at
    // rounding (eps relative) moves the parameters by ~sqrt(eps) = 1.5e-8 relative. Measured 0; 1e-7 = 7x that.
    CHECK(shipped.C == Approx(fitted.C).epsilon(1e-7));
    CHECK(shipped.R_th == Approx(fitted.R_th).epsilon(1e-7));
    CHECK(fit.thermal.converged);
    // 5 angles and a quartic: the polynomial interpolates the K_T points. Against the measured torques it is the
    // better model on every link; sin^2 with the paper's K_Tmax is off by several mN m/A away from 45 deg.
    CHECK(fit.kt.rms_kt_poly < 1e-12);  // interpolation: rounding only
    CHECK(fit.kt.rms_tau_poly < fit.kt.rms_tau_sin2);
    CHECK(fit.kt.rms_kt_sin2 > 1e-3);
    std::cout << "coil link " << link << ": K_T RMS vs points sin2 " << fit.kt.rms_kt_sin2 * 1e3
              << " mN m/A; vs " << fit.kt.n_tau << " torques sin2 " << fit.kt.rms_tau_sin2 * 1e3 << " poly "
              << fit.kt.rms_tau_poly * 1e3 << " mN m; thermal C " << fit.thermal.C << " J/K R_th " << fit.thermal.R_th
              << " K/W RMS " << fit.thermal.rms << " K\n";
  }
}

TEST_CASE("coil heating tables: the paper's dT is R(T) = U/I read backwards, within the rounding of I", "[coil]") {
  // Footnote of 5.6: dT was calculated from R = R0 (1 + alpha dT) with R = U_coil / I, so I0 = I (1 + alpha dT) at
  // every row. I is printed to 2 decimals (3 for link 1 at 20 V). Each row's implied I0 must round to the printed
  // I(0), and dT must follow from I within the effect of half a unit on I and on I0 -- except link 1 at 40 V, whose
  // dT column implies I0 = 1.19 A, not the printed 1.18 A (erratum, docs/coil-actuator.md).
  int checked = 0;
  for (const char* file : {"/heating_40V.csv", "/heating_20V.csv"}) {
    for (const HeatingRun& run : load_heating_table(data_dir() + file)) {
      const double half_unit = run.link == 1 && run.U < 20 ? 0.0005 : 0.005;
      double I0 = 0;
      for (size_t i = 1; i < run.t.size(); ++i) I0 += run.I[i] * (1 + kCopperAlpha * run.dT[i]) / (run.t.size() - 1);
      INFO(file << " link " << run.link << ": I0 implied by dT " << I0 << " A, printed " << run.I[0] << " A");
      const bool erratum = run.link == 1 && run.U > 30;
      CHECK(std::abs(I0 - (erratum ? 1.19 : run.I[0])) <= half_unit);
      for (size_t i = 1; i < run.t.size(); ++i) {
        const double I = run.I[i];
        const double dT = ((erratum ? 1.19 : run.I[0]) / I - 1) / kCopperAlpha;
        const double bound = half_unit * (I0 / (I * I) + 1 / I) / kCopperAlpha;
        INFO("t = " << run.t[i]);
        CHECK(std::abs(dT - run.dT[i]) <= bound);
        ++checked;
      }
    }
  }
  CHECK(checked == 3 * (12 + 15));
}

TEST_CASE("coil presets reproduce the paper's current and power figures, and its heat limit", "[coil]") {
  // Section 5: holding a finger horizontal takes 4.2e-3, 54.6e-3, 176e-3 N m (links 3, 2, 1; palm down) or 4.2e-3,
  // 48.1e-3, 103e-3 N m (palm up): 0.34, 2.56, 7.39 A / 0.34, 2.26, 4.33 A, i.e. 9.0 kW / 3.4 kW for 5 fingers.
  // Those currents use the worst torque constant, K_T(0 deg) of the tables; the powers are 5 sum I^2 R.
  const double tau_down[3] = {176e-3, 54.6e-3, 4.2e-3}, tau_up[3] = {103e-3, 48.1e-3, 4.2e-3};
  const double I_down[3] = {7.39, 2.56, 0.34}, I_up[3] = {4.33, 2.26, 0.34};
  double P_down = 0, P_up = 0;
  for (int link = 1; link <= 3; ++link) {
    const double kt0 = kt_poly(link, 0.0);
    const double R = coil_link_preset(link).R0;
    // The paper divides by its printed K_T(0) (23.8, 21.3, 12.4 mN m/A: 176 / 23.8 = 7.395 -> 7.39) and prints I to
    // 0.01 A; kt0 reproduces the printed K_T to its last digit (0.05 mN m/A, tested above). So |tau / kt0 - I| <=
    // 0.005 A + I 0.05e-3 / kt0: 0.021 / 0.011 / 0.0064 A for links 1 / 2 / 3. Measured palm down 0.0079 / 0.0039 /
    // 0.0003 A, palm up 0.0006 / 0.0014 / 0.0003 A (link 1 palm down: 0.005 rounding + 0.4 per mille of K_T).
    CHECK(std::abs(tau_down[link - 1] / kt0 - I_down[link - 1]) <= 0.005 + I_down[link - 1] * 0.05e-3 / kt0);
    CHECK(std::abs(tau_up[link - 1] / kt0 - I_up[link - 1]) <= 0.005 + I_up[link - 1] * 0.05e-3 / kt0);
    P_down += 5 * std::pow(tau_down[link - 1] / kt0, 2) * R;
    P_up += 5 * std::pow(tau_up[link - 1] / kt0, 2) * R;
  }
  // Printed to 2 digits (half a unit: 0.56 % of 9.0 kW, 1.5 % of 3.4 kW), plus twice the K_T rounding above in
  // I^2 (<= 0.4 %). Measured 9026 W (+0.29 %) and 3412 W (+0.35 %); 1 % is 3.4x and 2.9x those (the derived
  // worst case for P_up, 1.9 %, is not needed).
  CHECK(P_down == Approx(9.0e3).epsilon(0.01));
  CHECK(P_up == Approx(3.4e3).epsilon(0.01));
  // "The hand is not able to support itself if it is powered according to its heat constraints" (1.4): with the
  // coils' 105 C tape (A.1) and 25 C ambient, dT <= 80 K; the fitted thermal model's continuous current for that
  // is far below what links 1 and 2 need palm up.
  for (int link = 1; link <= 3; ++link) {
    CoilParams p;
    const CoilLinkPreset& pr = coil_link_preset(link);
    p.R0 = pr.R0;
    p.C = pr.C;
    p.R_th = pr.R_th;
    const double x = 80.0 / (1 + kCopperAlpha * 80.0);  // I^2 R0 R_th for a steady rise of 80 K
    const double I80 = std::sqrt(x / (pr.R0 * pr.R_th));
    CHECK(p.steady_rise(I80) == Approx(80.0).epsilon(1e-12));  // the closed form inverted: rounding only
    std::cout << "coil link " << link << ": continuous current for dT = 80 K: " << I80 << " A (palm up needs "
              << I_up[link - 1] << " A)\n";
    // Measured 0.10 and 0.18 of the palm-up current (links 1, 2): a quarter of the current is 1/16 of the Joule heat,
    // so the paper's "cannot support itself" holds with 16x of heat to spare (2.9x on link 2's I^2 ratio).
    if (link < 3) CHECK(I80 < 0.25 * I_up[link - 1]);
  }
}

TEST_CASE("coil fit: a thermal fit with non-physical parameters is rejected", "[coil]") {
  // Heating that accelerates (dT = 0.02 t^2 at constant power) needs negative heat loss: G = 1/R_th < 0.
  HeatingRun run;
  run.link = 1;
  run.U = 20;
  for (int k = 0; k <= 12; ++k) {
    run.t.push_back(5.0 * k);
    run.dT.push_back(0.02 * run.t.back() * run.t.back());
    run.I.push_back(run.U / (30 * (1 + kCopperAlpha * run.dT.back())));
  }
  CoilFit fit;
  fit.link = 1;
  fit.table = load_torque_table(data_dir() + "/torque_link1.csv");
  fit.kt = fit_torque_constant(fit.table);
  fit.runs = {run};
  fit.thermal = fit_thermal(fit.runs);
  CHECK(fit.thermal.G < 0);
  try {
    preset_from_fit(fit);
    FAIL("a negative thermal resistance was accepted");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::Contains("thermal fit of link 1") && Catch::Contains("R_th") &&
                             Catch::Contains("not physical"));
  }
  CHECK_THROWS_WITH(check_thermal_params(0.0, 5.0), Catch::Contains("heat capacity C = 0"));
  CHECK_THROWS_WITH(check_thermal_params(-2.0, 5.0), Catch::Contains("not physical"));
  CHECK_THROWS_WITH(check_thermal_params(10.0, 0.0), Catch::Contains("thermal resistance R_th = 0"));
  CHECK_THROWS_WITH(load_torque_table(data_dir() + "/missing.csv"), Catch::Contains("cannot open"));
  CHECK_THROWS_WITH(TorqueConstant::polynomial({0.01, -0.1, 0, 0, 0}), Catch::Contains("must be positive"));
}

TEST_CASE("coil bad configurations are rejected naming instance and key", "[coil]") {
  auto err = [](const std::string& data, const std::string& sensors = "", bool thermal_act = true,
                const std::string& act_attrs = "") {
    std::string xml = coils_xml({{"c", thermal_act, "hot"}}, {{"hot", "actuators=c " + data}}, sensors);
    if (!act_attrs.empty()) {
      const std::string anchor = R"(<plugin name="c")";
      xml.replace(xml.find(anchor), anchor.size(), anchor + " " + act_attrs);
    }
    return attach_error(xml);
  };
  struct Bad { std::string data, key, why; };
  const std::vector<Bad> bad = {
      {"link=1 C=0", "'C'", "not physical"},
      {"link=1 C=-3", "'C'", "heat capacity"},
      {"link=1 R_th=0", "'R_th'", "not physical"},
      {"link=1 R_th=-1", "'R_th'", "thermal resistance"},
      {"link=4", "'link'", "must be 1, 2 or 3"},
      {"link=1 kt_model=cubic", "'kt_model'", "must be one of"},
      {"link=1 kt_model=poly kt_poly=1,2,3", "'kt_poly'", "needs 5 coefficients"},
      {"link=1 kt_model=poly kt_poly=0.01,-0.1,0,0,0", "'kt_poly'", "must be positive"},
      {"link=1 kt_poly=0.01,0,0,0,0", "'kt_poly'", "only used with kt_model=poly"},
      {"link=1 kt_max=0", "'kt_max'", "must be > 0"},
      {"link=1 R0=-30", "'R0'", "must be > 0"},
      {"link=1 I_max=0", "'I_max'", "must be > 0"},
      {"link=1 V_max=-1", "'V_max'", ">= 0"},
      {"link=1 alpha_R=0.5", "'alpha_R'", "[0, 0.1]"},
      {"link=1 I_max=1,2", "'I_max'", "needs 1 or 1 values"},
      {"kt_max=0.05 R0=30 C=40", "'R_th'", "missing required key"},
      {"R0=30 C=40 R_th=10", "'kt_max'", "missing required key"},
      {"link=1 thermal=false C=40", "'C'", "only used with thermal=true"},
      {"link=1 gain=3", "'plugin:gain'", "unrecognized attribute"},  // MuJoCo's own check of the declared keys
      {"link=1 sensors=nope", "'sensors'", "no sensor named"},
  };
  for (const Bad& b : bad) {
    const std::string e = err(b.data);
    INFO(b.data << " -> " << e);
    CHECK_THAT(e, Catch::Contains("'hot'") && Catch::Contains(b.key) && Catch::Contains(b.why));
  }
  // MJCF the coil cannot drive.
  CHECK_THAT(err("link=1", "", false), Catch::Contains("'hot'") && Catch::Contains("needs actdim=\"1\""));
  CHECK_THAT(err("link=1 thermal=false"), Catch::Contains("'hot'") && Catch::Contains("thermal=false"));
  CHECK_THAT(err("link=1", "", true, R"(ctrllimited="true" ctrlrange="-1 1")"), Catch::Contains("ctrllimited"));
  CHECK_THAT(err("link=1", "", true, R"(gear="2")"), Catch::Contains("gear=\"1\""));
  CHECK_THAT(err("link=1", "", true, R"(forcelimited="true" forcerange="-1 1")"), Catch::Contains("forcelimited"));
  // Sensors: the plugin sizes its own (4 values at the acceleration stage), so what remains to get wrong is the
  // binding: a sensor of MuJoCo's own named by `sensors`, or a sensor bound to the instance that it does not name.
  CHECK_THAT(err("link=1 sensors=s", R"(<actuatorfrc name="s" actuator="c"/>)"),
             Catch::Contains("'hot'") && Catch::Contains("'sensors'") && Catch::Contains("not bound to this instance"));
  CHECK_THAT(err("link=1", coil_sensor("s", "c", "hot")),
             Catch::Contains("'hot'") && Catch::Contains("sensor 's'") && Catch::Contains("does not name it"));
}

TEST_CASE("coil temperature is state in mjData: mj_resetData clears it and the run repeats exactly", "[coil]") {
  const std::string xml = coils_xml({{"c", true, "c"}}, {{"c", "actuators=c link=3 sensors=sc"}},
                                    coil_sensor("sc", "c", "c"), R"(damping="0.01")");
  auto m = load_xml_string(xml);
  auto run = [&](mjData* d) {
    std::vector<double> trace;
    for (int k = 0; k < 2000; ++k) {
      d->ctrl[0] = 2.0 * std::sin(0.01 * k);
      mj_step(m.get(), d);
      trace.push_back(d->act[0]);
      trace.push_back(d->qpos[0]);
    }
    return trace;
  };
  auto d = make_data(m.get());
  const std::vector<double> first = run(d.get());
  CHECK(d->act[0] > 1.0);  // heated
  CHECK(sensor_of(m.get(), d.get(), "sc")[0] > 1.0);
  mj_resetData(m.get(), d.get());
  CHECK(d->act[0] == 0.0);
  mj_forward(m.get(), d.get());
  CHECK(sensor_of(m.get(), d.get(), "sc")[0] == 0.0);
  const std::vector<double> second = run(d.get());
  auto fresh = make_data(m.get());
  const std::vector<double> third = run(fresh.get());
  CHECK(second == first);
  CHECK(third == first);
}

TEST_CASE("coil example model: a finger held by PID currents heats its coils", "[coil]") {
  const std::string path = source_path("models/coil_joint.xml");
  auto m = mjhand_test::load_xml_file(path);
  auto d = make_data(m.get());
  const int steps = static_cast<int>(2.0 / m->opt.timestep);
  for (int k = 0; k < steps; ++k) mj_step(m.get(), d.get());
  mj_forward(m.get(), d.get());  // sensors of the final state (mj_step computes them before integrating)
  const double setpoint[3] = {0.15, 0.3, 0.3};
  for (int k = 0; k < 3; ++k) {
    const std::string name = "coil" + std::to_string(k + 1);
    const mjtNum* s = sensor_of(m.get(), d.get(), name);
    INFO(name << ": q = " << d->qpos[k] << " dT = " << s[0] << " I = " << s[1] << " P = " << s[3]);
    // The PID holds the posture against gravity: the integral's transient decays by ~14x per 0.5 s (measured
    // max 6.5e-4 rad at 1.5 s, 4.1e-5 rad at 2 s, 3.1e-6 rad at 3 s; 3.7e-5 at 2 s with dt halved: not a dt
    // effect). Bound 2e-4 rad = 5x the 2 s value (the old 5e-3 was 120x); it fails if settling is 0.5 s slower.
    CHECK(std::abs(d->qpos[k] - setpoint[k]) < 2e-4);
    CHECK(s[0] > 0.0);                                // held against gravity: the coils heat up
    CHECK(s[0] == d->act[k]);
    CHECK(s[2] == kCoilNotClipped);
    const CoilParams coil = preset_coil(k + 1, KtModel::kPoly);  // the model's link=1,2,3 kt_model=poly
    // The power formula recomputed: rounding only.
    CHECK(s[3] == Approx(s[1] * (s[1] * coil.resistance(s[0]) + coil.kt(d->qpos[k]) * d->qvel[k])).epsilon(1e-12));
  }
}

TEST_CASE("coil scene: the direct-drive hand closes on its coils' currents", "[coil]") {
  const std::string path = source_path("models/direct_drive_coil_scene.xml");
  auto m = mjhand_test::load_xml_file(path);
  auto d = make_data(m.get());
  REQUIRE(m->na == 15);
  std::vector<double> peak_dT(15, 0.0);
  const int steps = static_cast<int>(1.5 / m->opt.timestep);
  for (int k = 0; k < steps; ++k) {
    mj_step(m.get(), d.get());
    for (int i = 0; i < 15; ++i) peak_dT[i] = std::max(peak_dT[i], d->act[i]);
  }
  mj_forward(m.get(), d.get());  // sensors of the final state (mj_step computes them before integrating)
  for (int f = 1; f <= 5; ++f) {
    for (int j = 1; j <= 3; ++j) {
      const std::string coil = "f" + std::to_string(f) + "_c" + std::to_string(j);
      const int a = actuator_id(m.get(), coil);
      const int i = a - (m->nu - m->na);
      INFO(coil << ": q = " << d->qpos[qadr_of(m.get(), a)] << ", peak dT = " << peak_dT[i]);
      // The PIDs settle on 1.2 rad: measured max 2.4e-4 rad at 1.5 s (2.5e-3 at 1.2 s, 8e-7 at 2.5 s; 2.3e-4 with
      // dt halved: the control transient, not integration error). Bound 1e-3 rad = 4x (the old 0.01 was 41x).
      CHECK(std::abs(d->qpos[qadr_of(m.get(), a)] - 1.2) < 1e-3);
      CHECK(peak_dT[i] > (j < 3 ? 0.1 : 0.001));  // closing the hand warmed every coil
      // Every coil runs link j's fitted polynomial K_T and resistance: its torque is K_T(phi) I, its power
      // I (I R(dT) + K_T phidot) with the preset's R0 (sin^2 K_T or another R0 would miss both by far more).
      const mjtNum* s = sensor_of(m.get(), d.get(), "f" + std::to_string(f) + "_coil" + std::to_string(j));
      const double phi = d->qpos[qadr_of(m.get(), a)], phidot = d->qvel[dof_of(m.get(), a)];
      CHECK(s[0] == d->act[i]);
      // K_T(phi) I and the power formula recomputed: rounding (1e-15 N m where the torque is ~0).
      CHECK(d->actuator_force[a] == Approx(kt_poly(j, phi) * s[1]).margin(1e-15).epsilon(1e-12));
      const double R = coil_link_preset(j).R0 * (1 + kCopperAlpha * s[0]);
      CHECK(s[3] == Approx(s[1] * (s[1] * R + kt_poly(j, phi) * phidot)).epsilon(1e-12));
    }
  }
}

TEST_CASE("coil fit report (regenerates coil_presets.cc)", "[.][coil_fit_report]") {
  std::cout << coil_fit_report(data_dir());
}
