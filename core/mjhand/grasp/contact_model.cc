#include <mjhand/grasp/contact_model.h>

#include <algorithm>
#include <cmath>

#include <mjhand/util/size_check.h>

namespace mjhand {

int contact_rows(ContactModel model) {
  switch (model) {
    case ContactModel::kFrictionlessPoint: return 1;
    case ContactModel::kHardFinger: return 3;
    case ContactModel::kSoftFinger: return 4;
    case ContactModel::kCompleteConstraint: return 6;
  }
  return 3;
}

const char* to_string(ContactModel model) {
  switch (model) {
    case ContactModel::kFrictionlessPoint: return "frictionless point";
    case ContactModel::kHardFinger: return "hard finger";
    case ContactModel::kSoftFinger: return "soft finger";
    case ContactModel::kCompleteConstraint: return "complete constraint";
  }
  return "?";
}

void selection_matrix(ContactModel model, Eigen::Ref<Eigen::MatrixXd> H) {
  require_size("selection_matrix", "H", H, contact_rows(model), 6, "contact_rows(model) x 6");
  H.setZero();
  // The local twist is ordered (v_n, v_t, v_o, w_n, w_t, w_o): the transmitted components are always a prefix.
  for (int r = 0; r < contact_rows(model); ++r) H(r, r) = 1.0;
}

Eigen::MatrixXd selection_matrix(const std::vector<Contact>& contacts) {
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(total_rows(contacts), 6 * static_cast<int>(contacts.size()));
  int row = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const int r = contact_rows(contacts[i].model);
    selection_matrix(contacts[i].model, H.block(row, 6 * static_cast<int>(i), r, 6));
    row += r;
  }
  return H;
}

std::string cone_edges_problem(int cone_edges) {
  if (cone_edges >= kMinConeEdges && cone_edges <= kMaxConeEdges) return "";
  return "cone_edges must be in " + std::to_string(kMinConeEdges) + ".." + std::to_string(kMaxConeEdges) + ", got " +
         std::to_string(cone_edges);
}

int total_rows(const Contact* contacts, int count) {
  int rows = 0;
  for (int i = 0; i < count; ++i) rows += contact_rows(contacts[i].model);
  return rows;
}

double friction_cone_margin(const Contact& c, const double* l) {
  double margin = l[0];
  if (c.model == ContactModel::kFrictionlessPoint) return margin;
  margin = std::min(margin, c.mu * l[0] - std::hypot(l[1], l[2]));
  // kCompleteConstraint: a welded patch, no friction limit on its moments (SynGrasp type 3 has none either).
  if (c.model == ContactModel::kSoftFinger) {
    const double torsion = c.mu_torsion > 0 ? l[0] - std::abs(l[3]) / c.mu_torsion : -std::abs(l[3]) * 1e12;
    margin = std::min(margin, torsion);
  }
  return margin;
}

bool in_friction_cones(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                       double tol) {
  if (lambda.size() != total_rows(contacts)) return false;
  int row = 0;
  for (const Contact& c : contacts) {
    if (!(friction_cone_margin(c, lambda.data() + row) >= -tol)) return false;  // also rejects NaN
    row += contact_rows(c.model);
  }
  return true;
}

}  // namespace mjhand
