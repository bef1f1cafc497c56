// Serial chains described by Denavit-Hartenberg tables: the constant "Model" half of the kinematics core.
#pragma once

#include <Eigen/Geometry>
#include <limits>
#include <string>
#include <vector>

namespace mjhand {

// Standard DH (Paul; e_GRASP Table 1): A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i), joint i moves about z_{i-1}.
// Modified DH (Craig; direct-drive hand appendix B): A_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i),
// joint i moves about z_i. In both, row i of the table holds (a, alpha, d, theta) as printed in the source.
enum class DHConvention { kStandard, kModified };

enum class JointKind { kRevolute, kPrismatic };

// One row of a DH table. theta (revolute) or d (prismatic) is the constant offset added to the joint variable.
struct DHLink {
  double a = 0.0;      // link length [m]
  double alpha = 0.0;  // link twist [rad]
  double d = 0.0;      // link offset [m]
  double theta = 0.0;  // joint angle offset [rad]
  JointKind kind = JointKind::kRevolute;
  double lower = -std::numeric_limits<double>::infinity();  // joint limit [rad or m]
  double upper = std::numeric_limits<double>::infinity();
};

// A serial chain: fixed base transform (palm offset, rotated thumb), DH links, fixed tool transform on the last frame.
struct Chain {
  std::string name;
  DHConvention convention = DHConvention::kStandard;
  Eigen::Isometry3d base = Eigen::Isometry3d::Identity();  // chain frame 0 in the reference (world or palm) frame
  std::vector<DHLink> links;
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();  // tool frame in the last link frame

  int dof() const { return static_cast<int>(links.size()); }
};

// Constant transform of link i's DH row with joint variable q (standard: frame i-1 -> i; modified: i-1 -> i).
Eigen::Isometry3d dh_transform(DHConvention convention, const DHLink& link, double q);

// Fixed part of link i's transform, split around the joint motion: A_i(q) = pre_i * Joint(q) * post_i,
// where Joint(q) is Rz(q) (revolute) or Tz(q) (prismatic). Used to lay out MJCF bodies.
void dh_split(DHConvention convention, const DHLink& link, Eigen::Isometry3d* pre, Eigen::Isometry3d* post);

}  // namespace mjhand
