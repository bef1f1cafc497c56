// Screw primitives of the parallel-manipulator framework (Borras & Dollar section 2): joint twists, line wrenches
// and the reciprocal product, in mjhand's conventions (twist = (v, w), wrench = (f, m), both about one reference point).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products
#include <stdexcept>

#include <mjhand/util/error.h>

namespace mjhand {

// Twist T = (v, w): w the angular velocity, v the velocity of the body point that is momentarily at the reference
// point. Wrench W = (f, m): force and moment about the reference point. Both are 6-vectors; the reference point is
// always passed along explicitly (the paper uses the world origin for parallel manipulators, the object centre for
// grasps).
using Twist6 = Eigen::Matrix<double, 6, 1>;
using Wrench6 = Eigen::Matrix<double, 6, 1>;

// Thrown for input the parallel-manipulator functions cannot use (sizes, non-finite numbers, zero axes); the message
// names the argument and the function.
class ParallelError : public Error {
 public:
  using Error::Error;
};

// Unit-rate twist of a revolute joint with unit axis `axis` through `point`, about `reference`:
// ((point - reference) x axis, axis) -- eq 3 with reference = c_i, eq 4 with reference = origin.
Twist6 revolute_twist(const Eigen::Vector3d& point, const Eigen::Vector3d& axis, const Eigen::Vector3d& reference);

// Unit-rate twist of a prismatic joint along unit `axis` (independent of the reference point): (axis, 0).
Twist6 prismatic_twist(const Eigen::Vector3d& axis);

// Pure force `direction` acting along the line through `point`, about `reference`: (f, (point - reference) x f).
// This is the paper's zero-pitch screw (u, q x u) written as a wrench.
Wrench6 line_wrench(const Eigen::Vector3d& point, const Eigen::Vector3d& direction, const Eigen::Vector3d& reference);

// Pure couple m (the same about every reference point): (0, m).
Wrench6 couple_wrench(const Eigen::Vector3d& moment);

// The reciprocal product of a wrench and a twist about the same reference: f . v + m . w, the power W delivers on T.
// It is the paper's  (u1, q1 x u1) o (u2, q2 x u2)  with both screws written as lines (direction, moment):
// W = (f, m) is the line (f, m), T = (v, w) is the line (w, v). Zero means "reciprocal". Independent of the
// reference point as long as both use the same one.
double reciprocal_product(const Wrench6& W, const Twist6& T);

// The same product of two twists (or two wrenches), symmetric: v1 . w2 + w1 . v2 (the paper's definition applied to
// two screws given in the same coordinates).
double screw_reciprocal_product(const Twist6& a, const Twist6& b);

// Moves the reference point of twist columns (6 x k, rows (v, w)) from p_old to p_new: v_new = v_old + w x (p_new -
// p_old). The wrench counterpart is grasp_matrix.h's shift_wrench_reference. T must have 6 rows (checked:
// std::invalid_argument).
void shift_twist_reference(Eigen::Ref<Eigen::MatrixXd> T, const Eigen::Vector3d& p_old, const Eigen::Vector3d& p_new);

}  // namespace mjhand
