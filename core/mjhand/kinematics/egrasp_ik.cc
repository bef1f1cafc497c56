#include <mjhand/kinematics/egrasp_ik.h>

#include <algorithm>
#include <cmath>

// Where this departs from the printed paper (Mattar 2013), and why:
//  * eq 2 / eq 9 print Pz = l3 C23 + l2 C2 (and o_x = -C1 C23); Table 1 gives Pz = l3 S23 + l2 S2, o_x = -C1 S23.
//  * eqs 8, 10-12 use tan^-1 of a quotient, which loses the quadrant; atan2 is used throughout.
//  * eq 10 divides Px by C1 to get the in-plane reach, which fails at C1 = 0 (q1 = +-90 deg) and amplifies noise
//    near it; r = C1 Px + S1 Py is the same quantity without the division.
//  * eq 8 / eq 12 give theta1 only up to pi (and not at all on the joint-1 axis). The position solution returns
//    both theta1 branches; the pose solution takes theta1 from the approach vector a = (S1, -C1, 0), which is unique.
//  * eq 13: W_a = acos((l3^2 - Pt^2 - l2^2) / (-2 Pt l2)) is a correct cosine rule, but the printed
//    theta3 = 180deg - acos((Pt^2 - l2^2 - l3^2) / (2 l2 l3)) is not: it gives 180 deg for a straight finger.
//    The cosine rule on the triangle (l2, l3, Pt) gives cos(theta3) = (Pt^2 - l2^2 - l3^2) / (2 l2 l3), i.e.
//    theta3 = +-acos(...), paired with theta2 = theta_z -+ W_a. Both elbows are returned, and the angles are
//    computed with atan2 so that they stay accurate near the straight and fully folded finger.

namespace mjhand {

namespace {

double wrap(double a) { return std::remainder(a, 2.0 * M_PI); }

// Written as !(inside) so that a NaN angle counts as outside the limits.
bool within(const EGraspFinger& f, const std::array<double, 3>& q, double tol) {
  for (int i = 0; i < 3; ++i)
    if (!(q[i] >= f.lower[i] - tol && q[i] <= f.upper[i] + tol)) return false;
  return true;
}

// Infinite limits are allowed (an unlimited joint); NaN limits, lower > upper and negative or NaN tolerances are not,
// and l2, l3 > 0 because the cosine rule divides by them.
bool valid_setup(const EGraspFinger& f, const EGraspIkOptions& opt) {
  if (!(std::isfinite(f.l1) && std::isfinite(f.l2) && std::isfinite(f.l3) && f.l2 > 0 && f.l3 > 0)) return false;
  for (int i = 0; i < 3; ++i)
    if (!(f.lower[i] <= f.upper[i])) return false;
  return opt.position_tol >= 0 && opt.rotation_tol >= 0 && opt.limit_tol >= 0 && opt.axis_tol >= 0 &&
         std::isfinite(opt.position_tol) && std::isfinite(opt.rotation_tol) && std::isfinite(opt.limit_tol) &&
         std::isfinite(opt.axis_tol);
}

// Classifies the distance Pt from joint 2 to the target against the annulus l2 + l3 >= Pt >= |l2 - l3|.
EGraspIkStatus classify_reach(const EGraspFinger& f, double pt, double tol) {
  if (!(pt <= f.l2 + f.l3 + tol)) return EGraspIkStatus::kBeyondReach;  // negated: a NaN distance is no solution
  if (pt < std::abs(f.l2 - f.l3) - tol) return EGraspIkStatus::kInsideInnerHole;
  return EGraspIkStatus::kOk;
}

void push(EGraspIkResult& res, const EGraspFinger& f, double q1, double q2, double q3, bool reversed,
          const EGraspIkOptions& opt) {
  EGraspIkSolution& s = res.solutions[res.count++];
  s.q = {wrap(q1), wrap(q2), wrap(q3)};
  s.within_limits = within(f, s.q, opt.limit_tol);
  s.reach_reversed = reversed;
  s.elbow = s.q[2] >= 0 ? +1 : -1;
}

}  // namespace

Chain egrasp_chain(const EGraspFinger& f) {
  Chain c;
  c.name = "egrasp_finger";
  c.convention = DHConvention::kStandard;
  c.links = {{f.l1, M_PI / 2, 0, 0}, {f.l2, 0, 0, 0}, {f.l3, 0, 0, 0}};
  for (int i = 0; i < 3; ++i) {
    c.links[i].lower = f.lower[i];
    c.links[i].upper = f.upper[i];
  }
  return c;
}

EGraspIkResult egrasp_ik_position(const EGraspFinger& f, const Eigen::Vector3d& p, const EGraspIkOptions& opt) {
  EGraspIkResult res;
  if (!p.allFinite() || !valid_setup(f, opt)) {  // NaN would otherwise flow through atan2/hypot into "solutions"
    res.status = EGraspIkStatus::kInvalidInput;
    return res;
  }
  double theta1 = std::atan2(p.y(), p.x());  // eq 12
  if (std::hypot(p.x(), p.y()) <= opt.axis_tol) {
    // Any theta1 gives the same in-plane problem; 0 (clamped into the limits) keeps the finger straight ahead.
    theta1 = std::clamp(0.0, f.lower[0], f.upper[0]);
    res.status = EGraspIkStatus::kTheta1Undetermined;
  }
  EGraspIkStatus forward_failure = EGraspIkStatus::kOk;
  for (int branch = 0; branch < 2; ++branch) {
    const double q1 = theta1 + (branch == 1 ? M_PI : 0.0);
    const double pq = std::cos(q1) * p.x() + std::sin(q1) * p.y() - f.l1;  // eq 13: P_q = P_r - l1
    const double pz = p.z();
    const double pt = std::hypot(pq, pz);
    const EGraspIkStatus reach = classify_reach(f, pt, opt.position_tol);
    if (reach != EGraspIkStatus::kOk) {
      // The reversed branch has Pt >= the forward one, so the forward failure is the informative reason.
      if (branch == 0) forward_failure = reach;
      continue;
    }
    const double c3 = std::clamp((pt * pt - f.l2 * f.l2 - f.l3 * f.l3) / (2.0 * f.l2 * f.l3), -1.0, 1.0);
    const double s3 = std::sqrt((1.0 - c3) * (1.0 + c3));
    for (int elbow = +1; elbow >= -1; elbow -= 2) {
      if (elbow < 0 && s3 == 0.0) break;  // straight or fully folded: both elbows coincide
      const double q3 = std::atan2(elbow * s3, c3);
      // theta2 = theta_z - W_a, with W_a the angle between link 2 and the joint-2-to-target line.
      const double q2 = std::atan2(pz, pq) - std::atan2(f.l3 * elbow * s3, f.l2 + f.l3 * c3);
      push(res, f, q1, q2, q3, branch == 1, opt);
    }
  }
  if (res.count == 0) res.status = forward_failure;
  return res;
}

EGraspIkResult egrasp_ik_pose(const EGraspFinger& f, const Eigen::Isometry3d& target, const EGraspIkOptions& opt) {
  EGraspIkResult res;
  // Without this a NaN position reads as kPositionInconsistent and an infinite one as kBeyondReach.
  if (!target.matrix().allFinite() || !valid_setup(f, opt)) {
    res.status = EGraspIkStatus::kInvalidInput;
    return res;
  }
  const Eigen::Matrix3d& r = target.linear();
  const Eigen::Vector3d& p = target.translation();
  const double q1 = std::atan2(r(0, 2), -r(1, 2));  // a = (S1, -C1, 0)
  const double q23 = std::atan2(r(2, 0), r(2, 1));  // eq 11: n_z = S23, o_z = C23
  const double c1 = std::cos(q1), s1 = std::sin(q1), c23 = std::cos(q23), s23 = std::sin(q23);
  Eigen::Matrix3d expected;
  expected << c1 * c23, -c1 * s23, s1,  //
      s1 * c23, -s1 * s23, -c1,         //
      s23, c23, 0;
  const double rot_err = (r - expected).cwiseAbs().maxCoeff();
  if (!(rot_err <= opt.rotation_tol)) {  // negated so that NaN entries are rejected too
    res.status = EGraspIkStatus::kOrientationInconsistent;
    return res;
  }
  const double reach = c1 * p.x() + s1 * p.y();  // in-plane reach; eq 10's Px / C1 without the division
  const EGraspIkStatus status = classify_reach(f, std::hypot(reach - f.l1, p.z()), opt.position_tol);
  if (status != EGraspIkStatus::kOk) {
    res.status = status;
    return res;
  }
  // eqs 9-10: joint 3 relative to joint 2 is what remains after removing l1 and the known last link.
  const double wx = reach - f.l1 - f.l3 * c23, wz = p.z() - f.l3 * s23;
  const double off_plane = s1 * p.x() - c1 * p.y();  // a . P, zero for every finger posture
  if (!(std::abs(off_plane) <= opt.position_tol && std::abs(std::hypot(wx, wz) - f.l2) <= opt.position_tol)) {
    res.status = EGraspIkStatus::kPositionInconsistent;
    return res;
  }
  const double q2 = std::atan2(wz, wx);
  push(res, f, q1, q2, q23 - q2, reach < 0, opt);
  return res;
}

const char* to_string(EGraspIkStatus status) {
  switch (status) {
    case EGraspIkStatus::kOk: return "ok";
    case EGraspIkStatus::kTheta1Undetermined: return "target on the joint-1 axis: theta1 undetermined, chose 0";
    case EGraspIkStatus::kBeyondReach: return "target beyond reach (farther than l2 + l3 from joint 2)";
    case EGraspIkStatus::kInsideInnerHole: return "target inside the inner hole (closer than |l2 - l3| to joint 2)";
    case EGraspIkStatus::kOrientationInconsistent: return "orientation not reachable by the finger";
    case EGraspIkStatus::kPositionInconsistent: return "position inconsistent with the requested orientation";
    case EGraspIkStatus::kInvalidInput: return "invalid input (NaN/inf target, or invalid finger geometry or options)";
  }
  return "unknown";
}

}  // namespace mjhand
