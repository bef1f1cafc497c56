// Joint torque control (eqs 31-38): sensor stiffness from geometry, the proportional force law, and the force loop of
// a DC-motor-driven fingertip pressing on a fixed block (models/torque_fingertip.xml) against the derived eq 38.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <mjhand/dc_motor/dc_motor.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

using mjhand_test::attach_error;
using mjhand_test::step_metrics;
using mjhand_test::StepMetrics;
#include <mjhand/torque_control/torque_control.h>

using namespace mjhand;
using mjhand_test::load_xml_file;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::read_all;
using mjhand_test::source_path;

namespace {

std::string model_text() { return read_all(source_path("models/torque_fingertip.xml")); }

// The example model with the torque_control instance's configuration replaced.
std::string with_press(const std::string& data) { return mjhand_test::with_instance(model_text(), "press", data); }

}  // namespace

TEST_CASE("torque sensor stiffness from eqs 31-32", "[controllers]") {
  const double d2r = mjPI / 180;
  // alpha = beta = 20 deg, chi = 10: gamma = 1 / (8 sin 20 sin 40) = 0.568575, bracket = 0.841537.
  // the 16-digit closed form: rounding of a few trig products
  REQUIRE(sensor_stiffness(20 * d2r, 20 * d2r, 10) == Approx(4.784800621263397).epsilon(1e-12));
  // linear in chi: rounding (Approx's default 1e-5 relative is loose)
  REQUIRE(sensor_stiffness(20 * d2r, 20 * d2r, 1) * 10 == Approx(sensor_stiffness(20 * d2r, 20 * d2r, 10)));
  // Outside the geometry's domain eq 31 is negative (alpha 30, beta 45) or singular (beta 0): rejected.
  REQUIRE(std::isnan(sensor_stiffness(30 * d2r, 45 * d2r, 10)));
  REQUIRE(std::isnan(sensor_stiffness(20 * d2r, 0, 10)));
  REQUIRE_THAT(attach_error(with_press("sensor_joints=sensor actuators=motor alpha_deg=30 "
                                       "beta_deg=45 chi=10 kps=20 torque_ref=0.5")),
               Catch::Contains("alpha_deg"));
}

TEST_CASE("torque_control: fingertip force loop matches the derived eq 38, MuJoCo's spring is the sensor torque",
          "[controllers]") {
  auto m = load_xml_file(source_path("models/torque_fingertip.xml"));
  auto d = make_data(m.get());
  const int drive = mj_name2id(m.get(), mjOBJ_JOINT, "drive"), sensor = mj_name2id(m.get(), mjOBJ_JOINT, "sensor");
  const int sdof = m->jnt_dofadr[sensor];
  const double k_theta = sensor_stiffness(20 * mjPI / 180, 20 * mjPI / 180, 10);
  const double tau_r = 0.5, kps = 20;
  std::vector<double> t{0}, tau{0};
  double worst_spring = 0;
  while (d->time < 0.2 - 1e-12) {  // 1e-12 > the summed time's rounding, 2000 x eps x 0.2 s
    mj_step(m.get(), d.get());
    const double tau_f = -k_theta * d->qpos[m->jnt_qposadr[sensor]];
    // MuJoCo's passive force on the sensor joint is the same spring torque (state at the step's start: recompute).
    mj_forward(m.get(), d.get());
    worst_spring = std::max(worst_spring, std::abs(d->qfrc_passive[sdof] - tau_f));
    t.push_back(d->time);
    tau.push_back(tau_f);
  }
  // the XML's stiffness is the 16-digit k_theta: |tau| < 1 N m times a last-digit difference, ~1e-16
  REQUIRE(worst_spring < 1e-12);
  REQUIRE(d->ncon >= 1);  // the tip is pressing on the block

  // Grasp rigidity eta (eq 36): the link turns only by the contact's compliance, theta_link = q_drive + q_sensor.
  const double link = d->qpos[m->jnt_qposadr[drive]] + d->qpos[m->jnt_qposadr[sensor]];
  const double eta = tau.back() / link;
  const double delta = 1 / (1 / k_theta + 1 / eta);  // eq 36 with an ideal tendon: sensor and contact in series
  INFO("eta = " << eta << " N m/rad, k_theta = " << k_theta << ", delta = " << delta);
  REQUIRE(eta > 20 * k_theta);  // the paper's rigid-object assumption holds to within 5 %

  // Derived eq 38 on the joint side (blocked link): J q'' + B q' + delta q = g kps (tau_r - delta q), tau_f = delta q.
  DcMotorParams p;
  p.R = 2, p.ki = 0.02, p.kb = 0.02, p.Jm = 1e-6, p.Ja = 0.2e-6, p.Bm = 1e-6, p.n = 0.02;
  const double J = p.armature() + 1e-5;  // + the pulley's own inertia
  const double g = p.gain();
  const double wn = std::sqrt(delta * (1 + g * kps) / J), zeta = p.damping() / J / (2 * wn);
  const double dc = g * kps / (1 + g * kps);
  // The final torque is eq 38's DC gain times tau_r (proportional control leaves 1 / (1 + g kps) of error).
  // docs/controllers.md: the final torque must equal eq 38's DC gain to 0.1 % (Euler, 0.1-ms steps)
  REQUIRE(tau.back() == Approx(dc * tau_r).epsilon(1e-3));
  std::vector<double> tm, ym;
  for (double s = 0; s <= 0.2; s += 1e-6) {
    const double wd = wn * std::sqrt(1 - zeta * zeta);
    tm.push_back(s);
    ym.push_back(dc * tau_r * (1 - std::exp(-zeta * wn * s) * (std::cos(wd * s) + zeta / std::sqrt(1 - zeta * zeta) * std::sin(wd * s))));
  }
  const StepMetrics model = step_metrics(tm, ym, dc * tau_r);
  const StepMetrics sim = step_metrics(t, tau, dc * tau_r);
  WARN("force loop: wn " << wn << " zeta " << zeta << " | rise sim " << sim.rise << " eq38 " << model.rise
                         << " | overshoot sim " << sim.overshoot << " eq38 " << model.overshoot << " | settling sim "
                         << sim.settling << " eq38 " << model.settling);
  // docs/controllers.md: measured 14.70/14.90 ms, 6.95/7.41 %, 43.98/45.84 ms; 3 %, 1.5 points, 5 % for the
  // link's contact compliance (a fast mode at ~1500 rad/s) and Euler's explicit back-EMF term
  CHECK(sim.rise == Approx(model.rise).epsilon(0.03));
  CHECK(std::abs(sim.overshoot - model.overshoot) < 0.015);
  CHECK(sim.settling == Approx(model.settling).epsilon(0.05));
}

TEST_CASE("torque_control: plain class equals the plugin, NaN reference latches a fault with ctrl at fault_ctrl",
          "[controllers]") {
  auto m = load_xml_file(source_path("models/torque_fingertip.xml"));
  auto d = make_data(m.get());
  TorqueController::Options o;
  o.sensor_joints = {mj_name2id(m.get(), mjOBJ_JOINT, "sensor")};
  o.actuators = {0};
  o.k_theta = {sensor_stiffness(20 * mjPI / 180, 20 * mjPI / 180, 10)};
  o.kps = {20};
  o.torque_ref = {0.5};
  o.u_min = {-24};
  o.u_max = {24};
  TorqueController plain(o);
  std::vector<mjtNum> state(plain.nstate());
  plain.reset(m.get(), d.get(), state.data());
  for (int i = 0; i < 300; ++i) {
    mj_step(m.get(), d.get());
    mj_forward(m.get(), d.get());  // plugin's ctrl for this state
    const double plugin_now = d->ctrl[0];
    plain.compute(m.get(), d.get(), state.data());
    REQUIRE(d->ctrl[0] == plugin_now);
  }
  mjtNum* s = native_state(m.get(), d.get(), mj_name2id(m.get(), mjOBJ_PLUGIN, "press"));
  TorqueController::set_reference(s, 0, std::numeric_limits<double>::infinity());
  mj_step(m.get(), d.get());
  REQUIRE(TorqueController::fault(s) == TorqueController::kBadReference);
  REQUIRE(d->ctrl[0] == 0);
  TorqueController::set_reference(s, 0, 0.5);
  mj_step(m.get(), d.get());
  REQUIRE(d->ctrl[0] == 0);  // sticky
  TorqueController::clear_fault(s);
  mj_step(m.get(), d.get());
  REQUIRE(d->ctrl[0] != 0);
}

TEST_CASE("torque_control: invalid configurations are rejected at load", "[controllers]") {
  const std::string ok = "sensor_joints=sensor actuators=motor alpha_deg=20 beta_deg=20 chi=10 ";
  REQUIRE(attach_error(with_press(ok + "kps=20 torque_ref=0.5")).empty());
  REQUIRE_THAT(attach_error(with_press(ok + "torque_ref=0.5")), Catch::Contains("'kps'"));
  REQUIRE_THAT(attach_error(with_press(ok + "kps=-1 torque_ref=0.5")), Catch::Contains("'kps'"));
  REQUIRE_THAT(attach_error(with_press(ok + "kps=20")), Catch::Contains("'torque_ref'"));
  REQUIRE_THAT(attach_error(with_press(ok + "kps=20 torque_ref=0.5 k_theta=3")), Catch::Contains("k_theta"));
  REQUIRE_THAT(attach_error(with_press("sensor_joints=nope actuators=motor k_theta=4 kps=1 "
                                       "torque_ref=0")),
               Catch::Contains("nope"));
  // The MJCF stiffness must be the sensor's k_theta; the message gives the value to set.
  REQUIRE_THAT(attach_error(with_press("sensor_joints=sensor actuators=motor k_theta=3 kps=1 "
                                       "torque_ref=0")),
               Catch::Contains("stiffness") && Catch::Contains("set stiffness=\"3\""));
}

