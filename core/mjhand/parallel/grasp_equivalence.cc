#include <mjhand/parallel/grasp_equivalence.h>

#include <string>

#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/parallel/parallel_jacobians.h>

namespace mjhand {

ParallelView parallel_view_from_twists(const std::vector<Contact>& contacts, const std::vector<Eigen::MatrixXd>& twists,
                                       const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Vector3d& G_reference,
                                       const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Vector3d& jp_reference) {
  const int m = total_rows(contacts);
  if (G.rows() != 6 || G.cols() != m || JH.rows() != m) {
    throw ParallelError("parallel_view: G is " + std::to_string(G.rows()) + " x " + std::to_string(G.cols()) +
                        " and J_H has " + std::to_string(JH.rows()) + " rows for " + std::to_string(m) +
                        " contact force components (need 6 x m and m x n)");
  }
  if (!G.allFinite() || !JH.allFinite() || !G_reference.allFinite() || !jp_reference.allFinite()) {
    throw ParallelError("parallel_view: G, J_H or a reference point is not finite");
  }
  for (size_t i = 0; i < twists.size(); ++i) {
    if (twists[i].rows() != 6 || twists[i].cols() != JH.cols()) {
      throw ParallelError("parallel_view: twists of contact " + std::to_string(i) + " are " +
                          std::to_string(twists[i].rows()) + " x " + std::to_string(twists[i].cols()) + ", need 6 x " +
                          std::to_string(JH.cols()) + " (one column per hand joint)");
    }
  }
  const ParallelJacobians J = contact_frame_jacobians(contacts, twists, jp_reference);
  ParallelView v;
  v.Jp = J.Jp;
  v.JTheta = J.JTheta;
  v.jp_reference = jp_reference;
  if (m == 0) return v;
  Eigen::MatrixXd Jp_at_p = J.Jp;
  shift_jp_reference(Jp_at_p, jp_reference, G_reference);
  const Eigen::MatrixXd grasp_map = pseudo_inverse(JH) * G.transpose();
  v.residual = (twist_to_joint_rates(Jp_at_p, J.JTheta) - grasp_map).norm();
  const double scale = grasp_map.norm();
  v.relative_residual = scale > 0 ? v.residual / scale : v.residual;
  v.jtheta_vs_jh = (J.JTheta - JH).norm();
  v.jp_vs_gt = (Jp_at_p - G.transpose()).norm();
  return v;
}

ParallelView parallel_view(const mjModel* m, const mjData* d, const HandModel& hand, const std::vector<Contact>& contacts,
                           const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Vector3d& G_reference,
                           const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Vector3d& jp_reference) {
  std::vector<mjtNum> jacp(3 * m->nv), jacr(3 * m->nv);
  std::vector<Eigen::MatrixXd> twists;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const int b = contacts[i].hand_body;
    if (!hand.in_hand(b)) {
      throw GraspError("parallel_view: contact " + std::to_string(i) + " is on body " + std::to_string(b) +
                       ", which belongs to no finger of the hand");
    }
    // mj_jac of the point jp_reference moving with body b: column j is joint j's twist (v at jp_reference, w).
    mj_jac(m, d, jacp.data(), jacr.data(), jp_reference.data(), b);
    Eigen::MatrixXd S(6, hand.num_hand_dofs());
    for (int k = 0; k < hand.num_hand_dofs(); ++k) {
      const int dof = hand.dofs[k];
      for (int r = 0; r < 3; ++r) {
        S(r, k) = jacp[r * m->nv + dof];
        S(3 + r, k) = jacr[r * m->nv + dof];
      }
    }
    twists.push_back(S);
  }
  return parallel_view_from_twists(contacts, twists, G, G_reference, JH, jp_reference);
}

}  // namespace mjhand
