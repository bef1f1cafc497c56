#include "kinematics/dls_ik.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace mjhand {

namespace {

void project_to_limits(const Chain& chain, double* q) {
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

template <int M>
DlsResult solve(const Chain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                const DlsOptions& opt) {
  const int n = chain.dof();
  const double w = opt.orientation_weight;
  DlsResult res;
  project_to_limits(chain, q);
  for (int it = 0;; ++it) {
    fk_and_jacobian(chain, q, ws.data);
    const Eigen::Matrix<double, M, 1> e = tip_error<M>(ws.data.tip, target, w, res);
    res.iterations = it;
    if (res.error < opt.tolerance) {
      res.converged = true;
      return res;
    }
    if (it == opt.max_iterations) return res;
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
    if (moved == 0.0) return res;  // pinned against the limits (or at a singular minimum): no further progress
  }
}

}  // namespace

DlsWorkspace::DlsWorkspace(const Chain& chain) : data(chain), jacobian(6, chain.dof()), dq(chain.dof()) {
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

}  // namespace mjhand
