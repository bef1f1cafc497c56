// Mobility (Grubler-Kutzbach) and redundancy of a hand + object system, counted and from the Jacobians.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>

namespace mjhand {

// M = d (N - 1 - J) + sum f_j: N links including the ground, J joints with f_j freedoms each, d = 6 (spatial) or 3.
int grubler_kutzbach(int links_including_ground, const std::vector<int>& joint_freedoms, int space_dim = 6);

struct HandObjectMobility {
  int grubler = 0;                // 6 + n_hand - sum c_i (tree hand + one free object; c_i = rows of contact i)
  int instantaneous = 0;          // 6 + n_hand - rank([G^T  -J_H]): dim of {(T, dq): G^T T = J_H dq}
  int actuated = 0;               // actuated joints given by the caller
  int actuation_redundancy = 0;   // actuated - grubler (paper: 9 - 6 = 3 for the 3-UR hand)
  int rank_G = 0;
  int internal_forces = 0;        // dim null(G) = m - rank G (> 0: "graspable", squeezing is possible)
  int indeterminate = 0;          // dim null(G^T) = 6 - rank G (> 0: object motions the contacts do not resist)
  int redundant_motions = 0;      // dim null(J_H) = n_hand - rank J_H (finger motions that move no contact point)
  int constraint_rows = 0;        // loop/coupling equality rows on the hand joints counted in grubler (0: none given)
  int joint_mobility = 0;         // n_hand - rank J_eq: joint motions the equality constraints allow (n_hand if none)
};

// Counts from the contact models (Grubler) and ranks of G and J_H (instantaneous). Derivation: N - 1 = L_h + 1 moving
// links, each hand link has one joint (tree), each contact is a joint with 6 - c_i freedoms, so
// M = 6 (L_h + 1) - (6 L_h - n_hand) - sum c_i = 6 + n_hand - sum c_i.
HandObjectMobility hand_object_mobility(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                                        const Eigen::Ref<const Eigen::MatrixXd>& JH, int actuated);

// With the hand's equality constraints J_eq dq = 0 (loop closures, joint couplings; rows from hand_actuation) and
// the actuated count from hand_actuation: Grubler 6 + n_hand - sum c_i - constraint_rows (each equality row removes
// one freedom in the count), instantaneous = 6 + n_hand - rank([G^T -J_H; 0 J_eq]), redundant motions
// n_hand - rank([J_H; J_eq]), joint mobility n_hand - rank J_eq. With no rows this is the overload above.
HandObjectMobility hand_object_mobility(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                                        const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Jeq, int constraint_rows,
                                        int actuated);

}  // namespace mjhand
