#include <mjhand/hand_object/squeeze_distribution.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <mjhand/grasp/force_optimization.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

namespace {

constexpr double kTiny = 1e-12;  // coefficients below this (N per N of squeeze) count as 0

// Feasible values of s form one interval [lo, hi]; each constraint narrows it.
struct Interval {
  double lo = -kInf, hi = kInf;
  bool empty = false;

  // a + b s >= 0.
  void linear(double a, double b) {
    if (b > kTiny) {
      lo = std::max(lo, -a / b);
    } else if (b < -kTiny) {
      hi = std::min(hi, -a / b);
    } else if (a < -1e-9) {
      empty = true;
    }
  }
  // A s^2 + B s + C >= 0 on the branch where the normal force a_n + d_n s is positive (the Coulomb cone, not its
  // mirror image). A > 0: the direction lies strictly inside the cone, so the set is a half-line; A < 0: it lies
  // outside, so the set is bounded; A = 0: linear.
  void cone(double A, double B, double C, double an, double dn) {
    if (std::abs(A) <= kTiny) {
      linear(C, B);
      return;
    }
    const double disc = B * B - 4 * A * C;
    if (A > 0) {
      if (disc <= 0) return;  // inside for every s (the normal-force constraint bounds s separately)
      const double r = std::sqrt(disc);
      // Stable roots: q = -(B + sign(B) r)/2, roots q/A and C/q.
      const double q = -0.5 * (B + std::copysign(r, B));
      double r1 = q / A, r2 = q != 0 ? C / q : r1;
      if (r1 > r2) std::swap(r1, r2);
      if (dn > kTiny) {
        lo = std::max(lo, r2);
      } else if (dn < -kTiny) {
        hi = std::min(hi, r1);
      } else if (an <= 0 || C < 0) {
        empty = true;
      }
      return;
    }
    if (disc < 0) {
      empty = true;
      return;
    }
    const double r = std::sqrt(disc);
    const double q = -0.5 * (B + std::copysign(r, B));
    double r1 = q / A, r2 = q != 0 ? C / q : r1;
    if (r1 > r2) std::swap(r1, r2);
    lo = std::max(lo, r1);
    hi = std::min(hi, r2);
  }
  bool feasible() const { return !empty && lo <= hi; }
};

}  // namespace

const char* to_string(SqueezeStatus status) {
  switch (status) {
    case SqueezeStatus::kOk: return "ok";
    case SqueezeStatus::kNoContacts: return "no contacts";
    case SqueezeStatus::kRankDeficient: return "wrench outside range(G): too few or degenerate contacts";
    case SqueezeStatus::kConeInfeasible: return "squeeze cannot satisfy every friction cone";
  }
  return "?";
}

SqueezeWorkspace::SqueezeWorkspace(int max_rows)
    : e(Eigen::VectorXd::Zero(max_rows)), d(Eigen::VectorXd::Zero(max_rows)) {}

void force_margins(const Contact* contacts, int count, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                   double min_normal_force, double* normal_margin, double* cone_margin) {
  double nm = kInf, cm = kInf;
  int row = 0;
  for (int i = 0; i < count; ++i) {
    nm = std::min(nm, lambda(row) - min_normal_force);
    cm = std::min(cm, friction_cone_margin(contacts[i], lambda.data() + row));
    row += contact_rows(contacts[i].model);
  }
  *normal_margin = count ? nm : 0.0;
  *cone_margin = count ? cm : 0.0;
}

SqueezeResult squeeze_forces(const Contact* contacts, int count, const Eigen::Ref<const Eigen::MatrixXd>& G,
                             const Wrench& W, const SqueezeOptions& o, SqueezeWorkspace& ws,
                             Eigen::Ref<Eigen::VectorXd> lambda) {
  SqueezeResult res;
  const int m = static_cast<int>(G.cols());
  require_size("squeeze_forces", "G", G, 6, total_rows(contacts, count), "6 x total_rows(contacts)");
  require_length("squeeze_forces", "lambda", lambda.size(), m, "total_rows(contacts)");
  require_at_least("squeeze_forces", "ws.e", ws.e.size(), m, "entries", "SqueezeWorkspace max_rows");
  require_at_least("squeeze_forces", "ws.d", ws.d.size(), m, "entries", "SqueezeWorkspace max_rows");
  lambda.setZero();
  if (count == 0 || m == 0) {
    res.wrench_residual = W.allFinite() ? W.norm() : kInf;
    return res;
  }
  if (!G.allFinite() || !W.allFinite()) {
    res.status = SqueezeStatus::kRankDeficient;
    res.wrench_residual = kInf;
    force_margins(contacts, count, lambda, o.min_normal_force, &res.min_normal_margin, &res.min_cone_margin);
    return res;
  }
  // A = G G^T (6 x 6), accumulated column by column with fixed-size vectors (vectorised, no temporaries).
  Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
  Eigen::Matrix<double, 6, 1> Ge = Eigen::Matrix<double, 6, 1>::Zero();
  auto e = ws.e.head(m);
  auto d = ws.d.head(m);
  e.setZero();
  int row = 0;
  for (int i = 0; i < count; ++i) {
    e(row) = 1.0;
    row += contact_rows(contacts[i].model);
  }
  for (int r = 0; r < m; ++r) {
    const Eigen::Matrix<double, 6, 1> g = G.col(r);
    A.noalias() += g * g.transpose();
    Ge += g * e(r);
  }
  // Full rank: Cholesky (A is positive definite); otherwise the eigenvalue pseudo-inverse (least squares,
  // minimum norm). Rank is judged from the Cholesky pivots relative to A's largest diagonal entry.
  Eigen::Matrix<double, 6, 1> y, z;  // A^+ W and A^+ G e
  Eigen::LLT<Eigen::Matrix<double, 6, 6>> llt(A);
  const double amax = A.diagonal().maxCoeff();
  const bool full_rank = llt.info() == Eigen::Success && amax > 0 &&
                         llt.matrixLLT().diagonal().cwiseAbs2().minCoeff() > 1e-10 * amax;
  if (full_rank) {
    y = llt.solve(W);
    z = llt.solve(Ge);
  } else {
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(A);
    const auto& ev = eig.eigenvalues();
    const double tol = 1e-10 * std::max(ev.cwiseAbs().maxCoeff(), 1e-300);
    Eigen::Matrix<double, 6, 1> inv;
    for (int k = 0; k < 6; ++k) inv(k) = ev(k) > tol ? 1.0 / ev(k) : 0.0;
    const Eigen::Matrix<double, 6, 6> Ainv = eig.eigenvectors() * inv.asDiagonal() * eig.eigenvectors().transpose();
    y = Ainv * W;
    z = Ainv * Ge;
  }
  // Particular part lambda_W = G^T A^+ W (the minimum-norm solution of G lambda = W); squeeze direction
  // d = e - G^T A^+ G e (unit normal force everywhere, projected onto null(G)).
  for (int r = 0; r < m; ++r) {
    const Eigen::Matrix<double, 6, 1> g = G.col(r);
    lambda(r) = g.dot(y);
    d(r) = e(r) - g.dot(z);
  }

  Interval s;
  row = 0;
  for (int i = 0; i < count; ++i) {
    const Contact& c = contacts[i];
    const double an = lambda(row), dn = d(row);
    s.linear(an - o.min_normal_force, dn);
    if (c.model != ContactModel::kFrictionlessPoint) {
      const double mu = o.friction_scale * c.mu;
      const double at1 = lambda(row + 1), at2 = lambda(row + 2), dt1 = d(row + 1), dt2 = d(row + 2);
      // mu^2 (an + dn s)^2 - |at + dt s|^2 >= 0
      s.cone(mu * mu * dn * dn - dt1 * dt1 - dt2 * dt2, 2 * (mu * mu * an * dn - at1 * dt1 - at2 * dt2),
             mu * mu * an * an - at1 * at1 - at2 * at2, an, dn);
    }
    if (c.model == ContactModel::kSoftFinger) {
      // |m_n| <= mu_t f_n as two linear constraints.
      const double mt = o.friction_scale * c.mu_torsion, am = lambda(row + 3), dm = d(row + 3);
      s.linear(mt * an - am, mt * dn - dm);
      s.linear(mt * an + am, mt * dn + dm);
    }
    // kCompleteConstraint: its moments have no friction limit (contact_model.h), nothing more to bound.
    row += contact_rows(c.model);
  }
  double sv = 0.0;
  if (s.feasible()) {
    sv = std::isfinite(s.lo) ? s.lo : (std::isfinite(s.hi) ? std::min(0.0, s.hi) : 0.0);
    res.status = SqueezeStatus::kOk;
  } else {
    // Best effort: the smallest squeeze that still gives every contact its minimum normal force.
    Interval normal_only;
    row = 0;
    for (int i = 0; i < count; ++i) {
      normal_only.linear(lambda(row) - o.min_normal_force, d(row));
      row += contact_rows(contacts[i].model);
    }
    sv = std::isfinite(normal_only.lo) ? normal_only.lo : 0.0;
    res.status = SqueezeStatus::kConeInfeasible;
  }
  lambda += sv * d;
  res.squeeze = sv;
  Wrench Gl = Wrench::Zero();
  for (int r = 0; r < m; ++r) Gl += G.col(r) * lambda(r);
  res.wrench_residual = (Gl - W).norm();
  if (!full_rank && res.wrench_residual > 1e-9 * (1.0 + W.norm()) && res.status == SqueezeStatus::kOk) {
    res.status = SqueezeStatus::kRankDeficient;
  }
  force_margins(contacts, count, lambda, o.min_normal_force, &res.min_normal_margin, &res.min_cone_margin);
  return res;
}

const char* to_string(ForceMethod method) {
  switch (method) {
    case ForceMethod::kSqueeze: return "squeeze";
    case ForceMethod::kLinearProgram: return "linear program";
    case ForceMethod::kBestEffort: return "best effort (a cone violated)";
    case ForceMethod::kNoGrasp: return "no grasp";
  }
  return "?";
}

ForceChoice distribute_forces(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                              const Wrench& W, const SqueezeOptions& o, bool lp_fallback, SqueezeWorkspace& ws,
                              Eigen::Ref<Eigen::VectorXd> lambda) {
  ForceChoice out;
  const int n = static_cast<int>(contacts.size());
  out.result = squeeze_forces(contacts.data(), n, G, W, o, ws, lambda);
  switch (out.result.status) {
    case SqueezeStatus::kOk: out.method = ForceMethod::kSqueeze; return out;
    case SqueezeStatus::kNoContacts:
    case SqueezeStatus::kRankDeficient: out.method = ForceMethod::kNoGrasp; return out;
    case SqueezeStatus::kConeInfeasible: out.method = ForceMethod::kBestEffort; break;
  }
  if (!lp_fallback) return out;
  // Off the fast path: GLPK builds its problem (allocates). Same friction safety factor as the squeeze.
  std::vector<Contact> scaled(contacts);
  for (Contact& c : scaled) {
    c.mu *= o.friction_scale;
    c.mu_torsion *= o.friction_scale;
  }
  ForceOptimizationOptions fo;
  fo.min_normal_force = o.min_normal_force;
  const ForceDistribution lp = optimal_forces(scaled, G, -W, fo);
  if (!lp.ok() || !lp.lambda.allFinite() || lp.lambda.size() != lambda.size()) return out;
  lambda = lp.lambda;
  out.method = ForceMethod::kLinearProgram;
  out.result.status = SqueezeStatus::kOk;
  out.result.squeeze = 0.0;
  out.result.wrench_residual = lp.wrench_residual;
  force_margins(contacts.data(), n, lambda, o.min_normal_force, &out.result.min_normal_margin,
                &out.result.min_cone_margin);
  return out;
}

}  // namespace mjhand
