#include <mjhand/trajectory/trajectory.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/kinematics/forward_kinematics.h>

namespace mjhand {

namespace {

void require_finite(const std::vector<double>& v, const char* what) {
  for (double x : v) {
    if (!std::isfinite(x)) throw std::invalid_argument(std::string(what) + " must be finite");
  }
}

std::string point_text(const Eigen::Vector3d& p) {
  std::ostringstream s;
  s << "(" << p.x() << ", " << p.y() << ", " << p.z() << ")";
  return s.str();
}

}  // namespace

// ---- quintic ----------------------------------------------------------------------------------------------------

QuinticTrajectory::QuinticTrajectory(std::vector<double> q0, std::vector<double> q1, double T, double t0)
    : q0_(std::move(q0)), q1_(std::move(q1)), T_(T), t0_(t0) {
  if (q0_.empty() || q0_.size() != q1_.size()) throw std::invalid_argument("quintic: q0 and q1 need equal length >= 1");
  require_finite(q0_, "quintic: q0");
  require_finite(q1_, "quintic: q1");
  if (!(std::isfinite(T_) && T_ > 0)) throw std::invalid_argument("quintic: T must be positive and finite");
  if (!std::isfinite(t0_)) throw std::invalid_argument("quintic: start time must be finite");
}

void QuinticTrajectory::evaluate(double t, double* q, double* qd, double* qdd) const {
  // Clamping s makes the held ends exact: every derivative of the blend vanishes at s = 0 and s = 1.
  const double s = std::clamp((t - t0_) / T_, 0.0, 1.0);
  const double s2 = s * s, s3 = s2 * s;
  const double p = s3 * (10.0 - 15.0 * s + 6.0 * s2);
  const double dp = 30.0 * s2 * (1.0 - 2.0 * s + s2) / T_;
  const double ddp = 60.0 * s * (1.0 - 3.0 * s + 2.0 * s2) / (T_ * T_);
  for (size_t i = 0; i < q0_.size(); ++i) {
    const double dq = q1_[i] - q0_[i];
    q[i] = q0_[i] + dq * p;
    qd[i] = dq * dp;
    qdd[i] = dq * ddp;
  }
}

std::vector<double> QuinticTrajectory::coefficients(int i) const {
  const double dq = q1_.at(i) - q0_.at(i);
  return {q0_[i], 0.0, 0.0, 10.0 * dq / std::pow(T_, 3), -15.0 * dq / std::pow(T_, 4), 6.0 * dq / std::pow(T_, 5)};
}

// ---- cosine -----------------------------------------------------------------------------------------------------

CosineTrajectory::CosineTrajectory(std::vector<double> amplitude, std::vector<double> offset, double omega, double t0)
    : amplitude_(std::move(amplitude)), offset_(std::move(offset)), omega_(omega), t0_(t0) {
  if (amplitude_.empty() || amplitude_.size() != offset_.size()) {
    throw std::invalid_argument("cosine: amplitude and offset need equal length >= 1");
  }
  require_finite(amplitude_, "cosine: amplitude");
  require_finite(offset_, "cosine: offset");
  if (!(std::isfinite(omega_) && omega_ > 0)) throw std::invalid_argument("cosine: omega must be positive and finite");
  if (!std::isfinite(t0_)) throw std::invalid_argument("cosine: start time must be finite");
}

void CosineTrajectory::evaluate(double t, double* q, double* qd, double* qdd) const {
  const double tau = t - t0_;
  const double c = tau > 0 ? std::cos(omega_ * tau) : 1.0;
  const double s = tau > 0 ? std::sin(omega_ * tau) : 0.0;
  const double acc_on = tau > 0 ? 1.0 : 0.0;  // the paper's cycle starts at rest but with acceleration A w^2 / 2
  for (size_t i = 0; i < amplitude_.size(); ++i) {
    const double h = 0.5 * amplitude_[i];
    q[i] = h * (1.0 - c) + offset_[i];
    qd[i] = h * omega_ * s;
    qdd[i] = acc_on * h * omega_ * omega_ * c;
  }
}

CosineTrajectory paper_cosine(int n, double t0) {
  const double deg = M_PI / 180.0;
  return CosineTrajectory(std::vector<double>(n, 85.0 * deg), std::vector<double>(n, 2.5 * deg), 540.0 * deg, t0);
}

// ---- Cartesian via-point path -----------------------------------------------------------------------------------

ViaPointPath::ViaPointPath(std::vector<Eigen::Vector3d> waypoints, std::vector<double> durations, double blend,
                           double t0)
    : w_(std::move(waypoints)), tb_(blend), t0_(t0) {
  if (w_.size() < 2) throw std::invalid_argument("via path: needs a start and at least one more point");
  if (durations.size() != w_.size() - 1) {
    throw std::invalid_argument("via path: needs one duration per segment (" + std::to_string(w_.size() - 1) + ")");
  }
  for (const auto& p : w_) {
    if (!p.allFinite()) throw std::invalid_argument("via path: points must be finite");
  }
  require_finite(durations, "via path: durations");
  if (!std::isfinite(t0_)) throw std::invalid_argument("via path: start time must be finite");
  const double min_T = *std::min_element(durations.begin(), durations.end());
  if (!(tb_ > 0 && tb_ <= min_T)) {
    throw std::invalid_argument("via path: blend must lie in (0, shortest segment duration]");
  }
  knots_.push_back(t0_ + tb_ / 2);
  for (size_t k = 0; k + 1 < w_.size(); ++k) {
    const Eigen::Vector3d dx = w_[k + 1] - w_[k];
    if (dx.norm() <= 1e-12) {
      throw std::invalid_argument("via path: points " + std::to_string(k) + " and " + std::to_string(k + 1) +
                                  " coincide " + point_text(w_[k]));
    }
    v_.push_back(dx / durations[k]);
    knots_.push_back(knots_.back() + durations[k]);
  }
  // A blend whose velocity passes through zero stops the tip: forbidden by the task (pass near without stopping).
  const double scale = 1e-9 * std::max(1.0, v_[0].norm());
  for (size_t k = 1; k + 1 < w_.size(); ++k) {
    const Eigen::Vector3d a = v_[k - 1], b = v_[k] - v_[k - 1];
    const double lambda = b.squaredNorm() > 0 ? std::clamp(-a.dot(b) / b.squaredNorm(), 0.0, 1.0) : 0.0;
    if ((a + lambda * b).norm() <= scale) {
      throw std::invalid_argument("via path: the path reverses at via point " + std::to_string(k) + " " +
                                  point_text(w_[k]) + " and would stop there");
    }
  }
}

void ViaPointPath::evaluate(double t, Eigen::Vector3d* x, Eigen::Vector3d* xd, Eigen::Vector3d* xdd) const {
  const int n = static_cast<int>(v_.size());
  const double half = tb_ / 2;
  if (t <= t0_ || t >= end_time()) {
    *x = t <= t0_ ? w_.front() : w_.back();
    xd->setZero();
    xdd->setZero();
    return;
  }
  for (int k = 0; k <= n; ++k) {
    if (t >= knots_[k] - half && t <= knots_[k] + half) {
      const Eigen::Vector3d vin = k > 0 ? v_[k - 1] : Eigen::Vector3d::Zero();
      const Eigen::Vector3d vout = k < n ? v_[k] : Eigen::Vector3d::Zero();
      const double tau = t - (knots_[k] - half);
      *x = w_[k] - vin * half + vin * tau + (vout - vin) * (tau * tau / (2 * tb_));
      *xd = vin + (vout - vin) * (tau / tb_);
      *xdd = (vout - vin) / tb_;
      return;
    }
    if (k < n && t > knots_[k] + half && t < knots_[k + 1] - half) {
      *x = w_[k] + v_[k] * (t - knots_[k]);
      *xd = v_[k];
      xdd->setZero();
      return;
    }
  }
  *x = w_.back();  // unreachable for finite t; keeps the outputs defined
  xd->setZero();
  xdd->setZero();
}

double ViaPointPath::via_miss(int k) const {
  const int n = static_cast<int>(v_.size());
  if (k <= 0 || k >= n) return 0.0;
  return (v_[k] - v_[k - 1]).norm() * tb_ / 8;
}

double ViaPointPath::min_interior_speed() const {
  double best = v_[0].norm();
  for (size_t k = 0; k < v_.size(); ++k) best = std::min(best, v_[k].norm());
  for (size_t k = 1; k < v_.size(); ++k) {
    const Eigen::Vector3d a = v_[k - 1], b = v_[k] - v_[k - 1];
    const double lambda = b.squaredNorm() > 0 ? std::clamp(-a.dot(b) / b.squaredNorm(), 0.0, 1.0) : 0.0;
    best = std::min(best, (a + lambda * b).norm());
  }
  return best;
}

// ---- via path in joint space ------------------------------------------------------------------------------------

namespace {

// Tool position and the position rows of the geometric Jacobian of a 3-joint chain, without touching the heap.
Eigen::Vector3d tip_and_jp(const Chain& chain, const double* q, Eigen::Matrix3d* jp) {
  double jac[6 * 3];
  const Eigen::Isometry3d pose = tip_pose_and_jacobian(chain, q, jp ? jac : nullptr);
  if (jp) {
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) (*jp)(r, c) = jac[6 * c + r];
  }
  return pose.translation();
}

}  // namespace

ViaJointTrajectory::ViaJointTrajectory(Chain chain, ViaPointPath path, std::vector<double> q_start,
                                       double sample_period)
    : chain_(std::move(chain)), path_(std::move(path)), dt_(sample_period) {
  const int n = chain_.dof();
  if (n != 3) throw std::invalid_argument("via trajectory: the chain needs exactly 3 joints (3-D tip position)");
  if (static_cast<int>(q_start.size()) != n) throw std::invalid_argument("via trajectory: q_start needs 3 values");
  require_finite(q_start, "via trajectory: q_start");
  if (!(dt_ > 0 && std::isfinite(dt_))) throw std::invalid_argument("via trajectory: sample period must be positive");
  const double span = path_.end_time() - path_.start_time();
  count_ = std::max(2, static_cast<int>(std::ceil(span / dt_)) + 1);
  dt_ = span / (count_ - 1);
  samples_.resize(static_cast<size_t>(count_) * n);
  DlsWorkspace ws(chain_);
  std::vector<double> q = q_start;
  for (int k = 0; k < count_; ++k) {
    const double t = path_.start_time() + k * dt_;
    Eigen::Vector3d x, xd, xdd;
    path_.evaluate(t, &x, &xd, &xdd);
    const DlsResult r = dls_ik_position(chain_, x, q.data(), ws);
    Eigen::Matrix3d jp;
    tip_and_jp(chain_, q.data(), &jp);
    // Smallest singular value of Jp from the eigenvalues of Jp Jp^T (a 3x3 symmetric problem).
    const Eigen::Matrix3d gram = jp * jp.transpose();
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(gram, Eigen::EigenvaluesOnly);
    const double sigma_min = std::sqrt(std::max(0.0, eig.eigenvalues().minCoeff()));
    if (!r.converged || !(sigma_min >= 1e-6)) {
      std::ostringstream s;
      s << "via trajectory: fingertip point " << point_text(x) << " at t = " << t << " s "
        << (r.converged ? "is at a singular configuration" : std::string("is not reachable: ") + to_string(r.status))
        << " (IK error " << r.position_error << " m)";
      throw std::invalid_argument(s.str());
    }
    std::copy(q.begin(), q.end(), samples_.begin() + static_cast<long>(k) * n);
  }
}

void ViaJointTrajectory::evaluate(double t, double* q, double* qd, double* qdd) const {
  Eigen::Vector3d x, xd, xdd;
  path_.evaluate(t, &x, &xd, &xdd);
  const double u = std::clamp((t - path_.start_time()) / dt_, 0.0, static_cast<double>(count_ - 1));
  const int i = std::min(static_cast<int>(u), count_ - 2);
  const double f = u - i;
  const double* a = &samples_[static_cast<size_t>(i) * 3];
  const double* b = a + 3;
  for (int j = 0; j < 3; ++j) q[j] = a[j] + f * (b[j] - a[j]);
  // Newton on the exact FK: the interpolated sample is within O(dt^2) of the solution, so a few steps suffice.
  Eigen::Matrix3d jp;
  for (int it = 0; it < 8; ++it) {
    const Eigen::Vector3d e = x - tip_and_jp(chain_, q, &jp);
    if (e.norm() < 1e-14) break;
    const Eigen::Vector3d dq = jp.partialPivLu().solve(e);
    for (int j = 0; j < 3; ++j) q[j] += dq(j);
  }
  tip_and_jp(chain_, q, &jp);
  const auto lu = jp.partialPivLu();
  const Eigen::Vector3d v = lu.solve(xd);
  // Jdot qd is the second derivative of the tip along qd: a central difference needs no Jacobian derivative.
  Eigen::Vector3d jdot_qd = Eigen::Vector3d::Zero();
  const double vmax = v.cwiseAbs().maxCoeff();
  if (vmax > 1e-12) {
    const double h = 3e-4 / vmax;
    double qp[3], qm[3];
    for (int j = 0; j < 3; ++j) {
      qp[j] = q[j] + h * v(j);
      qm[j] = q[j] - h * v(j);
    }
    const Eigen::Vector3d p0 = tip_and_jp(chain_, q, nullptr);
    jdot_qd = (tip_and_jp(chain_, qp, nullptr) - 2.0 * p0 + tip_and_jp(chain_, qm, nullptr)) / (h * h);
  }
  const Eigen::Vector3d acc = lu.solve(xdd - jdot_qd);
  for (int j = 0; j < 3; ++j) {
    qd[j] = v(j);
    qdd[j] = acc(j);
  }
}

}  // namespace mjhand
