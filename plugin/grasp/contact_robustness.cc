#include <mjhand/grasp/contact_robustness.h>

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <stdexcept>
#include <string>

#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

void require_hard_fingers(const char* fn, const std::vector<Contact>& contacts) {
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (contacts[i].model != ContactModel::kHardFinger) {
      throw std::invalid_argument(std::string(fn) + ": contact " + std::to_string(i) + " is a " +
                                  to_string(contacts[i].model) +
                                  " contact; PCR/PGR (Pozzi et al. 2017) are defined for hard-finger contacts");
    }
  }
}

// S and Kz with their documented defaults (identity) filled in; sizes checked.
void check_grasp(const char* fn, const QuasiStaticGrasp& g, Eigen::MatrixXd& S, Eigen::MatrixXd& Kz) {
  const Eigen::Index m = g.G.cols(), nq = g.J.cols();
  require_size(fn, "grasp.G", g.G, 6, m, "6 x m");
  require_size(fn, "grasp.J", g.J, m, nq, "m x n_q (m = columns of G)");
  require_size(fn, "grasp.Kc", g.Kc, m, m, "m x m");
  require_size(fn, "grasp.Kq", g.Kq, nq, nq, "n_q x n_q (n_q = columns of J)");
  S = g.S.size() == 0 ? Eigen::MatrixXd::Identity(nq, nq) : g.S;
  require_size(fn, "grasp.S", S, nq, S.cols(), "n_q x n_z");
  Kz = g.Kz.size() == 0 ? Eigen::MatrixXd::Identity(S.cols(), S.cols()) : g.Kz;
  require_size(fn, "grasp.Kz", Kz, S.cols(), S.cols(), "n_z x n_z (n_z = columns of S)");
  if (!g.G.allFinite() || !g.J.allFinite() || !S.allFinite() || !g.Kc.allFinite() || !g.Kq.allFinite() ||
      !Kz.allFinite()) {
    throw std::invalid_argument(std::string(fn) + ": the quasi-static grasp has NaN/inf entries");
  }
}

// E and the K-weighted right inverse Gk of G for given (already reduced) matrices.
void internal_basis(const Eigen::MatrixXd& G, const Eigen::MatrixXd& J, const Eigen::MatrixXd& S,
                    const Eigen::MatrixXd& Kc, const Eigen::MatrixXd& Kq, const Eigen::MatrixXd& Kz,
                    Eigen::MatrixXd& E, Eigen::MatrixXd& Gk) {
  const Eigen::Index m = G.cols();
  Gk = stiffness_weighted_pseudo_inverse(G, Kc);
  const Eigen::MatrixXd Pq = (Eigen::MatrixXd::Identity(m, m) - Gk * G) * Kc * J;
  const Eigen::MatrixXd Uq = J.transpose() * Pq;
  const Eigen::MatrixXd X = (Uq + Kq).fullPivLu().solve(Kq);
  const Eigen::MatrixXd Z = S.transpose() * Uq * X * S;
  const Eigen::MatrixXd Y = (Z + Kz).fullPivLu().solve(Kz);
  const Eigen::MatrixXd P = Pq * X * S * Y;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(P, Eigen::ComputeFullU);
  const auto& sv = svd.singularValues();
  int rank = 0;
  const double tol = 1e-9 * (sv.size() ? sv(0) : 0.0);
  while (rank < sv.size() && sv(rank) > tol) ++rank;
  E = svd.matrixU().leftCols(rank);
}

}  // namespace

double potential_contact_robustness(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& Gp,
                                    const Eigen::Ref<const Eigen::MatrixXd>& E, const RobustnessOptions& options,
                                    VcostOptimum* optimum) {
  require_hard_fingers("potential_contact_robustness", contacts);
  if (contacts.empty()) throw std::invalid_argument("potential_contact_robustness: no contacts");
  const VcostOptimum opt = minimize_force_closure_cost(contacts, Gp, options.w, E, options.cost,
                                                       Eigen::VectorXd::Constant(E.cols(), options.y0), options.search);
  if (optimum) *optimum = opt;
  return static_cast<double>(contacts.size()) / opt.cost;
}

Eigen::MatrixXd quasistatic_internal_force_basis(const QuasiStaticGrasp& grasp) {
  Eigen::MatrixXd S, Kz, E, Gk;
  check_grasp("quasistatic_internal_force_basis", grasp, S, Kz);
  internal_basis(grasp.G, grasp.J, S, grasp.Kc, grasp.Kq, Kz, E, Gk);
  return E;
}

StateCombination evaluate_state_combination(const std::vector<Contact>& contacts, const QuasiStaticGrasp& grasp,
                                            const std::vector<ContactState>& states, const RobustnessOptions& options) {
  const char* fn = "evaluate_state_combination";
  require_hard_fingers(fn, contacts);
  Eigen::MatrixXd S, Kz;
  check_grasp(fn, grasp, S, Kz);
  require_length(fn, "grasp.G columns", grasp.G.cols(), total_rows(contacts), "3 x number of contacts");
  require_length(fn, "states", static_cast<Eigen::Index>(states.size()), static_cast<Eigen::Index>(contacts.size()),
                 "one per contact");
  StateCombination out;
  out.states = states;
  // Kept rows (contact-frame components) and the reduced contact list: a sliding contact keeps its normal row and
  // is treated as a frictionless point (fmin, fmax only).
  std::vector<int> rows;
  std::vector<Contact> kept;
  for (size_t i = 0; i < contacts.size(); ++i) {
    const int r0 = 3 * static_cast<int>(i);
    if (states[i] == ContactState::kDetached) continue;
    Contact c = contacts[i];
    if (states[i] == ContactState::kSliding) {
      rows.push_back(r0);
      c.model = ContactModel::kFrictionlessPoint;
    } else {
      for (int k = 0; k < 3; ++k) rows.push_back(r0 + k);
    }
    kept.push_back(c);
  }
  const int ms = static_cast<int>(rows.size());
  if (ms < 6) return out;  // fewer than 6 force components cannot constrain 6 freedoms
  Eigen::MatrixXd Gs(6, ms), Js(ms, grasp.J.cols()), Ks(ms, ms);
  for (int a = 0; a < ms; ++a) {
    Gs.col(a) = grasp.G.col(rows[a]);
    Js.row(a) = grasp.J.row(rows[a]);
    for (int b = 0; b < ms; ++b) Ks(a, b) = grasp.Kc(rows[a], rows[b]);
  }
  // Rank 6 with singular values above 1e-9 sigma_max, so that G_S Kc G_S^T (squared) stays well above the 1e-12
  // pivot threshold of stiffness_weighted_pseudo_inverse; a nearly singular G_S counts as not holding the object.
  if (numerical_rank(Gs, 1e-9) < 6) return out;
  Eigen::MatrixXd E, Gk;
  try {
    internal_basis(Gs, Js, S, Ks, grasp.Kq, Kz, E, Gk);
  } catch (const std::runtime_error&) {
    return out;  // G_S Kc G_S^T singular for this stiffness: the kept contacts do not hold the object
  }
  out.feasible = true;
  out.optimum = minimize_force_closure_cost(kept, Gk, options.w, E, options.cost,
                                            Eigen::VectorXd::Constant(E.cols(), options.y0), options.search);
  out.quality = static_cast<double>(kept.size()) / out.optimum.cost;
  return out;
}

PgrResult potential_grasp_robustness(const std::vector<Contact>& contacts, const QuasiStaticGrasp& grasp,
                                     const RobustnessOptions& options, int max_contacts) {
  const int nc = static_cast<int>(contacts.size());
  if (nc < 1) throw std::invalid_argument("potential_grasp_robustness: no contacts");
  if (nc > max_contacts) {
    throw std::invalid_argument("potential_grasp_robustness: " + std::to_string(nc) + " contacts give 3^" +
                                std::to_string(nc) + " state combinations; max_contacts is " +
                                std::to_string(max_contacts));
  }
  int count = 1;
  for (int i = 0; i < nc; ++i) count *= 3;
  PgrResult res;
  res.quality.assign(count, 0.0);
  std::vector<ContactState> states(nc);
  for (int idx = 0; idx < count; ++idx) {
    for (int i = 0, rest = idx; i < nc; ++i, rest /= 3) states[i] = static_cast<ContactState>(rest % 3);
    const StateCombination c = evaluate_state_combination(contacts, grasp, states, options);
    res.quality[idx] = c.quality;
    if (c.feasible) ++res.feasible;
    if (idx == 0) res.pcr = c.quality;
    if (c.quality > res.pgr) {
      res.pgr = c.quality;
      res.best = states;
    }
  }
  return res;
}

}  // namespace mjhand
