// The coupling plugin on light links (issue 18, point 5): the explicit spring's stability check, the implicit form,
// and the scale-free gains (frequency, damping_ratio), each against MuJoCo's own mass matrix or motion.
#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include <mjhand/coupling/coupling_plugin.h>
#include <mjhand/io/model_io.h>
#include <mjhand/util/dense_decompositions.h>

#include "test_util.h"

using namespace mjhand;

namespace {

// A light two-link finger (5 g and 4 g, no armature, as real small fingers are modelled), gravity off, driver x and
// driven y coupled by instance "c" with the given <config> entries (joint, driver and coef are set here).
std::string light_finger(const std::string& configs, const std::string& timestep = "0.002", const std::string& coef = "0,1") {
  return "<mujoco><compiler angle=\"radian\"/><option timestep=\"" + timestep +
         "\" gravity=\"0 0 0\"/><extension><plugin plugin=\"mjhand.coupling\"><instance name=\"c\">"
         "<config key=\"joint\" value=\"y\"/><config key=\"driver\" value=\"x\"/><config key=\"coef\" value=\"" +
         coef + "\"/>" + configs +
         "</instance></plugin></extension><worldbody><body name=\"l1\"><joint name=\"x\" axis=\"0 0 1\" "
         "limited=\"true\" range=\"-1 1\"/><geom type=\"capsule\" fromto=\"0 0 0 0.03 0 0\" size=\"0.005\" "
         "mass=\"0.005\"/><body name=\"l2\" pos=\"0.03 0 0\"><joint name=\"y\" axis=\"0 0 1\" limited=\"true\" "
         "range=\"-1.5 1.5\"/><geom type=\"capsule\" fromto=\"0 0 0 0.025 0 0\" size=\"0.005\" mass=\"0.004\"/>"
         "</body></body></worldbody></mujoco>";
}

std::string key(const std::string& k, const std::string& v) {
  return "<config key=\"" + k + "\" value=\"" + v + "\"/>";
}

// 1 / (J M^-1 J^T) for J = e_y - slope e_x from MuJoCo's dense mass matrix (mj_fullM) and a dense inverse.
double inertia_from_full_m(const mjModel* m, mjData* d, int vy, int vx, double slope) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(m->nv, m->nv);
  mj_fullM(m, d, M.data());
  Eigen::VectorXd J = Eigen::VectorXd::Zero(m->nv);
  J[vy] = 1.0;
  J[vx] -= slope;
  return 1.0 / J.dot(M.inverse() * J);
}

}  // namespace

TEST_CASE("coupling_inverse_inertia equals J M^-1 J^T from mj_fullM", "[coupling][stability]") {
  const auto model = mjhand_test::load_xml_file(mjhand_test::source_path("models/berul_thumb_spring.xml"));
  const auto data = make_data(model.get());
  mjModel* m = model.get();
  mjData* d = data.get();
  d->qpos[0] = 0.2;
  d->qpos[1] = 0.3;
  d->qpos[2] = -0.1;
  d->qpos[3] = 0.4;
  mj_forward(m, d);
  for (double slope : {0.0, 1.0552, -2.5}) {
    const double w = coupling_inverse_inertia(m, d, 2, 1, slope);
    // Same matrix, sparse LDL^T solve vs dense inverse of a 4 x 4 with condition ~1e2: rounding.
    CHECK(1.0 / w == Approx(inertia_from_full_m(m, d, 2, 1, slope)).epsilon(1e-10));
  }
}

TEST_CASE("an explicit coupling spring beyond its stability limit is refused with the inertia and the limit",
          "[coupling][stability]") {
  // The BERUL gains (k = 5, b = 0.01, docs/berul-coupling.md) on links 20x lighter and without armature:
  // (h^2 k + 2 h b) / I is ~300 > 4 (I = 2e-7 kg m^2). The message names instance, key, inertia and the way out.
  const std::string err = mjhand_test::attach_error(light_finger(key("stiffness", "5") + key("damping", "0.01")));
  CHECK_THAT(err, Catch::Contains("'c'") && Catch::Contains("stiffness") && Catch::Contains("inertia 1.972e-07 at qpos0 (with armature)") &&
                      Catch::Contains("diverge at timestep") && Catch::Contains("integration=implicit"));
  // The same gains load in the BERUL model itself (armature 1e-4 kg m^2), as documented.
  CHECK_NOTHROW(mjhand_test::load_xml_file(mjhand_test::source_path("models/berul_thumb_spring.xml")));
  // Bad key combinations are named.
  CHECK_THAT(mjhand_test::attach_error(light_finger(key("stiffness", "1") + key("frequency", "5"))),
             Catch::Contains("exactly one of stiffness") && Catch::Contains("frequency"));
  CHECK_THAT(mjhand_test::attach_error(light_finger("")), Catch::Contains("exactly one of stiffness"));
  CHECK_THAT(mjhand_test::attach_error(light_finger(key("frequency", "5") + key("damping", "0.1") +
                                                   key("damping_ratio", "1"))),
             Catch::Contains("at most one of damping"));
  CHECK_THAT(mjhand_test::attach_error(light_finger(key("frequency", "5") + key("integration", "rk4"))),
             Catch::Contains("integration"));
}

TEST_CASE("the stability check's limit is where the explicit spring really goes unstable", "[coupling][stability]") {
  // With a constant law (coef c0) the coupling is a spring on y alone; frequency F gives k = I (2 pi F)^2 and the
  // explicit update is stable iff (2 pi F h)^2 < 4 (undamped): accepted at 1.9, refused at 2.1. With damping_ratio Z
  // the bound is 2 pi F h < 2 (sqrt(1 + Z^2) - Z) (h^2 k + 2 h b < 4 I with k = I omega^2, b = 2 Z I omega): 0.828
  // at Z = 1, so F = 100 Hz at 2 ms (1.257, issue 31) is refused and 0.8 accepted. An implicit spring at
  // 2 pi F h = 3 (above the undamped limit) stays bounded, which the explicit update would not.
  const double h = 0.002;
  const auto frequency = [h](double omega_h) { return std::to_string(omega_h / (2.0 * M_PI * h)); };
  CHECK(mjhand_test::attach_error(light_finger(key("frequency", frequency(1.9)), "0.002", "0.2")).empty());
  CHECK_THAT(mjhand_test::attach_error(light_finger(key("frequency", frequency(2.1)), "0.002", "0.2")),
             Catch::Contains("diverge at timestep"));
  const std::string z1 = key("damping_ratio", "1");
  CHECK(mjhand_test::attach_error(light_finger(key("frequency", frequency(0.8)) + z1, "0.002", "0.2")).empty());
  CHECK_THAT(mjhand_test::attach_error(light_finger(key("frequency", frequency(0.86)) + z1, "0.002", "0.2")),
             Catch::Contains("diverge at timestep") && Catch::Contains("2 (sqrt(1 + zeta^2) - zeta)"));
  CHECK_THAT(mjhand_test::attach_error(light_finger(key("frequency", "100") + z1, "0.002", "0.2")),
             Catch::Contains("diverge at timestep"));

  const auto run = [](const std::string& xml, int steps) {
    const auto model = mjhand_test::load_xml_string(xml);
    const auto data = make_data(model.get());
    data->qpos[1] = 0.5;  // 0.3 rad from the law's 0.2
    double peak = 0.0;
    for (int i = 0; i < steps; ++i) {
      mj_step(model.get(), data.get());
      peak = std::max(peak, std::abs(data->qpos[1] - 0.2));
    }
    return peak;
  };
  // The bound itself, with the same explicit spring written here on qfrc_applied of the finger without the plugin:
  // k = I omega^2 with I = 1 / (M^-1)_yy from mj_fullM (its smallest over the swing); omega h = 1.9 stays bounded,
  // 2.1 grows without bound (from 0.05 rad, so that the swing stays where the inertia is the one used).
  const auto by_hand = [h](double omega_h) -> double {
    std::string xml = light_finger("", "0.002", "0.2");
    xml.erase(xml.find("<extension>"), xml.find("</extension>") + 12 - xml.find("<extension>"));
    const std::string y_limit = "<joint name=\"y\" axis=\"0 0 1\" limited=\"true\" range=\"-1.5 1.5\"/>";
    xml.replace(xml.find(y_limit), y_limit.size(), "<joint name=\"y\" axis=\"0 0 1\"/>");  // no limit to stop growth
    const auto model = mjhand_test::load_xml_string(xml);
    const auto data = make_data(model.get());
    // The stiffest the mode gets over the swing q_y in [0, 0.4] (the inertia depends on q_y only): smallest inertia.
    double inertia = INFINITY;
    for (double qy = 0.0; qy <= 0.4 + 1e-12; qy += 0.02) {
      data->qpos[1] = qy;
      mj_forward(model.get(), data.get());
      inertia = std::min(inertia, inertia_from_full_m(model.get(), data.get(), 1, 0, 0.0));
    }
    const double k = inertia * std::pow(omega_h / h, 2);
    data->qpos[1] = 0.25;  // 0.05 rad from the law's 0.2
    // The largest swing in 1000 steps; MuJoCo resets the state when it blows up (mjWARN_BADQACC): infinite then.
    double peak = 0.0;
    for (int i = 0; i < 1000; ++i) {
      data->qfrc_applied[1] = -k * (data->qpos[1] - 0.2);
      mj_step(model.get(), data.get());
      if (data->warning[mjWARN_BADQACC].number > 0) return static_cast<double>(INFINITY);
      peak = std::max(peak, std::abs(data->qpos[1] - 0.2));
    }
    return peak;
  };
  std::printf("explicit spring by hand: swing %g rad at omega h = 1.9, %g at 2.1 (from 0.05)\n", by_hand(1.9),
              by_hand(2.1));
  // Bounded: symplectic Euler swings to start / sqrt(1 - (omega h / 2)^2) = 0.16 rad at 1.9 for the sweep's smallest
  // inertia (measured 0.14: the inertia is larger over most of the swing). At 2.1 MuJoCo's blow-up guard fires.
  CHECK(by_hand(1.9) < 0.16 * 1.25);
  CHECK(by_hand(2.1) > 1.0);
  // Accepted explicit gains: energy-conserving oscillation, never beyond the 0.3 rad start (+ rounding).
  CHECK(run(light_finger(key("frequency", frequency(1.3)), "0.002", "0.2"), 2000) < 0.3 * 1.5);
  // Implicit at twice the true limit: bounded by the start (backward Euler only loses energy).
  CHECK(run(light_finger(key("frequency", frequency(3.0)) + key("integration", "implicit"), "0.002", "0.2"), 2000) <=
        0.3 + 1e-12);
}

TEST_CASE("frequency and damping_ratio give the coupling coordinate that frequency in MuJoCo's motion",
          "[coupling][stability]") {
  // Driver x and driven y coupled linearly (slope 1): the coupling coordinate e = q_y - q_x oscillates at F when the
  // rest of the finger is free (both joints unloaded): its inertia is 1 / (J M^-1 J^T) and k = I (2 pi F)^2.
  // Small step (2 pi F h = 0.063) so the semi-implicit Euler's frequency error (omega h)^2 / 24 ~ 2e-4 is negligible.
  const double F = 20.0;
  const auto model = mjhand_test::load_xml_string(light_finger(key("frequency", "20"), "0.0005"));
  const auto data = make_data(model.get());
  mjModel* m = model.get();
  mjData* d = data.get();
  d->qpos[1] = 0.1;  // e(0) = 0.1
  std::vector<double> crossings;
  double e_prev = 0.1, t_prev = 0.0;
  for (int i = 0; i < 400; ++i) {  // 0.2 s = 4 periods
    mj_step(m, d);
    const double e = d->qpos[1] - d->qpos[0];
    if (e_prev > 0.0 && e <= 0.0) {
      crossings.push_back(t_prev + (d->time - t_prev) * e_prev / (e_prev - e));  // linear interpolation
    }
    e_prev = e;
    t_prev = d->time;
  }
  REQUIRE(crossings.size() >= 3);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  // The inertia of e changes with the posture (|q| <= 0.1 rad here: I varies by < 1%, so F by < 0.5%), plus the
  // crossing interpolation (h / period = 1%, linear: second order) — 1% covers both.
  CHECK(1.0 / period == Approx(F).epsilon(0.01));

  // damping_ratio = 1 is critical: e decays without crossing zero.
  const auto critical = mjhand_test::load_xml_string(light_finger(key("frequency", "20") + key("damping_ratio", "1"),
                                                                  "0.0005"));
  const auto dc = make_data(critical.get());
  dc->qpos[1] = 0.1;
  double min_e = 1.0;
  for (int i = 0; i < 400; ++i) {
    mj_step(critical.get(), dc.get());
    min_e = std::min(min_e, dc->qpos[1] - dc->qpos[0]);
  }
  // Critically damped from rest: monotone; the discretisation's overshoot at omega h = 0.063 is O((omega h)^2) of
  // the start: below 1e-3 x 0.1.
  CHECK(min_e > -1e-4);
}
