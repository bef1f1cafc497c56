// Closed-form inverse kinematics of the 3-joint e_GRASP finger (Mattar 2013, Table 1 and eqs 6-13).
#pragma once

#include <Eigen/Geometry>
#include <array>
#include <cmath>

#include <mjhand/kinematics/dh_chain.h>

namespace mjhand {

// Finger geometry: standard DH rows (a, alpha, d, theta) = (l1, 90deg, 0, q1), (l2, 0, 0, q2), (l3, 0, 0, q3).
// Table 1 as OCR'd lists d = l1 for joint 2; eq 2 (and the FK tests) only agree with d = 0, which is used here.
struct EGraspFinger {
  double l1 = 0.02, l2 = 0.045, l3 = 0.03;  // link lengths [m]
  std::array<double, 3> lower{{-M_PI / 4, -M_PI / 4, -M_PI / 4}};  // joint limits [rad], Table 1: -45..+45 deg
  std::array<double, 3> upper{{M_PI / 4, M_PI / 4, M_PI / 4}};
};

enum class EGraspIkStatus {
  kOk,                       // every returned solution reproduces the target
  kTheta1Undetermined,       // solved, but the target is on the joint-1 axis: theta1 is free (see egrasp_ik_position)
  kBeyondReach,              // wrist-to-target distance exceeds l2 + l3 for every theta1 branch
  kInsideInnerHole,          // target closer to joint 2 than |l2 - l3| (no branch reaches it)
  kOrientationInconsistent,  // pose rotation is not Rz(q1) Rx(90deg) Rz(q2 + q3) for any q
  kPositionInconsistent,     // rotation fits but the position does not (off the finger plane, or |link 2| != l2)
  kInvalidInput,             // NaN/inf target, finger or options, l2 or l3 <= 0, or lower > upper: nothing solved
};

struct EGraspIkSolution {
  std::array<double, 3> q{};   // joint angles wrapped to [-pi, pi] [rad]
  bool within_limits = false;  // all three joints inside EGraspFinger limits (with EGraspIkOptions::limit_tol)
  bool reach_reversed = false; // theta1 = atan2(Py, Px) + pi: the finger bends back over its own base
  int elbow = +1;              // sign of q3 chosen by the cosine rule (+1: q3 >= 0)
};

// Fixed capacity so that a call never touches the heap: at most 2 theta1 branches x 2 elbows.
struct EGraspIkResult {
  EGraspIkStatus status = EGraspIkStatus::kOk;
  int count = 0;
  std::array<EGraspIkSolution, 4> solutions{};

  // Reachable at all (status kOk or kTheta1Undetermined); limits are judged per solution.
  bool ok() const { return count > 0; }
  // Number of solutions a limited finger can actually take; 0 with ok() means "reachable only beyond the limits".
  int count_within_limits() const {
    int n = 0;
    for (int i = 0; i < count; ++i) n += solutions[i].within_limits ? 1 : 0;
    return n;
  }
};

struct EGraspIkOptions {
  double position_tol = 1e-10;  // [m] slack on reach boundaries and on pose-position consistency
  double rotation_tol = 1e-9;   // max abs entry error when checking that a pose rotation fits the finger
  double limit_tol = 1e-9;      // [rad] so that targets generated exactly at a limit stay "within limits"
  double axis_tol = 1e-12;      // [m] radial distance below which the target counts as on the joint-1 axis
};

// The e_GRASP finger as a generic DH Chain (identity base and tool), so FK, Jacobians and DLS IK can be used on it.
Chain egrasp_chain(const EGraspFinger& finger);

// Geometric solution (eqs 12-13) of a fingertip position in the finger root frame: every branch, limits only flagged.
// On the joint-1 axis theta1 is free; the documented choice is theta1 = 0 clamped into the joint-1 limits
// (plus its reversed twin), reported as kTheta1Undetermined. Non-finite input gives kInvalidInput with count 0.
EGraspIkResult egrasp_ik_position(const EGraspFinger& finger, const Eigen::Vector3d& target,
                                  const EGraspIkOptions& options = {});

// Algebraic solution (eqs 6-11) of a full fingertip pose in the finger root frame: unique, so count is 0 or 1.
// Non-finite input gives kInvalidInput with count 0.
EGraspIkResult egrasp_ik_pose(const EGraspFinger& finger, const Eigen::Isometry3d& target,
                              const EGraspIkOptions& options = {});

// Human-readable reason for logs and error messages.
const char* to_string(EGraspIkStatus status);

}  // namespace mjhand
