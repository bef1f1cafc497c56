#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <mjhand/kinematics/forward_kinematics.h>

using namespace mjhand;

namespace {
// The e_GRASP finger of Table 1 with the link lengths mjhand's model uses.
Chain egrasp_finger(double l1, double l2, double l3) {
  Chain c;
  c.links = {{l1, M_PI / 2, 0, 0}, {l2, 0, 0, 0}, {l3, 0, 0, 0}};
  return c;
}
}  // namespace

TEST_CASE("standard DH finger matches the closed-form e_GRASP transform (eq 16)", "[kinematics]") {
  const double l1 = 0.02, l2 = 0.045, l3 = 0.03;
  Chain c = egrasp_finger(l1, l2, l3);
  ChainData d(c);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-M_PI / 4, M_PI / 4);
  for (int k = 0; k < 200; ++k) {
    const double q[3] = {u(rng), u(rng), u(rng)};
    forward_kinematics(c, q, d);
    const double c1 = std::cos(q[0]), s1 = std::sin(q[0]), c2 = std::cos(q[1]), s2 = std::sin(q[1]);
    const double c23 = std::cos(q[1] + q[2]), s23 = std::sin(q[1] + q[2]);
    // eq (16), with the rotation entries as they follow from Table 1 (the printed eq 2 has OCR slips).
    Eigen::Matrix4d h;
    h << c1 * c23, -c1 * s23, s1, c1 * (l3 * c23 + l2 * c2 + l1),  //
        s1 * c23, -s1 * s23, -c1, s1 * (l3 * c23 + l2 * c2 + l1),    //
        s23, c23, 0, l3 * s23 + l2 * s2,                             //
        0, 0, 0, 1;
    // entries O(1) and O(0.1 m), a three-link product vs the closed form: rounding ~1e-16
    REQUIRE((d.tip.matrix() - h).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("geometric Jacobian equals finite differences of FK, both conventions and joint kinds", "[kinematics]") {
  for (DHConvention conv : {DHConvention::kStandard, DHConvention::kModified}) {
    Chain c;
    c.convention = conv;
    c.base.translate(Eigen::Vector3d(0.1, -0.2, 0.3)).rotate(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
    c.links = {{0.03, 0.4, 0.01, 0.2}, {0.05, -1.1, 0.0, 0.0, JointKind::kPrismatic}, {0.02, 0.3, 0.02, -0.5}};
    c.tool.translate(Eigen::Vector3d(0.01, 0.0, 0.02));
    ChainData d(c), dp(c);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < 50; ++k) {
      double q[3] = {u(rng), u(rng) * 0.05, u(rng)};
      fk_and_jacobian(c, q, d);
      const double h = 1e-6;
      for (int j = 0; j < 3; ++j) {
        double qp[3] = {q[0], q[1], q[2]}, qm[3] = {q[0], q[1], q[2]};
        qp[j] += h;
        qm[j] -= h;
        forward_kinematics(c, qp, dp);
        const Eigen::Isometry3d tp = dp.tip;
        forward_kinematics(c, qm, dp);
        const Eigen::Isometry3d tm = dp.tip;
        const Eigen::Vector3d v = (tp.translation() - tm.translation()) / (2 * h);
        const Eigen::Matrix3d dr = (tp.linear() - tm.linear()) / (2 * h) * d.tip.linear().transpose();
        const Eigen::Vector3d w(dr(2, 1), dr(0, 2), dr(1, 0));
        // central differences, h = 1e-6: truncation ~h^2 = 1e-12, cancellation eps x |entry| / h ~ 2e-10 (entries <= 1)
        REQUIRE((d.jacobian.col(j).head<3>() - v).norm() < 1e-8);
        REQUIRE((d.jacobian.col(j).tail<3>() - w).norm() < 1e-8);
      }
      // Tool-frame Jacobian is the base-frame one rotated into the tool frame.
      Eigen::Matrix<double, 6, Eigen::Dynamic> jb = d.jacobian;
      compute_jacobian(c, d, JacobianFrame::kTool);
      const Eigen::Matrix3d r = d.tip.linear();
      // one 3x3 rotation of O(1) columns: rounding ~1e-16
      REQUIRE((r * d.jacobian.topRows<3>() - jb.topRows<3>()).cwiseAbs().maxCoeff() < 1e-14);
      REQUIRE((r * d.jacobian.bottomRows<3>() - jb.bottomRows<3>()).cwiseAbs().maxCoeff() < 1e-14);
    }
  }
}

TEST_CASE("modified DH row equals its standard DH equivalent", "[kinematics]") {
  // Craig's A_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i): a 2-link planar arm both ways.
  Chain s, m;
  s.links = {{0.06, 0, 0, 0}, {0.06, 0, 0, 0}};
  m.convention = DHConvention::kModified;
  m.links = {{0, 0, 0, 0}, {0.06, 0, 0, 0}};
  m.tool.translate(Eigen::Vector3d(0.06, 0, 0));
  ChainData ds(s), dm(m);
  const double q[2] = {0.3, -0.8};
  forward_kinematics(s, q, ds);
  forward_kinematics(m, q, dm);
  // the same products in another order: rounding
  REQUIRE((ds.tip.matrix() - dm.tip.matrix()).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("workspace-free tip_pose_and_jacobian equals fk_and_jacobian", "[kinematics]") {
  for (DHConvention conv : {DHConvention::kStandard, DHConvention::kModified}) {
    Chain c;
    c.convention = conv;
    c.base.translate(Eigen::Vector3d(0.05, 0.1, -0.2)).rotate(Eigen::AngleAxisd(-0.4, Eigen::Vector3d(3, 1, 2).normalized()));
    c.links = {{0.03, 1.2, 0.01, 0.3}, {0.04, 0.0, 0.02, 0.0, JointKind::kPrismatic}, {0.02, -0.7, 0.0, 0.1},
               {0.01, 0.5, 0.03, -0.2}};
    c.tool.translate(Eigen::Vector3d(0.0, 0.01, 0.02)).rotate(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitY()));
    ChainData d(c);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (int k = 0; k < 100; ++k) {
      const double q[4] = {u(rng), u(rng) * 0.02, u(rng), u(rng)};
      fk_and_jacobian(c, q, d);
      double jac[6 * 4];
      const Eigen::Isometry3d tip = tip_pose_and_jacobian(c, q, jac);
      // the same recursion without a workspace: rounding at most
      REQUIRE((tip.matrix() - d.tip.matrix()).cwiseAbs().maxCoeff() < 1e-15);
      REQUIRE((Eigen::Map<Eigen::Matrix<double, 6, 4>>(jac) - d.jacobian).cwiseAbs().maxCoeff() < 1e-15);
    }
  }
  Chain too_long;
  too_long.links.resize(kMaxStackChainDof + 1, DHLink{0.01, 0, 0, 0});
  std::vector<double> q(too_long.dof(), 0.0);
  REQUIRE_THROWS_AS(tip_pose_and_jacobian(too_long, q.data()), std::length_error);
}

TEST_CASE("tip_pose_and_jacobian with a precomputed ChainSplit gives the same numbers bit for bit", "[kinematics]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (const DHConvention convention : {DHConvention::kStandard, DHConvention::kModified}) {
    Chain c;
    c.convention = convention;
    c.base = Eigen::Translation3d(0.01, -0.02, 0.3) * Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitY());
    c.tool = Eigen::Isometry3d(Eigen::Translation3d(0.02, 0, 0));
    for (int i = 0; i < 4; ++i) {
      DHLink l;
      l.a = 0.03 + 0.01 * i;
      l.alpha = 0.3 * i - 0.5;
      l.d = 0.004 * i;
      l.theta = 0.1 * i;
      l.kind = i == 2 ? JointKind::kPrismatic : JointKind::kRevolute;
      c.links.push_back(l);
    }
    const ChainSplit split(c);
    for (int k = 0; k < 50; ++k) {
      double q[4], ja[24], jb[24];
      for (double& x : q) x = u(rng);
      const Eigen::Isometry3d a = tip_pose_and_jacobian(c, q, ja);
      const Eigen::Isometry3d b = tip_pose_and_jacobian(c, split, q, jb);
      REQUIRE(a.matrix() == b.matrix());
      for (int i = 0; i < 24; ++i) REQUIRE(ja[i] == jb[i]);
    }
  }
}
