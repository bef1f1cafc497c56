// Singularity measures of a (finger) Jacobian: how close a posture is to losing a direction of tip motion.
#pragma once

#include <Eigen/Core>

namespace mjhand {

struct SingularityMeasures {
  double manipulability = 0.0;  // product of the min(m, n) singular values (Yoshikawa's sqrt(det(J J^T)) for m <= n)
  double sigma_min = 0.0;       // smallest of the min(m, n) singular values
  double sigma_max = 0.0;
  double condition = 0.0;       // sigma_max / sigma_min; +inf when rank < min(m, n)
  int rank = 0;                 // singular values above the rank tolerance; -1 marks invalid input (see below)

  // False for the invalid-input marker, so that NaN measures are not mistaken for a (singular) posture.
  bool valid() const { return rank >= 0; }
};

// Measures of any m x n J, e.g. data.jacobian.topRows<3>() for the tip position of a 3-joint finger.
// rank_tol < 0 selects the LAPACK/NumPy default max(m, n) * eps * sigma_max; J up to 6 x 6 does not allocate.
// A J with a NaN or inf entry, or a NaN rank_tol, gives rank = -1 and every other field NaN.
SingularityMeasures singularity_measures(const Eigen::Ref<const Eigen::MatrixXd>& jacobian, double rank_tol = -1.0);

// singularity_measures(J).manipulability of a 3 x n position Jacobian without an SVD (a per-step sensor value):
// |det J| for n = 3, sqrt(det(J J^T)) for n > 3, sqrt(det(J^T J)) for n < 3 (0 for n = 0); NaN for a non-finite J.
// Equal to the SVD's product of singular values to rounding (relative ~eps cond^2 for n != 3). No allocation.
double position_manipulability(const Eigen::Ref<const Eigen::Matrix<double, 3, Eigen::Dynamic>>& jacobian);

}  // namespace mjhand
