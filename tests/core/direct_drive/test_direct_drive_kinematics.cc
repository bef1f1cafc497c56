// The direct-drive hand's closed-form kinematics (appendices B-D) against MuJoCo on the generated model: fingertip
// poses (B.5, B.6) against site_xpos/site_xmat, the Jacobians (D.2) against mj_jacSite, the static torques (D.3)
// against mj_applyFT, and the inverse kinematics (C) round trip; 1,000 random states per finger, 1e-9 relative.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <mjhand/direct_drive/finger.h>
#include <mjhand/direct_drive/kinematics.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::rel_error;
using Catch::Matchers::Contains;

namespace {

constexpr int kStates = 1000;
// docs/direct-drive-hand.md measured <= 6e-15 (FK, Jacobians, tau) and 1e-11 (the IK round trip: acos near a
// straight finger loses digits); 1e-9 relative bounds both
constexpr double kRel = 1e-9;

ModelPtr hand() { return mjhand_test::load_xml_file(mjhand_test::source_path("models/direct_drive_hand.xml")); }

// Random actuator angles within [0, 90 deg] for all 15 joints, seeded per test.
std::vector<double> random_phi(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, M_PI / 2);
  std::vector<double> q(15);
  for (double& x : q) x = u(rng);
  return q;
}

Eigen::Matrix3d site_rotation(const mjData* d, int site) {
  return Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>>(d->site_xmat + 9 * site);
}

int tip_site(const mjModel* m, int j) {
  const int s = mj_name2id(m, mjOBJ_SITE, ("f" + std::to_string(j) + "_tip").c_str());
  REQUIRE(s >= 0);
  return s;
}

}  // namespace

TEST_CASE("direct-drive fingertip-to-palm transforms (B.5, B.6) equal MuJoCo's fingertip sites", "[direct_drive]") {
  auto m = hand();
  auto d = make_data(m.get());
  REQUIRE(m->nq == 15);
  std::mt19937 rng(11);
  double worst_pos = 0, worst_rot = 0;
  for (int s = 0; s < kStates; ++s) {
    const std::vector<double> q = random_phi(rng);
    std::copy(q.begin(), q.end(), d->qpos);
    mj_kinematics(m.get(), d.get());
    for (int j = 1; j <= 5; ++j) {
      const Eigen::Isometry3d T = tip_in_palm(paper_finger(j), q.data() + 3 * (j - 1));  // palm frame = world
      const int site = tip_site(m.get(), j);
      const Eigen::Vector3d p = Eigen::Map<const Eigen::Vector3d>(d->site_xpos + 3 * site);
      worst_pos = std::max(worst_pos, rel_error(T.translation(), p));
      worst_rot = std::max(worst_rot, rel_error(Eigen::Matrix3d(T.linear()), site_rotation(d.get(), site)));
    }
  }
  WARN("FK vs site_xpos / site_xmat, 5 fingers x 1000 states: " << worst_pos << " / " << worst_rot << " relative");
  CHECK(worst_pos < kRel);
  CHECK(worst_rot < kRel);
}

TEST_CASE("the thumb's tip-to-palm transform is B.6's printed matrix", "[direct_drive]") {
  const DirectDriveFinger thumb = paper_finger(1);
  std::mt19937 rng(5);
  for (int s = 0; s < 100; ++s) {
    const std::vector<double> q = random_phi(rng);
    const std::array<double, 3> t = frame_angles(thumb, q.data());
    const double a1 = 0.06, a2 = 0.06, a3 = 0.055;
    const double c1 = std::cos(t[0]), s1 = std::sin(t[0]), c12 = std::cos(t[0] + t[1]), s12 = std::sin(t[0] + t[1]);
    const double c123 = std::cos(t[0] + t[1] + t[2]), s123 = std::sin(t[0] + t[1] + t[2]);
    Eigen::Matrix4d printed;
    printed << -c123, s123, 0, -a3 * c123 - a2 * c12 - a1 * c1 - 0.030,  //
        s123, c123, 0, a3 * s123 + a2 * s12 + a1 * s1 + 0.018,           //
        0, 0, -1, 0.050,                                                 //
        0, 0, 0, 1;
    // rounding of a few trig products on 0.06-m links
    CHECK(rel_error(tip_in_palm(thumb, q.data()).matrix(), printed) < 1e-14);
  }
  // theta_1 = phi_1 + alpha, theta_3 = phi_3 - alpha, alpha = pi/4 - atan(4/4.5) ~ 3.37 deg (B.3).
  // the paper prints 3.37 deg: half a unit of its last digit
  CHECK(actuator_offset_alpha() == Approx(3.37 * M_PI / 180).margin(0.005 * M_PI / 180));
  const std::array<double, 3> t = frame_angles(thumb, std::vector<double>{0.1, 0.2, 0.3}.data());
  CHECK(t[0] == 0.1 + actuator_offset_alpha());
  CHECK(t[1] == 0.2);
  CHECK(t[2] == 0.3 - actuator_offset_alpha());
}

TEST_CASE("direct-drive Jacobians in {T} and {0} (D.2) equal mj_jacSite, and J^T F (D.3) equals mj_applyFT",
          "[direct_drive]") {
  auto m = hand();
  auto d = make_data(m.get());
  std::vector<mjtNum> jacp(3 * m->nv), jacr(3 * m->nv), qfrc(m->nv);
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> force(-2.0, 2.0);
  double worst_base = 0, worst_tip = 0, worst_rot = 0, worst_tau = 0;
  for (int s = 0; s < kStates; ++s) {
    const std::vector<double> q = random_phi(rng);
    std::copy(q.begin(), q.end(), d->qpos);
    mj_kinematics(m.get(), d.get());
    mj_comPos(m.get(), d.get());
    for (int j = 1; j <= 5; ++j) {
      const DirectDriveFinger f = paper_finger(j);
      const double* phi = q.data() + 3 * (j - 1);
      const int site = tip_site(m.get(), j);
      mj_jacSite(m.get(), d.get(), jacp.data(), jacr.data(), site);
      Eigen::Matrix3d Jp, Jr;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
          Jp(r, c) = jacp[r * m->nv + 3 * (j - 1) + c];
          Jr(r, c) = jacr[r * m->nv + 3 * (j - 1) + c];
        }
      }
      const Eigen::Matrix3d R0 = f.base.linear();  // {0} in the palm = world
      const Eigen::Matrix3d RT = tip_in_palm(f, phi).linear();
      worst_base = std::max(worst_base, rel_error(jacobian_in_base(f, phi), Eigen::Matrix3d(R0.transpose() * Jp)));
      worst_tip = std::max(worst_tip, rel_error(jacobian_in_tip(f, phi), Eigen::Matrix3d(RT.transpose() * Jp)));
      // The angular velocity is thetadot_1 + thetadot_2 + thetadot_3 about {0}'s Z axis (D.1).
      Eigen::Matrix3d w = Eigen::Matrix3d::Zero();
      w.row(2).setOnes();
      worst_rot = std::max(worst_rot, rel_error(Eigen::Matrix3d(R0.transpose() * Jr), w));
      // D.3: tau = ^0J^T ^0F against MuJoCo's generalized force of the same force applied at the fingertip.
      const Eigen::Vector3d F_world(force(rng), force(rng), force(rng));
      const Eigen::Vector3d F_base = R0.transpose() * F_world;
      const Eigen::Vector3d F_plane(F_base.x(), F_base.y(), 0);  // the out-of-plane part is carried by the bearings
      const Eigen::Vector3d applied = R0 * F_plane;
      mjtNum fv[3] = {applied.x(), applied.y(), applied.z()}, torque[3] = {0, 0, 0};
      std::fill(qfrc.begin(), qfrc.end(), 0.0);
      mj_applyFT(m.get(), d.get(), fv, torque, d->site_xpos + 3 * site, m->site_bodyid[site], qfrc.data());
      const Eigen::Vector3d tau = static_torques(jacobian_in_base(f, phi), F_plane);
      worst_tau = std::max(worst_tau, rel_error(tau, Eigen::Vector3d(Eigen::Map<Eigen::Vector3d>(qfrc.data() + 3 * (j - 1)))));
    }
  }
  WARN("Jacobians vs mj_jacSite: {0} " << worst_base << ", {T} " << worst_tip << ", angular " << worst_rot
                                       << "; J^T F vs mj_applyFT " << worst_tau << " (relative)");
  CHECK(worst_base < kRel);
  CHECK(worst_tip < kRel);
  CHECK(worst_rot < kRel);
  CHECK(worst_tau < kRel);
}

TEST_CASE("direct-drive inverse kinematics (C) round-trips through FK and through MuJoCo's sites", "[direct_drive]") {
  auto m = hand();
  auto d = make_data(m.get());
  std::mt19937 rng(13);
  double worst = 0, worst_palm = 0, worst_printed = 0;
  for (int s = 0; s < kStates; ++s) {
    const std::vector<double> q = random_phi(rng);
    std::copy(q.begin(), q.end(), d->qpos);
    mj_kinematics(m.get(), d.get());
    for (int j = 1; j <= 5; ++j) {
      const DirectDriveFinger f = paper_finger(j);
      const double* phi = q.data() + 3 * (j - 1);
      const Eigen::Isometry3d T = tip_in_base(f, phi);
      const double gamma = std::atan2(T.linear()(1, 0), T.linear()(0, 0));
      const DirectDriveIk ik = inverse_kinematics(f, T.translation().x(), T.translation().y(), gamma);
      REQUIRE(ik.reachable());
      const Eigen::Vector3d want(phi[0], phi[1], phi[2]);
      worst = std::max(worst, rel_error(Eigen::Vector3d(ik.phi[0], ik.phi[1], ik.phi[2]), want));
      // From MuJoCo's fingertip site in the palm frame.
      const int site = tip_site(m.get(), j);
      const DirectDriveIk ikp =
          inverse_kinematics_palm(f, Eigen::Map<const Eigen::Vector3d>(d->site_xpos + 3 * site), gamma);
      REQUIRE(ikp.reachable());
      worst_palm = std::max(worst_palm, rel_error(Eigen::Vector3d(ikp.phi[0], ikp.phi[1], ikp.phi[2]), want));
      // Appendix C's printed acos forms give the same theta_2 and theta_1 where they are well conditioned.
      const double a1 = f.a[0], a2 = f.a[1], a3 = f.a[2];
      const double x = T.translation().x() - a3 * std::cos(gamma), y = T.translation().y() - a3 * std::sin(gamma);
      const double dd = x * x + y * y;
      if (ik.theta[1] > 0.05) {
        const double t2 = std::acos((dd - a1 * a1 - a2 * a2) / (2 * a1 * a2));
        const double t1 = std::atan2(y, x) - std::acos((a1 * a1 + dd - a2 * a2) / (2 * a1 * std::sqrt(dd)));
        worst_printed = std::max({worst_printed, std::fabs(t2 - ik.theta[1]), std::fabs(t1 - ik.theta[0])});
      }
    }
  }
  WARN("IK round trip: " << worst << " (from FK), " << worst_palm << " (from MuJoCo's sites) relative; printed acos "
                         "forms differ by " << worst_printed << " rad");
  CHECK(worst < kRel);
  CHECK(worst_palm < kRel);
  // acos with |d acos/dx| = 1/sin(theta_2) <= 20 for theta_2 > 0.05: rounding x 20 ~1e-14; 1e-10 is loose
  CHECK(worst_printed < 1e-10);
}

TEST_CASE("unreachable fingertip targets are reported with the reason", "[direct_drive]") {
  const DirectDriveFinger f = paper_finger(3);
  // d > a1 + a2: appendix C's solvability check.
  const DirectDriveIk far = inverse_kinematics(f, 0.2, 0.0, 0.0);
  CHECK(far.status == DirectDriveIkStatus::kTooFar);
  CHECK_FALSE(far.reachable());
  CHECK_THAT(far.reason, Contains("d <= a1 + a2"));
  CHECK(far.wrist_distance == Approx(0.2 - 0.055));  // rounding
  // The straight finger itself (d = a1 + a2 exactly) is reachable: phi = (0, 0, 0) needs gamma = 0.
  const double zero[3] = {0, 0, 0};
  const Eigen::Isometry3d straight = tip_in_base(f, zero);
  const DirectDriveIk s = inverse_kinematics(f, straight.translation().x(), straight.translation().y(), 0.0);
  REQUIRE(s.reachable());
  // acos(1 - eps) at the straight finger: sqrt(2 eps) = 2e-8 rad per angle, three of them
  CHECK(std::fabs(s.phi[0]) + std::fabs(s.phi[1]) + std::fabs(s.phi[2]) < 1e-7);
  // Wrist point on joint 1's axis (a1 = a2 folds the finger back onto its base).
  const DirectDriveIk sing = inverse_kinematics(f, 0.055, 0.0, 0.0);
  CHECK(sing.status == DirectDriveIkStatus::kSingular);
  CHECK_THAT(sing.reason, Contains("theta_1 is undetermined"));
  // A point the finger reaches only with theta_2 < 0 (bent backwards): phi_2 would leave [0, 90 deg].
  const double back[3] = {0.3, -0.4, 0.2};
  const Eigen::Isometry3d Tb = tip_in_base(f, back);
  const double gb = std::atan2(Tb.linear()(1, 0), Tb.linear()(0, 0));
  const DirectDriveIk lim = inverse_kinematics(f, Tb.translation().x(), Tb.translation().y(), gb);
  CHECK(lim.status == DirectDriveIkStatus::kOutsideLimits);
  CHECK(lim.joint >= 0);
  CHECK_THAT(lim.reason, Contains("outside [lower, upper]"));
  // A palm-frame point off the finger's plane, and non-finite input.
  const DirectDriveIk off = inverse_kinematics_palm(f, Eigen::Vector3d(0.2, 0.05, 0.03), 0.5);
  CHECK(off.status == DirectDriveIkStatus::kOutOfPlane);
  CHECK_THAT(off.reason, Contains("not in the finger's plane"));
  CHECK(inverse_kinematics(f, NAN, 0.1, 0.0).status == DirectDriveIkStatus::kNotFinite);
  CHECK(inverse_kinematics_palm(f, Eigen::Vector3d(INFINITY, 0, 0), 0.0).status == DirectDriveIkStatus::kNotFinite);
  // gamma and gamma + 2 pi describe the same fingertip.
  const double mid[3] = {0.4, 0.5, 0.6};
  const Eigen::Isometry3d Tm = tip_in_base(f, mid);
  const double gm = std::atan2(Tm.linear()(1, 0), Tm.linear()(0, 0));
  const DirectDriveIk wrapped = inverse_kinematics(f, Tm.translation().x(), Tm.translation().y(), gm + 2 * M_PI);
  REQUIRE(wrapped.reachable());
  CHECK(wrapped.phi[2] == Approx(0.6).margin(1e-12));  // gamma + 2 pi rounds by an ulp of 2 pi (9e-16)
}
