// Serial chains given by the fixed transforms between their joints (any joint axis, any offsets): the general form
// of which a DH table is a special case, e.g. a finger read from an MJCF kinematic tree (hand/tree_chains.h).
#pragma once

#include <Eigen/Geometry>
#include <limits>
#include <string>
#include <vector>

#include <mjhand/kinematics/dh_chain.h>

namespace mjhand {

// One joint of a serial chain: link i's transform is A_i(q) = pre * Joint(q) * post, Joint(q) = Rz(q) (revolute) or
// Tz(q) (prismatic), as dh_split lays out a DH row. Any constant offset of the joint variable (a DH theta or d, an
// MJCF qpos0) is folded into pre.
struct SerialLink {
  Eigen::Isometry3d pre = Eigen::Isometry3d::Identity();   // previous link frame -> joint frame (z = joint axis)
  Eigen::Isometry3d post = Eigen::Isometry3d::Identity();  // moved joint frame -> this link's frame
  JointKind kind = JointKind::kRevolute;
  double lower = -std::numeric_limits<double>::infinity();  // joint limit [rad or m]
  double upper = std::numeric_limits<double>::infinity();
};

// Fixed base, links, fixed tool: the same members as the DH Chain (base, links[i].kind/lower/upper, tool, dof()), so
// that forward_kinematics, compute_jacobian, tip_pose_and_jacobian and the DLS IK take either.
struct SerialChain {
  std::string name;
  Eigen::Isometry3d base = Eigen::Isometry3d::Identity();  // frame 0 in the reference (world or root body) frame
  std::vector<SerialLink> links;
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();  // tool frame in the last link frame

  int dof() const { return static_cast<int>(links.size()); }
};

// The DH chain as a serial chain with the same FK and Jacobian, bit for bit (its rows split by dh_split).
SerialChain to_serial_chain(const Chain& chain);

}  // namespace mjhand
