// Statics of a parallel manipulator (Borras & Dollar Table 1 row c, column 2) next to the grasp framework's
// (column 1): W = -J_p^T J_Theta^-T tau  versus  tau = J_H^T lambda, W = -G lambda.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/parallel/parallel_jacobians.h>

namespace mjhand {

// Intensities nu of the reciprocal screws that the actuated torques hold: J_Theta^T nu = tau, nu = J_Theta^{+T} tau
// (the least-squares / minimum-norm solution when J_Theta is not square). With choice (b) nu is the contact force
// lambda of the grasp framework.
Eigen::VectorXd screw_intensities(const Eigen::Ref<const Eigen::MatrixXd>& JTheta,
                                  const Eigen::Ref<const Eigen::VectorXd>& tau);

// The external wrench on the platform (about J_p's reference) that actuated torques tau balance:
// W = -J_p^T J_Theta^{+T} tau. Same sign convention as the grasp framework's W = -G lambda.
Wrench6 platform_wrench(const Eigen::Ref<const Eigen::MatrixXd>& Jp, const Eigen::Ref<const Eigen::MatrixXd>& JTheta,
                        const Eigen::Ref<const Eigen::VectorXd>& tau);

// The wrench each leg applies to the platform (about J_p's reference): J_p,i^T nu_i, nu = screw_intensities
// (section 2.2's "each set of three columns of J_p^T J_Theta^-T times the leg's torques"); they sum to -W.
std::vector<Wrench6> leg_wrenches(const ParallelJacobians& J, const Eigen::Ref<const Eigen::VectorXd>& tau);

// The grasp framework's answer to the same question: lambda = (J_H^T)^+ tau (the contact forces the torques hold
// when J_H^T is invertible), W = -G lambda about G's reference.
struct GraspTorqueStatics {
  Eigen::VectorXd lambda;
  Wrench6 W = Wrench6::Zero();
  double torque_residual = 0.0;  // |J_H^T lambda - tau|: > 0 when tau is outside range(J_H^T)
};
GraspTorqueStatics grasp_wrench_from_torques(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                             const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                             const Eigen::Ref<const Eigen::VectorXd>& tau);

}  // namespace mjhand
