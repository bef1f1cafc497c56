// Forward kinematics and geometric Jacobian of a DH chain over a preallocated workspace (the "Data" half).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

// Reference frame for Jacobians: the chain's reference frame (where Chain::base is expressed) or the tool frame.
enum class JacobianFrame { kBase, kTool };

// Workspace for one chain; sized once from the Chain so that per-step calls do not allocate.
struct ChainData {
  explicit ChainData(const Chain& chain);
  // The same for a general serial chain: link_pre/link_post are copied from its links.
  explicit ChainData(const SerialChain& chain);

  std::vector<Eigen::Isometry3d> frames;  // frames[i]: DH frame i in the reference frame, i = 0..n
  std::vector<Eigen::Vector3d> joint_axis;   // unit axis of joint i (0-based) in the reference frame
  std::vector<Eigen::Vector3d> joint_point;  // a point on that axis
  Eigen::Isometry3d tip = Eigen::Isometry3d::Identity();  // tool frame in the reference frame
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian;     // rows 0-2 linear (like jacp), 3-5 angular (like jacr)

  // Constant split of each link transform, A_i(q) = link_pre[i] * Joint(q) * link_post[i], cached from the chain.
  std::vector<Eigen::Isometry3d> link_pre, link_post;
};

// One column of a geometric Jacobian (rows as in ChainData::jacobian): the velocity of point p and the angular
// velocity per unit rate of a joint of `kind` moving about the unit axis z through `point`.
inline void jacobian_column(JointKind kind, const Eigen::Vector3d& z, const Eigen::Vector3d& point,
                            const Eigen::Vector3d& p, Eigen::Ref<Eigen::Matrix<double, 6, 1>> col) {
  if (kind == JointKind::kRevolute) {
    col.head<3>() = z.cross(p - point);
    col.tail<3>() = z;
  } else {
    col.head<3>() = z;
    col.tail<3>().setZero();
  }
}

// Computes every link frame and the tool frame for joint vector q (length chain.dof()). data must be built for chain:
// a ChainData of another chain is refused (std::invalid_argument naming the buffer; its vectors are not to be resized
// by hand, only its frames are checked here).
void forward_kinematics(const Chain& chain, const double* q, ChainData& data);

// Geometric Jacobian of the tool point, from the frames of the last forward_kinematics call (data checked likewise,
// by its Jacobian's columns).
void compute_jacobian(const Chain& chain, ChainData& data, JacobianFrame frame = JacobianFrame::kBase);

// Forward kinematics followed by the Jacobian in the chosen frame.
inline void fk_and_jacobian(const Chain& chain, const double* q, ChainData& data,
                            JacobianFrame frame = JacobianFrame::kBase) {
  forward_kinematics(chain, q, data);
  compute_jacobian(chain, data, frame);
}

// The same three for a general serial chain (serial_chain.h): the same code, link splits taken from the chain.
void forward_kinematics(const SerialChain& chain, const double* q, ChainData& data);
void compute_jacobian(const SerialChain& chain, ChainData& data, JacobianFrame frame = JacobianFrame::kBase);
inline void fk_and_jacobian(const SerialChain& chain, const double* q, ChainData& data,
                            JacobianFrame frame = JacobianFrame::kBase) {
  forward_kinematics(chain, q, data);
  compute_jacobian(chain, data, frame);
}

// Most joints tip_pose_and_jacobian handles (its workspace lives on the stack).
inline constexpr int kMaxStackChainDof = 32;

// Tool pose of `chain` at q, and its 6 x dof geometric Jacobian (column-major, rows as in ChainData::jacobian) when
// `jacobian` is non-null, without a ChainData: for callers shared by threads that cannot keep a workspace.
// Does not allocate; chain.dof() must not exceed kMaxStackChainDof (checked: throws std::length_error).
Eigen::Isometry3d tip_pose_and_jacobian(const Chain& chain, const double* q, double* jacobian = nullptr);

// The constant part of every link of a chain (dh_split), computed once: what tip_pose_and_jacobian otherwise
// recomputes at every call (half its work). Immutable, so one object serves every thread.
struct ChainSplit {
  explicit ChainSplit(const Chain& chain);
  std::vector<Eigen::Isometry3d> pre, post;
};

// tip_pose_and_jacobian with the split precomputed (`split` built from `chain`): the same numbers, bit for bit.
Eigen::Isometry3d tip_pose_and_jacobian(const Chain& chain, const ChainSplit& split, const double* q,
                                        double* jacobian = nullptr);

// tip_pose_and_jacobian of a general serial chain (its links hold their splits): allocation-free, thread-safe.
Eigen::Isometry3d tip_pose_and_jacobian(const SerialChain& chain, const double* q, double* jacobian = nullptr);

}  // namespace mjhand
