#include <mjhand/parallel/reciprocal_screws.h>

#include <cmath>

#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {
void check_twists(const Eigen::Ref<const Eigen::MatrixXd>& twists, const char* what) {
  if (twists.rows() != 6) {
    throw ParallelError(std::string(what) + ": twists must be 6 x k (rows (v, w)), got " +
                        std::to_string(twists.rows()) + " rows");
  }
  if (!twists.allFinite()) throw ParallelError(std::string(what) + ": twists contain NaN or inf");
}

// Scales a reciprocal screw to a unit force, or a unit couple when it has (numerically) no force.
Wrench6 line_normalized(const Wrench6& w) {
  const double f = w.head<3>().norm();
  return f > 1e-9 * w.norm() ? Wrench6(w / f) : Wrench6(w / w.tail<3>().norm());
}
}  // namespace

ReciprocalSystem reciprocal_system(const Eigen::Ref<const Eigen::MatrixXd>& twists, double tol) {
  check_twists(twists, "reciprocal_system");
  ReciprocalSystem r;
  if (twists.cols() == 0) {
    r.wrenches = Eigen::MatrixXd::Identity(6, 6);
    r.dimension = 6;
    return r;
  }
  // W . $_k = 0 for all k  <=>  twists^T W = 0: the right null space of twists^T (k x 6).
  const Eigen::MatrixXd A = twists.transpose();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullV);
  const auto& s = svd.singularValues();
  const double th = tol * (s.size() ? s(0) : 0.0);
  int rank = 0;
  for (Eigen::Index k = 0; k < s.size(); ++k) rank += s(k) > th ? 1 : 0;
  r.twist_rank = rank;
  r.dimension = 6 - rank;
  r.wrenches = svd.matrixV().rightCols(r.dimension);
  return r;
}

DiagonalReciprocalScrews diagonal_reciprocal_screws(const Eigen::Ref<const Eigen::MatrixXd>& passive,
                                                    const Eigen::Ref<const Eigen::MatrixXd>& active, double tol) {
  check_twists(passive, "diagonal_reciprocal_screws (passive)");
  check_twists(active, "diagonal_reciprocal_screws (active)");
  DiagonalReciprocalScrews out;
  const Eigen::Index na = active.cols(), np = passive.cols();
  out.wrenches = Eigen::MatrixXd::Zero(6, na);
  if (na == 0) {
    out.ok = true;  // nothing actuated: no screws to choose
    return out;
  }
  Eigen::MatrixXd others(6, np + na - 1);
  for (Eigen::Index j = 0; j < na; ++j) {
    others.leftCols(np) = passive;
    Eigen::Index col = np;
    for (Eigen::Index k = 0; k < na; ++k) {
      if (k != j) others.col(col++) = active.col(k);
    }
    const ReciprocalSystem sys = reciprocal_system(others, tol);
    if (sys.dimension != 1) {
      out.message = "actuated joint " + std::to_string(j) + ": the passive joints and the other actuated joints leave " +
                    std::to_string(sys.dimension) + " reciprocal screws (expected 1): the leg is singular or has " +
                    "kinematic redundancy, choose the reciprocal system otherwise";
      return out;
    }
    Wrench6 w = line_normalized(sys.wrenches.col(0));
    const Twist6 sj = active.col(j);
    const double p = reciprocal_product(w, sj);
    if (!(std::abs(p) > tol * w.norm() * sj.norm())) {
      out.message = "actuated joint " + std::to_string(j) + " does no work on its reciprocal screw (W . $ = " +
                    std::to_string(p) + "): J_Theta is singular in this configuration";
      return out;
    }
    out.wrenches.col(j) = p > 0 ? w : Wrench6(-w);
  }
  out.ok = true;
  return out;
}

Eigen::MatrixXd contact_reciprocal_screws(const Contact& contact, const Eigen::Vector3d& reference) {
  Eigen::MatrixXd W(6, contact_rows(contact.model));
  const int forces = contact.model == ContactModel::kFrictionlessPoint ? 1 : 3;
  for (int k = 0; k < forces; ++k) W.col(k) = line_wrench(contact.pos, contact.frame.col(k), reference);
  if (contact.model == ContactModel::kSoftFinger) W.col(3) = couple_wrench(contact.frame.col(0));
  if (contact.model == ContactModel::kCompleteConstraint) {
    for (int k = 0; k < 3; ++k) W.col(3 + k) = couple_wrench(contact.frame.col(k));
  }
  return W;
}

Eigen::MatrixXd contact_passive_twists(const Contact& contact, const Eigen::Vector3d& reference) {
  const Eigen::Matrix3d& R = contact.frame;
  switch (contact.model) {
    case ContactModel::kHardFinger: {
      Eigen::MatrixXd T(6, 3);
      for (int k = 0; k < 3; ++k) T.col(k) = revolute_twist(contact.pos, R.col(k), reference);
      return T;
    }
    case ContactModel::kSoftFinger: {
      Eigen::MatrixXd T(6, 2);
      for (int k = 0; k < 2; ++k) T.col(k) = revolute_twist(contact.pos, R.col(k + 1), reference);
      return T;
    }
    case ContactModel::kCompleteConstraint: return Eigen::MatrixXd(6, 0);  // welded: no passive joint
    case ContactModel::kFrictionlessPoint: {
      Eigen::MatrixXd T(6, 5);
      for (int k = 0; k < 3; ++k) T.col(k) = revolute_twist(contact.pos, R.col(k), reference);
      T.col(3) = prismatic_twist(R.col(1));
      T.col(4) = prismatic_twist(R.col(2));
      return T;
    }
  }
  throw ParallelError("contact_passive_twists: unknown contact model");
}

Eigen::Matrix<double, 6, 3> spherical_joint_twists(const Eigen::Vector3d& center, const Eigen::Vector3d& reference) {
  Eigen::Matrix<double, 6, 3> T;
  for (int k = 0; k < 3; ++k) T.col(k) = revolute_twist(center, Eigen::Vector3d::Unit(k), reference);
  return T;
}

}  // namespace mjhand
