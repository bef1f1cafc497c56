#include <mjhand/trajectory/trajectory.h>

#include <algorithm>
#include <limits>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/util/dense_decompositions.h>

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

int ViaPointPath::heading_for(double t) const {
  const int n = static_cast<int>(w_.size());
  for (int k = 1; k < n; ++k) {
    if (t <= knots_[k] + tb_ / 2) return k;
  }
  return n - 1;
}

// ---- via path in joint space ------------------------------------------------------------------------------------

namespace {

using JpMat = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxStackChainDof>;        // position Jacobian
using PinvMat = Eigen::Matrix<double, Eigen::Dynamic, 3, 0, kMaxStackChainDof, 3>;      // J+ = J^T (J J^T)^-1
using QVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxStackChainDof, 1>;         // one value per joint

// Tool position and the position rows of the geometric Jacobian, without touching the heap.
Eigen::Vector3d tip_and_jp(const SerialChain& chain, const double* q, Eigen::Matrix3d* jp) {
  double jac[6 * 3];
  const Eigen::Isometry3d pose = tip_pose_and_jacobian(chain, q, jp ? jac : nullptr);
  if (jp) {
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) (*jp)(r, c) = jac[6 * c + r];
  }
  return pose.translation();
}

// The same for any number of joints (up to kMaxStackChainDof), with J+ and J's smallest singular value.
Eigen::Vector3d tip_jp_pinv(const SerialChain& chain, const double* q, JpMat* jp, PinvMat* pinv,
                            double* sigma_min = nullptr) {
  const int n = chain.dof();
  double jac[6 * kMaxStackChainDof];
  const Eigen::Isometry3d pose = tip_pose_and_jacobian(chain, q, jac);
  jp->resize(3, n);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < 3; ++r) (*jp)(r, c) = jac[6 * c + r];
  const Eigen::Matrix3d gram = *jp * jp->transpose();
  if (sigma_min) {
    // Smallest singular value of J from the eigenvalues of J J^T (a 3x3 symmetric problem).
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(gram, Eigen::EigenvaluesOnly);
    *sigma_min = std::sqrt(std::max(0.0, eig.eigenvalues().minCoeff()));
  }
  *pinv = jp->transpose() * gram.inverse();
  return pose.translation();
}

double sigma_min_of(const Eigen::Matrix3d& jp) {
  // A plain Matrix3d, not the product expression: the solver's shared copy (dense_decompositions.h).
  const Eigen::Matrix3d gram = jp * jp.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(gram, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, eig.eigenvalues().minCoeff()));
}

constexpr double kOnPath = 1e-9;      // [m] a sample farther than this from the path after projection: unreachable
constexpr double kSigmaMin = 1e-6;    // [m/rad] J's smallest singular value below this: singular
constexpr double kLimitSlack = 1e-9;  // [rad or m] rounding room on the joint limits

}  // namespace

ViaPointPath via_path_from_tip(const SerialChain& chain, const std::vector<double>& q_start,
                               const std::vector<Eigen::Vector3d>& points, std::vector<double> durations,
                               double blend, double t0) {
  if (static_cast<int>(q_start.size()) != chain.dof()) {
    throw std::invalid_argument("via_path_from_tip: q_start has " + std::to_string(q_start.size()) +
                                " values for a chain of " + std::to_string(chain.dof()) + " joints");
  }
  if (points.empty()) throw std::invalid_argument("via_path_from_tip: no via points");
  if (!(blend > 0) && !durations.empty()) blend = 0.25 * *std::min_element(durations.begin(), durations.end());
  std::vector<Eigen::Vector3d> w;
  w.push_back(tip_pose_and_jacobian(chain, q_start.data()).translation());
  w.insert(w.end(), points.begin(), points.end());
  return ViaPointPath(std::move(w), std::move(durations), blend, t0);
}

ViaJointTrajectory::ViaJointTrajectory(const Chain& chain, ViaPointPath path, std::vector<double> q_start,
                                       double sample_period, ViaRedundancy redundancy)
    : ViaJointTrajectory(to_serial_chain(chain), std::move(path), std::move(q_start), sample_period,
                         std::move(redundancy)) {}

ViaJointTrajectory::ViaJointTrajectory(SerialChain chain, ViaPointPath path, std::vector<double> q_start,
                                       double sample_period, ViaRedundancy redundancy)
    : chain_(std::move(chain)), path_(std::move(path)), dt_(sample_period), redundancy_(std::move(redundancy)) {
  const int n = chain_.dof();
  if (n < 3 || n > kMaxStackChainDof) {
    throw std::invalid_argument("via trajectory: chain '" + chain_.name + "' has " + std::to_string(n) +
                                " joints; a 3-D tip path needs 3 to " + std::to_string(kMaxStackChainDof));
  }
  if (static_cast<int>(q_start.size()) != n) {
    throw std::invalid_argument("via trajectory: q_start needs " + std::to_string(n) + " values, got " +
                                std::to_string(q_start.size()));
  }
  require_finite(q_start, "via trajectory: q_start");
  if (!(dt_ > 0 && std::isfinite(dt_))) throw std::invalid_argument("via trajectory: sample period must be positive");
  if (!(std::isfinite(redundancy_.posture_gain) && redundancy_.posture_gain >= 0)) {
    throw std::invalid_argument("via trajectory: posture_gain must be finite and >= 0");
  }
  if (redundancy_.rest.empty()) redundancy_.rest = q_start;
  if (static_cast<int>(redundancy_.rest.size()) != n) {
    throw std::invalid_argument("via trajectory: the rest posture needs " + std::to_string(n) + " values");
  }
  require_finite(redundancy_.rest, "via trajectory: rest posture");
  for (int i = 0; i < n; ++i) {
    const SerialLink& l = chain_.links[i];
    if (!(q_start[i] >= l.lower - kLimitSlack && q_start[i] <= l.upper + kLimitSlack)) {
      std::ostringstream s;
      s << "via trajectory: q_start of joint " << i << " of chain '" << chain_.name << "' is " << q_start[i]
        << ", outside its range [" << l.lower << ", " << l.upper << "]";
      throw std::invalid_argument(s.str());
    }
  }
  q_start_ = q_start;
  const double span = path_.end_time() - path_.start_time();
  count_ = std::max(2, static_cast<int>(std::ceil(span / dt_)) + 1);
  dt_ = span / (count_ - 1);
  samples_.resize(static_cast<size_t>(count_) * n);
  if (redundant()) {
    sample_redundant(q_start);
  } else {
    sample_square(q_start);
  }
}

void ViaJointTrajectory::require_regular(double t, const Eigen::Vector3d& x, double sigma_min) const {
  if (sigma_min >= kSigmaMin) return;
  std::ostringstream s;
  s << "via trajectory: fingertip point " << point_text(x) << " at t = " << t << " s (toward via point "
    << path_.heading_for(t) << ") is at a singular configuration of chain '" << chain_.name
    << "' (smallest singular value of J " << sigma_min << " m)";
  throw std::invalid_argument(s.str());
}

void ViaJointTrajectory::fail_unreachable(double t, const Eigen::Vector3d& x, const double* q_good,
                                          const char* reason, double miss) const {
  const int n = chain_.dof();
  const int k = path_.heading_for(t);
  const Eigen::Vector3d& w = path_.waypoint(k);
  // How close the finger can bring its tip to that via point within its joint limits: DLS IK from three seeds.
  DlsWorkspace ws(chain_);
  double closest = std::numeric_limits<double>::infinity();
  std::vector<double> seed(n);
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < n; ++i) {
      const SerialLink& l = chain_.links[i];
      const double mid = std::isfinite(l.lower) && std::isfinite(l.upper) ? 0.5 * (l.lower + l.upper) : q_start_[i];
      seed[i] = s == 0 ? q_good[i] : s == 1 ? q_start_[i] : mid;
    }
    DlsOptions o;
    o.max_iterations = 500;
    const DlsResult r = dls_ik_position(chain_, w, seed.data(), ws, o);
    if (std::isfinite(r.position_error)) closest = std::min(closest, r.position_error);
  }
  std::ostringstream s;
  const std::string via = k + 1 == path_.waypoint_count() ? "goal" : "via point";
  if (closest > 1e-6) {  // 1e-6 m: far above the IK's 1e-10 m tolerance, far below any useful fingertip miss
    s << "via trajectory: " << via << " " << k << " " << point_text(w) << " is not reachable by chain '"
      << chain_.name << "' within its joint limits: the closest tip position found is " << closest
      << " m from it (the path fails at t = " << t << " s, point " << point_text(x) << ", miss " << miss << " m)";
  } else {
    s << "via trajectory: the path of chain '" << chain_.name << "' toward " << via << " " << k << " "
      << point_text(w) << " leaves the finger's reach at t = " << t << " s, point " << point_text(x) << " ("
      << reason << ", miss " << miss << " m), though that point is reachable: add a via point or change q0";
  }
  throw std::invalid_argument(s.str());
}

void ViaJointTrajectory::sample_square(const std::vector<double>& q_start) {
  DlsWorkspace ws(chain_);
  std::vector<double> q = q_start, q_good = q_start;
  for (int k = 0; k < count_; ++k) {
    const double t = path_.start_time() + k * dt_;
    Eigen::Vector3d x, xd, xdd;
    path_.evaluate(t, &x, &xd, &xdd);
    const DlsResult r = dls_ik_position(chain_, x, q.data(), ws);
    Eigen::Matrix3d jp;
    tip_and_jp(chain_, q.data(), &jp);
    const double sigma_min = sigma_min_of(jp);
    if (!r.converged) fail_unreachable(t, x, q_good.data(), to_string(r.status), r.position_error);
    require_regular(t, x, sigma_min);
    q_good = q;
    std::copy(q.begin(), q.end(), samples_.begin() + static_cast<long>(k) * 3);
  }
}

double ViaJointTrajectory::project_min_norm(const Eigen::Vector3d& x, double* q) const {
  const int n = chain_.dof();
  JpMat jp;
  PinvMat pinv;
  double err = 0;
  // The start is within O(dt^2) (construction) or O(dt^4) (evaluate) of the path: a few steps reach rounding.
  for (int it = 0; it < 8; ++it) {
    const Eigen::Vector3d e = x - tip_jp_pinv(chain_, q, &jp, &pinv);
    err = e.norm();
    if (!(err >= 1e-14)) return err;  // also stops on NaN, reported by the caller
    const QVec dq = pinv * e;
    for (int i = 0; i < n; ++i) q[i] += dq(i);
  }
  return (x - tip_pose_and_jacobian(chain_, q).translation()).norm();
}

void ViaJointTrajectory::redundant_rates(const double* q, const Eigen::Vector3d& xd, const Eigen::Vector3d& xdd,
                                         double* qd, double* qdd) const {
  const int n = chain_.dof();
  const double c = redundancy_.posture_gain;
  JpMat jp;
  PinvMat pinv;
  tip_jp_pinv(chain_, q, &jp, &pinv);
  QVec r(n);
  for (int i = 0; i < n; ++i) r(i) = redundancy_.rest[i] - q[i];
  const QVec nr = r - pinv * (jp * r);  // (I - J+ J) (q_rest - q)
  const double speed = xd.norm();
  const QVec v = pinv * xd + (c * speed) * nr;
  for (int i = 0; i < n; ++i) qd[i] = v(i);
  if (!qdd) return;
  // d/dt of J+ and J along the motion, by central differences along qd (step 3e-4 rad on the fastest joint, as the
  // square regime's Jdot qd): then d/dt (I - J+ J) r = -(dJ+ J + J+ dJ) r - (I - J+ J) qd.
  QVec acc = pinv * xdd;
  const double vmax = v.cwiseAbs().maxCoeff();
  const double dspeed = speed > 0 ? xd.dot(xdd) / speed : 0.0;
  QVec dnr = -(v - pinv * (jp * v));
  if (vmax > 1e-12) {
    const double h = 3e-4 / vmax;
    double qp[kMaxStackChainDof], qm[kMaxStackChainDof];
    for (int i = 0; i < n; ++i) {
      qp[i] = q[i] + h * v(i);
      qm[i] = q[i] - h * v(i);
    }
    JpMat jpp, jpm;
    PinvMat pinvp, pinvm;
    tip_jp_pinv(chain_, qp, &jpp, &pinvp);
    tip_jp_pinv(chain_, qm, &jpm, &pinvm);
    const JpMat djp = (jpp - jpm) / (2 * h);
    const PinvMat dpinv = (pinvp - pinvm) / (2 * h);
    acc += dpinv * xd;
    dnr -= dpinv * (jp * r) + pinv * (djp * r);
  }
  acc += c * (dspeed * nr + speed * dnr);
  for (int i = 0; i < n; ++i) qdd[i] = acc(i);
}

void ViaJointTrajectory::sample_redundant(const std::vector<double>& q_start) {
  const int n = chain_.dof();
  rate_samples_.resize(samples_.size());
  std::vector<double> q = q_start, q_good = q_start;
  Eigen::Vector3d x, xd, xdd;
  // The start: q_start itself when the path starts at its tip (as the plugin builds it), else DLS IK from it.
  path_.evaluate(path_.start_time(), &x, &xd, &xdd);
  if ((x - tip_pose_and_jacobian(chain_, q.data()).translation()).norm() > 1e-12) {
    DlsWorkspace ws(chain_);
    const DlsResult r = dls_ik_position(chain_, x, q.data(), ws);
    if (!r.converged) fail_unreachable(path_.start_time(), x, q_good.data(), to_string(r.status), r.position_error);
  }
  std::vector<double> k1(n), k2(n), k3(n), k4(n), tmp(n);
  auto rates = [&](const double* qq, double t, double* out) {
    Eigen::Vector3d px, pxd, pxdd;
    path_.evaluate(t, &px, &pxd, &pxdd);
    redundant_rates(qq, pxd, pxdd, out, nullptr);
  };
  for (int k = 0; k < count_; ++k) {
    const double t = path_.start_time() + k * dt_;
    path_.evaluate(t, &x, &xd, &xdd);
    const double miss = project_min_norm(x, q.data());
    JpMat jp;
    PinvMat pinv;
    double sigma_min = 0;
    tip_jp_pinv(chain_, q.data(), &jp, &pinv, &sigma_min);
    if (!(miss <= kOnPath)) fail_unreachable(t, x, q_good.data(), "the minimum-norm IK does not converge", miss);
    require_regular(t, x, sigma_min);
    for (int i = 0; i < n; ++i) {
      const SerialLink& l = chain_.links[i];
      if (q[i] < l.lower - kLimitSlack || q[i] > l.upper + kLimitSlack) {
        const int wk = path_.heading_for(t);
        std::ostringstream s;
        s << "via trajectory: the path of chain '" << chain_.name << "' toward "
          << (wk + 1 == path_.waypoint_count() ? "goal " : "via point ") << wk << " "
          << point_text(path_.waypoint(wk)) << " drives joint " << i << " to " << q[i] << " at t = " << t
          << " s (point " << point_text(x) << "), beyond its range [" << l.lower << ", " << l.upper << "] by "
          << (q[i] < l.lower ? l.lower - q[i] : q[i] - l.upper)
          << " (redundancy resolved toward the rest posture: move the point or start from another q0)";
        throw std::invalid_argument(s.str());
      }
    }
    q_good = q;
    const size_t at = static_cast<size_t>(k) * n;
    std::copy(q.begin(), q.end(), samples_.begin() + static_cast<long>(at));
    redundant_rates(q.data(), xd, xdd, &rate_samples_[at], nullptr);
    if (k + 1 == count_) break;
    // Classical RK4 on qd = F(q, t) to the next sample; the projection above removes its drift off the path.
    rates(q.data(), t, k1.data());
    for (int i = 0; i < n; ++i) tmp[i] = q[i] + 0.5 * dt_ * k1[i];
    rates(tmp.data(), t + 0.5 * dt_, k2.data());
    for (int i = 0; i < n; ++i) tmp[i] = q[i] + 0.5 * dt_ * k2[i];
    rates(tmp.data(), t + 0.5 * dt_, k3.data());
    for (int i = 0; i < n; ++i) tmp[i] = q[i] + dt_ * k3[i];
    rates(tmp.data(), t + dt_, k4.data());
    for (int i = 0; i < n; ++i) q[i] += dt_ / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
}

void ViaJointTrajectory::evaluate(double t, double* q, double* qd, double* qdd) const {
  Eigen::Vector3d x, xd, xdd;
  path_.evaluate(t, &x, &xd, &xdd);
  const double u = std::clamp((t - path_.start_time()) / dt_, 0.0, static_cast<double>(count_ - 1));
  const int i = std::min(static_cast<int>(u), count_ - 2);
  const double f = u - i;
  if (redundant()) {
    const int n = chain_.dof();
    // Cubic Hermite interpolation of the stored q and qd (O(dt^4) from the ODE's solution), then minimum-norm
    // projection onto the path and the ODE's own rates at that point.
    const double* a = &samples_[static_cast<size_t>(i) * n];
    const double* b = a + n;
    const double* va = &rate_samples_[static_cast<size_t>(i) * n];
    const double* vb = va + n;
    const double f2 = f * f, f3 = f2 * f;
    const double h00 = 2 * f3 - 3 * f2 + 1, h10 = f3 - 2 * f2 + f, h01 = -2 * f3 + 3 * f2, h11 = f3 - f2;
    double interpolated[kMaxStackChainDof];
    for (int j = 0; j < n; ++j) {
      q[j] = interpolated[j] = h00 * a[j] + h10 * dt_ * va[j] + h01 * b[j] + h11 * dt_ * vb[j];
    }
    // The samples were checked at construction, so the projection converges; should it ever not, the interpolated
    // posture (within O(dt^4) of the path) is passed on rather than a diverged one.
    if (!std::isfinite(project_min_norm(x, q))) std::copy(interpolated, interpolated + n, q);
    redundant_rates(q, xd, xdd, qd, qdd);
    return;
  }
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
