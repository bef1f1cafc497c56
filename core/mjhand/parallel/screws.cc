#include <mjhand/parallel/screws.h>

#include <cmath>
#include <string>

#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {
void check_unit_direction(const Eigen::Vector3d& u, const char* what) {
  const double n = u.norm();
  if (!std::isfinite(n) || std::abs(n - 1.0) > 1e-9) {
    throw ParallelError(std::string(what) + " must be a finite unit vector (|u| = " + std::to_string(n) + ")");
  }
}

void check_finite(const Eigen::Vector3d& p, const char* what) {
  if (!p.allFinite()) throw ParallelError(std::string(what) + " must be finite");
}
}  // namespace

Twist6 revolute_twist(const Eigen::Vector3d& point, const Eigen::Vector3d& axis, const Eigen::Vector3d& reference) {
  check_unit_direction(axis, "revolute_twist: axis");
  check_finite(point, "revolute_twist: point");
  check_finite(reference, "revolute_twist: reference");
  Twist6 t;
  t.head<3>() = (point - reference).cross(axis);
  t.tail<3>() = axis;
  return t;
}

Twist6 prismatic_twist(const Eigen::Vector3d& axis) {
  check_unit_direction(axis, "prismatic_twist: axis");
  Twist6 t;
  t.head<3>() = axis;
  t.tail<3>().setZero();
  return t;
}

Wrench6 line_wrench(const Eigen::Vector3d& point, const Eigen::Vector3d& direction, const Eigen::Vector3d& reference) {
  check_finite(point, "line_wrench: point");
  check_finite(direction, "line_wrench: direction");
  check_finite(reference, "line_wrench: reference");
  Wrench6 w;
  w.head<3>() = direction;
  w.tail<3>() = (point - reference).cross(direction);
  return w;
}

Wrench6 couple_wrench(const Eigen::Vector3d& moment) {
  check_finite(moment, "couple_wrench: moment");
  Wrench6 w;
  w.head<3>().setZero();
  w.tail<3>() = moment;
  return w;
}

double reciprocal_product(const Wrench6& W, const Twist6& T) { return W.dot(T); }

double screw_reciprocal_product(const Twist6& a, const Twist6& b) {
  return a.head<3>().dot(b.tail<3>()) + a.tail<3>().dot(b.head<3>());
}

void shift_twist_reference(Eigen::Ref<Eigen::MatrixXd> T, const Eigen::Vector3d& p_old, const Eigen::Vector3d& p_new) {
  require_size("shift_twist_reference", "T", T, 6, T.cols(), "twists (v, w) as columns");
  const Eigen::Vector3d d = p_new - p_old;
  for (Eigen::Index k = 0; k < T.cols(); ++k) {
    const Eigen::Vector3d w = T.block<3, 1>(3, k);
    T.block<3, 1>(0, k) += w.cross(d);
  }
}

}  // namespace mjhand
