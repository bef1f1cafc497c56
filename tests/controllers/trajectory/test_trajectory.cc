// Trajectories for the joint controllers: quintic (direct-drive 4.3), cosine cycle (4.2), via-point paths (e_GRASP 6).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/trajectory/trajectory.h>

using namespace mjhand;

TEST_CASE("quintic meets its boundary conditions, matches the paper's coefficients and is C2", "[controllers]") {
  const double deg = M_PI / 180;
  QuinticTrajectory tr({0.0, 0.2}, {90 * deg, -0.4}, 1.0, 0.5);
  double q[2], qd[2], qdd[2];
  tr.evaluate(0.5, q, qd, qdd);
  CHECK(q[0] == 0.0);
  CHECK(q[1] == 0.2);
  CHECK(qd[0] == 0.0);
  CHECK(qdd[1] == 0.0);
  tr.evaluate(1.5, q, qd, qdd);
  // Held end (s clamped to 1): p = 1 and dp = ddp = 0 exactly; q0 + (q1 - q0) rounds by an ulp. Bounds: rounding room.
  CHECK(q[0] == Approx(90 * deg).epsilon(1e-15));
  CHECK(q[1] == Approx(-0.4).epsilon(1e-15));
  CHECK(std::abs(qd[0]) < 1e-15);
  CHECK(std::abs(qdd[0]) < 1e-12);
  const auto a = tr.coefficients(0);
  // 10, -15, 6 times (q1 - q0): an ulp or two of rounding (measured 0, 1.1e-16, 0 relative).
  CHECK(a[3] == Approx(10 * 90 * deg).epsilon(1e-15));
  CHECK(a[4] == Approx(-15 * 90 * deg).epsilon(1e-15));
  CHECK(a[5] == Approx(6 * 90 * deg).epsilon(1e-15));
  // The paper: for 0 -> 90 deg the acceleration peaks at theta = 6 deg and 84 deg.
  double best = 0, at = 0;
  for (int k = 0; k <= 100000; ++k) {
    tr.evaluate(0.5 + k * 1e-5, q, qd, qdd);
    if (qdd[0] > best) best = qdd[0], at = q[0];
  }
  CHECK(at / deg == Approx(6.03).margin(0.02));  // peak at s = (3 - sqrt 3)/6: 6.029 deg; 1e-5 s steps: 7.5e-4 deg
  // Continuity: central differences of q and qd reproduce qd and qdd everywhere, including across the ends.
  const double h = 1e-6;
  double worst_v = 0, worst_a = 0;
  for (double t = 0.3; t < 1.7; t += 0.0137) {
    double qp[2], qm[2], vp[2], vm[2], ap[2], am[2];
    tr.evaluate(t, q, qd, qdd);
    tr.evaluate(t + h, qp, vp, ap);
    tr.evaluate(t - h, qm, vm, am);
    for (int i = 0; i < 2; ++i) {
      worst_v = std::max(worst_v, std::abs((qp[i] - qm[i]) / (2 * h) - qd[i]));
      worst_a = std::max(worst_a, std::abs((vp[i] - vm[i]) / (2 * h) - qdd[i]));
    }
  }
  // Central differences with h = 1e-6: truncation ~h^2 |q'''| / 6 ~ 1e-11, rounding ~1e-16 |q| / h ~ 1e-9 (a: |qd|).
  CHECK(worst_v < 1e-7);
  CHECK(worst_a < 1e-5);
  CHECK_THROWS_AS(QuinticTrajectory({0.0}, {1.0, 2.0}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(QuinticTrajectory({0.0}, {1.0}, 0.0), std::invalid_argument);
}

TEST_CASE("cosine cycle reproduces the paper's formula", "[controllers]") {
  const double deg = M_PI / 180;
  const CosineTrajectory tr = paper_cosine(1);
  double q, qd, qdd;
  tr.evaluate(0.0, &q, &qd, &qdd);
  CHECK(q == Approx(2.5 * deg).epsilon(1e-15));  // cos(0) = 1 exactly: rounding of the offset (measured 0)
  tr.evaluate(1.0 / 3.0, &q, &qd, &qdd);  // 540 deg/s * 1/3 s = 180 deg: fully closed
  // omega t is pi, 2 pi, pi/2 up to a few ulp: q and qd below are rounding only.
  CHECK(q == Approx(87.5 * deg).epsilon(1e-14));
  tr.evaluate(2.0 / 3.0, &q, &qd, &qdd);  // one full period
  CHECK(q == Approx(2.5 * deg).epsilon(1e-12));
  tr.evaluate(1.0 / 6.0, &q, &qd, &qdd);  // 90 deg: midway, fastest
  CHECK(q == Approx(45 * deg).epsilon(1e-14));
  CHECK(qd == Approx(42.5 * deg * 3 * M_PI).epsilon(1e-14));
  CHECK(std::abs(qdd) < 1e-9);  // A w^2 / 2 = 65.9 rad/s^2 times cos(pi/2 + ~1e-16): ~1e-14
  for (double t : {0.05, 0.2, 0.4, 1.3}) {
    tr.evaluate(t, &q, &qd, &qdd);
    CHECK(q == Approx(85.0 / 2 * (1 - std::cos(540 * deg * t)) * deg + 2.5 * deg).epsilon(1e-14));  // the same formula
  }
}

TEST_CASE("via-point path passes each via point within |dv| tb / 8 without stopping", "[controllers]") {
  std::vector<Eigen::Vector3d> w = {{0, 0, 0}, {0.02, 0, 0}, {0.02, 0.02, 0.01}, {0, 0.03, 0.0}};
  ViaPointPath path(w, {0.4, 0.5, 0.4}, 0.1, 0.2);
  double min_speed = 1e9;
  std::vector<double> closest(w.size(), 1e9);
  Eigen::Vector3d x, xd, xdd;
  const double t0 = path.start_time(), t1 = path.end_time();
  for (int k = 1; k < 20000; ++k) {
    const double t = t0 + (t1 - t0) * k / 20000.0;
    path.evaluate(t, &x, &xd, &xdd);
    if (t > t0 + 0.1 && t < t1 - 0.1) min_speed = std::min(min_speed, xd.norm());  // after/before the rest blends
    for (size_t i = 0; i < w.size(); ++i) closest[i] = std::min(closest[i], (x - w[i]).norm());
  }
  for (int i = 1; i + 1 < static_cast<int>(w.size()); ++i) {
    path.evaluate(path.knot_time(i), &x, &xd, &xdd);
    // The path's miss |v_k - v_{k-1}| tb / 8 computed two ways (~1 mm from O(0.02 m) values): rounding.
    CHECK((x - w[i]).norm() == Approx(path.via_miss(i)).epsilon(1e-12));
    CHECK(closest[i] <= path.via_miss(i) + 1e-12);
    CHECK(path.via_miss(i) < 0.004);  // |dv| tb / 8 = 0.84 and 0.86 mm here (tb = 0.1 s)
  }
  CHECK(min_speed > 0.01);  // never at rest between leaving the start and approaching the goal
  CHECK(path.min_interior_speed() > 0.01);
  path.evaluate(t1 + 1, &x, &xd, &xdd);
  CHECK((x - w.back()).norm() == 0.0);
  CHECK(xd.norm() == 0.0);
  // A via point where the path doubles back would make the tip stop: rejected.
  CHECK_THROWS_AS(ViaPointPath({{0, 0, 0}, {0.01, 0, 0}, {0, 0, 0}}, {0.3, 0.3}, 0.1), std::invalid_argument);
  CHECK_THROWS_AS(ViaPointPath({{0, 0, 0}, {0.01, 0, 0}}, {0.3}, 0.5), std::invalid_argument);
}

TEST_CASE("via path in joint space follows the Cartesian path exactly with consistent derivatives", "[controllers]") {
  const Chain chain = egrasp_chain(EGraspFinger{});
  const std::vector<double> q0 = {0.1, -0.3, -0.4};
  const Eigen::Vector3d p0 = tip_pose_and_jacobian(chain, q0.data()).translation();
  std::vector<Eigen::Vector3d> w = {p0, p0 + Eigen::Vector3d(0.0, 0.006, 0.003),
                                    p0 + Eigen::Vector3d(0.002, -0.004, 0.004)};
  ViaJointTrajectory tr(chain, ViaPointPath(w, {0.5, 0.5}, 0.15, 0.1), q0);
  double worst_x = 0, worst_v = 0, worst_a = 0;
  const double h = 1e-5;
  for (double t = 0.0; t < 1.4; t += 0.00731) {
    double q[3], qd[3], qdd[3], qp[3], vp[3], ap[3], qm[3], vm[3], am[3];
    tr.evaluate(t, q, qd, qdd);
    tr.evaluate(t + h, qp, vp, ap);
    tr.evaluate(t - h, qm, vm, am);
    Eigen::Vector3d x, xd, xdd;
    tr.path().evaluate(t, &x, &xd, &xdd);
    worst_x = std::max(worst_x, (tip_pose_and_jacobian(chain, q).translation() - x).norm());
    for (int i = 0; i < 3; ++i) {
      worst_v = std::max(worst_v, std::abs((qp[i] - qm[i]) / (2 * h) - qd[i]));
      // The acceleration jumps at blend edges (parabolic blends): compare only where it is smooth.
      // 1e-3: blend edges step the tip's acceleration by 0.09-0.22 m/s^2, O(1) rad/s^2 in the joints.
      if (std::abs(ap[i] - am[i]) < 1e-3) worst_a = std::max(worst_a, std::abs((vp[i] - vm[i]) / (2 * h) - qdd[i]));
    }
  }
  CHECK(worst_x < 1e-13);  // Newton stops at |e| < 1e-14 m (trajectory.cc): rounding room
  // Central differences with h = 1e-5 s, measured on this grid (no sample within h of a blend edge, where the jump
  // in qdd would give ~|dqdd| h / 4 ~ 2e-6, seen with h = 2e-5):
  // qd: 4.6e-9 rad/s (1.7e-9 with h = 5e-6, 2.7e-9 with 1e-6): Newton's 1e-14 m stop over 2h plus O(h^2); 1e-7 = 20x
  // (the old 1e-6 would pass an edge hit).
  CHECK(worst_v < 1e-7);
  // qdd: 1.06e-8 rad/s^2 for every h from 1e-6 to 2e-5, so it is not the test's difference: it is evaluate()'s own
  // J-dot qd, a second difference with a 3e-4 rad step (truncation (3e-4)^2 / 12 = 7.5e-9 relative). 1e-7 = 9x
  // (the old 1e-4 was 1e4x).
  CHECK(worst_a < 1e-7);
  double q[3], qd[3], qdd[3];
  tr.evaluate(0.0, q, qd, qdd);
  // x(0) = FK(q0): the IK starts at the solution, so 1e-9 rad is rounding room.
  for (int i = 0; i < 3; ++i) CHECK(q[i] == Approx(q0[i]).margin(1e-9));
  // Unreachable points are reported at construction, naming the point.
  std::vector<Eigen::Vector3d> far = {p0, p0 + Eigen::Vector3d(0.5, 0, 0)};
  CHECK_THROWS_WITH(ViaJointTrajectory(chain, ViaPointPath(far, {1.0}, 0.2), q0),
                    Catch::Contains("not reachable"));
}

TEST_CASE("via_path_from_tip starts at the chain's tip and defaults the blend to a quarter segment", "[controllers]") {
  const SerialChain chain = to_serial_chain(egrasp_chain(EGraspFinger{}));
  const std::vector<double> q0 = {0.1, -0.3, -0.4};
  const Eigen::Vector3d p0 = tip_pose_and_jacobian(chain, q0.data()).translation();
  const std::vector<Eigen::Vector3d> points = {p0 + Eigen::Vector3d(0.0, 0.006, 0.003),
                                               p0 + Eigen::Vector3d(0.002, -0.004, 0.004)};
  const ViaPointPath path = via_path_from_tip(chain, q0, points, {0.4, 0.2}, 0.0, 0.1);
  // The same path written out: tip, points, blend 0.25 * 0.2.
  const ViaPointPath want({p0, points[0], points[1]}, {0.4, 0.2}, 0.05, 0.1);
  CHECK(path.waypoint_count() == 3);
  CHECK(path.end_time() == want.end_time());
  for (double t = 0.0; t < 1.0; t += 0.013) {
    Eigen::Vector3d x, xd, xdd, y, yd, ydd;
    path.evaluate(t, &x, &xd, &xdd);
    want.evaluate(t, &y, &yd, &ydd);
    CHECK((x - y).norm() == 0.0);
  }
  Eigen::Vector3d start, v, a;
  path.evaluate(0.1, &start, &v, &a);
  CHECK((start - p0).norm() < 1e-15);
  CHECK_THROWS_AS(via_path_from_tip(chain, {0.1, 0.2}, points, {0.4, 0.2}, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(via_path_from_tip(chain, q0, {}, {}, 0.0), std::invalid_argument);
}
