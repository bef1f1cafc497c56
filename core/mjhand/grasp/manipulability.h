// Kinematic and force manipulability ellipsoids of a grasp, with or without postural synergies (Prattichizzo,
// Malvezzi, Gabiccini & Bicchi, "On the manipulability ellipsoids of underactuated robotic hands with compliance",
// RAS 2012; SynGrasp SGkinManipulability / SGforceManipulability). Rigid contacts, and SynGrasp's compliant force
// ellipsoid from the quasi-static maps; see docs/grasp-analysis.md.
#pragma once

#include <Eigen/Core>

#include <mjhand/grasp/quasistatic.h>

namespace mjhand {

// A centre-free ellipsoid {x : x = sum_i a_i d_i s_i, |s| <= 1} in R^d, d = 6 (full) or 3 (one block).
// Semi-axes are sorted: +inf first (unbounded directions), then finite ones descending, zeros last (flat
// directions). directions is orthonormal (d x d), column i belongs to semi_axes(i). Never NaN. Semi-axes below
// 1e-10 max(1, largest) are reported 0, above ~1e10 per unit input +inf (round-off of the SVDs, see the .cc).
struct Ellipsoid {
  Eigen::VectorXd semi_axes;   // a_i >= 0, or +inf
  Eigen::MatrixXd directions;  // d x d orthonormal
  int finite_rank = 0;         // number of finite, nonzero semi-axes
  int unbounded = 0;           // number of infinite semi-axes
};

// A manipulability ellipsoid in the object's 6-D twist (v, w) or wrench (f, m) space (G's ordering and reference
// point), and its projections onto the linear block (translations / forces) and the angular block (rotations /
// moments). A projection is the set of block values reachable with a unit input, whatever the other block does.
struct ManipulabilityEllipsoid {
  Ellipsoid full;     // 6-D
  Ellipsoid linear;   // rows 0..2: v [m/s per unit input] or f [N per unit input]
  Ellipsoid angular;  // rows 3..5: w [rad/s per unit input] or m [N m per unit input]
  int inputs = 0;     // n_z: columns of S
  int compatible_inputs = 0;  // kinematic: dim{dz : J_H S dz in range(G^T)}; force: rank of [S^T J_H^T; G]
  int indeterminate = 0;      // 6 - rank(G): object motions the contacts do not constrain (and wrenches they
                              // cannot exert); these are left out of both ellipsoids (zero semi-axes)
};

// Kinematic manipulability ellipsoid (Prattichizzo et al. 2012 sec. 4, rigid-body motions; SGkinManipulability with
// W_u = I, W_z = I): the object twists du = (G^T)^+ J_H S dz over the synergy inputs dz with |dz| <= 1 that are
// compatible with rigid contacts, J_H S dz = G^T du. S is n_hand x n_z (identity: joint velocities, no synergies).
// G: 6 x m, JH: m x n_hand. Throws std::invalid_argument naming the matrix and sizes for bad sizes, m = 0, n_z = 0
// or non-finite entries. Never unbounded: motions in null(G^T) are counted in `indeterminate` instead.
ManipulabilityEllipsoid kinematic_manipulability(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                                 const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                                 const Eigen::Ref<const Eigen::MatrixXd>& S);

// Force manipulability ellipsoid (Prattichizzo et al. 2012 sec. 5; SGforceManipulability with W_w = I, W_s = I):
// the object wrenches w = G lambda over the contact forces lambda whose synergy forces sigma = S^T J_H^T lambda
// have |sigma| <= 1 (for each w, the lambda needing the least |sigma|). Unbounded (+inf) along wrenches the hand
// structure resists with sigma = 0; zero along null(G^T). Same sizes and errors as kinematic_manipulability.
ManipulabilityEllipsoid force_manipulability(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                             const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                             const Eigen::Ref<const Eigen::MatrixXd>& S);

// SynGrasp's compliant force manipulability ellipsoid (SGforceManipulability(Gamma) over every column of Gamma =
// ker(M_h) from SGquasistaticHsolution, W_w = I, W_s = I; Prattichizzo et al. 2012 sec. 5): the external wrenches dw
// over all solutions (dw, dz_r) of the compliant quasi-static model of `maps` (quasistatic_maps or
// wrist_quasistatic_maps) whose synergy forces sigma = S^T J^T dlambda = S^T (Tw dw + T dz_r) have |sigma| <= 1.
// SynGrasp takes eig(Gamma_w' Gamma_w, Gamma_s' Gamma_s); its axes are the square roots of those eigenvalues.
// maps must have d = 6 object rows (std::invalid_argument otherwise). For every stiffness this equals
// force_manipulability(G, J_H, S) (docs/grasp-analysis.md: the compliance moves the statically determined part of
// dlambda only within null(G), which the synergy references reach exactly as far as a rigid hand's internal forces).
ManipulabilityEllipsoid compliant_force_manipulability(const QuasistaticMaps& maps);

}  // namespace mjhand
