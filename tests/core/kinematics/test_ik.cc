#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>

using namespace mjhand;

namespace {

using Q = std::array<double, 3>;

Eigen::Isometry3d fk(const Chain& c, const double* q) {
  ChainData d(c);
  forward_kinematics(c, q, d);
  return d.tip;
}

// Largest joint difference modulo 2 pi.
double angle_distance(const Q& a, const Q& b) {
  double m = 0;
  for (int i = 0; i < 3; ++i) m = std::max(m, std::abs(std::remainder(a[i] - b[i], 2 * M_PI)));
  return m;
}

// Negated comparison: a NaN joint is out of limits here too, or the checks below would agree with a NaN solver.
bool in_limits(const EGraspFinger& f, const Q& q, double tol = 0) {
  for (int i = 0; i < 3; ++i)
    if (!(q[i] >= f.lower[i] - tol && q[i] <= f.upper[i] + tol)) return false;
  return true;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Q random_q(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  return {u(rng), u(rng), u(rng)};
}

}  // namespace

TEST_CASE("e_GRASP geometric IK: every branch reproduces the target, the generating q is one of them", "[ik]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  std::mt19937 rng(11);
  int reversed_seen = 0, four_branches = 0;
  for (int k = 0; k < 3000; ++k) {
    // Two thirds inside the limits, one third anywhere (exercises the reversed and out-of-limit branches).
    const Q q = k % 3 == 2 ? random_q(rng, -M_PI, M_PI) : random_q(rng, -M_PI / 4, M_PI / 4);
    const Eigen::Vector3d target = fk(c, q.data()).translation();
    const EGraspIkResult res = egrasp_ik_position(f, target);
    REQUIRE(res.status == EGraspIkStatus::kOk);
    REQUIRE(res.count >= 2);
    REQUIRE(res.count <= 4);
    bool found = false;
    for (int i = 0; i < res.count; ++i) {
      const EGraspIkSolution& s = res.solutions[i];
      REQUIRE((fk(c, s.q.data()).translation() - target).norm() < 1e-10);  // position_tol 1e-10 m (egrasp_ik.h)
      REQUIRE(s.within_limits == in_limits(f, s.q, 1e-9));  // the IK's limit_tol
      REQUIRE(s.elbow == (s.q[2] >= 0 ? 1 : -1));
      // acos near a straight finger loses half the digits (~sqrt(1e-16) = 1e-8 rad): 1e-7 finds the branch.
      if (angle_distance(s.q, q) < 1e-7) {
        found = true;
        if (in_limits(f, q)) REQUIRE(s.within_limits);
      }
      reversed_seen += s.reach_reversed;
    }
    four_branches += res.count == 4;
    REQUIRE(found);
    // Elbow pairs of one theta1 branch share q1 and mirror q3.
    REQUIRE(res.solutions[0].q[0] == res.solutions[1].q[0]);
    REQUIRE(res.solutions[0].q[2] == Approx(-res.solutions[1].q[2]).margin(1e-12));  // +-acos of one value
    if (in_limits(f, q)) REQUIRE(res.count_within_limits() >= 1);
  }
  REQUIRE(reversed_seen > 100);  // the theta1 + pi branch is really produced and verified
  REQUIRE(four_branches > 100);
}

TEST_CASE("e_GRASP geometric IK: theta1 at C1 = 0 and on the joint-1 axis", "[ik]") {
  EGraspFinger f;
  f.lower[0] = -M_PI;
  f.upper[0] = M_PI;
  const Chain c = egrasp_chain(f);
  // q1 = 90 deg: eq 10's Px / C1 would divide by zero.
  const Q q = {M_PI / 2, 0.3, -0.4};
  const Eigen::Vector3d target = fk(c, q.data()).translation();
  EGraspIkResult res = egrasp_ik_position(f, target);
  REQUIRE(res.status == EGraspIkStatus::kOk);
  // Far from singular: atan2/acos rounding (~1e-15 rad); 1e-12 is room.
  REQUIRE(angle_distance(res.solutions[1].q, q) < 1e-12);  // forward reach, elbow with q3 < 0 like the generator
  REQUIRE(res.solutions[0].q[2] == Approx(0.4).margin(1e-12));

  // On the axis every theta1 works; the documented choice is 0 clamped into the joint-1 limits.
  const Eigen::Vector3d on_axis(0, 0, 0.05);
  res = egrasp_ik_position(f, on_axis);
  REQUIRE(res.status == EGraspIkStatus::kTheta1Undetermined);
  REQUIRE(res.count == 4);
  REQUIRE(res.solutions[0].q[0] == 0.0);
  // Tips of O(0.1 m): rounding only.
  for (int i = 0; i < res.count; ++i)
    REQUIRE((fk(c, res.solutions[i].q.data()).translation() - on_axis).norm() < 1e-12);
  f.lower[0] = 0.1;
  res = egrasp_ik_position(f, on_axis);
  REQUIRE(res.status == EGraspIkStatus::kTheta1Undetermined);
  REQUIRE(res.solutions[0].q[0] == 0.1);
  REQUIRE((fk(egrasp_chain(f), res.solutions[0].q.data()).translation() - on_axis).norm() < 1e-12);
}

TEST_CASE("e_GRASP geometric IK: unreachable targets carry a reason", "[ik]") {
  const EGraspFinger f;
  const double reach = f.l2 + f.l3;
  // Along a straight finger at q1 = 0.3: just inside the reach solves (single elbow), just outside does not.
  const Eigen::Vector3d dir(std::cos(0.3) * std::cos(0.2), std::sin(0.3) * std::cos(0.2), std::sin(0.2));
  const Eigen::Vector3d joint2(f.l1 * std::cos(0.3), f.l1 * std::sin(0.3), 0);
  EGraspIkResult res = egrasp_ik_position(f, joint2 + dir * reach * (1 - 1e-9));
  REQUIRE(res.status == EGraspIkStatus::kOk);
  REQUIRE(res.count == 2);  // two elbows; the reversed branch is out of reach
  // Overshooting by less than position_tol is snapped onto the boundary: straight finger, one elbow.
  const Eigen::Vector3d edge = joint2 + dir * reach * (1 + 1e-13);
  res = egrasp_ik_position(f, edge);
  REQUIRE(res.status == EGraspIkStatus::kOk);
  REQUIRE(res.count == 1);
  REQUIRE(res.solutions[0].q[2] == 0.0);
  // The 1e-13 overshoot (7.5e-15 m) snapped, plus rounding.
  REQUIRE((fk(egrasp_chain(f), res.solutions[0].q.data()).translation() - edge).norm() < 1e-12);
  res = egrasp_ik_position(f, joint2 + dir * reach * (1 + 1e-6));
  REQUIRE(res.status == EGraspIkStatus::kBeyondReach);
  REQUIRE_FALSE(res.ok());
  REQUIRE(egrasp_ik_position(f, Eigen::Vector3d(0.2, 0.1, 0)).status == EGraspIkStatus::kBeyondReach);
  REQUIRE(std::string(to_string(EGraspIkStatus::kBeyondReach)).find("beyond reach") != std::string::npos);

  // Too close: a finger with a real inner hole (|l2 - l3| = 30 mm > the reversal gain 2 l1 = 10 mm).
  EGraspFinger holey;
  holey.l1 = 0.005;
  holey.l2 = 0.05;
  holey.l3 = 0.02;
  res = egrasp_ik_position(holey, Eigen::Vector3d(holey.l1 + 0.01, 0, 0.005));
  REQUIRE(res.status == EGraspIkStatus::kInsideInnerHole);
  REQUIRE(res.count == 0);
  REQUIRE(egrasp_ik_position(holey, Eigen::Vector3d(holey.l1, 0, 0)).status == EGraspIkStatus::kInsideInnerHole);
  // For the default finger joint 2 itself is reached only by folding back over the base: outside the limits.
  res = egrasp_ik_position(f, Eigen::Vector3d(f.l1, 0, 0));
  REQUIRE(res.ok());
  REQUIRE(res.count_within_limits() == 0);
  for (int i = 0; i < res.count; ++i) REQUIRE(res.solutions[i].reach_reversed);
}

TEST_CASE("e_GRASP algebraic pose IK round trip, including C1 = 0 and the joint-1 axis", "[ik]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  std::mt19937 rng(5);
  // r = l1 + l2 C2 + l3 C23 = 0: the tip is on the joint-1 axis, yet the approach vector still fixes q1.
  const double q2 = 2.5, q23 = std::acos(-(f.l1 + f.l2 * std::cos(q2)) / f.l3);
  std::vector<Q> qs = {{M_PI / 2, 0.2, 0.3}, {-M_PI / 2, -0.2, 0.7}, {0.4, q2, q23 - q2}};
  for (int k = 0; k < 1000; ++k) qs.push_back(random_q(rng, -M_PI, M_PI));
  for (const Q& q : qs) {
    const Eigen::Isometry3d pose = fk(c, q.data());
    const EGraspIkResult res = egrasp_ik_pose(f, pose);
    REQUIRE(res.status == EGraspIkStatus::kOk);
    REQUIRE(res.count == 1);
    // atan2 of rotation entries: rounding, loosely bounded; position_tol and limit_tol (egrasp_ik.h) below.
    REQUIRE(angle_distance(res.solutions[0].q, q) < 1e-9);
    REQUIRE(res.solutions[0].within_limits == in_limits(f, res.solutions[0].q, 1e-9));
    REQUIRE((fk(c, res.solutions[0].q.data()).matrix() - pose.matrix()).cwiseAbs().maxCoeff() < 1e-10);
  }
}

TEST_CASE("e_GRASP pose IK rejects poses the finger cannot take", "[ik]") {
  const EGraspFinger f;
  const Q q = {0.3, 0.2, -0.5};
  const Eigen::Isometry3d pose = fk(egrasp_chain(f), q.data());
  const Eigen::Vector3d n = pose.linear().col(0), a = pose.linear().col(2);
  REQUIRE(egrasp_ik_pose(f, pose).ok());

  Eigen::Isometry3d bad = pose;
  bad.rotate(Eigen::AngleAxisd(1e-3, Eigen::Vector3d::UnitX()));  // tilts a out of the horizontal plane
  REQUIRE(egrasp_ik_pose(f, bad).status == EGraspIkStatus::kOrientationInconsistent);
  bad = pose;
  bad.linear() *= 1.01;  // not a rotation
  REQUIRE(egrasp_ik_pose(f, bad).status == EGraspIkStatus::kOrientationInconsistent);

  bad = pose;
  bad.translation() += 1e-4 * a;  // off the finger plane
  REQUIRE(egrasp_ik_pose(f, bad).status == EGraspIkStatus::kPositionInconsistent);
  bad = pose;
  bad.translation() += 1e-4 * n;  // in plane, but link 2 would have to stretch
  REQUIRE(egrasp_ik_pose(f, bad).status == EGraspIkStatus::kPositionInconsistent);
  bad = pose;
  bad.translation() += 0.2 * n;
  REQUIRE(egrasp_ik_pose(f, bad).status == EGraspIkStatus::kBeyondReach);
  REQUIRE_FALSE(egrasp_ik_pose(f, bad).ok());
}

TEST_CASE("DLS IK reaches random in-limit targets of the e_GRASP finger from the centre posture", "[ik]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  DlsWorkspace ws(c);
  std::mt19937 rng(3);
  int max_iterations_used = 0;
  for (int k = 0; k < 500; ++k) {
    const Q q_true = random_q(rng, -M_PI / 4, M_PI / 4);
    const Eigen::Vector3d target = fk(c, q_true.data()).translation();
    Q q = {0, 0, 0};
    const DlsResult r = dls_ik_position(c, target, q.data(), ws);
    INFO("k = " << k << " q_true = " << q_true[0] << ", " << q_true[1] << ", " << q_true[2]);
    REQUIRE(r.converged);
    // DlsOptions::tolerance = 1e-10 m (dls_ik.h).
    REQUIRE(r.error < 1e-10);
    REQUIRE(in_limits(f, q));
    REQUIRE((fk(c, q.data()).translation() - target).norm() < 1e-10);
    max_iterations_used = std::max(max_iterations_used, r.iterations);
  }
  REQUIRE(max_iterations_used > 1);
}

TEST_CASE("DLS IK stays within the joint limits and agrees with the closed form on what is reachable", "[ik]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  DlsWorkspace ws(c);
  std::mt19937 rng(9);
  int unreachable = 0;
  for (int k = 0; k < 200; ++k) {
    const Q q_true = random_q(rng, -M_PI / 2, M_PI / 2);
    const Eigen::Vector3d target = fk(c, q_true.data()).translation();
    const bool reachable = egrasp_ik_position(f, target).count_within_limits() > 0;
    // Every intermediate iterate, seen by stopping after 0, 1, 2, ... iterations, respects the limits.
    for (int n : {1, 2, 3, 5, 8, 13, 200}) {
      Q q = {0, 0, 0};  // from the centre: a biased start can end in a local minimum on a limit
      DlsOptions opt;
      opt.max_iterations = n;
      const DlsResult r = dls_ik_position(c, target, q.data(), ws, opt);
      REQUIRE(in_limits(f, q));
      REQUIRE(r.iterations <= n);
      if (n == 200) {
        INFO("k = " << k << " q_true " << q_true[0] << " " << q_true[1] << " " << q_true[2] << " error "
                     << r.error << " iterations " << r.iterations);
        REQUIRE(r.converged == reachable);
        REQUIRE(r.converged == (r.status == DlsStatus::kConverged));
        if (!reachable) REQUIRE((r.status == DlsStatus::kStalled || r.status == DlsStatus::kIterationLimit));
        if (!reachable) {
          ++unreachable;
          // Converged means error < 1e-10 m (DlsOptions::tolerance); these targets lie >= 1.07 mm outside the
          // joint-limited workspace (measured minimum over the draws). 1e-6 m: 1e3x from either.
          REQUIRE(r.error > 1e-6);
          // Projection, not penalty: the solver ends pinned on at least one limit.
          bool on_limit = false;
          for (int i = 0; i < 3; ++i) on_limit |= q[i] == f.lower[i] || q[i] == f.upper[i];
          REQUIRE(on_limit);
        }
      }
    }
  }
  REQUIRE(unreachable > 50);
}

TEST_CASE("DLS IK reports non-convergence beyond reach and honours its options", "[ik]") {
  const Chain c = egrasp_chain(EGraspFinger{});
  DlsWorkspace ws(c);
  Q q = {0.1, 0.1, 0.1};
  const Eigen::Vector3d far(0.3, 0.0, 0.0);
  DlsResult r = dls_ik_position(c, far, q.data(), ws);
  REQUIRE_FALSE(r.converged);
  // Best effort: the straight finger pointing at it. A bend theta off straight adds O(theta^2) relative to the
  // error; measured q = (0, -4.3e-9, 9.1e-9) rad after 200 iterations and error 0.205 m to the last digit. 1e-12
  // allows bends up to ~1e-6 rad (the old 1e-6: ~1e-3 rad).
  REQUIRE(r.error == Approx(0.3 - 0.095).epsilon(1e-12));
  REQUIRE(r.position_error == r.error);

  DlsOptions opt;
  opt.max_iterations = 1;
  opt.max_step = 0.01;
  q = {0, 0.3, 0.3};
  r = dls_ik_position(c, Eigen::Vector3d(0.05, 0.04, 0.03), q.data(), ws, opt);
  REQUIRE(r.iterations == 1);
  REQUIRE_FALSE(r.converged);
  // max_step 0.01 plus the rounding of q - 0.3.
  REQUIRE(std::abs(q[0]) <= 0.01 + 1e-15);
  REQUIRE(std::abs(q[1] - 0.3) <= 0.01 + 1e-15);
  REQUIRE(std::abs(q[2] - 0.3) <= 0.01 + 1e-15);
}

TEST_CASE("DLS IK solves full poses: consistent e_GRASP poses and a general 6-joint chain", "[ik]") {
  const EGraspFinger f;
  const Chain finger = egrasp_chain(f);
  DlsWorkspace fws(finger);
  std::mt19937 rng(21);
  for (int k = 0; k < 100; ++k) {
    const Q q_true = random_q(rng, -M_PI / 4, M_PI / 4);
    const Eigen::Isometry3d target = fk(finger, q_true.data());
    Q q = {0, 0, 0};
    const DlsResult r = dls_ik_pose(finger, target, q.data(), fws);
    REQUIRE(r.converged);
    // A full pose has a unique e_GRASP solution. Converged: weighted error < 1e-10 m, which the inverse Jacobian
    // maps to angle error / error <= 46 rad/m here (measured), i.e. <= 4.6e-9 rad; measured worst 3.5e-9 rad. 1e-8 =
    // 2.2x the derived bound (a solver-stopping bound, not rounding).
    REQUIRE(angle_distance(q, q_true) < 1e-8);
  }

  Chain arm;  // PUMA-560-like standard DH table with a tool offset and base transform
  arm.base.translate(Eigen::Vector3d(0.1, 0, 0.2)).rotate(Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()));
  arm.links = {{0, M_PI / 2, 0, 0},      {0.43, 0, 0, 0},        {0.02, -M_PI / 2, 0.15, 0},
               {0, M_PI / 2, 0.43, 0},   {0, -M_PI / 2, 0, 0},   {0, 0, 0.05, 0}};
  for (DHLink& l : arm.links) l.lower = -2.5, l.upper = 2.5;
  arm.tool.translate(Eigen::Vector3d(0, 0, 0.1));
  DlsWorkspace aws(arm);
  std::uniform_real_distribution<double> u(-1.5, 1.5), du(-0.2, 0.2);
  for (int k = 0; k < 100; ++k) {
    double q_true[6], q[6];
    for (int i = 0; i < 6; ++i) q_true[i] = u(rng), q[i] = q_true[i] + du(rng);
    const Eigen::Isometry3d target = fk(arm, q_true);
    const DlsResult r = dls_ik_pose(arm, target, q, aws);
    REQUIRE(r.converged);
    const Eigen::Isometry3d got = fk(arm, q);
    // tolerance 1e-10 m with orientation_weight 0.05 m/rad (dls_ik.h): rotation error < 2e-9 rad.
    REQUIRE((got.translation() - target.translation()).norm() < 1e-10);
    REQUIRE((got.linear() - target.linear()).cwiseAbs().maxCoeff() < 1e-8);
    REQUIRE(r.orientation_error < 1e-8);
  }
}

TEST_CASE("e_GRASP IK rejects NaN and inf input instead of returning NaN solutions", "[ik]") {
  const EGraspFinger f;
  for (const double bad : {kNaN, kInf, -kInf}) {
    for (int axis = 0; axis < 3; ++axis) {
      Eigen::Vector3d target(0.05, 0.02, 0.03);
      target[axis] = bad;
      INFO("bad = " << bad << " in coordinate " << axis);
      EGraspIkResult res = egrasp_ik_position(f, target);
      REQUIRE(res.status == EGraspIkStatus::kInvalidInput);
      REQUIRE(res.count == 0);
      REQUIRE_FALSE(res.ok());
      REQUIRE(res.count_within_limits() == 0);

      // Before the check a NaN translation read as kPositionInconsistent and an infinite one as kBeyondReach.
      Eigen::Isometry3d pose = fk(egrasp_chain(f), Q{0.3, 0.2, -0.5}.data());
      pose.translation()[axis] = bad;
      res = egrasp_ik_pose(f, pose);
      REQUIRE(res.status == EGraspIkStatus::kInvalidInput);
      REQUIRE(res.count == 0);
      pose = fk(egrasp_chain(f), Q{0.3, 0.2, -0.5}.data());
      pose.linear()(axis, 1) = bad;
      REQUIRE(egrasp_ik_pose(f, pose).status == EGraspIkStatus::kInvalidInput);
    }
  }
  REQUIRE(std::string(to_string(EGraspIkStatus::kInvalidInput)).find("invalid input") != std::string::npos);

  // Finger geometry and options are input too: NaN lengths, crossed or NaN limits, a zero link, NaN tolerances.
  const Eigen::Vector3d reachable = fk(egrasp_chain(f), Q{0.1, 0.2, 0.3}.data()).translation();
  REQUIRE(egrasp_ik_position(f, reachable).status == EGraspIkStatus::kOk);
  const Eigen::Isometry3d reachable_pose = fk(egrasp_chain(f), Q{0.1, 0.2, 0.3}.data());
  std::vector<EGraspFinger> fingers(5, f);
  fingers[0].l2 = kNaN;
  fingers[1].l3 = 0.0;
  fingers[2].lower[1] = kNaN;
  fingers[3].lower[2] = 0.5;
  fingers[3].upper[2] = 0.4;
  fingers[4].l1 = kInf;
  for (const EGraspFinger& bad : fingers) {
    REQUIRE(egrasp_ik_position(bad, reachable).status == EGraspIkStatus::kInvalidInput);
    REQUIRE(egrasp_ik_pose(bad, reachable_pose).status == EGraspIkStatus::kInvalidInput);
  }
  EGraspIkOptions opt;
  opt.limit_tol = kNaN;
  REQUIRE(egrasp_ik_position(f, reachable, opt).status == EGraspIkStatus::kInvalidInput);
  opt = {};
  opt.position_tol = -1e-9;
  REQUIRE(egrasp_ik_pose(f, reachable_pose, opt).status == EGraspIkStatus::kInvalidInput);
  // Infinite limits are an unlimited joint, not an error.
  EGraspFinger unlimited = f;
  unlimited.lower[0] = -kInf;
  unlimited.upper[0] = kInf;
  REQUIRE(egrasp_ik_position(unlimited, reachable).count_within_limits() >= 1);
}

TEST_CASE("DLS IK flags NaN and inf seeds and targets and leaves q untouched", "[ik]") {
  const Chain c = egrasp_chain(EGraspFinger{});
  DlsWorkspace ws(c);
  const Eigen::Vector3d target = fk(c, Q{0.1, 0.2, 0.3}.data()).translation();
  const Eigen::Isometry3d pose = fk(c, Q{0.1, 0.2, 0.3}.data());
  for (const double bad : {kNaN, kInf, -kInf}) {
    for (int i = 0; i < 3; ++i) {
      INFO("bad = " << bad << " at " << i);
      Q q = {0.0, 0.0, 0.0};
      q[i] = bad;
      DlsResult r = dls_ik_position(c, target, q.data(), ws);
      REQUIRE_FALSE(r.converged);
      REQUIRE(r.status == DlsStatus::kInvalidInput);
      REQUIRE(r.iterations == 0);
      REQUIRE(std::isnan(r.error));
      // Untouched: projecting onto the limits would have turned -inf into the lower limit and "solved".
      REQUIRE(std::memcmp(&q[i], &bad, sizeof bad) == 0);
      REQUIRE(dls_ik_pose(c, pose, q.data(), ws).status == DlsStatus::kInvalidInput);

      q = {0.0, 0.0, 0.0};
      Eigen::Vector3d bad_target = target;
      bad_target[i] = bad;
      r = dls_ik_position(c, bad_target, q.data(), ws);
      REQUIRE(r.status == DlsStatus::kInvalidInput);
      REQUIRE_FALSE(r.converged);
      REQUIRE(q == Q{0.0, 0.0, 0.0});
      Eigen::Isometry3d bad_pose = pose;
      bad_pose.linear()(i, 2) = bad;
      REQUIRE(dls_ik_pose(c, bad_pose, q.data(), ws).status == DlsStatus::kInvalidInput);
      bad_pose = pose;
      bad_pose.translation()[i] = bad;
      REQUIRE(dls_ik_pose(c, bad_pose, q.data(), ws).status == DlsStatus::kInvalidInput);
      REQUIRE(q == Q{0.0, 0.0, 0.0});
    }
  }
  // A chain whose geometry is not finite cannot produce a finite error either.
  Chain broken = c;
  broken.links[1].a = kNaN;
  DlsWorkspace bws(broken);
  Q q = {0.0, 0.0, 0.0};
  REQUIRE(dls_ik_position(broken, target, q.data(), bws).status == DlsStatus::kInvalidInput);
  // A valid call still reports success the same way as before.
  const DlsResult ok = dls_ik_position(c, target, q.data(), ws);
  REQUIRE(ok.converged);
  REQUIRE(ok.status == DlsStatus::kConverged);
  REQUIRE(std::string(to_string(DlsStatus::kInvalidInput)).find("invalid input") != std::string::npos);
}

TEST_CASE("DLS IK rejects options that would loop forever, never converge or produce NaN", "[ik]") {
  const Chain c = egrasp_chain(EGraspFinger{});
  DlsWorkspace ws(c);
  const Eigen::Vector3d target = fk(c, Q{0.1, 0.2, 0.3}.data()).translation();
  struct Case {
    const char* name;
    void (*set)(DlsOptions&);
  };
  const Case cases[] = {
      {"max_iterations", [](DlsOptions& o) { o.max_iterations = -1; }},  // was an unbounded loop
      {"max_iterations", [](DlsOptions& o) { o.max_iterations = 0; }},
      {"damping", [](DlsOptions& o) { o.damping = -1e-6; }},
      {"damping", [](DlsOptions& o) { o.damping = kNaN; }},
      {"damping", [](DlsOptions& o) { o.damping = kInf; }},
      {"tolerance", [](DlsOptions& o) { o.tolerance = 0.0; }},
      {"tolerance", [](DlsOptions& o) { o.tolerance = -1e-10; }},
      {"tolerance", [](DlsOptions& o) { o.tolerance = kNaN; }},
      {"max_step", [](DlsOptions& o) { o.max_step = 0.0; }},
      {"max_step", [](DlsOptions& o) { o.max_step = -0.1; }},
      {"max_step", [](DlsOptions& o) { o.max_step = kNaN; }},
      {"orientation_weight", [](DlsOptions& o) { o.orientation_weight = kNaN; }},
      {"orientation_weight", [](DlsOptions& o) { o.orientation_weight = -0.05; }},
  };
  for (const Case& bad : cases) {
    DlsOptions opt;
    bad.set(opt);
    INFO(bad.name);
    Q q = {0.0, 0.0, 0.0};
    REQUIRE_THROWS_AS(validate(opt), std::invalid_argument);
    REQUIRE_THROWS_WITH(dls_ik_position(c, target, q.data(), ws, opt), Catch::Contains(bad.name));
    REQUIRE_THROWS_WITH(dls_ik_pose(c, Eigen::Isometry3d::Identity(), q.data(), ws, opt), Catch::Contains(bad.name));
  }
  // Boundary values that are meaningful stay accepted: no damping floor, no step limit, position-only weighting.
  DlsOptions edge;
  edge.damping = 0.0;
  edge.max_step = kInf;
  edge.orientation_weight = 0.0;
  edge.max_iterations = 1;
  REQUIRE_NOTHROW(validate(edge));
  Q q = {0.0, 0.0, 0.0};
  const DlsResult r = dls_ik_position(c, target, q.data(), ws, edge);
  REQUIRE(r.iterations <= 1);

  // Crossed or NaN joint limits would make std::clamp undefined.
  Chain crossed = c;
  crossed.links[2].lower = 0.5;
  crossed.links[2].upper = 0.4;
  REQUIRE_THROWS_WITH(dls_ik_position(crossed, target, q.data(), ws), Catch::Contains("joint 2"));
  crossed.links[2].lower = kNaN;
  REQUIRE_THROWS_AS(dls_ik_position(crossed, target, q.data(), ws), std::invalid_argument);
}
