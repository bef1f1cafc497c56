#include <mjhand/kinematics/dls_ik.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

template <typename AnyChain>
void project_to_limits(const AnyChain& chain, double* q) {
  for (int i = 0; i < chain.dof(); ++i) q[i] = std::clamp(q[i], chain.links[i].lower, chain.links[i].upper);
}

// Error of the current tip against the target, rows as in the Jacobian (M = 3: position; M = 6: pose).
template <int M>
Eigen::Matrix<double, M, 1> tip_error(const Eigen::Isometry3d& tip, const Eigen::Isometry3d& target, double w,
                                      DlsResult& res) {
  Eigen::Matrix<double, M, 1> e;
  e.template head<3>() = target.translation() - tip.translation();
  res.position_error = e.template head<3>().norm();
  res.orientation_error = 0.0;
  if constexpr (M == 6) {
    // Rotation taking the tip to the target, in the reference frame like the Jacobian's angular rows.
    const Eigen::AngleAxisd aa(target.linear() * tip.linear().transpose());
    e.template tail<3>() = w * aa.angle() * aa.axis();
    res.orientation_error = std::abs(aa.angle());
  }
  res.error = e.norm();
  return e;
}

[[noreturn]] void bad_option(const char* name, const char* requirement, const std::string& value) {
  throw std::invalid_argument(std::string("DlsOptions::") + name + " must be " + requirement + " (got " + value + ")");
}

// std::clamp is undefined for lower > upper, and a NaN bound would let NaN joint values through.
template <typename AnyChain>
void validate_limits(const AnyChain& chain) {
  for (int i = 0; i < chain.dof(); ++i) {
    const auto& l = chain.links[i];
    if (!(l.lower <= l.upper))
      throw std::invalid_argument("dls_ik: chain '" + chain.name + "' joint " + std::to_string(i) + " has limits [" +
                                  std::to_string(l.lower) + ", " + std::to_string(l.upper) + "]");
  }
}

DlsResult invalid_input() {
  DlsResult res;
  res.status = DlsStatus::kInvalidInput;
  res.error = res.position_error = res.orientation_error = std::numeric_limits<double>::quiet_NaN();
  return res;
}

// One solver for the DH Chain and the general SerialChain: both give dof(), links[i].lower/upper and name, and
// fk_and_jacobian of either fills ws.data.
template <int M, typename AnyChain>
DlsResult solve(const AnyChain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                const DlsOptions& opt) {
  validate(opt);
  validate_limits(chain);
  const int n = chain.dof();
  // ws.data is checked by forward_kinematics; these two are written by the loop below.
  require_size("dls_ik", "ws.jacobian", ws.jacobian, 6, n, "DlsWorkspace must be built for this chain");
  require_length("dls_ik", "ws.dq", ws.dq.size(), n, "DlsWorkspace must be built for this chain");
  const double w = opt.orientation_weight;
  // Checked before touching q: projecting a NaN seed onto the limits would keep it NaN and the loop would only
  // report "not converged" after max_iterations, with nothing saying why.
  if (!target.matrix().allFinite() || !Eigen::Map<const Eigen::VectorXd>(q, n).allFinite()) return invalid_input();
  DlsResult res;
  bool kicked = false;  // at most one escape from a singular stationary point per solve
  project_to_limits(chain, q);
  for (int it = 0;; ++it) {
    fk_and_jacobian(chain, q, ws.data);
    const Eigen::Matrix<double, M, 1> e = tip_error<M>(ws.data.tip, target, w, res);
    res.iterations = it;
    if (!std::isfinite(res.error)) {  // only a chain with non-finite geometry (base, tool, DH rows) gets here
      DlsResult bad = invalid_input();
      bad.iterations = it;
      return bad;
    }
    if (res.error < opt.tolerance) {
      res.converged = true;
      res.status = DlsStatus::kConverged;
      return res;
    }
    if (it >= opt.max_iterations) {
      res.status = DlsStatus::kIterationLimit;
      return res;
    }
    ws.jacobian.topRows<3>() = ws.data.jacobian.topRows<3>();
    if constexpr (M == 6) ws.jacobian.bottomRows<3>() = w * ws.data.jacobian.bottomRows<3>();
    const auto j = ws.jacobian.topRows<M>();
    // dq = J^T (J J^T + lambda^2 I)^-1 e: solving in task space keeps every matrix fixed-size (M x M, on the stack).
    Eigen::Matrix<double, M, M> a = j.lazyProduct(j.transpose());
    // Error-dependent damping (Sugihara's Levenberg-Marquardt): cautious far away or at a singular minimum, where
    // |e| stays large, nearly undamped Gauss-Newton close to the target, so near-singular targets still converge fast.
    a.diagonal().array() += opt.damping * opt.damping + res.error * res.error;
    const Eigen::Matrix<double, M, 1> y = a.ldlt().solve(e);
    ws.dq.noalias() = j.transpose().lazyProduct(y);
    const double largest = ws.dq.cwiseAbs().maxCoeff();
    if (largest > opt.max_step) ws.dq *= opt.max_step / largest;  // uniform scaling keeps the DLS direction
    double moved = 0.0;
    for (int i = 0; i < n; ++i) {
      const double next = std::clamp(q[i] + ws.dq[i], chain.links[i].lower, chain.links[i].upper);
      moved = std::max(moved, std::abs(next - q[i]));
      q[i] = next;
    }
    if (moved == 0.0 && !kicked && largest < 1e-14) {
      // A zero step while the error is not: J^T e = 0 at a singular stationary point, e.g. a stretched finger asked
      // to pull its tip in along itself (the default q = 0 of many fingers). Leave it once by a small bend; a true
      // minimum (a target beyond reach) draws the solver back, and it then stops there as before.
      kicked = true;
      for (int i = 0; i < n; ++i) {
        const double next = std::clamp(q[i] + (i % 2 ? -1e-3 : 1e-3), chain.links[i].lower, chain.links[i].upper);
        moved = std::max(moved, std::abs(next - q[i]));
        q[i] = next;
      }
    }
    if (moved == 0.0) {  // pinned against the limits (or at a singular minimum): no further progress
      res.status = DlsStatus::kStalled;
      return res;
    }
  }
}

}  // namespace

void validate(const DlsOptions& o) {
  if (!(std::isfinite(o.damping) && o.damping >= 0))
    bad_option("damping", "finite and >= 0", std::to_string(o.damping));
  if (o.max_iterations < 1) bad_option("max_iterations", ">= 1", std::to_string(o.max_iterations));
  if (!(std::isfinite(o.tolerance) && o.tolerance > 0))
    bad_option("tolerance", "finite and > 0", std::to_string(o.tolerance));
  if (!(o.max_step > 0)) bad_option("max_step", "> 0", std::to_string(o.max_step));
  if (!(std::isfinite(o.orientation_weight) && o.orientation_weight >= 0))
    bad_option("orientation_weight", "finite and >= 0", std::to_string(o.orientation_weight));
}

const char* to_string(DlsStatus status) {
  switch (status) {
    case DlsStatus::kConverged: return "converged";
    case DlsStatus::kIterationLimit: return "iteration limit reached before converging";
    case DlsStatus::kStalled: return "stalled: no joint can move (pinned on the limits or at a singular minimum)";
    case DlsStatus::kInvalidInput: return "invalid input (NaN/inf seed or target, or non-finite chain kinematics)";
  }
  return "unknown";
}

DlsWorkspace::DlsWorkspace(const Chain& chain) : data(chain), jacobian(6, chain.dof()), dq(chain.dof()) {
  jacobian.setZero();
  dq.setZero();
}

DlsWorkspace::DlsWorkspace(const SerialChain& chain) : data(chain), jacobian(6, chain.dof()), dq(chain.dof()) {
  jacobian.setZero();
  dq.setZero();
}

DlsResult dls_ik_position(const Chain& chain, const Eigen::Vector3d& target, double* q, DlsWorkspace& ws,
                          const DlsOptions& options) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = target;
  return solve<3>(chain, t, q, ws, options);
}

DlsResult dls_ik_pose(const Chain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                      const DlsOptions& options) {
  return solve<6>(chain, target, q, ws, options);
}

DlsResult dls_ik_position(const SerialChain& chain, const Eigen::Vector3d& target, double* q, DlsWorkspace& ws,
                          const DlsOptions& options) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = target;
  return solve<3>(chain, t, q, ws, options);
}

DlsResult dls_ik_pose(const SerialChain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                      const DlsOptions& options) {
  return solve<6>(chain, target, q, ws, options);
}

}  // namespace mjhand
