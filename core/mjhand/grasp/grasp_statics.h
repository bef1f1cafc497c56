// Grasp statics (Borras & Dollar Table 1 row c; Mattar eq 40): joint torques and object wrench from contact forces,
// internal forces, controllable internal forces and the minimum-norm force distribution.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>

namespace mjhand {

using Wrench = Eigen::Matrix<double, 6, 1>;  // (f, m): force [N] and moment about G's reference point [N m]

// Sign convention: lambda is the force the hand applies to the object (f_n > 0 pushes into the object); W is the
// external (non-contact) wrench on the object, e.g. gravity (0, 0, -m g, 0, 0, 0) about the centre of mass.
// Equilibrium of the object: G lambda + W = 0, i.e. W = -G lambda. The joint torques that hold lambda against the
// object's reaction are tau = J_H^T lambda.

// tau = J_H^T lambda. No allocation. lambda must have JH.rows() entries and tau JH.cols() (checked:
// std::invalid_argument).
void joint_torques(const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                   Eigen::Ref<Eigen::VectorXd> tau);

// The external wrench that lambda balances: W = -G lambda. G must be 6 x lambda.size() (checked).
Wrench balanced_wrench(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::VectorXd>& lambda);

// Moore-Penrose pseudo-inverse by SVD, singular values below tol * sigma_max (tol < 0: max(rows, cols) * eps)
// treated as zero, so rank-deficient input gives the minimum-norm least-squares inverse rather than huge entries.
Eigen::MatrixXd pseudo_inverse(const Eigen::Ref<const Eigen::MatrixXd>& A, double tol = -1.0);

// Numerical rank with the same tolerance rule.
int numerical_rank(const Eigen::Ref<const Eigen::MatrixXd>& A, double tol = -1.0);

// Orthonormal basis (m x (m - rank G)) of the internal forces null(G): squeezing forces that exert no net wrench.
Eigen::MatrixXd internal_force_basis(const Eigen::Ref<const Eigen::MatrixXd>& G, double tol = -1.0);

// Orthonormal basis of the controllable (active) internal forces E = range(P_N J_H), P_N = I - G^+ G the projector
// onto null(G). This is SynGrasp's E for rigid joints and isotropic contact stiffness K_c = k I:
// lambda = K_c (I - G^T (G K_c G^T)^+ G K_c) J_H dq = k P_N J_H dq, always in null(G).
Eigen::MatrixXd controllable_internal_force_basis(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                                  const Eigen::Ref<const Eigen::MatrixXd>& JH, double tol = -1.0);

struct MinNormForces {
  Eigen::VectorXd lambda;      // -G^+ W
  double wrench_residual = 0;  // |G lambda + W|: > 0 when W is outside range(G) (G rank deficient)
  bool balances = false;       // wrench_residual <= 1e-9 (1 + |W|)
  bool in_cones = false;       // every contact inside its exact friction set
};

// Mattar eq 40 without the internal-force term: the least-norm lambda with -G lambda = W. It ignores friction, so it
// may pull (f_n < 0) or slip; in_cones says whether it happens to be admissible.
MinNormForces min_norm_forces(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                              const Wrench& W);

}  // namespace mjhand
