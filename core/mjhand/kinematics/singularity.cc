#include <mjhand/kinematics/singularity.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <mjhand/util/dense_decompositions.h>

// The literal sqrt(det(J J^T)) is identically 0 for a tall J (m > n, e.g. a 6 x 3 finger Jacobian), which says
// nothing; the product of the min(m, n) singular values equals it for m <= n and sqrt(det(J^T J)) otherwise.

namespace mjhand {

namespace {

template <typename Vector>
SingularityMeasures from_singular_values(const Vector& sv, int rows, int cols, double rank_tol) {
  SingularityMeasures s;
  const int k = static_cast<int>(sv.size());
  if (k == 0) {
    s.condition = std::numeric_limits<double>::infinity();
    return s;
  }
  s.sigma_max = sv(0);  // Eigen sorts singular values in decreasing order
  s.sigma_min = sv(k - 1);
  if (rank_tol < 0) rank_tol = std::max(rows, cols) * std::numeric_limits<double>::epsilon() * s.sigma_max;
  s.manipulability = 1.0;
  for (int i = 0; i < k; ++i) {
    s.manipulability *= sv(i);
    if (sv(i) > rank_tol) ++s.rank;
  }
  s.condition = s.rank < k ? std::numeric_limits<double>::infinity() : s.sigma_max / s.sigma_min;
  return s;
}

}  // namespace

SingularityMeasures singularity_measures(const Eigen::Ref<const Eigen::MatrixXd>& j, double rank_tol) {
  if (!j.allFinite() || std::isnan(rank_tol)) {
    // The SVD of a NaN matrix comes back as plausible numbers (manipulability 0, a rank, condition inf) that read
    // like a real singular posture; an unmistakable marker is safer for a sensor.
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    SingularityMeasures s;
    s.manipulability = s.sigma_min = s.sigma_max = s.condition = nan;
    s.rank = -1;
    return s;
  }
  const int rows = static_cast<int>(j.rows()), cols = static_cast<int>(j.cols());
  if (rows == 3 && cols == 3) {  // a 3-joint finger's position Jacobian, the sensors' case: fixed-size, 4x faster
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd{Eigen::Matrix3d(j)};
    return from_singular_values(svd.singularValues(), rows, cols, rank_tol);
  }
  if (rows <= 6 && cols <= 6) {  // finger-sized: fixed-capacity storage keeps per-step use allocation-free
    using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
    const Eigen::JacobiSVD<Small> svd{Small(j)};
    return from_singular_values(svd.singularValues(), rows, cols, rank_tol);
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(j);
  return from_singular_values(svd.singularValues(), rows, cols, rank_tol);
}

double position_manipulability(const Eigen::Ref<const Eigen::Matrix<double, 3, Eigen::Dynamic>>& j) {
  if (!j.allFinite()) return std::numeric_limits<double>::quiet_NaN();
  const Eigen::Index n = j.cols();
  if (n == 0) return 0.0;  // no singular values: as singularity_measures
  if (n == 3) return std::abs(Eigen::Matrix3d(j).determinant());
  if (n > 3) {
    const Eigen::Matrix3d gram = j * j.transpose();
    return std::sqrt(std::max(gram.determinant(), 0.0));
  }
  // n = 1 or 2: the product of the n singular values is sqrt(det(J^T J)), a 1 x 1 or 2 x 2 determinant.
  if (n == 1) return j.col(0).norm();
  const double a = j.col(0).squaredNorm(), b = j.col(0).dot(j.col(1)), c = j.col(1).squaredNorm();
  return std::sqrt(std::max(a * c - b * b, 0.0));
}

}  // namespace mjhand
