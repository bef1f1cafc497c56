// Random rigid poses and serial chains for the kinematics tests, seeded by the caller.
#pragma once

#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include <mjhand/kinematics/serial_chain.h>

namespace mjhand_test {

// A uniformly random rotation with a normally distributed offset of scale `reach` [m].
inline Eigen::Isometry3d random_pose(std::mt19937& rng, double reach) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
  t.translation() = reach * Eigen::Vector3d(n(rng), n(rng), n(rng));
  return t;
}

// A serial chain of n joints (joint i prismatic when (trial + i) % 4 == 3) with random base, tool and joint frames,
// whose next axis is by turns parallel, coincident, intersecting and skew to each joint's: the degenerate pairs of
// DH identification on purpose. With trial % 7 == 0 the tool point lies on the last axis.
inline mjhand::SerialChain random_serial_chain(std::mt19937& rng, int trial, int n) {
  mjhand::SerialChain s;
  s.base = random_pose(rng, 0.1);
  s.tool = random_pose(rng, 0.03);
  for (int i = 0; i < n; ++i) {
    mjhand::SerialLink l;
    l.kind = (trial + i) % 4 == 3 ? mjhand::JointKind::kPrismatic : mjhand::JointKind::kRevolute;
    l.pre = random_pose(rng, 0.04);
    switch ((trial + 2 * i) % 5) {
      case 0:  // parallel
        l.post = Eigen::Isometry3d(Eigen::Translation3d(0.03, 0.01, 0)) *
                 Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ());
        break;
      case 1: l.post = Eigen::Isometry3d(Eigen::Translation3d(0, 0, 0.02)); break;  // coincident
      case 2: l.post = Eigen::Isometry3d(Eigen::AngleAxisd(1.1, Eigen::Vector3d::UnitX())); break;  // intersecting
      default: l.post = random_pose(rng, 0.04);  // skew
    }
    s.links.push_back(l);
  }
  if (trial % 7 == 0) s.tool = Eigen::Isometry3d(Eigen::Translation3d(0, 0, 0.01));
  return s;
}

// A random joint vector of `chain` (a Chain or a SerialChain) into q: within the joint's limits where it has both,
// else [-pi, pi] (revolute) or [-0.02, 0.02] m (prismatic).
template <typename AnyChain>
void random_joint_vector(const AnyChain& chain, std::mt19937& rng, double* q) {
  std::uniform_real_distribution<double> u(-M_PI, M_PI);
  for (int i = 0; i < chain.dof(); ++i) {
    const auto& l = chain.links[i];
    q[i] = std::isfinite(l.lower) && std::isfinite(l.upper) ? l.lower + (l.upper - l.lower) * (u(rng) + M_PI) / (2 * M_PI)
                                  : (l.kind == mjhand::JointKind::kRevolute ? u(rng) : 0.02 * u(rng));
  }
}

}  // namespace mjhand_test
