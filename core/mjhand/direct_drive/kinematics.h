// Closed-form kinematics of a direct-drive finger (Ebner & Wallace 1994, appendices B-D): forward kinematics to the
// finger base and the palm (B.4-B.6), inverse kinematics from the fingertip position and angle (C), the Jacobians
// in the fingertip and base frames and the static joint torques for a fingertip force (D.2, D.3). Inputs are the
// actuator angles phi the joints report; the frame angles theta = phi + offset are formed inside. Nothing here
// allocates.
#pragma once

#include <Eigen/Geometry>

#include <array>

#include <mjhand/direct_drive/finger.h>

namespace mjhand {

// theta_i = phi_i + offset_i (B.3).
std::array<double, 3> frame_angles(const DirectDriveFinger& f, const double* phi);

// ^0_T T = ^0_3 T * D_X(a_3): the fingertip frame {T} in the finger base frame {0} (B.4 and B.2's tool frame).
Eigen::Isometry3d tip_in_base(const DirectDriveFinger& f, const double* phi);
// ^P T_j = ^P_F T * ^0_T T: the fingertip frame in the palm frame (B.5; B.6 for the thumb through its base).
Eigen::Isometry3d tip_in_palm(const DirectDriveFinger& f, const double* phi);

// ^T J (D.2): fingertip linear velocity in {T} per joint rate; the third row is zero (planar finger).
Eigen::Matrix3d jacobian_in_tip(const DirectDriveFinger& f, const double* phi);
// ^0 J = ^0_3 R ^T J (D.2): the same velocity in the finger base frame {0}.
Eigen::Matrix3d jacobian_in_base(const DirectDriveFinger& f, const double* phi);
// tau = ^0 J^T ^0 F_T (D.3): joint torques [N m] that hold the fingertip force F0 [N] given in {0}.
Eigen::Vector3d static_torques(const Eigen::Matrix3d& jacobian_base, const Eigen::Vector3d& force_base);

enum class DirectDriveIkStatus {
  kOk,             // phi reaches the target and lies within the joint limits
  kTooFar,         // appendix C's solvability check fails: d > a_1 + a_2
  kTooNear,        // d < |a_1 - a_2|: the wrist point is inside the inner hole
  kSingular,       // d = 0 (a_1 = a_2): the wrist point is on joint 1's axis, theta_1 is arbitrary
  kOutOfPlane,     // the palm-frame target is not in the finger's plane (^F z_T != 0)
  kOutsideLimits,  // a solution exists but needs an actuator angle outside [lower, upper]; phi holds it
  kNotFinite,      // a target coordinate is NaN or infinite
};

struct DirectDriveIk {
  DirectDriveIkStatus status = DirectDriveIkStatus::kNotFinite;
  const char* reason = "";          // why the target is unreachable ("" when kOk); static text
  int joint = -1;                   // kOutsideLimits: the first joint (0-based) outside its limits
  double wrist_distance = 0;        // d: distance from joint 1 to joint 3 [m]
  std::array<double, 3> theta{};    // frame angles [rad] (valid for kOk and kOutsideLimits)
  std::array<double, 3> phi{};      // actuator angles in (-pi, pi] [rad] (valid for kOk and kOutsideLimits)
  bool reachable() const { return status == DirectDriveIkStatus::kOk; }
};

// Appendix C: the fingertip at (x_T, y_T) in the finger base frame {F} = {0} [m] with its X axis at gamma =
// theta_1 + theta_2 + theta_3 from {0}'s X axis [rad]. Returns the elbow with theta_2 >= 0, the only one that can
// satisfy 0 <= phi_2 <= 90 deg.
DirectDriveIk inverse_kinematics(const DirectDriveFinger& f, double x_T, double y_T, double gamma);
// The same for a fingertip position given in the palm frame {P}: ^F p = (^P_F T)^-1 ^P p first (appendix C), which
// must lie in the finger's plane to within 1e-9 m. gamma is still measured in {F} (for the thumb, whose {F} is
// turned 180 deg about Y, the angle from the palm's X axis about the palm's Z axis is pi - gamma).
DirectDriveIk inverse_kinematics_palm(const DirectDriveFinger& f, const Eigen::Vector3d& tip_palm, double gamma);

}  // namespace mjhand
