// SGVcost (Gabiccini et al. 2011): the barrier and the cost on hand-computed cases, the 3/k^2 feasibility threshold,
// and the Nelder-Mead minimiser against brute-force grids on 1- and 2-parameter cases.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/force_closure_cost.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/util/nelder_mead.h>

using namespace mjhand;

namespace {

// Three hard contacts at 120 deg on a circle of radius R in the xy plane, normals toward the centre.
std::vector<Contact> equilateral(double R, double mu) {
  std::vector<Contact> c;
  for (int i = 0; i < 3; ++i) {
    const double a = 2 * M_PI * i / 3 + 0.2;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0);
    c.push_back(analytic_contact(R * u, -u, ContactModel::kHardFinger, mu));
  }
  return c;
}

// The barrier written out from the paper's piecewise definition, for the hand computations below.
double barrier_by_hand(double s, double k) {
  return s < -k ? 0.5 / (s * s) : 1.5 / std::pow(k, 4) * s * s + 4 / std::pow(k, 3) * s + 3 / (k * k);
}

}  // namespace

TEST_CASE("Vcost barrier: value and slope continuous at -k, positive, 3/k^2 at 0", "[vcost]") {
  for (double k : {0.001, 0.01, 0.5}) {
    const double h = 1e-7 * k;
    CHECK(vcost_barrier(-k - h, k) == Approx(vcost_barrier(-k + h, k)).epsilon(1e-5));  // jump O(h * slope)
    const double left = (vcost_barrier(-k - h, k) - vcost_barrier(-k - 3 * h, k)) / (2 * h);
    const double right = (vcost_barrier(-k + 3 * h, k) - vcost_barrier(-k + h, k)) / (2 * h);
    CHECK(left == Approx(1 / (k * k * k)).epsilon(1e-4));  // slope of 1/(2 s^2) at -k, FD error O(h/k)
    CHECK(right == Approx(1 / (k * k * k)).epsilon(1e-4));
    CHECK(vcost_barrier(0.0, k) == Approx(3 / (k * k)).epsilon(1e-15));
    for (double s = -10 * k; s < 10 * k; s += 0.37 * k) CHECK(vcost_barrier(s, k) > 0);
  }
}

TEST_CASE("Vcost of one and two contacts equals the hand-computed sum of barriers", "[vcost]") {
  VcostParams p;
  p.fmin = 1.0;
  p.fmax = 5.0;
  p.k = 0.1;
  const std::vector<Contact> one = {analytic_contact({0, 0, 0}, {0, 0, 1}, ContactModel::kHardFinger, 1.0)};
  Eigen::VectorXd l(3);
  // Inside everything: sigma = (1 - 2, 2 - 5, 2/sqrt2 - 2) = (-1, -3, sqrt2 - 2), all below -k.
  l << 2, 0, 0;
  CHECK(force_closure_cost(one, l, p) ==
        Approx(0.5 + 1.0 / 18 + 0.5 / std::pow(std::sqrt(2.0) - 2, 2)).epsilon(1e-14));
  CHECK(max_vcost_constraint(one, l, p) == Approx(std::sqrt(2.0) - 2).epsilon(1e-14));
  // f_n = 1.05: sigma_1 = -0.05 lies in the quadratic branch: 15000 * 0.0025 - 4000 * 0.05 + 300 = 137.5.
  l << 1.05, 0, 0;
  CHECK(force_closure_cost(one, l, p) ==
        Approx(137.5 + 0.5 / (3.95 * 3.95) + 0.5 / std::pow(1.05 / std::sqrt(2.0) - 1.05, 2)).epsilon(1e-13));
  // Outside the cone: |lambda| = sqrt(1 + 2.25), sigma_3 = |lambda|/sqrt2 - 1 > 0 (quadratic branch).
  l << 1, 1.5, 0;
  const double mag = std::sqrt(3.25);
  CHECK(force_closure_cost(one, l, p) == Approx(barrier_by_hand(0.0, 0.1) + 0.5 / std::pow(mag - 5, 2) +
                                                barrier_by_hand(mag / std::sqrt(2.0) - 1, 0.1))
                                             .epsilon(1e-13));
  // Two contacts with their own mu, and a frictionless point (fmin and fmax terms only).
  std::vector<Contact> two = {one[0], analytic_contact({1, 0, 0}, {-1, 0, 0}, ContactModel::kFrictionlessPoint, 0.3)};
  two[0].mu = 0.5;
  Eigen::VectorXd l2(4);
  l2 << 3, 0.5, -0.5, 2.5;
  const double m0 = std::sqrt(9.5);
  CHECK(force_closure_cost(two, l2, p) ==
        Approx(0.5 / 4 + 0.5 / std::pow(m0 - 5, 2) + 0.5 / std::pow(m0 / std::sqrt(1.25) - 3, 2) + 0.5 / 2.25 +
               0.5 / 6.25)
            .epsilon(1e-13));  // rounding of a handful of divisions
  // Refusals: a soft finger, a bad k, the wrong length, NaN.
  std::vector<Contact> soft = one;
  soft[0].model = ContactModel::kSoftFinger;
  CHECK_THROWS_WITH(force_closure_cost(soft, Eigen::VectorXd::Zero(4), p), Catch::Contains("contact 0 is a soft finger"));
  VcostParams bad = p;
  bad.k = 0;
  CHECK_THROWS_AS(force_closure_cost(one, l, bad), std::invalid_argument);
  CHECK_THROWS_AS(force_closure_cost(one, Eigen::VectorXd::Zero(4), p), std::invalid_argument);
  l(1) = NAN;
  CHECK_THROWS_AS(force_closure_cost(one, l, p), std::invalid_argument);
}

TEST_CASE("Vcost below 3/k^2 puts every force strictly inside its cone and bounds", "[vcost]") {
  const std::vector<Contact> c = equilateral(0.05, 0.6);
  VcostParams p;
  p.fmin = 0.5;
  p.fmax = 4.0;
  p.k = 0.05;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> normal(-0.5, 4.5), tangent(-1.5, 1.5);
  int below = 0, above = 0;
  for (int s = 0; s < 20000; ++s) {
    Eigen::VectorXd l(9);
    for (int i = 0; i < 9; ++i) l(i) = i % 3 == 0 ? normal(rng) : tangent(rng);
    const double V = force_closure_cost(c, l, p);
    // Independent check of every constraint, in the exact cone.
    bool ok = true;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Vector3d f = l.segment<3>(3 * i);
      ok = ok && f(0) > p.fmin && f.norm() < p.fmax && std::hypot(f(1), f(2)) < c[i].mu * f(0);
    }
    if (V < vcost_feasible_threshold(p)) {
      ++below;
      CHECK(ok);
    } else {
      ++above;
    }
  }
  std::printf("[vcost] random forces: %d below the threshold, %d above\n", below, above);
  CHECK(below > 100);  // the claim was exercised (a few % of the samples land inside every bound)
}

TEST_CASE("Vcost minimiser: one squeeze coefficient against a brute-force grid", "[vcost]") {
  // Two opposed contacts along x holding a 2 N weight along -z: lambda = -G^+ w + E y, E the squeeze.
  const double a = 0.04, mu = 0.5;
  const std::vector<Contact> c = {analytic_contact({a, 0, 0}, {-1, 0, 0}, ContactModel::kHardFinger, mu),
                                  analytic_contact({-a, 0, 0}, {1, 0, 0}, ContactModel::kHardFinger, mu)};
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd Gp = pseudo_inverse(G);
  const Eigen::MatrixXd E = internal_force_basis(G);
  REQUIRE(E.cols() == 1);
  Wrench w;
  w << 0, 0, -2.0, 0, 0, 0;
  VcostParams p;
  p.fmin = 0.5;
  p.fmax = 20;
  p.k = 0.01;
  const VcostOptimum opt = minimize_force_closure_cost(c, Gp, w, E, p);
  REQUIRE(opt.converged);
  // Grid over y in [-40, 40] with step 1e-3 (V is convex in y: one minimum).
  double best = INFINITY, ybest = 0;
  for (double y = -40; y <= 40; y += 1e-3) {
    const double V = force_closure_cost(c, vcost_forces(Gp, w, E, Eigen::VectorXd::Constant(1, y)), p);
    if (V < best) best = V, ybest = y;
  }
  std::printf("[vcost] 1-D: Nelder-Mead V = %.10g at y = %.6f (%d evaluations); grid V = %.10g at y = %.6f\n",
              opt.cost, opt.y(0), opt.evaluations, best, ybest);
  CHECK(opt.cost <= best * (1 + 1e-9));        // not worse than the grid (rounding of V)
  CHECK(std::abs(opt.y(0) - ybest) <= 1e-3);   // within one grid step
  CHECK(opt.cost < vcost_feasible_threshold(p));
  CHECK(in_friction_cones(c, opt.lambda));
  CHECK((G * opt.lambda + w).norm() < 1e-12);  // the weight is balanced (E in null(G)), rounding
}

TEST_CASE("Vcost minimiser: two internal-force coefficients against a refined grid, forces in the cones", "[vcost]") {
  const std::vector<Contact> c = equilateral(0.05, 0.7);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd Gp = pseudo_inverse(G);
  const Eigen::MatrixXd N = internal_force_basis(G);
  REQUIRE(N.cols() == 3);
  // E = (the pure normal squeeze, one other internal force orthogonal to it): the squeeze alone can make the forces
  // feasible, the second coefficient lets the minimiser trade friction between the contacts.
  Eigen::MatrixXd E(9, 2);
  E.col(0) << 1, 0, 0, 1, 0, 0, 1, 0, 0;
  E.col(0) /= std::sqrt(3.0);
  REQUIRE((G * E.col(0)).norm() < 1e-15);  // internal: rounding
  Eigen::VectorXd other = N.col(0) - E.col(0).dot(N.col(0)) * E.col(0);
  if (other.norm() < 0.5) other = N.col(1) - E.col(0).dot(N.col(1)) * E.col(0);
  E.col(1) = other.normalized();
  Wrench w;
  w << 0.3, -0.2, -1.5, 0.01, 0.02, 0;
  VcostParams p;
  p.fmin = 0.5;
  p.fmax = 15;
  p.k = 0.01;
  const VcostOptimum opt = minimize_force_closure_cost(c, Gp, w, E, p);
  REQUIRE(opt.converged);
  auto V = [&](double y0, double y1) {
    Eigen::Vector2d y(y0, y1);
    return force_closure_cost(c, vcost_forces(Gp, w, E, y), p);
  };
  // Coarse grid on [-30, 30]^2 (step 0.25), then a fine grid (step 2.5e-3) around the coarse best: V is convex.
  double best = INFINITY, b0 = 0, b1 = 0;
  for (double y0 = -30; y0 <= 30; y0 += 0.25) {
    for (double y1 = -30; y1 <= 30; y1 += 0.25) {
      const double v = V(y0, y1);
      if (v < best) best = v, b0 = y0, b1 = y1;
    }
  }
  const double c0 = b0, c1 = b1;
  for (double y0 = c0 - 0.25; y0 <= c0 + 0.25; y0 += 2.5e-3) {
    for (double y1 = c1 - 0.25; y1 <= c1 + 0.25; y1 += 2.5e-3) {
      const double v = V(y0, y1);
      if (v < best) best = v, b0 = y0, b1 = y1;
    }
  }
  std::printf("[vcost] 2-D: Nelder-Mead V = %.10g at (%.5f, %.5f), %d evaluations; grid V = %.10g at (%.4f, %.4f)\n",
              opt.cost, opt.y(0), opt.y(1), opt.evaluations, best, b0, b1);
  CHECK(opt.cost <= best * (1 + 1e-9));                              // not worse than the grid (rounding of V)
  CHECK((opt.y - Eigen::Vector2d(b0, b1)).cwiseAbs().maxCoeff() <= 5e-3);  // within two fine grid steps
  // Below the threshold: every force strictly inside, so the grasp holds w with these forces; the LP agrees.
  CHECK(opt.cost < vcost_feasible_threshold(p));
  CHECK(opt.max_sigma < 0);
  CHECK(in_friction_cones(c, opt.lambda));
  for (int i = 0; i < 3; ++i) CHECK(opt.lambda(3 * i) > p.fmin);
  CHECK((G * opt.lambda + w).norm() < 1e-12);  // rounding
  CHECK(optimal_forces(c, G, w).ok());
  // Bad sizes are refused, naming the argument.
  CHECK_THROWS_WITH(minimize_force_closure_cost(c, Gp.topRows(8), w, E, p), Catch::Contains("Gp"));
  CHECK_THROWS_WITH(minimize_force_closure_cost(c, Gp, w, E, p, Eigen::VectorXd::Zero(3)), Catch::Contains("y0"));
}

TEST_CASE("Nelder-Mead finds the minimum of a quadratic and of Rosenbrock's function", "[vcost]") {
  const Eigen::Vector3d target(1.5, -2.0, 0.25);
  auto quad = [&](const Eigen::VectorXd& x) { return (x - target).squaredNorm(); };
  const NelderMeadResult q = nelder_mead(quad, Eigen::VectorXd::Zero(3));
  CHECK(q.converged);
  CHECK((q.x - target).norm() < 1e-6);  // x_tol 1e-8 on the simplex; the minimum of a quadratic is well conditioned
  auto rosen = [](const Eigen::VectorXd& x) { return 100 * std::pow(x(1) - x(0) * x(0), 2) + std::pow(1 - x(0), 2); };
  NelderMeadOptions o;
  o.max_evaluations = 4000;
  const NelderMeadResult r = nelder_mead(rosen, Eigen::Vector2d(-1.2, 1.0), o);
  CHECK(r.converged);
  CHECK((r.x - Eigen::Vector2d(1, 1)).norm() < 1e-4);  // the curved valley: f ~ 1e-10 leaves x ~ 1e-5 uncertain
  CHECK_THROWS_AS(nelder_mead(quad, Eigen::VectorXd()), std::invalid_argument);
}
