// Grasp quality measures from singular values (SynGrasp's set and the manipulability indices of Borras & Dollar
// section 3): how well the contacts resist wrenches and transmit hand motion to the object.
#pragma once

#include <Eigen/Core>
#include <string>

namespace mjhand {

// Singular values of a 6 x m G, descending, zero-padded when m < 6, from the eigenvalues of the fixed-size 6 x 6
// G G^T so that it never allocates (accurate to ~sqrt(eps) sigma_max for tiny sigma: fine for a quality index).
Eigen::Matrix<double, 6, 1> grasp_singular_values(const Eigen::Ref<const Eigen::MatrixXd>& G);

// sigma_min(G) (SynGrasp SGminSVG); 0 for an empty G or fewer than 6 independent columns. No allocation.
double grasp_sigma_min(const Eigen::Ref<const Eigen::MatrixXd>& G);

struct GraspQuality {
  int rows = 0;              // m, length of lambda
  int hand_dofs = 0;         // n_hand
  int rank_G = 0;
  double sigma_min_G = 0;    // SGminSVG
  double sigma_max_G = 0;
  double isotropy_G = 0;     // SGgraspIsotropyIndex sigma_min/sigma_max (0 when G = 0)
  // H_O = (G^T)^+ J_H (6 x n_hand): object twist produced by joint velocities (SynGrasp's H = pinv(G') J).
  double sigma_min_HO = 0;   // SGdistSingularConfiguration: distance from singular configurations
  double sigma_max_HO = 0;
  double ellipsoid_volume_HO = 0;  // SGmanipEllipsoidVolume: sqrt(det(H_O H_O^T)) (no unit-ball factor); 0 if rank < 6
  double uniformity_HO = 0;        // SGunifTransf sigma_max/sigma_min of H_O; +inf when sigma_min = 0
  double manipulability_JH = 0;    // sqrt(det(J_H J_H^T)) as product of the min(m, n) singular values of J_H
  double manipulability_JHpGT = 0; // the same for J_H^+ G^T (joint velocities per object twist, paper's J_H^-1 G^T)
  bool valid = false;              // false for no contacts or non-finite input; every number is then 0
  std::string message;             // why not valid, or "" when valid
};

// All singular-value measures of a grasp (allocates: SVDs of G, J_H, H_O). Never NaN: non-finite input and empty
// matrices give valid = false with zeros and a message.
GraspQuality grasp_quality(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH);

}  // namespace mjhand
