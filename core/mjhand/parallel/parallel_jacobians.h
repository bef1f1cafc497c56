// The Jacobians of a parallel manipulator from its legs' reciprocal screws (Borras & Dollar section 2.2, Table 1
// rows b, d-f column 2): J_p T = J_Theta dTheta, rows of J_p = reciprocal screws as wrenches on the platform,
// J_Theta = (reciprocal screw o actuated joint twist).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/parallel/screws.h>

namespace mjhand {

// One leg: its joint twists (unit rates, (v, w) about the manipulator's reference point), in joint order.
struct Leg {
  Eigen::MatrixXd active;   // 6 x k_a: actuated joints, columns of this leg's block of J_Theta
  Eigen::MatrixXd passive;  // 6 x k_p: passive joints (eliminated by the reciprocal screws)
};

// How each leg's reciprocal screws are chosen.
enum class ReciprocalChoice {
  kSvd,       // reciprocal_system(passive): any orthonormal basis; J_Theta full blocks
  kDiagonal,  // choice (a): each screw reciprocal to the passive joints and all actuated joints but one
};

struct ParallelJacobians {
  Eigen::MatrixXd Jp;                // r x 6: row = W^T, W = (f, m) with m about `reference`
  Eigen::MatrixXd JTheta;            // r x n_active: block-diagonal by leg, entry = W_k . $_j
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();
  std::vector<int> leg_row, leg_col; // first row / first actuated column of each leg's block
  bool ok = true;
  std::string message;               // why not ok (which leg, which joint)
};

// Stacks the legs' Jacobians from given reciprocal screws (wrenches[i]: 6 x r_i, about `reference`) and actuated
// twists (active[i]: 6 x k_i, about the same point). Throws ParallelError on mismatched sizes.
ParallelJacobians parallel_jacobians(const std::vector<Eigen::MatrixXd>& wrenches,
                                     const std::vector<Eigen::MatrixXd>& active, const Eigen::Vector3d& reference);

// Chooses each leg's reciprocal screws (SVD basis or choice (a)) and stacks the Jacobians. With kDiagonal, a leg
// where choice (a) does not exist gives ok = false, the message, and that leg's rows left zero.
ParallelJacobians parallel_jacobians(const std::vector<Leg>& legs, const Eigen::Vector3d& reference,
                                     ReciprocalChoice choice = ReciprocalChoice::kSvd);

// Choice (b): one leg per contact, reciprocal screws = the contact's transmitted wrenches along n, t, o
// (contact_reciprocal_screws), active[i] = twists of the joints that move contact i's link (6 x n_hand, zero
// columns for joints of other fingers allowed: then J_Theta has the layout of J_H). J_Theta is r x n_hand.
ParallelJacobians contact_frame_jacobians(const std::vector<Contact>& contacts, const std::vector<Eigen::MatrixXd>& active,
                                          const Eigen::Vector3d& reference);

// Moves J_p's moment reference from p_old to p_new (J_p^T's columns are wrenches: shift_wrench_reference).
// J_p(p_new) T(p_new) = J_p(p_old) T(p_old) for the same motion. Jp must have 6 columns (checked:
// std::invalid_argument). No allocation.
void shift_jp_reference(Eigen::Ref<Eigen::MatrixXd> Jp, const Eigen::Vector3d& p_old, const Eigen::Vector3d& p_new);

// The map from the platform twist (about J_p's reference) to the actuated joint rates: J_Theta^+ J_p (the paper's
// J_Theta^-1 J_p; pseudo-inverse when J_Theta is not square or singular).
Eigen::MatrixXd twist_to_joint_rates(const Eigen::Ref<const Eigen::MatrixXd>& Jp,
                                     const Eigen::Ref<const Eigen::MatrixXd>& JTheta);

}  // namespace mjhand
