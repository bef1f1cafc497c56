#include <mjhand/grasp/contact_robustness.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <mjhand/util/dense_decompositions.h>
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

PgrResult pgr_over_combinations(const std::vector<Contact>& contacts, const QuasiStaticGrasp& grasp,
                                const StateCombinations& combinations, const RobustnessOptions& options) {
  const size_t nc = contacts.size();
  if (nc < 1) throw std::invalid_argument("pgr_over_combinations: no contacts");
  PgrResult res;
  res.quality.assign(combinations.size(), 0.0);
  bool pcr_listed = false;
  for (size_t k = 0; k < combinations.size(); ++k) {
    const std::vector<ContactState>& states = combinations[k];
    if (states.size() != nc) {
      throw std::invalid_argument("pgr_over_combinations: combination " + std::to_string(k) + " has " +
                                  std::to_string(states.size()) + " states for " + std::to_string(nc) + " contacts");
    }
    const StateCombination c = evaluate_state_combination(contacts, grasp, states, options);
    res.quality[k] = c.quality;
    if (c.feasible) ++res.feasible;
    const bool all_sticking =
        std::all_of(states.begin(), states.end(), [](ContactState s) { return s == ContactState::kSticking; });
    if (all_sticking) {
      res.pcr = c.quality;
      pcr_listed = true;
    }
    if (c.quality > res.pgr) {
      res.pgr = c.quality;
      res.best = states;
    }
  }
  if (!pcr_listed) {
    res.pcr = evaluate_state_combination(contacts, grasp, std::vector<ContactState>(nc, ContactState::kSticking),
                                         options).quality;
  }
  return res;
}

namespace {

void require_counts(const char* fn, int nc, int sticking) {
  if (nc < 1 || sticking < 0 || sticking > nc) {
    throw std::invalid_argument(std::string(fn) + ": need 0 <= sticking <= n_c and n_c >= 1, got n_c = " +
                                std::to_string(nc) + ", sticking = " + std::to_string(sticking));
  }
}

// Longest heuristic list built (each entry costs a force-closure minimisation in pgr_over_combinations; the brute
// force's 8 contacts give 3^8 = 6561): a longer one is refused before it is built.
constexpr double kMaxCombinations = 1e5;

double binomial(int n, int k) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

void require_list_size(const char* fn, double count) {
  if (count > kMaxCombinations) {
    throw std::invalid_argument(std::string(fn) + ": " + std::to_string(count) + " combinations exceed the limit of " +
                                std::to_string(static_cast<long>(kMaxCombinations)) +
                                " (each is a force-closure minimisation); use fewer contacts or another heuristic");
  }
}

// Every subset of {0..n-1} of size k, as index lists in lexicographic order (nchoosek's order).
std::vector<std::vector<int>> subsets(const std::vector<int>& items, int k) {
  std::vector<std::vector<int>> out;
  std::vector<int> pick;
  const int n = static_cast<int>(items.size());
  if (k < 0 || k > n) return out;
  std::vector<int> idx(k);
  for (int i = 0; i < k; ++i) idx[i] = i;
  while (true) {
    pick.clear();
    for (int i : idx) pick.push_back(items[i]);
    out.push_back(pick);
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) --i;
    if (i < 0) break;
    ++idx[i];
    for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
  }
  return out;
}

std::vector<int> complement(int nc, const std::vector<int>& chosen) {
  std::vector<int> rest;
  for (int i = 0; i < nc; ++i) {
    if (std::find(chosen.begin(), chosen.end(), i) == chosen.end()) rest.push_back(i);
  }
  return rest;
}

std::vector<int> all_contacts(int nc) {
  std::vector<int> a(nc);
  for (int i = 0; i < nc; ++i) a[i] = i;
  return a;
}

}  // namespace

StateCombinations pgr_h2_combinations(int nc, int sticking) {
  require_counts("pgr_h2_combinations", nc, sticking);
  require_list_size("pgr_h2_combinations", binomial(nc, sticking));
  StateCombinations out;
  for (const std::vector<int>& s : subsets(all_contacts(nc), sticking)) {
    std::vector<ContactState> c(nc, ContactState::kDetached);
    for (int i : s) c[i] = ContactState::kSticking;
    out.push_back(c);
  }
  return out;
}

StateCombinations pgr_h3_combinations(int nc, int sticking) {
  require_counts("pgr_h3_combinations", nc, sticking);
  const int rest = nc - sticking;
  require_list_size("pgr_h3_combinations", binomial(nc, sticking) * std::pow(2.0, rest));
  StateCombinations out;
  for (const std::vector<int>& s : subsets(all_contacts(nc), sticking)) {
    const std::vector<int> others = complement(nc, s);
    for (int bits = 0; bits < (1 << rest); ++bits) {
      std::vector<ContactState> c(nc, ContactState::kSticking);
      for (int j = 0; j < rest; ++j) c[others[j]] = (bits >> j) & 1 ? ContactState::kDetached : ContactState::kSliding;
      out.push_back(c);
    }
  }
  return out;
}

StateCombinations pgr_h4_combinations(int nc) {
  if (nc < 1) throw std::invalid_argument("pgr_h4_combinations: need n_c >= 1, got " + std::to_string(nc));
  require_list_size("pgr_h4_combinations",
                    nc < 4 ? std::pow(3.0, nc) : binomial(nc, 2) * (binomial(nc - 2, 2) + binomial(nc - 2, 3)));
  StateCombinations out;
  if (nc < 4) {
    int count = 1;
    for (int i = 0; i < nc; ++i) count *= 3;
    for (int idx = 0; idx < count; ++idx) {
      std::vector<ContactState> c(nc);
      for (int i = 0, r = idx; i < nc; ++i, r /= 3) c[i] = static_cast<ContactState>(r % 3);
      out.push_back(c);
    }
    return out;
  }
  for (const std::vector<int>& s : subsets(all_contacts(nc), 2)) {
    const std::vector<int> others = complement(nc, s);
    for (int sliding : {2, 3}) {
      for (const std::vector<int>& sl : subsets(others, sliding)) {
        std::vector<ContactState> c(nc, ContactState::kDetached);
        for (int i : s) c[i] = ContactState::kSticking;
        for (int i : sl) c[i] = ContactState::kSliding;
        out.push_back(c);
      }
    }
  }
  return out;
}

StateCombinations pgr_h1_combinations(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda0,
                                      double eps) {
  const int nc = static_cast<int>(contacts.size());
  if (nc < 1) throw std::invalid_argument("pgr_h1_combinations: no contacts");
  if (lambda0.size() != 3 * nc) {
    throw std::invalid_argument("pgr_h1_combinations: lambda0 must have 3 n_c = " + std::to_string(3 * nc) +
                                " entries (hard fingers), got " + std::to_string(lambda0.size()));
  }
  if (!(eps > 0) || !std::isfinite(eps)) {
    throw std::invalid_argument("pgr_h1_combinations: eps must be a finite angle > 0 [rad], got " + std::to_string(eps));
  }
  std::vector<int> free;
  for (int i = 0; i < nc; ++i) {
    const Eigen::Vector3d f = lambda0.segment<3>(3 * i);  // (f_n, f_t, f_o)
    const double norm = f.norm();
    const double alpha = norm > 0 ? std::acos(std::clamp(f(0) / norm, -1.0, 1.0)) : 0.0;
    const double phi = std::atan(contacts[i].mu);
    // SynGrasp's acos(0/0) is NaN, which neither test flags: a zero force stays free.
    if (norm == 0 || (alpha >= eps && phi - alpha >= eps)) free.push_back(i);
  }
  require_list_size("pgr_h1_combinations", std::pow(3.0, static_cast<double>(free.size())));
  StateCombinations out;
  int count = 1;
  for (size_t i = 0; i < free.size(); ++i) count *= 3;
  for (int idx = 0; idx < count; ++idx) {
    std::vector<ContactState> c(nc, ContactState::kSliding);
    for (size_t j = 0, r = idx; j < free.size(); ++j, r /= 3) c[free[j]] = static_cast<ContactState>(r % 3);
    out.push_back(c);
  }
  return out;
}

}  // namespace mjhand
