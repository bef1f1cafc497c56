#include <mjhand/grasp/grasp_statics.h>

#include <algorithm>
#include <limits>

#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {
double threshold(const Eigen::JacobiSVD<Eigen::MatrixXd>& svd, Eigen::Index rows, Eigen::Index cols, double tol) {
  const auto& s = svd.singularValues();
  const double smax = s.size() ? s(0) : 0.0;
  const double rel = tol < 0 ? static_cast<double>(std::max(rows, cols)) * std::numeric_limits<double>::epsilon() : tol;
  return rel * smax;
}

}  // namespace

void joint_torques(const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                   Eigen::Ref<Eigen::VectorXd> tau) {
  // A short lambda is read past its end as surely as a short tau is written past its end.
  require_length("joint_torques", "lambda", lambda.size(), JH.rows(), "rows of JH");
  require_length("joint_torques", "tau", tau.size(), JH.cols(), "columns of JH");
  tau.noalias() = JH.transpose() * lambda;
}

Wrench balanced_wrench(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::VectorXd>& lambda) {
  require_size("balanced_wrench", "G", G, 6, lambda.size(), "6 x the length of lambda");
  Wrench W = Wrench::Zero();
  if (G.cols() > 0) W.noalias() = -G * lambda;
  return W;
}

Eigen::MatrixXd pseudo_inverse(const Eigen::Ref<const Eigen::MatrixXd>& A, double tol) {
  if (A.size() == 0) return Eigen::MatrixXd::Zero(A.cols(), A.rows());
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const double th = threshold(svd, A.rows(), A.cols(), tol);
  Eigen::VectorXd inv = svd.singularValues();
  for (Eigen::Index k = 0; k < inv.size(); ++k) inv(k) = inv(k) > th ? 1.0 / inv(k) : 0.0;
  return svd.matrixV() * inv.asDiagonal() * svd.matrixU().transpose();
}

int numerical_rank(const Eigen::Ref<const Eigen::MatrixXd>& A, double tol) {
  if (A.size() == 0) return 0;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(A);
  const double th = threshold(svd, A.rows(), A.cols(), tol);
  int r = 0;
  for (Eigen::Index k = 0; k < svd.singularValues().size(); ++k) r += svd.singularValues()(k) > th ? 1 : 0;
  return r;
}

Eigen::MatrixXd internal_force_basis(const Eigen::Ref<const Eigen::MatrixXd>& G, double tol) {
  const Eigen::Index m = G.cols();
  if (m == 0) return Eigen::MatrixXd(0, 0);
  // Full V is needed: null(G) is spanned by the right singular vectors beyond the rank.
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(G, Eigen::ComputeFullV);
  const double th = threshold(svd, G.rows(), G.cols(), tol);
  int r = 0;
  for (Eigen::Index k = 0; k < svd.singularValues().size(); ++k) r += svd.singularValues()(k) > th ? 1 : 0;
  return svd.matrixV().rightCols(m - r);
}

Eigen::MatrixXd controllable_internal_force_basis(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                                  const Eigen::Ref<const Eigen::MatrixXd>& JH, double tol) {
  const Eigen::Index m = G.cols();
  if (m == 0 || JH.cols() == 0) return Eigen::MatrixXd(m, 0);
  const Eigen::MatrixXd N = internal_force_basis(G, tol);
  if (N.cols() == 0) return Eigen::MatrixXd(m, 0);
  const Eigen::MatrixXd projected = N * (N.transpose() * JH);
  // A relative threshold against |J_H| keeps round-off of the projection from counting as a controllable direction.
  const double scale = std::max(1.0, JH.norm());
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(projected, Eigen::ComputeFullU);
  const double rel = tol < 0 ? 1e-10 : tol;
  int r = 0;
  for (Eigen::Index k = 0; k < svd.singularValues().size(); ++k) r += svd.singularValues()(k) > rel * scale ? 1 : 0;
  return svd.matrixU().leftCols(r);
}

MinNormForces min_norm_forces(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                              const Wrench& W) {
  MinNormForces out;
  out.lambda = -pseudo_inverse(G) * W;
  out.wrench_residual = G.cols() ? (G * out.lambda + W).norm() : W.norm();
  out.balances = out.wrench_residual <= 1e-9 * (1.0 + W.norm());
  out.in_cones = in_friction_cones(contacts, out.lambda);
  return out;
}

}  // namespace mjhand
