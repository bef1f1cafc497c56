// Closed-form rigid-body dynamics of a direct-drive finger (Ebner & Wallace 1994, section 3.2, Lagrange):
// tau = M(theta) thetadd + V(theta, thetad) + G(theta), with the printed M_11 corrected (see
// docs/direct-drive-hand.md, errata). Since theta = phi + constant offsets, the same M, V, G hold for the actuator
// angles phi the joints report. Nothing here allocates.
#pragma once

#include <Eigen/Core>

#include <mjhand/direct_drive/finger.h>

namespace mjhand {

// The gravity vector (acceleration, e.g. (0, -9.81, 0) palm up) given in the palm frame {P}, expressed in the
// finger base frame {0} as G needs it: ^0 g = (^P_F R)^T ^P g (for the thumb gx and gz change sign).
Eigen::Vector3d gravity_in_base(const DirectDriveFinger& f, const Eigen::Vector3d& gravity_palm);

// M(theta) [kg m^2] (3.2; plus the finger's armature on the diagonal, 0 in the paper).
Eigen::Matrix3d mass_matrix(const DirectDriveFinger& f, const double* phi);
// V(theta, thetad) [N m]: Coriolis and centripetal torques (3.2).
Eigen::Vector3d coriolis_torques(const DirectDriveFinger& f, const double* phi, const double* phid);
// G(theta) [N m]: gravity torques for the gravity vector g0 given in {0} (3.2, G = du/dtheta with
// u_i = -m_i ^0 g^T ^0 P_Ci).
Eigen::Vector3d gravity_torques(const DirectDriveFinger& f, const double* phi, const Eigen::Vector3d& gravity_base);

// All three at once (shares the trigonometry): what a controller evaluates every step.
void finger_dynamics(const DirectDriveFinger& f, const double* phi, const double* phid,
                     const Eigen::Vector3d& gravity_base, Eigen::Matrix3d* M, Eigen::Vector3d* V, Eigen::Vector3d* G);

}  // namespace mjhand
