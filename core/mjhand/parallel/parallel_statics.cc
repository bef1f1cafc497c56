#include <mjhand/parallel/parallel_statics.h>

#include <mjhand/grasp/grasp_statics.h>

namespace mjhand {

Eigen::VectorXd screw_intensities(const Eigen::Ref<const Eigen::MatrixXd>& JTheta,
                                  const Eigen::Ref<const Eigen::VectorXd>& tau) {
  if (JTheta.cols() != tau.size()) {
    throw ParallelError("screw_intensities: J_Theta has " + std::to_string(JTheta.cols()) + " columns, tau has " +
                        std::to_string(tau.size()) + " entries");
  }
  if (!tau.allFinite()) throw ParallelError("screw_intensities: tau is not finite");
  return pseudo_inverse(JTheta.transpose()) * tau;
}

Wrench6 platform_wrench(const Eigen::Ref<const Eigen::MatrixXd>& Jp, const Eigen::Ref<const Eigen::MatrixXd>& JTheta,
                        const Eigen::Ref<const Eigen::VectorXd>& tau) {
  if (Jp.cols() != 6 || Jp.rows() != JTheta.rows()) {
    throw ParallelError("platform_wrench: J_p is " + std::to_string(Jp.rows()) + " x " + std::to_string(Jp.cols()) +
                        ", J_Theta has " + std::to_string(JTheta.rows()) + " rows (need r x 6 and r x n)");
  }
  return -Jp.transpose() * screw_intensities(JTheta, tau);
}

std::vector<Wrench6> leg_wrenches(const ParallelJacobians& J, const Eigen::Ref<const Eigen::VectorXd>& tau) {
  const Eigen::VectorXd nu = screw_intensities(J.JTheta, tau);
  std::vector<Wrench6> out;
  for (size_t i = 0; i < J.leg_row.size(); ++i) {
    const Eigen::Index begin = J.leg_row[i];
    const Eigen::Index end = i + 1 < J.leg_row.size() ? J.leg_row[i + 1] : J.Jp.rows();
    out.push_back(J.Jp.middleRows(begin, end - begin).transpose() * nu.segment(begin, end - begin));
  }
  return out;
}

GraspTorqueStatics grasp_wrench_from_torques(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                             const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                             const Eigen::Ref<const Eigen::VectorXd>& tau) {
  if (G.rows() != 6 || G.cols() != JH.rows() || JH.cols() != tau.size()) {
    throw ParallelError("grasp_wrench_from_torques: G is " + std::to_string(G.rows()) + " x " +
                        std::to_string(G.cols()) + ", J_H " + std::to_string(JH.rows()) + " x " +
                        std::to_string(JH.cols()) + ", tau " + std::to_string(tau.size()) +
                        " (need 6 x m, m x n, n)");
  }
  if (!tau.allFinite()) throw ParallelError("grasp_wrench_from_torques: tau is not finite");
  GraspTorqueStatics s;
  s.lambda = pseudo_inverse(JH.transpose()) * tau;
  s.W = balanced_wrench(G, s.lambda);
  s.torque_residual = (JH.transpose() * s.lambda - tau).norm();
  return s;
}

}  // namespace mjhand
