#include <mjhand/util/rotation_between.h>

#include <Eigen/SVD>

namespace mjhand {

Eigen::Quaterniond rotation_between(const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
  return Eigen::Quaterniond::FromTwoVectors(from, to);
}

}  // namespace mjhand
