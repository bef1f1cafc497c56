#include <mjhand/grasp/grasp_matrix.h>

#include <mjhand/util/size_check.h>

namespace mjhand {

void grasp_matrix(const Contact* contacts, int count, const Eigen::Vector3d& p, Eigen::Ref<Eigen::MatrixXd> G) {
  require_size("grasp_matrix", "G", G, 6, total_rows(contacts, count), "6 x total_rows(contacts)");
  int col = 0;
  for (int i = 0; i < count; ++i) {
    const Contact& c = contacts[i];
    const Eigen::Vector3d r = c.pos - p;
    const int forces = c.model == ContactModel::kFrictionlessPoint ? 1 : 3;
    for (int j = 0; j < forces; ++j) {
      const Eigen::Vector3d a = c.frame.col(j);
      G.block<3, 1>(0, col) = a;
      G.block<3, 1>(3, col) = r.cross(a);
      ++col;
    }
    // Pure moments about the frame axes: n (soft finger), or n, t, o (complete constraint).
    const int moments = c.model == ContactModel::kSoftFinger ? 1 : c.model == ContactModel::kCompleteConstraint ? 3 : 0;
    for (int j = 0; j < moments; ++j) {
      G.block<3, 1>(0, col).setZero();
      G.block<3, 1>(3, col) = c.frame.col(j);
      ++col;
    }
  }
}

Eigen::MatrixXd grasp_matrix(const std::vector<Contact>& contacts, const Eigen::Vector3d& reference) {
  Eigen::MatrixXd G(6, total_rows(contacts));
  grasp_matrix(contacts.data(), static_cast<int>(contacts.size()), reference, G);
  return G;
}

void shift_wrench_reference(Eigen::Ref<Eigen::MatrixXd> W, const Eigen::Vector3d& p_old, const Eigen::Vector3d& p_new) {
  require_size("shift_wrench_reference", "W", W, 6, W.cols(), "wrenches (f, m) as columns");
  const Eigen::Vector3d d = p_old - p_new;
  for (int k = 0; k < W.cols(); ++k) {
    const Eigen::Vector3d f = W.block<3, 1>(0, k);
    W.block<3, 1>(3, k) += d.cross(f);
  }
}

}  // namespace mjhand
