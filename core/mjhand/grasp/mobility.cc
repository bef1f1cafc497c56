#include <mjhand/grasp/mobility.h>

#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

int grubler_kutzbach(int links_including_ground, const std::vector<int>& joint_freedoms, int space_dim) {
  int sum = 0;
  for (int f : joint_freedoms) sum += f;
  return space_dim * (links_including_ground - 1 - static_cast<int>(joint_freedoms.size())) + sum;
}

HandObjectMobility hand_object_mobility(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                                        const Eigen::Ref<const Eigen::MatrixXd>& JH, int actuated) {
  HandObjectMobility r;
  const int m = total_rows(contacts);
  const int n = static_cast<int>(JH.cols());
  r.grubler = 6 + n - m;
  Eigen::MatrixXd closure(m, 6 + n);
  if (m > 0) {
    closure.leftCols(6) = G.transpose();
    closure.rightCols(n) = -JH;
  }
  r.instantaneous = 6 + n - numerical_rank(closure);
  r.actuated = actuated;
  r.actuation_redundancy = actuated - r.grubler;
  r.rank_G = numerical_rank(G);
  r.internal_forces = m - r.rank_G;
  r.indeterminate = 6 - r.rank_G;
  r.redundant_motions = n - numerical_rank(JH);
  r.joint_mobility = n;
  return r;
}

HandObjectMobility hand_object_mobility(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                                        const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Jeq, int constraint_rows,
                                        int actuated) {
  HandObjectMobility r = hand_object_mobility(contacts, G, JH, actuated);
  const int m = total_rows(contacts);
  const int n = static_cast<int>(JH.cols());
  const int e = static_cast<int>(Jeq.rows());
  if (e == 0 && constraint_rows == 0) return r;
  require_size("hand_object_mobility", "Jeq", Jeq, e, n, "rows x the columns of J_H");
  r.constraint_rows = constraint_rows;
  r.grubler -= constraint_rows;
  Eigen::MatrixXd closure = Eigen::MatrixXd::Zero(m + e, 6 + n);
  if (m > 0) {
    closure.topLeftCorner(m, 6) = G.transpose();
    closure.topRightCorner(m, n) = -JH;
  }
  closure.bottomRightCorner(e, n) = Jeq;
  r.instantaneous = 6 + n - numerical_rank(closure);
  r.actuation_redundancy = actuated - r.grubler;
  Eigen::MatrixXd stacked(m + e, n);
  if (m > 0) stacked.topRows(m) = JH;
  stacked.bottomRows(e) = Jeq;
  r.redundant_motions = n - numerical_rank(stacked);
  r.joint_mobility = n - numerical_rank(Jeq);
  return r;
}

}  // namespace mjhand
