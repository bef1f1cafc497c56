// The Ferrari-Canny epsilon's fast hull (WrenchHull) against the reference (qhull with its default options) on random
// L1 grasps, the hand-derived cases through the fast hull, and WrenchHull's own behaviour on degenerate point sets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/grasp/wrench_space_hull.h>

using namespace mjhand;

namespace {

// Twelve frictionless contacts on six pinch lines (as in test_grasp_analytic.cc): with L = b the L1 GWS is the
// cross-polytope of the +-w_k, |w_k| = sqrt 2 orthogonal, the L-infinity GWS the cube sum [-w_k, w_k].
std::vector<Contact> orthogonal_pinches(double a, double b) {
  std::vector<Contact> c;
  const Eigen::Vector3d e[3] = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ()};
  for (int axis = 0; axis < 3; ++axis) {
    const Eigen::Vector3d n = e[axis], off = e[(axis + 1) % 3];
    for (double s : {1.0, -1.0}) {
      for (double side : {1.0, -1.0}) {
        c.push_back(analytic_contact(s * b * off + side * a * n, -side * n, ContactModel::kFrictionlessPoint, 0.0));
      }
    }
  }
  return c;
}

struct RandomGrasp {
  std::vector<Contact> contacts;
  Eigen::Vector3d reference;
  WrenchSpaceOptions options;
};

// Random contacts on a sphere: min_contacts to min_contacts + contact_span - 1 of them (2-6 by default),
// hard/soft/frictionless (mixed, or one model for all), mu in [0, 1.2] (sometimes exactly 0), normals from radial
// (antipodal pairs in every fifth grasp: exactly coplanar and symmetric wrenches) to strongly tilted (mostly not force
// closure), 3-6 cone edges, torque length default or given.
RandomGrasp random_grasp(std::mt19937& rng, int min_contacts = 2, int contact_span = 5) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto unit = [&] {
    Eigen::Vector3d u;
    do {
      u = Eigen::Vector3d(U(rng), U(rng), U(rng));
    } while (u.norm() < 0.1 || u.norm() > 1.0);
    return Eigen::Vector3d(u.normalized());
  };
  RandomGrasp g;
  const Eigen::Vector3d centre = 0.05 * Eigen::Vector3d(U(rng), U(rng), U(rng));
  const double radius = 0.02 + 0.04 * (U(rng) + 1);
  g.reference = centre + 0.2 * radius * Eigen::Vector3d(U(rng), U(rng), U(rng));
  const int count = min_contacts + static_cast<int>(rng() % contact_span);
  const bool antipodal = rng() % 5 == 0;
  const bool one_model = rng() % 3 == 0;
  const double tilt = std::vector<double>{0.0, 0.3, 1.5}[rng() % 3];
  const auto model_of = [](unsigned k) {
    return k == 0 ? ContactModel::kFrictionlessPoint : k == 1 ? ContactModel::kHardFinger : ContactModel::kSoftFinger;
  };
  const ContactModel common = model_of(rng() % 3);
  for (int i = 0; i < count; ++i) {
    Eigen::Vector3d u = unit();
    if (antipodal && i % 2 == 1) u = -(g.contacts.back().pos - centre).normalized();
    const Eigen::Vector3d n = antipodal ? Eigen::Vector3d(-u) : Eigen::Vector3d(-u + tilt * unit());
    const double mu = rng() % 10 == 0 ? 0.0 : 0.6 * (U(rng) + 1);
    const double mu_torsion = rng() % 10 == 0 ? 0.0 : 0.005 * (U(rng) + 1);
    g.contacts.push_back(
        analytic_contact(centre + radius * u, n, one_model ? common : model_of(rng() % 3), mu, mu_torsion));
  }
  g.options.cone_edges = 3 + static_cast<int>(rng() % 4);
  if (rng() % 4 == 0) g.options.torque_length = 0.1;
  g.options.compute_volume = rng() % 4 == 0;
  return g;
}

// Largest |wrench| of the L1 point set, the scale of every hull tolerance.
double wrench_scale(const RandomGrasp& g, const EpsilonResult& r) {
  double s = 0;
  Eigen::Matrix<double, 6, Eigen::Dynamic> w(6, 2 * g.options.cone_edges);
  for (const Contact& c : g.contacts) {
    const int k = primitive_wrenches(c, g.reference, g.options.cone_edges, r.torque_length, w);
    s = std::max(s, w.leftCols(k).colwise().norm().maxCoeff());
  }
  return s;
}

struct Tally {
  int closure = 0, open = 0, flat = 0, fast = 0;
  double max_diff = 0;
};

// Fast hull and qhull on one grasp: same status, closure flag and facet count; epsilon and signed margin to 1e-9
// (absolute, in the scaled wrench units where |w| <= sqrt(2 (1 + mu^2))). Both hulls' planes are exact to roundoff
// (~1e-15); the fast one also ignores points within 1e-12 max|w| of a facet. Measured: <= ~1e-12.
void compare(const RandomGrasp& g, Tally& tally) {
  WrenchSpaceOptions ref_opt = g.options;
  ref_opt.hull = WrenchHullMethod::kQhull;
  const EpsilonResult ref = ferrari_canny(g.contacts, g.reference, ref_opt);
  const EpsilonResult fast = ferrari_canny(g.contacts, g.reference, g.options);
  INFO("contacts " << g.contacts.size() << ", edges " << g.options.cone_edges << ", norm "
                   << (g.options.norm == WrenchNorm::kL1 ? "L1" : "Linf") << ": qhull " << ref.message << " "
                   << ref.signed_margin << ", fast " << fast.message << " " << fast.signed_margin);
  REQUIRE(ref.hull == WrenchHullMethod::kQhull);
  CHECK(fast.status == ref.status);
  CHECK(fast.force_closure() == ref.force_closure());
  CHECK(std::abs(fast.epsilon - ref.epsilon) <= 1e-9);
  CHECK(std::isfinite(fast.epsilon));
  CHECK(fast.points == ref.points);
  if (ref.status == EpsilonStatus::kRankDeficient) ++tally.flat;
  if (ref.status != EpsilonStatus::kForceClosure && ref.status != EpsilonStatus::kNotForceClosure) return;
  if (ref.force_closure()) {
    ++tally.closure;
  } else {
    ++tally.open;
  }
  // The fast hull must have produced these numbers itself: a fallback would make the comparison vacuous.
  CHECK(fast.hull == WrenchHullMethod::kFast);
  if (fast.hull == WrenchHullMethod::kFast) ++tally.fast;
  CHECK(std::abs(fast.signed_margin - ref.signed_margin) <= 1e-9);
  CHECK(fast.facets == ref.facets);
  // two triangulations' determinant sums: rounding
  if (g.options.compute_volume) CHECK(fast.volume == Approx(ref.volume).epsilon(1e-9));
  tally.max_diff = std::max(tally.max_diff, std::abs(fast.signed_margin - ref.signed_margin) / wrench_scale(g, fast));
}

}  // namespace

TEST_CASE("fast epsilon hull agrees with qhull on 300 random L1 grasps", "[grasp][wrench_space]") {
  std::mt19937 rng(20261121);
  Tally tally;
  for (int trial = 0; trial < 300; ++trial) compare(random_grasp(rng), tally);
  // The sample covers all three outcomes in numbers, so agreement is not vacuous.
  CHECK(tally.closure >= 50);
  CHECK(tally.open >= 50);
  CHECK(tally.flat >= 10);
  // docs/grasp-analysis.md: measured 1.4e-12 max|w| over these grasps (the fast hull drops points within 1e-12 max|w|)
  CHECK(tally.fast == tally.closure + tally.open);
  CHECK(tally.max_diff < 1e-11);
}

TEST_CASE("fast epsilon hull agrees with qhull on 40 random L1 grasps of 7 to 9 contacts", "[grasp][wrench_space]") {
  // Issue 33: the hull's growth past 6 contacts (thousands of facets), where the new facets are paired by their
  // ridges' hash codes and every point is checked against every facet in the certificate.
  std::mt19937 rng(20261207);
  Tally tally;
  for (int trial = 0; trial < 40; ++trial) compare(random_grasp(rng, 7, 3), tally);
  CHECK(tally.closure >= 10);
  CHECK(tally.fast == tally.closure + tally.open);
  CHECK(tally.max_diff < 1e-11);
}

TEST_CASE("the fast hull reproduces the hand-derived orthogonal-pinch values (L1), L-infinity uses qhull",
          "[grasp][wrench_space]") {
  const double b = 0.02;
  const auto c = orthogonal_pinches(0.04, b);
  WrenchSpaceOptions opt;
  opt.torque_length = b;
  opt.compute_volume = true;
  const EpsilonResult l1 = ferrari_canny(c, Eigen::Vector3d::Zero(), opt);
  REQUIRE(l1.force_closure());
  CHECK(l1.hull == WrenchHullMethod::kFast);
  // planes through exactly known points: rounding ~1e-15 (docs/grasp-analysis.md: reproduced to 1e-12 and better)
  CHECK(l1.epsilon == Approx(1.0 / std::sqrt(3.0)).epsilon(1e-12));
  CHECK(l1.volume == Approx(512.0 / 720.0).epsilon(1e-12));  // 2^6 (sqrt 2)^6 / 6!
  CHECK(l1.facets == 64);                                     // the cross-polytope's 2^6 simplices
  // L-infinity stays with qhull even when the fast hull is asked for (docs/grasp-analysis.md says why).
  opt.norm = WrenchNorm::kLinf;
  const EpsilonResult linf = ferrari_canny(c, Eigen::Vector3d::Zero(), opt);
  REQUIRE(linf.force_closure());
  CHECK(linf.hull == WrenchHullMethod::kQhull);
  CHECK(linf.epsilon == Approx(std::sqrt(2.0)).epsilon(1e-12));
  CHECK(linf.volume == Approx(512.0).epsilon(1e-12));  // cube of edge 2 sqrt 2
  CHECK(linf.facets == 12);
}

TEST_CASE("WrenchHull: flat and tiny point sets are refused, duplicates and scale are handled",
          "[grasp][wrench_space]") {
  WrenchHull hull;
  // Cross-polytope +-sqrt 2 e_k: margin sqrt 2 / sqrt 6, every point a vertex.
  std::vector<double> cross;
  for (int k = 0; k < 6; ++k) {
    for (double s : {1.0, -1.0}) {
      Eigen::Matrix<double, 6, 1> w = Eigen::Matrix<double, 6, 1>::Zero();
      w(k) = s * std::sqrt(2.0);
      cross.insert(cross.end(), w.data(), w.data() + 6);
    }
  }
  REQUIRE(hull.build(cross.data(), 12));
  // one plane through +-sqrt 2 e_k: rounding of a 6x6 solve, ~1e-16 relative
  CHECK(hull.margin() == Approx(1.0 / std::sqrt(3.0)).epsilon(1e-14));
  CHECK(hull.simplices() == 64);
  CHECK(hull.planes() == 64);

  // Each point three times, plus the origin and points inside: same hull.
  std::vector<double> dup = cross;
  dup.insert(dup.end(), cross.begin(), cross.end());
  dup.insert(dup.end(), cross.begin(), cross.end());
  for (int k = 0; k < 6; ++k) dup.push_back(0.0);
  for (double x : cross) dup.push_back(0.3 * x);
  REQUIRE(hull.build(dup.data(), static_cast<int>(dup.size() / 6)));
  CHECK(hull.margin() == Approx(1.0 / std::sqrt(3.0)).epsilon(1e-14));
  CHECK(hull.simplices() == 64);

  // Scaling every point scales the margin and (to the 6th power) the volume.
  std::vector<double> big = cross;
  for (double& x : big) x *= 1e3;
  REQUIRE(hull.build(big.data(), 12));
  CHECK(hull.margin() == Approx(1e3 / std::sqrt(3.0)).epsilon(1e-14));
  CHECK(hull.volume() == Approx(1e18 * 512.0 / 720.0).epsilon(1e-12));  // 64 6x6 determinants: rounding

  // Shifted off the origin: the origin is outside, margin negative (never NaN).
  std::vector<double> shifted = cross;
  for (size_t i = 0; i < shifted.size(); i += 6) shifted[i] += 5.0;
  REQUIRE(hull.build(shifted.data(), 12));
  CHECK(hull.margin() < 0);

  // Points in a 5-D subspace (last coordinate 0) and fewer than 7 points: no initial simplex.
  std::vector<double> flat = cross;
  for (size_t i = 5; i < flat.size(); i += 6) flat[i] = 0.0;
  CHECK_FALSE(hull.build(flat.data(), 12));
  CHECK(hull.outcome() == WrenchHull::Outcome::kFlat);
  CHECK_FALSE(hull.build(cross.data(), 6));
  CHECK(hull.outcome() == WrenchHull::Outcome::kFlat);
  std::vector<double> nan = cross;
  nan[3] = NAN;
  CHECK_FALSE(hull.build(nan.data(), 12));
  CHECK(hull.outcome() == WrenchHull::Outcome::kInvalidInput);
}

TEST_CASE("the hull option selects qhull, and both agree on the closure examples", "[grasp][wrench_space]") {
  // Two soft fingers on a line, closure iff the line is inside both cones (test_grasp_analytic.cc).
  const double a = 0.03, mu = 0.5;
  for (double y : {0.4 * a, 0.6 * a}) {
    const std::vector<Contact> c = {analytic_contact({a, y, 0}, {-1, 0, 0}, ContactModel::kSoftFinger, mu, 0.005),
                                    analytic_contact({-a, -y, 0}, {1, 0, 0}, ContactModel::kSoftFinger, mu, 0.005)};
    WrenchSpaceOptions opt;
    const EpsilonResult fast = ferrari_canny(c, Eigen::Vector3d::Zero(), opt);
    opt.hull = WrenchHullMethod::kQhull;
    const EpsilonResult ref = ferrari_canny(c, Eigen::Vector3d::Zero(), opt);
    CHECK(fast.hull == WrenchHullMethod::kFast);
    CHECK(ref.hull == WrenchHullMethod::kQhull);
    CHECK(fast.force_closure() == (y / a < mu));
    CHECK(ref.force_closure() == fast.force_closure());
    // both hulls' planes exact to rounding (~1e-15), as in compare()
    CHECK(fast.epsilon == Approx(ref.epsilon).margin(1e-12));
    CHECK(fast.facets == ref.facets);
  }
}

TEST_CASE("the hull stops at its time limit, and a limit not reached changes nothing", "[grasp][wrench_space]") {
  // Four soft fingers at 8 edges: (16 + 1)^4 = 83521 Minkowski-sum points, ~30 s of qhull on an idle machine.
  const double r = 0.03;
  std::vector<Contact> soft, hard;
  for (const auto& [a, z] : {std::pair{0.1, 0.2}, {1.7, -0.3}, {3.3, 0.25}, {4.9, -0.2}}) {
    const Eigen::Vector3d p = r * Eigen::Vector3d(std::cos(a), std::sin(a), z);
    soft.push_back(analytic_contact(p, -p, ContactModel::kSoftFinger, 0.6, 0.01));
    hard.push_back(analytic_contact(p, -p, ContactModel::kHardFinger, 0.6));
  }
  WrenchSpaceOptions opt;
  opt.norm = WrenchNorm::kLinf;
  opt.max_points = 100000;
  opt.time_limit = 0.5;
  const auto t0 = std::chrono::steady_clock::now();
  const EpsilonResult stopped = ferrari_canny(soft, Eigen::Vector3d::Zero(), opt);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(stopped.status == EpsilonStatus::kTimeLimit);
  CHECK(stopped.epsilon == 0.0);
  CHECK(stopped.facets == 0);
  CHECK(stopped.points == 83521);
  // qhull itself was stopped (the enumeration takes milliseconds), and soon: not after its ~30 s (minutes under ASan).
  CHECK_THAT(stopped.message, Catch::Contains("while qhull built the hull") && Catch::Contains("0.5 s"));
  CHECK(took < 10.0);

  // Before the hull: a limit already passed while enumerating.
  opt.time_limit = 1e-9;
  const EpsilonResult early = ferrari_canny(soft, Eigen::Vector3d::Zero(), opt);
  CHECK(early.status == EpsilonStatus::kTimeLimit);
  CHECK_THAT(early.message, Catch::Contains("before qhull started"));

  // Three hard fingers (729 points, well under a second): no limit, a limit not reached and the default give the
  // same hull bit for bit (the progress reports the limit listens to do not change qhull's work); so do L1's qhull.
  hard.pop_back();
  for (const WrenchNorm norm : {WrenchNorm::kLinf, WrenchNorm::kL1}) {
    WrenchSpaceOptions o;
    o.norm = norm;
    o.hull = WrenchHullMethod::kQhull;
    o.compute_volume = true;
    o.time_limit = 0;
    const EpsilonResult none = ferrari_canny(hard, Eigen::Vector3d::Zero(), o);
    o.time_limit = 1000;
    const EpsilonResult far = ferrari_canny(hard, Eigen::Vector3d::Zero(), o);
    const EpsilonResult dflt = ferrari_canny(hard, Eigen::Vector3d::Zero(), WrenchSpaceOptions{8, 0.0, norm});
    REQUIRE(none.force_closure());
    CHECK(far.status == none.status);
    CHECK(far.epsilon == none.epsilon);
    CHECK(far.volume == none.volume);
    CHECK(far.facets == none.facets);
    CHECK(dflt.epsilon == Approx(none.epsilon).epsilon(1e-9));  // L1's default is the fast hull: its rounding
  }
  opt.time_limit = std::nan("");
  CHECK(ferrari_canny(hard, Eigen::Vector3d::Zero(), opt).status == EpsilonStatus::kInvalidInput);
}
