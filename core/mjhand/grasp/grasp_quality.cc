#include <mjhand/grasp/grasp_quality.h>

#include <cmath>
#include <limits>

#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/kinematics/singularity.h>
#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

Eigen::Matrix<double, 6, 1> grasp_singular_values(const Eigen::Ref<const Eigen::MatrixXd>& G) {
  Eigen::Matrix<double, 6, 1> s = Eigen::Matrix<double, 6, 1>::Zero();
  if (G.cols() == 0 || G.rows() != 6) return s;
  // G G^T as a sum of fixed-size outer products, one per column: Eigen's general matrix product for a 6 x n times
  // n x 6 executed 1.3k more instructions on the 4-contact grasp of bench_grasp (of 17.3k for the whole path).
  Eigen::Matrix<double, 6, 6> gram = Eigen::Matrix<double, 6, 6>::Zero();
  for (Eigen::Index k = 0; k < G.cols(); ++k) {
    const Eigen::Matrix<double, 6, 1> g = G.col(k);
    gram.noalias() += g * g.transpose();
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(gram, Eigen::EigenvaluesOnly);
  for (int k = 0; k < 6; ++k) s(k) = std::sqrt(std::max(0.0, eig.eigenvalues()(5 - k)));  // ascending -> descending
  return s;
}

double grasp_sigma_min(const Eigen::Ref<const Eigen::MatrixXd>& G) {
  if (G.cols() < 6) return 0.0;  // fewer than 6 columns cannot span the 6-D wrench space
  const Eigen::Matrix<double, 6, 1> s = grasp_singular_values(G);
  // Eigenvalues of G G^T carry round-off of order eps sigma_max^2: below that, the smallest is numerically zero.
  return s(5) > 1e-7 * s(0) ? s(5) : 0.0;
}

GraspQuality grasp_quality(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH) {
  GraspQuality q;
  q.rows = static_cast<int>(G.cols());
  q.hand_dofs = static_cast<int>(JH.cols());
  if (G.cols() == 0) {
    q.message = "no contacts: every measure is 0";
    return q;
  }
  if (G.rows() != 6 || JH.rows() != G.cols()) {
    q.message = "G must be 6 x m and J_H m x n_hand";
    return q;
  }
  if (!G.allFinite() || !JH.allFinite()) {
    q.message = "G or J_H has a NaN or infinite entry";
    return q;
  }
  const SingularityMeasures g = singularity_measures(G);
  q.rank_G = g.rank;
  q.sigma_max_G = g.sigma_max;
  q.sigma_min_G = G.cols() >= 6 && g.rank == 6 ? g.sigma_min : 0.0;
  q.isotropy_G = q.sigma_max_G > 0 ? q.sigma_min_G / q.sigma_max_G : 0.0;
  if (JH.cols() > 0) {
    const Eigen::MatrixXd HO = pseudo_inverse(G.transpose()) * JH;
    const SingularityMeasures h = singularity_measures(HO);
    const bool full = HO.cols() >= 6 && h.rank == 6;
    q.sigma_max_HO = h.sigma_max;
    q.sigma_min_HO = full ? h.sigma_min : 0.0;
    // SynGrasp's VE = sqrt(det(H_O H_O^T)), the product of the 6 singular values; the geometric volume of the 6-D
    // ellipsoid would be pi^3/6 times this (docs/grasp-analysis.md).
    q.ellipsoid_volume_HO = full ? h.manipulability : 0.0;
    q.uniformity_HO = q.sigma_min_HO > 0 ? q.sigma_max_HO / q.sigma_min_HO : std::numeric_limits<double>::infinity();
    q.manipulability_JH = singularity_measures(JH).manipulability;
    q.manipulability_JHpGT = singularity_measures(pseudo_inverse(JH) * G.transpose()).manipulability;
  } else {
    q.uniformity_HO = std::numeric_limits<double>::infinity();
  }
  q.valid = true;
  return q;
}

}  // namespace mjhand
