// The 3-UR hand's matrices in both frameworks (Borras & Dollar Table 1): column 2's closed-form rows d, e, the same
// Jacobians from the general reciprocal-screw computation, and column 1's G and J_H (eq 2, eq 3).
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/parallel/parallel_jacobians.h>
#include <mjhand/parallel/three_ur_hand.h>

namespace mjhand {

// Table 1 column 2 rows d, e for finger i, moments about the world (palm) origin, exactly as printed:
// J_pi rows (z_i2, c_i x z_i2), (c_i - b_i, c_i x (c_i - b_i)), (c_i - a_i, c_i x (c_i - a_i));
// J_Thetai = diag(-m_i, l_i d_i sin t_i3, -l_i d_i sin t_i3) (tested equal to reciprocal products with eq 4 twists).
struct Table1Leg {
  Eigen::Matrix<double, 3, 6> Jp;
  Eigen::Matrix3d JTheta;
};
Table1Leg table1_leg(const ThreeURHand& hand, int i, double theta1, double theta2, double theta3);

// Row f: the stacked 9 x 6 J_p and block-diagonal 9 x 9 J_Theta of the closed form, reference = world origin.
ParallelJacobians table1_jacobians(const ThreeURHand& hand, const ThreeURJoints& theta);

// The hand-plus-object system as a 3-URS parallel manipulator (eq 4): per finger, the actuated twists $_i1..$_i3 and
// the passive spherical joint at c_i (z_i4..z_i6 = world x, y, z), all about `reference`.
std::vector<Leg> three_ur_legs(const ThreeURHand& hand, const ThreeURJoints& theta, const Eigen::Vector3d& reference);

// Table 1 column 1 at a configuration: hard-finger contacts at the fingertips c_i with eq 2 frames
// (n_i = (p - c_i)/|p - c_i|), G (6 x 9) about the object centre p, J_H (9 x 9) = H_i Rbar_i^T ($_i1 $_i2 $_i3) from
// eq 3 (twists about c_i), block-diagonal.
struct ThreeURGrasp {
  std::vector<Contact> contacts;
  Eigen::MatrixXd G, JH;
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();  // p
};
ThreeURGrasp three_ur_grasp(const ThreeURHand& hand, const ThreeURJoints& theta, const Eigen::Vector3d& object_center,
                            double mu = 1.0);

// The rows of J_H for one contact from the twists (about c, 6 x k) of the joints that move its link:
// H_i Rbar_i^T [twists] -- Table 1 row e column 1 for any contact model.
Eigen::MatrixXd contact_jacobian_from_twists(const Contact& contact, const Eigen::Ref<const Eigen::MatrixXd>& twists_about_c);

}  // namespace mjhand
