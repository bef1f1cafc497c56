#include <mjhand/direct_drive/kinematics.h>

#include <algorithm>
#include <cmath>

#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {
constexpr double kPlaneTolerance = 1e-9;  // [m]
}  // namespace

std::array<double, 3> frame_angles(const DirectDriveFinger& f, const double* phi) {
  return {phi[0] + f.offset[0], phi[1] + f.offset[1], phi[2] + f.offset[2]};
}

Eigen::Isometry3d tip_in_base(const DirectDriveFinger& f, const double* phi) {
  const std::array<double, 3> t = frame_angles(f, phi);
  const double t12 = t[0] + t[1], t123 = t12 + t[2];
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = Eigen::AngleAxisd(t123, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  T.translation() << f.a[2] * std::cos(t123) + f.a[1] * std::cos(t12) + f.a[0] * std::cos(t[0]),
      f.a[2] * std::sin(t123) + f.a[1] * std::sin(t12) + f.a[0] * std::sin(t[0]), 0.0;
  return T;
}

Eigen::Isometry3d tip_in_palm(const DirectDriveFinger& f, const double* phi) { return f.base * tip_in_base(f, phi); }

Eigen::Matrix3d jacobian_in_tip(const DirectDriveFinger& f, const double* phi) {
  const std::array<double, 3> t = frame_angles(f, phi);
  const double a1 = f.a[0], a2 = f.a[1], a3 = f.a[2];
  const double s3 = std::sin(t[2]), c3 = std::cos(t[2]), s23 = std::sin(t[1] + t[2]), c23 = std::cos(t[1] + t[2]);
  Eigen::Matrix3d J;
  J << a1 * s23 + a2 * s3, a2 * s3, 0,  //
      a1 * c23 + a2 * c3 + a3, a2 * c3 + a3, a3,  //
      0, 0, 0;
  return J;
}

Eigen::Matrix3d jacobian_in_base(const DirectDriveFinger& f, const double* phi) {
  const std::array<double, 3> t = frame_angles(f, phi);
  const double a1 = f.a[0], a2 = f.a[1], a3 = f.a[2];
  const double t12 = t[0] + t[1], t123 = t12 + t[2];
  const double s1 = std::sin(t[0]), c1 = std::cos(t[0]), s12 = std::sin(t12), c12 = std::cos(t12);
  const double s123 = std::sin(t123), c123 = std::cos(t123);
  Eigen::Matrix3d J;
  J << -a1 * s1 - a2 * s12 - a3 * s123, -a2 * s12 - a3 * s123, -a3 * s123,  //
      a1 * c1 + a2 * c12 + a3 * c123, a2 * c12 + a3 * c123, a3 * c123,      //
      0, 0, 0;
  return J;
}

Eigen::Vector3d static_torques(const Eigen::Matrix3d& jacobian_base, const Eigen::Vector3d& force_base) {
  return jacobian_base.transpose() * force_base;
}

DirectDriveIk inverse_kinematics(const DirectDriveFinger& f, double x_T, double y_T, double gamma) {
  DirectDriveIk r;
  if (!std::isfinite(x_T) || !std::isfinite(y_T) || !std::isfinite(gamma)) {
    r.reason = "the target has a NaN or infinite coordinate";
    return r;
  }
  const double a1 = f.a[0], a2 = f.a[1], a3 = f.a[2];
  // Origin of frame {3} (the "wrist"): step back a_3 along the fingertip's X axis.
  const double x = x_T - a3 * std::cos(gamma), y = y_T - a3 * std::sin(gamma);
  const double d = std::hypot(x, y);
  r.wrist_distance = d;
  const double outer = a1 + a2, inner = std::fabs(a1 - a2);
  // A relative slack of 1e-12 lets the straight finger (d = a_1 + a_2 up to rounding) through.
  if (d > outer * (1 + 1e-12)) {
    r.status = DirectDriveIkStatus::kTooFar;
    r.reason = "unreachable: the wrist point is farther from joint 1 than a_1 + a_2 (appendix C's check d <= a1 + a2)";
    return r;
  }
  if (d < inner * (1 - 1e-12)) {
    r.status = DirectDriveIkStatus::kTooNear;
    r.reason = "unreachable: the wrist point is closer to joint 1 than |a_1 - a_2|";
    return r;
  }
  if (d <= 1e-12 * outer) {
    r.status = DirectDriveIkStatus::kSingular;
    r.reason = "singular: the wrist point lies on joint 1's axis, so theta_1 is undetermined";
    return r;
  }
  // theta_2 = acos((d^2 - a1^2 - a2^2) / (2 a1 a2)) (appendix C), in the half-angle form that stays accurate at the
  // straight and the folded finger: tan^2(theta_2 / 2) = ((a1 + a2)^2 - d^2) / (d^2 - (a1 - a2)^2).
  const double num = std::sqrt(std::max(0.0, (outer - d) * (outer + d)));
  const double den = std::sqrt(std::max(0.0, (d - inner) * (d + inner)));
  const double t2 = 2 * std::atan2(num, den);
  // theta_1 = beta - acos((a1^2 + d^2 - a2^2) / (2 a1 d)) with beta = atan2(y, x) (the print's tan^-1(y / x) loses
  // the quadrant); the acos is the angle atan2(a2 sin theta_2, a1 + a2 cos theta_2) at joint 1.
  const double t1 = std::atan2(y, x) - std::atan2(a2 * std::sin(t2), a1 + a2 * std::cos(t2));
  const double t3 = gamma - t1 - t2;
  const double theta[3] = {t1, t2, t3};
  for (int i = 0; i < 3; ++i) {
    r.phi[i] = std::remainder(theta[i] - f.offset[i], 2 * M_PI);  // phi_1 = theta_1 - alpha, phi_3 = theta_3 + alpha
    if (r.phi[i] <= -M_PI) r.phi[i] += 2 * M_PI;
    r.theta[i] = r.phi[i] + f.offset[i];
  }
  for (int i = 0; i < 3; ++i) {
    if (r.phi[i] < f.lower[i] - 1e-12 || r.phi[i] > f.upper[i] + 1e-12) {
      r.status = DirectDriveIkStatus::kOutsideLimits;
      r.joint = i;
      r.reason = "unreachable within the joint limits: the solution needs an actuator angle outside [lower, upper]";
      return r;
    }
  }
  r.status = DirectDriveIkStatus::kOk;
  return r;
}

DirectDriveIk inverse_kinematics_palm(const DirectDriveFinger& f, const Eigen::Vector3d& tip_palm, double gamma) {
  if (!tip_palm.allFinite()) return inverse_kinematics(f, NAN, NAN, gamma);
  const Eigen::Vector3d p = f.base.inverse() * tip_palm;
  if (std::fabs(p.z()) > kPlaneTolerance) {
    DirectDriveIk r;
    r.status = DirectDriveIkStatus::kOutOfPlane;
    r.reason = "unreachable: the target is not in the finger's plane (its z in the finger base frame is not 0)";
    return r;
  }
  return inverse_kinematics(f, p.x(), p.y(), gamma);
}

}  // namespace mjhand
