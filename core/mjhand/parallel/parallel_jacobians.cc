#include <mjhand/parallel/parallel_jacobians.h>

#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/parallel/reciprocal_screws.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {
void check_six_rows(const Eigen::MatrixXd& M, const char* what, size_t leg) {
  if (M.rows() != 6) {
    throw ParallelError(std::string("parallel_jacobians: ") + what + " of leg " + std::to_string(leg) +
                        " must have 6 rows, got " + std::to_string(M.rows()));
  }
  if (!M.allFinite()) throw ParallelError(std::string("parallel_jacobians: ") + what + " of leg " + std::to_string(leg) + " is not finite");
}
}  // namespace

ParallelJacobians parallel_jacobians(const std::vector<Eigen::MatrixXd>& wrenches,
                                     const std::vector<Eigen::MatrixXd>& active, const Eigen::Vector3d& reference) {
  if (wrenches.size() != active.size()) {
    throw ParallelError("parallel_jacobians: " + std::to_string(wrenches.size()) + " reciprocal systems for " +
                        std::to_string(active.size()) + " legs");
  }
  ParallelJacobians J;
  J.reference = reference;
  Eigen::Index rows = 0, cols = 0;
  for (size_t i = 0; i < active.size(); ++i) {
    check_six_rows(wrenches[i], "reciprocal screws", i);
    check_six_rows(active[i], "actuated twists", i);
    J.leg_row.push_back(static_cast<int>(rows));
    J.leg_col.push_back(static_cast<int>(cols));
    rows += wrenches[i].cols();
    cols += active[i].cols();
  }
  J.Jp = Eigen::MatrixXd::Zero(rows, 6);
  J.JTheta = Eigen::MatrixXd::Zero(rows, cols);
  for (size_t i = 0; i < active.size(); ++i) {
    const Eigen::Index r = wrenches[i].cols(), k = active[i].cols();
    J.Jp.middleRows(J.leg_row[i], r) = wrenches[i].transpose();
    // Reciprocal product W . $ for every (screw, actuated joint) pair of the leg.
    J.JTheta.block(J.leg_row[i], J.leg_col[i], r, k) = wrenches[i].transpose() * active[i];
  }
  return J;
}

ParallelJacobians parallel_jacobians(const std::vector<Leg>& legs, const Eigen::Vector3d& reference,
                                     ReciprocalChoice choice) {
  std::vector<Eigen::MatrixXd> W, A;
  std::string message;
  for (size_t i = 0; i < legs.size(); ++i) {
    check_six_rows(legs[i].active, "actuated twists", i);
    check_six_rows(legs[i].passive, "passive twists", i);
    A.push_back(legs[i].active);
    if (choice == ReciprocalChoice::kSvd) {
      W.push_back(reciprocal_system(legs[i].passive).wrenches);
    } else {
      const DiagonalReciprocalScrews d = diagonal_reciprocal_screws(legs[i].passive, legs[i].active);
      if (!d.ok && message.empty()) message = "leg " + std::to_string(i) + ": " + d.message;
      W.push_back(d.wrenches);
    }
  }
  ParallelJacobians J = parallel_jacobians(W, A, reference);
  J.ok = message.empty();
  J.message = message;
  return J;
}

ParallelJacobians contact_frame_jacobians(const std::vector<Contact>& contacts, const std::vector<Eigen::MatrixXd>& active,
                                          const Eigen::Vector3d& reference) {
  if (contacts.size() != active.size()) {
    throw ParallelError("contact_frame_jacobians: " + std::to_string(active.size()) + " twist sets for " +
                        std::to_string(contacts.size()) + " contacts");
  }
  const Eigen::Index n = active.empty() ? 0 : active[0].cols();
  std::vector<Eigen::MatrixXd> W;
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (active[i].cols() != n) {
      throw ParallelError("contact_frame_jacobians: contact " + std::to_string(i) + " has " +
                          std::to_string(active[i].cols()) + " joint twists, contact 0 has " + std::to_string(n) +
                          " (every contact needs the twists of all hand joints, zero for joints that do not move it)");
    }
    W.push_back(contact_reciprocal_screws(contacts[i], reference));
  }
  // One leg per contact, all sharing the hand's joint columns: J_Theta rows are W_k^T [$_1 .. $_n].
  ParallelJacobians J;
  J.reference = reference;
  Eigen::Index rows = 0;
  for (const auto& w : W) rows += w.cols();
  J.Jp.resize(rows, 6);
  J.JTheta.resize(rows, n);
  Eigen::Index row = 0;
  for (size_t i = 0; i < W.size(); ++i) {
    check_six_rows(active[i], "joint twists", i);
    J.leg_row.push_back(static_cast<int>(row));
    J.leg_col.push_back(0);
    J.Jp.middleRows(row, W[i].cols()) = W[i].transpose();
    J.JTheta.middleRows(row, W[i].cols()) = W[i].transpose() * active[i];
    row += W[i].cols();
  }
  return J;
}

void shift_jp_reference(Eigen::Ref<Eigen::MatrixXd> Jp, const Eigen::Vector3d& p_old, const Eigen::Vector3d& p_new) {
  require_size("shift_jp_reference", "Jp", Jp, Jp.rows(), 6, "r x 6");
  // Row k of J_p is a wrench (f, m): shift_wrench_reference on the rows, in place (no transposed copy).
  const Eigen::Vector3d d = p_old - p_new;
  for (Eigen::Index k = 0; k < Jp.rows(); ++k) {
    const Eigen::Vector3d f = Jp.block<1, 3>(k, 0).transpose();
    Jp.block<1, 3>(k, 3) += d.cross(f).transpose();
  }
}

Eigen::MatrixXd twist_to_joint_rates(const Eigen::Ref<const Eigen::MatrixXd>& Jp,
                                     const Eigen::Ref<const Eigen::MatrixXd>& JTheta) {
  if (Jp.rows() != JTheta.rows() || Jp.cols() != 6) {
    throw ParallelError("twist_to_joint_rates: J_p is " + std::to_string(Jp.rows()) + " x " + std::to_string(Jp.cols()) +
                        ", J_Theta has " + std::to_string(JTheta.rows()) + " rows (need r x 6 and r x n)");
  }
  return pseudo_inverse(JTheta) * Jp;
}

}  // namespace mjhand
