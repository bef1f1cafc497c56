#include <mjhand/parallel/three_ur_kinematics.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {
double wrap(double a) {
  a = std::remainder(a, 2.0 * M_PI);  // [-pi, pi]
  return a <= -M_PI ? a + 2.0 * M_PI : a;
}

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d S;
  S << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return S;
}

Eigen::Matrix3d exp_so3(const Eigen::Vector3d& phi) {
  const double a = phi.norm();
  if (a < 1e-300) return Eigen::Matrix3d::Identity();
  return Eigen::AngleAxisd(a, phi / a).toRotationMatrix();
}

// Stacked loop residual r_i = p + R c~_i - c_i (9) and its Jacobian w.r.t. (dp, dphi) (9 x 6).
void loop_residual(const ThreeURHand& h, const std::array<Eigen::Vector3d, 3>& tips, const ObjectPose& x,
                   Eigen::Matrix<double, 9, 1>& r, Eigen::Matrix<double, 9, 6>* J) {
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d rc = x.R * h.c_local(i);
    r.segment<3>(3 * i) = x.p + rc - tips[i];
    if (J) {
      J->block<3, 3>(3 * i, 0).setIdentity();
      J->block<3, 3>(3 * i, 3) = -skew(rc);  // d(R c)/dphi for R <- exp(dphi^) R
    }
  }
}

double max_loop_error(const Eigen::Matrix<double, 9, 1>& r) {
  double e = 0;
  for (int i = 0; i < 3; ++i) e = std::max(e, r.segment<3>(3 * i).norm());
  return e;
}

// Rigid best fit of the object points c~_i onto the fingertips (Kabsch): exact when the loops close.
ObjectPose kabsch(const ThreeURHand& h, const std::array<Eigen::Vector3d, 3>& tips) {
  Eigen::Vector3d P = Eigen::Vector3d::Zero(), Q = Eigen::Vector3d::Zero();
  for (int i = 0; i < 3; ++i) {
    P += h.c_local(i) / 3.0;
    Q += tips[i] / 3.0;
  }
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
  for (int i = 0; i < 3; ++i) H += (h.c_local(i) - P) * (tips[i] - Q).transpose();
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d D = Eigen::Matrix3d::Identity();
  D(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0 ? -1.0 : 1.0;
  ObjectPose x;
  x.R = svd.matrixV() * D * svd.matrixU().transpose();
  x.p = Q - x.R * P;
  return x;
}
}  // namespace

const char* to_string(FingerIKStatus s) {
  switch (s) {
    case FingerIKStatus::kOk: return "ok";
    case FingerIKStatus::kUnreachable: return "unreachable";
    case FingerIKStatus::kSingular: return "singular (contact above the palm joint)";
  }
  return "?";
}

const char* to_string(ForwardStatus s) {
  switch (s) {
    case ForwardStatus::kConverged: return "converged";
    case ForwardStatus::kNotClosed: return "loops not closed";
    case ForwardStatus::kMaxIterations: return "iteration limit";
  }
  return "?";
}

bool ThreeURInverse::ok() const {
  return std::all_of(status.begin(), status.end(), [](FingerIKStatus s) { return s == FingerIKStatus::kOk; });
}

ThreeURInverse three_ur_inverse(const ThreeURHand& hand, const ObjectPose& pose, const ThreeURBranches& branches) {
  validate(hand);
  if (!pose.p.allFinite() || !pose.R.allFinite()) throw ParallelError("three_ur_inverse: object pose is not finite");
  if ((pose.R.transpose() * pose.R - Eigen::Matrix3d::Identity()).norm() > 1e-9 || pose.R.determinant() < 0) {
    throw ParallelError("three_ur_inverse: object pose R is not a rotation matrix");
  }
  ThreeURInverse out;
  for (int i = 0; i < 3; ++i) {
    const FingerBranch& br = branches[i];
    if ((br.reach != 1 && br.reach != -1) || (br.elbow != 1 && br.elbow != -1)) {
      throw ParallelError("three_ur_inverse: branch of finger " + std::to_string(i) + " needs reach and elbow = +1 or -1");
    }
    const Eigen::Vector3d v = object_contact_point(hand, i, pose) - hand.a(i);
    const double rho = std::hypot(v.x(), v.y());
    const double l = hand.l[i], d = hand.d[i];
    const double r = std::hypot(rho, v.z());
    out.reach_margin[i] = std::min(r - std::abs(l - d), l + d - r);
    const std::string who = "finger " + std::to_string(i) + ": ";
    if (rho < 1e-12) {
      out.status[i] = FingerIKStatus::kSingular;
      out.message += who + "contact straight above the palm joint (theta_i1 undefined); ";
      continue;
    }
    if (out.reach_margin[i] < -1e-12) {
      out.status[i] = FingerIKStatus::kUnreachable;
      out.message += who + "contact at " + std::to_string(r) + " m from the palm joint, outside [" +
                     std::to_string(std::abs(l - d)) + ", " + std::to_string(l + d) + "]; ";
      continue;
    }
    const double t1 = std::atan2(br.reach * v.y(), br.reach * v.x());
    const double m = br.reach * rho, n = v.z();
    const double c3 = std::clamp((r * r - l * l - d * d) / (2.0 * l * d), -1.0, 1.0);
    const double t3 = br.elbow * std::acos(c3);
    const double t2 = std::atan2(n, m) - std::atan2(d * std::sin(t3), l + d * std::cos(t3));
    out.theta(3 * i) = wrap(t1);
    out.theta(3 * i + 1) = wrap(t2);
    out.theta(3 * i + 2) = wrap(t3);
  }
  return out;
}

std::array<Eigen::Vector3d, 3> fingertips(const ThreeURHand& hand, const ThreeURJoints& theta) {
  std::array<Eigen::Vector3d, 3> tips;
  for (int i = 0; i < 3; ++i) tips[i] = finger_geometry(hand, i, theta(3 * i), theta(3 * i + 1), theta(3 * i + 2)).c;
  return tips;
}

ThreeURForward three_ur_forward(const ThreeURHand& hand, const ThreeURJoints& theta, const ForwardOptions& opt) {
  validate(hand);
  if (!theta.allFinite()) throw ParallelError("three_ur_forward: joint angles are not finite");
  if (opt.use_initial && (!opt.initial.p.allFinite() || !opt.initial.R.allFinite())) {
    throw ParallelError("three_ur_forward: initial pose is not finite");
  }
  const std::array<Eigen::Vector3d, 3> tips = fingertips(hand, theta);
  ThreeURForward out;
  ObjectPose x = opt.use_initial ? opt.initial : kabsch(hand, tips);
  Eigen::Matrix<double, 9, 1> r, r_trial;
  Eigen::Matrix<double, 9, 6> J;
  loop_residual(hand, tips, x, r, &J);
  double cost = r.squaredNorm();
  double mu = 1e-3 * (J.transpose() * J).diagonal().maxCoeff();
  bool settled = false;
  int it = 0;
  for (; it < opt.max_iterations && !settled; ++it) {
    const Eigen::Matrix<double, 6, 6> A = J.transpose() * J;
    const Eigen::Matrix<double, 6, 1> g = J.transpose() * r;
    // Levenberg-Marquardt: retry with a larger damping until the cost does not increase.
    for (int tries = 0; tries < 30; ++tries) {
      Eigen::Matrix<double, 6, 6> Ad = A;
      Ad.diagonal().array() += mu;
      const Eigen::Matrix<double, 6, 1> step = -Ad.ldlt().solve(g);
      ObjectPose trial;
      trial.p = x.p + step.head<3>();
      trial.R = exp_so3(step.tail<3>()) * x.R;
      loop_residual(hand, tips, trial, r_trial, nullptr);
      const double c = r_trial.squaredNorm();
      if (c <= cost) {
        x = trial;
        cost = c;
        mu = std::max(mu / 3.0, 1e-12);
        if (step.norm() < opt.step_tolerance) settled = true;
        break;
      }
      mu *= 4.0;
      if (tries == 29) settled = true;  // no decrease possible: at a (numerical) minimum
    }
    loop_residual(hand, tips, x, r, &J);
    if (max_loop_error(r) <= 1e-3 * opt.closure_tolerance) settled = true;
  }
  // Re-orthonormalise R (products of exact rotations drift by round-off only).
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(x.R, Eigen::ComputeFullU | Eigen::ComputeFullV);
  x.R = svd.matrixU() * svd.matrixV().transpose();
  loop_residual(hand, tips, x, r, nullptr);
  out.pose = x;
  out.iterations = it;
  out.loop_error = max_loop_error(r);
  if (out.loop_error <= opt.closure_tolerance) {
    out.status = ForwardStatus::kConverged;
  } else if (settled) {
    out.status = ForwardStatus::kNotClosed;
    out.message = "the 9 joint angles are not consistent with one object pose: loop error " +
                  std::to_string(out.loop_error) + " m after " + std::to_string(it) + " iterations";
  } else {
    out.status = ForwardStatus::kMaxIterations;
    out.message = "no convergence in " + std::to_string(it) + " iterations (loop error " +
                  std::to_string(out.loop_error) + " m)";
  }
  return out;
}

}  // namespace mjhand
