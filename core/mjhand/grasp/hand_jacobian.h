// The hand Jacobian J_H (m x n_hand): contact-frame velocities of the contact points as points of the finger links,
// for any kinematic tree, from MuJoCo's mj_jac (Borras & Dollar eq 3 and Table 1 row e, generalised).
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_frames.h>

namespace mjhand {

// Scratch for mj_jac (3 x nv each), sized once per model so that hand_jacobian does not allocate.
struct HandJacobianWorkspace {
  explicit HandJacobianWorkspace(const mjModel* m) : jacp(3 * m->nv), jacr(3 * m->nv) {}
  std::vector<mjtNum> jacp, jacr;
};

// J_H,i = H_i Rbar_i^T [J_p; J_r] with J_p the Jacobian of the point c_i fixed to contact.hand_body and J_r that
// body's angular Jacobian, keeping the columns hand.dofs. Equals eq 3's joint twists taken about c_i for a serial
// finger; columns of other fingers are zero, so J_H is block-diagonal when contacts and dofs are grouped by finger.
// JH must be total_rows x hand.num_hand_dofs() and ws built for m (both checked: std::invalid_argument naming the
// argument and both sizes). Needs mj_kinematics/mj_comPos state. Throws GraspError for a contact whose hand_body
// belongs to no finger and is not the palm (a palm contact's row is the palm's motion over hand.dofs: zero unless
// the wrist dofs are among them).
void hand_jacobian(const mjModel* m, const mjData* d, const HandModel& hand, const Contact* contacts, int count,
                   HandJacobianWorkspace& ws, Eigen::Ref<Eigen::MatrixXd> JH);

// Allocating convenience for reports and tests.
Eigen::MatrixXd hand_jacobian(const mjModel* m, const mjData* d, const HandModel& hand,
                              const std::vector<Contact>& contacts);

// The wrist's Jacobian J_w (total_rows x 6): contact-frame velocities of the hand's contact points when the whole hand
// moves rigidly with its base (wrist, palm) by the twist dx_w = (v of wrist_point, w), world axes. These are the 6
// columns SynGrasp appends to J_H for a compliant wrist (J_ext = [J_H, J_w], SGslide) and the columns mj_jac gives for
// 3 slide + 3 hinge joints (x, y, z) through wrist_point at zero angle; for a free joint they are J_w diag(I, R_palm)
// (MuJoCo's free-joint angular velocity is in the body frame). A rigid motion of every point: J_w = G(wrist_point)^T
// (grasp_matrix.h). Analysis function (allocates).
Eigen::MatrixXd wrist_jacobian(const std::vector<Contact>& contacts, const Eigen::Vector3d& wrist_point);

// Object twist T = (v of `reference`, w) in world coordinates from the object's free joint (MuJoCo stores the
// angular velocity of a free joint in the body frame). Throws GraspError when the object has no free joint.
Eigen::Matrix<double, 6, 1> object_twist(const mjModel* m, const mjData* d, const HandModel& hand,
                                         const Eigen::Vector3d& reference);

}  // namespace mjhand
