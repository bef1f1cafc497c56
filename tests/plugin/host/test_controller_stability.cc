// Controller plugins on light links (issue 18, point 5; issue 31): pid (its own actuators) and the servo instances
// (posture, hand_closure) refuse explicit gains where MuJoCo's semi-implicit Euler step diverges, h^2 kp / I +
// 2 h kd / I < 4 without damping (core/mjhand/util/explicit_stability.h; the grid against MuJoCo with damping,
// armature and every integrator is tests/plugin/host/test_stability_grid.cc). Checked against an independent simulation: the same PD
// written by hand on qfrc_applied of the plugin-free finger stays bounded just below the limit 4 and diverges just
// above it; the pid plugin's motion equals that hand-written PD; the inverse inertia against mj_fullM.
#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <string>

#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/explicit_stability.h>

#include "test_util.h"

using namespace mjhand;

namespace {

using mjhand_test::num;

// One light link (5 g capsule, no armature, no damping, gravity off) on hinge "q", timestep 2 ms. `extension` and
// `actuator` are inserted as given (empty: the plugin-free finger).
std::string light_link(const std::string& extension, const std::string& actuator) {
  return "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.002\" gravity=\"0 0 0\"/>" + extension +
         "<worldbody><body name=\"link\"><joint name=\"q\" axis=\"0 0 1\"/><geom type=\"capsule\" "
         "fromto=\"0 0 0 0.03 0 0\" size=\"0.005\" mass=\"0.005\"/></body></worldbody><actuator>" + actuator +
         "</actuator></mujoco>";
}

// The light link with an instance `instance` of plugin TYPE configured by `keys` ("k=v k=v", as mjhand_test::
// with_instance) and the bound actuators `actuators` (<actuator> children).
std::string instance_link(const std::string& type, const std::string& instance, const std::string& keys,
                          const std::string& actuators) {
  return mjhand_test::with_instance(
      light_link("<extension><plugin plugin=\"mjhand." + type + "\"><instance name=\"" + instance +
                     "\"></instance></plugin></extension>",
                 actuators),
      instance, keys);
}

std::string pid_link(double kp, double kd) {
  return instance_link("pid", "hold", "actuators=m setpoint=0 kp=" + num(kp) + " kd=" + num(kd) + " period=0.002",
                       "<plugin name=\"m\" joint=\"q\" instance=\"hold\"/>");
}

std::string posture_link(double kp, double kv) {
  return instance_link("posture", "close", "actuators=all target=0 kp=" + num(kp) + " kv=" + num(kv),
                       "<plugin name=\"servo\" joint=\"q\" instance=\"close\"/>");
}

// A one-joint soft synergy (q_r = 0 + 1 z, input actuator z at ctrl 0): tau = kq (0 - q) - kd q'.
std::string synergy_link(double kq, double kd) {
  return instance_link("synergy", "syn", "joints=q q0=0 S=1 inputs=z kq=" + num(kq) + " kd=" + num(kd),
                       "<plugin name=\"z\" joint=\"q\" instance=\"syn\"/>"
                       "<plugin name=\"tau_q\" joint=\"q\" instance=\"syn\"/>");
}

// computed_torque holding q at 0 (cosine of amplitude 0), law `law`, on a link of `mass` kg.
std::string computed_torque_link(const std::string& law, double kp, double kv, const std::string& mass = "0.005") {
  std::string xml = instance_link("computed_torque", "ct",
                                  "joints=q trajectory=cosine amplitude_deg=0 offset_deg=0 law=" + law + " kp=" +
                                      num(kp) + " kv=" + num(kv),
                                  "<plugin name=\"m\" joint=\"q\" instance=\"ct\"/>");
  const std::string m5 = "mass=\"0.005\"";
  xml.replace(xml.find(m5), m5.size(), "mass=\"" + mass + "\"");
  return xml;
}

// The link's inertia about q from MuJoCo's dense mass matrix.
double link_inertia() {
  auto m = mjhand_test::load_xml_string(light_link("", ""));
  auto d = make_data(m.get());
  mj_forward(m.get(), d.get());
  double M = 0;
  mj_fullM(m.get(), d.get(), &M);
  return M;
}

struct Swing {
  double peak = 0;   // largest |q| over the run; infinite when MuJoCo's blow-up guard fired
  double final = 0;  // |q| after the last step
};

// 1000 steps of u = -kp q - kd q' written on qfrc_applied from the state at each step's start (the plugin-free
// link, from q = 0.05 rad).
Swing hand_written_pd(double kp, double kd) {
  auto m = mjhand_test::load_xml_string(light_link("", ""));
  auto d = make_data(m.get());
  d->qpos[0] = 0.05;
  Swing s;
  for (int i = 0; i < 1000; ++i) {
    d->qfrc_applied[0] = -kp * d->qpos[0] - kd * d->qvel[0];
    mj_step(m.get(), d.get());
    if (d->warning[mjWARN_BADQACC].number > 0 || !std::isfinite(d->qpos[0])) return {INFINITY, INFINITY};
    s.peak = std::max(s.peak, std::abs(d->qpos[0]));
  }
  s.final = std::abs(d->qpos[0]);
  return s;
}

// Largest |q_plugin - q_hand| over 500 steps of the model `xml` against the hand-written PD (kp, kd), from 0.05 rad.
double gap_to_hand_written(const std::string& xml, double kp, double kd) {
  auto m = mjhand_test::load_xml_string(xml);
  auto d = make_data(m.get());
  auto m2 = mjhand_test::load_xml_string(light_link("", ""));
  auto d2 = make_data(m2.get());
  d->qpos[0] = d2->qpos[0] = 0.05;
  double worst = 0;
  for (int i = 0; i < 500; ++i) {
    d2->qfrc_applied[0] = -kp * d2->qpos[0] - kd * d2->qvel[0];
    mj_step(m.get(), d.get());
    mj_step(m2.get(), d2.get());
    worst = std::max(worst, std::abs(d->qpos[0] - d2->qpos[0]));
  }
  return worst;
}

}  // namespace

TEST_CASE("controller stability: the explicit PD limit h^2 kp / I + 2 h kd / I = 4 is where MuJoCo's step diverges",
          "[controllers][stability]") {
  const double h = 0.002, I = link_inertia();
  REQUIRE(I > 0);
  // Proportional alone (load a = h^2 kp / I): bounded at 3.9 (symplectic Euler swings to q0 / sqrt(1 - a/4) = 0.32
  // rad from 0.05), diverging at 4.1 (a root at -(a - 2 + sqrt(a^2 - 4a)) / 2 ~ -1.56: x1.56 per step).
  const auto kp_at = [&](double load) { return load * I / (h * h); };
  CHECK(hand_written_pd(kp_at(3.9), 0).peak < 0.05 / std::sqrt(1 - 3.9 / 4) * 1.01);  // + rounding of the swing
  CHECK(hand_written_pd(kp_at(4.1), 0).peak > 1.0);
  // Derivative share: 2 h kd / I = 1 uses a quarter of the limit; kp takes the rest (a + 2b < 4 with b = h kd / I).
  const double kd = 0.5 * I / h;
  // Below: damped, |z| = sqrt(1 - b) = 0.71 per step, so after 1000 steps nothing is left (0.05 x 0.71^1000 ~ 0;
  // 1e-12 rad is rounding). Above: a real root below -1, it grows without bound.
  CHECK(hand_written_pd(kp_at(2.9), kd).final < 1e-12);
  CHECK(hand_written_pd(kp_at(3.1), kd).peak > 1.0);
}

TEST_CASE("controller stability: pid on a light link is the hand-written PD, and refused above the limit",
          "[controllers][stability]") {
  const double h = 0.002, I = link_inertia();
  const auto kp_at = [&](double load) { return load * I / (h * h); };
  // period = h, tf = 0: D = kd (e_k - e_{k-1}) / h = -kd q'_k exactly (q_k - q_{k-1} = h q'_k in the step), so the
  // plugin's motion is the hand-written PD's.
  const double kp = kp_at(1.9), kd = 0.05 * I / h;
  const double gap = gap_to_hand_written(pid_link(kp, kd), kp, kd);
  // the difference quotient (q_k - q_{k-1}) / h against q'_k: rounding (measured 9e-18 rad over 500 steps)
  CHECK(gap < 1e-12);
  // The check: accepted at 3.9, refused at 4.1 with the instance, actuator, joint, inertia and stable kp named.
  CHECK(mjhand_test::attach_error(pid_link(kp_at(3.9), 0)).empty());
  const std::string err = mjhand_test::attach_error(pid_link(kp_at(4.1), 0));
  CHECK_THAT(err, Catch::Contains("hold") && Catch::Contains("'kp'") && Catch::Contains("joint 'q'") &&
                      Catch::Contains("inertia") && Catch::Contains("diverge at timestep 0.002 s") &&
                      Catch::Contains("stable for kp < "));
  // kd counts: kp at load 3 plus 2 h kd / I = 1.2 is refused (4.2), at 0.8 accepted (3.8). The refusal names the
  // key kd: kp alone (load 3) is stable, so the damping gain is what to change.
  CHECK(mjhand_test::attach_error(pid_link(kp_at(3), 0.4 * I / h)).empty());
  CHECK_THAT(mjhand_test::attach_error(pid_link(kp_at(3), 0.6 * I / h)),
             Catch::Contains("diverge at timestep") && Catch::Contains("key 'kd'"));
  CHECK_THAT(mjhand_test::attach_error(pid_link(kp_at(0.1), 3 * I / h)), Catch::Contains("key 'kd'"));  // kd alone
  CHECK_THAT(err, Catch::Contains("key 'kp'"));
}

TEST_CASE("controller stability: posture servo gains on a light link are checked on the actuator length",
          "[controllers][stability]") {
  const double h = 0.002, I = link_inertia();
  const auto kp_at = [&](double load) { return load * I / (h * h); };
  // target 0 from the reset ctrl 0: the setpoint stays 0, so the servo force is kp (0 - q) - kv q', the PD by hand
  const double kp = kp_at(1.9), kv = 0.05 * I / h;
  CHECK(gap_to_hand_written(posture_link(kp, kv), kp, kv) < 1e-12);  // the same arithmetic (measured 0)
  CHECK(mjhand_test::attach_error(posture_link(kp_at(3.9), 0)).empty());
  const std::string err = mjhand_test::attach_error(posture_link(kp_at(4.1), 0));
  CHECK_THAT(err, Catch::Contains("close") && Catch::Contains("servo actuator 'servo'") && Catch::Contains("joint 'q'") &&
                      Catch::Contains("diverge at timestep"));
  CHECK_THAT(mjhand_test::attach_error(posture_link(kp_at(3), 0.6 * I / h)),
             Catch::Contains("diverge at timestep") && Catch::Contains("key 'kv'"));
  CHECK_THAT(err, Catch::Contains("key 'kp'"));
}

TEST_CASE("controller stability: synergy joint stiffness on a light link is the PD by hand, checked likewise",
          "[controllers][stability]") {
  const double h = 0.002, I = link_inertia();
  const auto kq_at = [&](double load) { return load * I / (h * h); };
  const double kq = kq_at(1.9), kd = 0.05 * I / h;
  CHECK(gap_to_hand_written(synergy_link(kq, kd), kq, kd) < 1e-12);  // the same arithmetic: rounding
  CHECK(mjhand_test::attach_error(synergy_link(kq_at(3.9), 0)).empty());
  CHECK_THAT(mjhand_test::attach_error(synergy_link(kq_at(4.1), 0)),
             Catch::Contains("syn") && Catch::Contains("'kq'") && Catch::Contains("synergy joint 'q'") &&
                 Catch::Contains("diverge at timestep"));
}

TEST_CASE("controller stability: computed-torque gains are scale-free, feedforward gains are torques on the joint",
          "[controllers][stability]") {
  const double h = 0.002, I = link_inertia();
  // computed_torque: h^2 kp + 2 h kv, the same limit on a 5 g and a 500 g link (kv = 0: kp = load / h^2).
  for (const std::string mass : {"0.005", "0.5"}) {
    INFO(mass);
    CHECK(mjhand_test::attach_error(computed_torque_link("computed_torque", 3.9 / (h * h), 0, mass)).empty());
    CHECK_THAT(mjhand_test::attach_error(computed_torque_link("computed_torque", 4.1 / (h * h), 0, mass)),
               Catch::Contains("ct") && Catch::Contains("joint 'q'") && Catch::Contains("whatever the link's inertia"));
  }
  // Holding at 0 with an exact model, the computed torque is I (-kp q - kv q'): the hand-written PD of gains I kp, I kv.
  const double kp = 1.9 / (h * h), kv = 0.05 / h;
  CHECK(gap_to_hand_written(computed_torque_link("computed_torque", kp, kv), I * kp, I * kv) < 1e-12);
  // feedforward: torque gains, limited by the link's inertia.
  const auto kp_at = [&](double load) { return load * I / (h * h); };
  CHECK(mjhand_test::attach_error(computed_torque_link("feedforward", kp_at(3.9), 0)).empty());
  CHECK_THAT(mjhand_test::attach_error(computed_torque_link("feedforward", kp_at(4.1), 0)),
             Catch::Contains("feedforward joint 'q'") && Catch::Contains("inertia") &&
                 Catch::Contains("diverge at timestep"));
}

TEST_CASE("controller stability: the loop's inverse inertia is J M^-1 m^T from mj_fullM (joint and Shadow tendon)",
          "[controllers][stability]") {
  // Shadow hand: the first finger's J0 = J1 + J2 tendon servo; J = the tendon's coefficients on J1, J2.
  auto m = mjhand_test::load_xml_file(mjhand_test::source_path("models/real/shadow_hand.xml"));
  auto d = make_data(m.get());
  mj_forward(m.get(), d.get());
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(m->nv, m->nv);
  mj_fullM(m.get(), d.get(), M.data());
  const Eigen::MatrixXd Minv = M.inverse();
  const int a = mj_name2id(m.get(), mjOBJ_ACTUATOR, "rh_A_FFJ0");
  const int t = mj_name2id(m.get(), mjOBJ_TENDON, "rh_FFJ0");
  const int j1 = mj_name2id(m.get(), mjOBJ_JOINT, "rh_FFJ1"), j2 = mj_name2id(m.get(), mjOBJ_JOINT, "rh_FFJ2");
  Eigen::VectorXd J = Eigen::VectorXd::Zero(m->nv);
  J[m->jnt_dofadr[j1]] = 1;  // the fixed tendon's coefficients (coef="1" each, shadow_hand.xml)
  J[m->jnt_dofadr[j2]] = 1;
  const double expected = J.dot(Minv * J);  // gear 1: the moment row is J
  // an LDL solve against a dense inverse of a ~24 x 24 matrix with entries down to 1e-7: relative rounding
  CHECK(actuator_loop_inverse_inertia_qpos0(m.get(), a, -1, -1) == Approx(expected).epsilon(1e-9));
  CHECK(actuator_loop_inverse_inertia_qpos0(m.get(), a, -1, t) == Approx(expected).epsilon(1e-9));
  // measuring J2 alone while driving the tendon: e_J2 M^-1 J
  Eigen::VectorXd e = Eigen::VectorXd::Zero(m->nv);
  e[m->jnt_dofadr[j2]] = 1;
  CHECK(actuator_loop_inverse_inertia_qpos0(m.get(), a, j2, -1) == Approx(e.dot(Minv * J)).epsilon(1e-9));
  // The pid gains of tests/controllers/pid/test_pid.cc's tendon case (kp 0.5, kd 0.005) are far inside the limit on this tendon.
  ExplicitLoop loop = actuator_loop_qpos0(m.get(), a, -1, -1);
  loop.kp = 0.5;
  loop.kd = 0.005;
  CHECK(!explicit_loop_diverges(loop));
  CHECK(max_stable_kp(loop) > 8 * loop.kp);
}

TEST_CASE("controller stability: the maker's kp = 10 with joint damping 1 at 2 ms is accepted and bounded (issue 31)",
          "[controllers][stability]") {
  // The light link (I ~ 1.7e-6 kg m^2): h^2 kp / I = 23, refused without damping; MuJoCo's Euler integrates the joint
  // damping implicitly, which raises the limit to 4 I + 2 h c = 0.004 against h^2 kp = 4e-5, so it is stable.
  const std::string undamped = posture_link(10, 0);
  CHECK_THAT(mjhand_test::attach_error(undamped), Catch::Contains("diverge at timestep"));
  std::string damped = undamped;
  const std::string joint = "<joint name=\"q\" axis=\"0 0 1\"/>";
  REQUIRE(damped.find(joint) != std::string::npos);
  damped.replace(damped.find(joint), joint.size(), "<joint name=\"q\" axis=\"0 0 1\" damping=\"1\"/>");
  REQUIRE(mjhand_test::attach_error(damped).empty());
  auto m = mjhand_test::load_xml_string(damped);
  auto d = make_data(m.get());
  d->qpos[0] = 0.05;
  double peak = 0;
  for (int i = 0; i < 2000; ++i) {
    mj_step(m.get(), d.get());
    peak = std::max(peak, std::abs(d->qpos[0]));
  }
  CHECK(peak <= 0.05);  // overdamped: it creeps back to 0 without overshoot
  CHECK(std::isfinite(d->qpos[0]));
}
