// The parallel-manipulator view of any computed grasp (Borras & Dollar section 2.3, choice (b)): J_p and J_Theta from
// the contacts' n, t, o reciprocal screws and the hand's joint twists, and how far J_Theta^+ J_p is from the grasp
// framework's J_H^+ G^T once the moment reference is moved. For reports (mjhand analyze); allocates.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/parallel/screws.h>

namespace mjhand {

struct ParallelView {
  Eigen::MatrixXd Jp;      // m x 6: row k = (e_k, (c_i - jp_reference) x e_k) for e_k in n_i, t_i, o_i (+ the couple
                           // (0, n_i) of a soft finger, only n_i for a frictionless point) -- the contact's wrenches
  Eigen::MatrixXd JTheta;  // m x n_hand: reciprocal products W_k . $_j of those wrenches with the joint twists
                           // (about jp_reference), columns in the order of J_H's
  Eigen::Vector3d jp_reference = Eigen::Vector3d::Zero();  // J_p's moment reference (world origin by default)
  // Section 2.3's equivalence: J_Theta^+ J_p S = J_H^+ G^T, with S = [I (p - o)^x; 0 I] carrying a twist about G's
  // reference p to one about J_p's reference o (computed by moving J_p's moments to p). Frobenius norms.
  double residual = 0.0;           // |J_Theta^+ J_p S - J_H^+ G^T|
  double relative_residual = 0.0;  // residual / |J_H^+ G^T| (0 when both are 0)
  double jtheta_vs_jh = 0.0;       // |J_Theta - J_H|: choice (b) makes them equal
  double jp_vs_gt = 0.0;           // |J_p S - G^T|: J_p about p is G^T
};

// Core, independent of MuJoCo: twists[i] (6 x n_hand, (v, w) about jp_reference) are the unit-rate twists of the
// link carrying contact i for every hand joint (zero columns for joints that do not move it). G (6 x m) is about
// G_reference, J_H is m x n_hand. Throws ParallelError on size mismatches or non-finite input.
ParallelView parallel_view_from_twists(const std::vector<Contact>& contacts, const std::vector<Eigen::MatrixXd>& twists,
                                       const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Vector3d& G_reference,
                                       const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                       const Eigen::Vector3d& jp_reference = Eigen::Vector3d::Zero());

// For a MuJoCo grasp (compute_grasp / collect_contacts + grasp_matrix + hand_jacobian on the same mjData): the joint
// twists come from mj_jac of jp_reference attached to each contact's hand_body (columns hand.dofs), i.e. eq 4's
// twists computed by MuJoCo, not from J_H. Needs mj_forward state. Throws GraspError for a contact on no finger.
ParallelView parallel_view(const mjModel* m, const mjData* d, const HandModel& hand, const std::vector<Contact>& contacts,
                           const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Vector3d& G_reference,
                           const Eigen::Ref<const Eigen::MatrixXd>& JH,
                           const Eigen::Vector3d& jp_reference = Eigen::Vector3d::Zero());

}  // namespace mjhand
