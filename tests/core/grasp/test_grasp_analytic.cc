// Grasp analysis on analytic grasps: G and its errata, force closure, epsilon against hand-derived values,
// force distributions, internal forces, mobility and degenerate input.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/mobility.h>
#include <mjhand/grasp/wrench_space.h>

using namespace mjhand;

namespace {
Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

// Three hard fingers on the equator of a sphere of radius R, 120 deg apart.
std::vector<Contact> equilateral(double R, double mu, ContactModel model = ContactModel::kHardFinger) {
  std::vector<Contact> c;
  for (int k = 0; k < 3; ++k) {
    const double a = 2 * M_PI * k / 3;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0);
    c.push_back(analytic_contact(R * u, -u, model, mu, 0.002));
  }
  return c;
}

// Twelve frictionless contacts on six pinch lines whose primitive wrenches are +-w_k with orthogonal w_k, |w_k| = sqrt 2
// (torque scaled by L = b): the L1 wrench space is a cross-polytope, the L-infinity one a hypercube.
std::vector<Contact> orthogonal_pinches(double a, double b) {
  std::vector<Contact> c;
  const Eigen::Vector3d e[3] = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ()};
  for (int axis = 0; axis < 3; ++axis) {
    const Eigen::Vector3d n = e[axis], off = e[(axis + 1) % 3];  // line along n through +-b * off
    for (double s : {1.0, -1.0}) {
      for (double side : {1.0, -1.0}) {
        c.push_back(analytic_contact(s * b * off + side * a * n, -side * n, ContactModel::kFrictionlessPoint, 0.0));
      }
    }
  }
  return c;
}
}  // namespace

TEST_CASE("eq 2 frames are right-handed with n into the object, vertical normals use the documented fallback", "[grasp]") {
  const Eigen::Vector3d p(0.1, -0.2, 0.3);
  const Eigen::Vector3d c = p + 0.05 * Eigen::Vector3d(0.6, 0.0, 0.8);
  const Contact k = analytic_contact(c, p - c);
  // Unit vectors of O(1) entries: rounding only (here and in the next CHECKs).
  CHECK((k.frame.transpose() * k.frame - Eigen::Matrix3d::Identity()).norm() < 1e-14);
  CHECK(k.frame.determinant() == Approx(1.0).epsilon(1e-14));  // 3x3 products: measured 2.2e-16
  CHECK((k.normal() - (p - c).normalized()).norm() < 1e-14);
  CHECK(k.frame(2, 1) == 0.0);  // eq 2: t is horizontal
  const Eigen::Matrix3d up = contact_frame_from_normal(Eigen::Vector3d(0, 0, 2));
  CHECK(up.determinant() == Approx(1.0).epsilon(1e-14));  // measured 0
  CHECK_THROWS_AS(contact_frame_from_normal(Eigen::Vector3d::Zero()), GraspError);
  CHECK_THROWS_AS(contact_frame_from_normal(Eigen::Vector3d(NAN, 0, 1)), GraspError);
}

TEST_CASE("two-finger antipodal grasp: G entry by entry, the handbook form, and the printed form's error", "[grasp]") {
  const double a = 0.03;
  std::vector<Contact> c = {analytic_contact({a, 0, 0}, {-1, 0, 0}), analytic_contact({-a, 0, 0}, {1, 0, 0})};
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  Eigen::MatrixXd expect(6, 6);
  // contact 1: n = -x, t = y, o = n x t = -z; contact 2: n = +x, t = -y, o = -z.
  expect << -1, 0, 0, 1, 0, 0,  //
      0, 1, 0, 0, -1, 0,        //
      0, 0, -1, 0, 0, -1,       //
      0, 0, 0, 0, 0, 0,         //
      0, 0, a, 0, 0, -a,        //
      0, a, 0, 0, a, 0;
  CHECK((G - expect).norm() < 1e-15);  // exact axes: rounding only
  // G_i^T = H_i Rbar_i^T P_i^T with P_i = [I 0; (c_i - p)^x I] for a random contact and reference.
  const Eigen::Vector3d p(0.01, 0.02, -0.03), ci(0.05, -0.01, 0.04);
  const Contact k = analytic_contact(ci, Eigen::Vector3d(-0.3, 0.5, -0.2), ContactModel::kSoftFinger, 0.5, 0.01);
  Eigen::Matrix<double, 6, 6> P = Eigen::Matrix<double, 6, 6>::Identity(), Rbar = Eigen::Matrix<double, 6, 6>::Zero();
  P.block<3, 3>(3, 0) = skew(ci - p);
  Rbar.block<3, 3>(0, 0) = Rbar.block<3, 3>(3, 3) = k.frame;
  Eigen::MatrixXd H(4, 6);
  selection_matrix(ContactModel::kSoftFinger, H);
  const Eigen::MatrixXd Gi = grasp_matrix(std::vector<Contact>{k}, p);
  // One product in two orders (entries <= 1): rounding only.
  CHECK((Gi.transpose() - H * Rbar.transpose() * P.transpose()).norm() < 1e-15);
  // The print's H_i Rbar_i P_i is a different matrix (errata in docs/grasp-analysis.md).
  CHECK((Gi.transpose() - H * Rbar * P).norm() > 1e-2);
}

TEST_CASE("two soft fingers: force closure iff the contact line lies inside both (linearised) cones", "[grasp]") {
  const double a = 0.03, mu = 0.5;
  for (double y : {0.4 * a, 0.6 * a}) {
    std::vector<Contact> c = {analytic_contact({a, y, 0}, {-1, 0, 0}, ContactModel::kSoftFinger, mu, 0.005),
                              analytic_contact({-a, -y, 0}, {1, 0, 0}, ContactModel::kSoftFinger, mu, 0.005)};
    const EpsilonResult r = ferrari_canny(c, Eigen::Vector3d::Zero());
    INFO("y/a = " << y / a << ": " << r.message);
    CHECK(r.force_closure() == (y / a < mu));
    CHECK(std::isfinite(r.epsilon));
    if (!r.force_closure()) CHECK(r.epsilon == 0.0);
  }
  // Hard fingers cannot resist a torque about the contact line: the wrench space is flat, epsilon 0.
  std::vector<Contact> hard = {analytic_contact({a, 0, 0}, {-1, 0, 0}, ContactModel::kHardFinger, 1.0),
                               analytic_contact({-a, 0, 0}, {1, 0, 0}, ContactModel::kHardFinger, 1.0)};
  const EpsilonResult h = ferrari_canny(hard, Eigen::Vector3d::Zero());
  CHECK(h.status == EpsilonStatus::kRankDeficient);
  CHECK(h.epsilon == 0.0);
}

TEST_CASE("three-finger equilateral grasp: singular values, internal forces, closure", "[grasp]") {
  const double R = 0.05;
  const auto c = equilateral(R, 0.5);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  // G G^T = diag(3 I, 1.5 R^2, 1.5 R^2, 3 R^2): sigma = sqrt 3 (x3), R sqrt 1.5 (x2), R sqrt 3.
  const auto s = grasp_singular_values(G);
  // From the eigenvalues of G G^T: each carries eps sigma_max^2, i.e. eps (sigma_max / sigma)^2 / 2 relative in sigma:
  // 1.1e-16 for sigma_max (measured 2.2e-16: rounding of the products), 8.9e-14 for sigma_min (condition 28.3;
  // measured 1.04e-14). Bounds 1e-14 and 3e-13 (Catch's default was 1.2e-5).
  CHECK(s(0) == Approx(std::sqrt(3.0)).epsilon(1e-14));
  CHECK(s(5) == Approx(R * std::sqrt(1.5)).epsilon(3e-13));
  CHECK(grasp_sigma_min(G) == Approx(R * std::sqrt(1.5)).epsilon(3e-13));
  const GraspQuality q = grasp_quality(G, Eigen::MatrixXd::Identity(9, 9));
  CHECK(q.valid);
  CHECK(q.rank_G == 6);
  CHECK(q.isotropy_G == Approx(R * std::sqrt(1.5) / std::sqrt(3.0)).epsilon(3e-13));  // sigma_min's bound; measured 0
  const Eigen::MatrixXd N = internal_force_basis(G);
  REQUIRE(N.cols() == 3);
  // SVD null space and sums of cos/sin of 120 deg with O(1) entries: rounding only.
  CHECK((G * N).norm() < 1e-12);
  Eigen::VectorXd squeeze = Eigen::VectorXd::Zero(9);
  squeeze(0) = squeeze(3) = squeeze(6) = 1.0;  // equal normal forces cancel
  CHECK((G * squeeze).norm() < 1e-14);
  CHECK((N * N.transpose() * squeeze - squeeze).norm() < 1e-12);  // and lie in the computed null space
  const Eigen::MatrixXd E = controllable_internal_force_basis(G, Eigen::MatrixXd::Identity(9, 9));
  CHECK(E.cols() == 3);  // fully actuated fingers control every internal force
  CHECK((G * E).norm() < 1e-12);
  CHECK(is_force_closure(c, Eigen::Vector3d::Zero()));
  const HandObjectMobility mob = hand_object_mobility(c, G, Eigen::MatrixXd::Identity(9, 9), 9);
  CHECK(mob.grubler == 6);
  CHECK(mob.actuation_redundancy == 3);
  CHECK(mob.internal_forces == 3);
  CHECK(mob.indeterminate == 0);
  // Borras & Dollar's 3-URS count: 8 links (palm, 2 phalanges x 3, object), per finger U (2), R (1), S (3).
  CHECK(grubler_kutzbach(8, {2, 1, 3, 2, 1, 3, 2, 1, 3}) == 6);
}

TEST_CASE("epsilon of the orthogonal-pinch grasp equals the hand-derived 1/sqrt 3 (L1) and sqrt 2 (L-inf)", "[grasp]") {
  const double a = 0.04, b = 0.02;
  const auto c = orthogonal_pinches(a, b);
  WrenchSpaceOptions opt;
  opt.torque_length = b;
  opt.compute_volume = true;
  const EpsilonResult l1 = ferrari_canny(c, Eigen::Vector3d::Zero(), opt);
  REQUIRE(l1.force_closure());
  // Hull tolerances (points within 1e-12 max|w| dropped, planes merged at 1e-9; docs/grasp-analysis.md).
  CHECK(l1.epsilon == Approx(1.0 / std::sqrt(3.0)).epsilon(1e-9));
  // Cross-polytope with half-diagonals sqrt 2: volume 2^6 (sqrt 2)^6 / 6! = 512/720.
  CHECK(l1.volume == Approx(512.0 / 720.0).epsilon(1e-9));
  opt.norm = WrenchNorm::kLinf;
  const EpsilonResult linf = ferrari_canny(c, Eigen::Vector3d::Zero(), opt);
  REQUIRE(linf.force_closure());
  CHECK(linf.epsilon == Approx(std::sqrt(2.0)).epsilon(1e-9));
  CHECK(linf.points == 4096);
  // Removing one contact opens the grasp: not force closure, epsilon exactly 0 (never negative, never NaN).
  auto open = c;
  open.pop_back();
  const EpsilonResult o = ferrari_canny(open, Eigen::Vector3d::Zero(), WrenchSpaceOptions{8, b});
  CHECK(o.status == EpsilonStatus::kNotForceClosure);
  CHECK(o.epsilon == 0.0);
  CHECK(o.signed_margin <= 0.0);
}

TEST_CASE("min-norm and optimal forces balance the wrench, optimal ones lie in the cones", "[grasp]") {
  const double R = 0.05, mu = 0.5, weight = 0.2 * 9.81;
  const auto c = equilateral(R, mu);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  Wrench W = Wrench::Zero();
  W(2) = -weight;
  W(3) = 0.01;  // and a small moment
  const MinNormForces mn = min_norm_forces(c, G, W);
  CHECK(mn.balances);
  // G^+ with condition sqrt 3 / (R sqrt 1.5) = 28 on O(1) forces: rounding only.
  CHECK((balanced_wrench(G, mn.lambda) - W).norm() < 1e-12);
  const Eigen::MatrixXd N = internal_force_basis(G);
  CHECK((N.transpose() * mn.lambda).norm() < 1e-12);  // min-norm has no internal component
  CHECK_FALSE(mn.in_cones);                            // ... so it cannot use friction: f_n = 0 here

  ForceOptimizationOptions opt;
  const ForceDistribution f = optimal_forces(c, G, W, opt);
  REQUIRE(f.ok());
  // GLPK's basic solution meets the equality rows to the rounding of its LU solve on O(1) N: measured 3.3e-16 N;
  // 1e-12 = 3000x (the old 1e-9 was 3e6x). The cones: the LP's pyramid is inscribed, so an exact solution has
  // margin >= 0 (measured 0: a pyramid edge, which touches the cone); 1e-9 N is rounding room, below GLPK's
  // tol_bnd = 1e-7 (the most its Harris ratio test may leave). The same two bounds hold below.
  CHECK(f.wrench_residual < 1e-12);
  CHECK(in_friction_cones(c, f.lambda, 1e-9));
  // Pure weight: every contact's vertical force is at most mu f_n (a pyramid vertex points along o = vertical), so
  // the least total normal force is weight / mu.
  W(3) = 0;
  const ForceDistribution g = optimal_forces(c, G, W, opt);
  REQUIRE(g.ok());
  CHECK(g.total_normal_force == Approx(weight / mu).epsilon(1e-12));  // LP objective: rounding, measured 4.4e-16
  opt.min_normal_force = 3.0;
  const ForceDistribution h = optimal_forces(c, G, W, opt);
  REQUIRE(h.ok());
  // Non-basic at the bound: measured exactly 3 N for all three; 1e-9 as for the cones.
  for (int i = 0; i < 3; ++i) CHECK(h.lambda(3 * i) >= 3.0 - 1e-9);
  CHECK(h.min_cone_margin > 0);
  // A normal-force cap too small for the weight: infeasible, a clear status and zeros, not garbage.
  opt.min_normal_force = 0;
  opt.max_normal_force = 0.5;
  const ForceDistribution inf = optimal_forces(c, G, W, opt);
  CHECK(inf.status == ForceStatus::kInfeasible);
  CHECK(inf.lambda.norm() == 0.0);
  CHECK_FALSE(inf.message.empty());
  // Frictionless contacts on the equator cannot carry weight at all.
  const auto slick = equilateral(R, 0.0, ContactModel::kFrictionlessPoint);
  CHECK(optimal_forces(slick, grasp_matrix(slick, Eigen::Vector3d::Zero()), W).status == ForceStatus::kInfeasible);
  // Soft fingers: torsion within mu_torsion f_n.
  const auto soft = equilateral(R, mu, ContactModel::kSoftFinger);
  Wrench twist = Wrench::Zero();
  twist(5) = 0.02;
  const ForceDistribution s = optimal_forces(soft, grasp_matrix(soft, Eigen::Vector3d::Zero()), twist);
  REQUIRE(s.ok());
  CHECK(in_friction_cones(soft, s.lambda, 1e-9));  // measured margin +2.8e-17 N, residual 1.3e-16 N
}

TEST_CASE("optimal forces are not thrown off by round-off entries in G", "[grasp]") {
  // G from rotated contact frames has ~1e-18 where exact zeros belong; GLPK's automatic scaling used to turn such
  // entries into "infeasible" for a force-closure grasp (found by mjhand analyze on the e_GRASP scene).
  const auto c = equilateral(0.05, 0.5);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  Eigen::MatrixXd noisy = G;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> tiny(-3e-18, 3e-18);
  for (int r = 0; r < noisy.rows(); ++r) {
    for (int k = 0; k < noisy.cols(); ++k) {
      if (noisy(r, k) == 0.0) noisy(r, k) = tiny(rng);
    }
  }
  for (int axis = 0; axis < 6; ++axis) {
    Wrench W = Wrench::Zero();
    W(axis) = axis < 3 ? -2.0 : 0.01;  // single-axis wrenches were reported unbounded
    ForceOptimizationOptions opt;
    opt.min_normal_force = 0.5;
    const ForceDistribution clean = optimal_forces(c, G, W, opt), rough = optimal_forces(c, noisy, W, opt);
    INFO("axis " << axis);
    REQUIRE(clean.ok());
    REQUIRE(rough.ok());
    // The 3e-18 entries fall below the LP's 1e-12 max|G| drop (force_optimization.cc): the same LP, so the same
    // optimum bit for bit (measured for all 6 axes). Its residual, taken with the noisy G: rounding, measured
    // <= 4.7e-16 N; 1e-12 as above.
    CHECK(rough.total_normal_force == clean.total_normal_force);
    CHECK(rough.wrench_residual < 1e-12);
  }
}

TEST_CASE("degenerate grasps get clear answers, never NaN", "[grasp]") {
  const std::vector<Contact> none;
  const Eigen::MatrixXd G0 = grasp_matrix(none, Eigen::Vector3d::Zero());
  CHECK(G0.cols() == 0);
  const GraspQuality q0 = grasp_quality(G0, Eigen::MatrixXd(0, 3));
  CHECK_FALSE(q0.valid);
  CHECK(q0.sigma_min_G == 0.0);
  CHECK(grasp_sigma_min(G0) == 0.0);
  CHECK(ferrari_canny(none, Eigen::Vector3d::Zero()).status == EpsilonStatus::kNoContacts);
  Wrench W = Wrench::Zero();
  W(2) = -1;
  CHECK(optimal_forces(none, G0, W).status == ForceStatus::kInfeasible);
  CHECK(min_norm_forces(none, G0, W).wrench_residual == 1.0);  // no contacts: |W| = 1 exactly

  const std::vector<Contact> one = {analytic_contact({0.03, 0, 0}, {-1, 0, 0}, ContactModel::kHardFinger, 0.8)};
  const Eigen::MatrixXd G1 = grasp_matrix(one, Eigen::Vector3d::Zero());
  const GraspQuality q1 = grasp_quality(G1, Eigen::MatrixXd::Identity(3, 3));
  CHECK(q1.valid);
  CHECK(q1.rank_G == 3);
  CHECK(q1.sigma_min_G == 0.0);
  CHECK(q1.sigma_min_HO == 0.0);
  CHECK(std::isinf(q1.uniformity_HO));
  CHECK_FALSE(std::isnan(q1.isotropy_G));
  const EpsilonResult e1 = ferrari_canny(one, Eigen::Vector3d::Zero());
  CHECK(e1.status == EpsilonStatus::kRankDeficient);
  CHECK(e1.epsilon == 0.0);
  const MinNormForces m1 = min_norm_forces(one, G1, W);  // weight along z, the contact is on the x axis
  CHECK(std::isfinite(m1.lambda.norm()));

  std::vector<Contact> bad = one;
  bad[0].mu = NAN;
  CHECK(ferrari_canny(bad, Eigen::Vector3d::Zero()).status == EpsilonStatus::kInvalidInput);
  CHECK(optimal_forces(bad, G1, W).status == ForceStatus::kInvalidInput);
  CHECK(optimal_forces(one, G1, W, ForceOptimizationOptions{2, 0.0}).status == ForceStatus::kInvalidInput);
  Eigen::MatrixXd Gnan = G1;
  Gnan(0, 0) = NAN;
  CHECK_FALSE(grasp_quality(Gnan, Eigen::MatrixXd::Identity(3, 3)).valid);
}
