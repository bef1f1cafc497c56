// A serial chain compiled once into standard DH form for the per-step tool pose and Jacobian: four numbers per joint
// instead of two rigid transforms, so each joint costs one sincos and 30 multiplications (the general chain step,
// forward_kinematics.h, costs 84: two rigid-transform products and the joint's rotation). What the
// fingertip_kinematics sensor runs every step.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

// One standard-DH step A = Rz(theta + q) Tz(d) Tx(a) Rx(alpha) (prismatic: Rz(theta) Tz(d + q) ...), with alpha's
// cosine and sine (and theta's, for a prismatic joint) taken once.
struct DhStep {
  double a = 0, d = 0, theta = 0;
  double cos_alpha = 1, sin_alpha = 0;
  double cos_theta = 1, sin_theta = 0;
  JointKind kind = JointKind::kRevolute;
};

// The chain's standard DH form (identify_dh for a chain that is not a standard table), checked at construction
// against the chain's own FK and Jacobian at nine joint vectors. Where they differ by more than 1e-13 (in metres and
// unitless entries, or relative to the chain's reach when that exceeds 1 m; ten times below the 1e-12 promised at
// every other joint vector) the form keeps the chain itself and evaluates it the general way: always correct, at most
// that chain slower. Nearly parallel or far-intersecting consecutive axes make the DH form ill-conditioned
// (dh_identification.h).
struct DhForm {
  DhForm() = default;  // no joints: the tool pose is base * tool
  explicit DhForm(const SerialChain& chain);
  explicit DhForm(const Chain& chain);

  int dof() const { return static_cast<int>(steps.size()); }
  bool exact() const { return recurrence; }  // the DH recurrence serves this chain

  Eigen::Isometry3d base = Eigen::Isometry3d::Identity();
  std::vector<DhStep> steps;
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  SerialChain general;     // the chain as given when its DH form failed the check; empty otherwise
  bool recurrence = true;  // false: evaluated the general way, from `general`
};

// Tool pose at q and, when `jacobian` is non-null, the 6 x dof geometric Jacobian at the tool point (column-major,
// rows 0-2 linear, 3-5 angular, in the base's reference frame), as tip_pose_and_jacobian of the chain the form was
// built from gives them to 1e-12. Allocation-free and thread-safe; dof <= kMaxStackChainDof (checked at construction).
Eigen::Isometry3d tip_pose_and_jacobian(const DhForm& form, const double* q, double* jacobian = nullptr);

}  // namespace mjhand
