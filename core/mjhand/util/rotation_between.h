// The shortest rotation taking one direction to another, compiled once (rotation_between.cc).
#pragma once

#include <Eigen/Geometry>

namespace mjhand {

// The rotation of least angle taking direction `from` to direction `to` (neither need be unit length): Eigen's
// Quaternion::FromTwoVectors. Its antiparallel case solves a 2x3 JacobiSVD, about 4 s of compile time in every file
// that instantiates it; callers share this one copy.
Eigen::Quaterniond rotation_between(const Eigen::Vector3d& from, const Eigen::Vector3d& to);

}  // namespace mjhand
