// Potential contact robustness (PCR) and potential grasp robustness (PGR) of Pozzi, Malvezzi & Prattichizzo, "On grasp
// quality measures: grasp robustness and contact force distribution in underactuated and compliant robotic hands",
// IEEE RA-L 2(1):329-336, 2017, as SynGrasp 2.2 implements them (SG_PCR, SG_PGRbruteforce): the inverse of the
// smallest force-closure cost V (force_closure_cost.h) reachable with the controllable internal forces, per contact;
// PGR maximises it over the contact states (sticking, sliding, detached) in which the grasp still holds the object.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/force_closure_cost.h>

namespace mjhand {

struct RobustnessOptions {
  VcostParams cost;               // fmin, fmax, k of V (SynGrasp's SG_PCR uses fmin 1 N, fmax 30 N, k 0.001)
  Wrench w = Wrench::Zero();      // external wrench on the object (SynGrasp: 0, internal forces only)
  double y0 = 0.0;                // every coefficient of the search's start (SynGrasp: 100 for PCR, 0.5 for PGR)
  NelderMeadOptions search;       // the minimisation over y (SynGrasp: fminsearch)
};

// PCR = n_c / min_y V(-Gp w + E y) (SG_PCR: 1 / cost with SGVcostPCR's V / n_c), hard-finger contacts. Gp: m x 6
// right inverse of G (with w = 0 it plays no part), E: m x n_e controllable internal-force basis -- e.g. from the
// quasi-static maps (image of SGquasistaticMaps' P) or controllable_internal_force_basis(G, J_H) for rigid joints.
// Larger is better; 0 < PCR; PCR > n_c k^2 / 3 certifies every force strictly inside its constraints.
// optimum (optional) receives the minimiser. Throws as minimize_force_closure_cost.
double potential_contact_robustness(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& Gp,
                                    const Eigen::Ref<const Eigen::MatrixXd>& E, const RobustnessOptions& options = {},
                                    VcostOptimum* optimum = nullptr);

// Contact state of one contact in a PGR combination (SG_PGRbruteforce's states 1, 2, 3).
enum class ContactState : std::uint8_t {
  kSticking = 0,  // all three force components, contact stiffness K_i (3 x 3)
  kSliding = 1,   // normal force only, stiffness K_i(n, n); bounded by fmin and fmax, no cone
  kDetached = 2,  // no force
};

// The linearised quasi-static grasp of SynGrasp (Prattichizzo, Malvezzi & Bicchi RSS 2010; SGquasistaticMaps) with
// m = 3 n_c hard-finger rows in contact frames: G (6 x m), J = J_H (m x n_q), synergy matrix S (n_q x n_z; empty:
// identity, fully actuated), contact stiffness Kc (m x m, contact frames), joint stiffness Kq (n_q x n_q), synergy
// stiffness Kz (n_z x n_z; empty: identity, as SG_PGRbruteforce sets hand.Kz). Stiffnesses symmetric positive definite.
struct QuasiStaticGrasp {
  Eigen::MatrixXd G, J, S, Kc, Kq, Kz;
};

// Orthonormal basis of the controllable internal forces E = range(P), P = (I - Gk G) Kc J X S Y with
// Gk = Kc G^T (G Kc G^T)^-1, X = (J^T (I - Gk G) Kc J + Kq)^-1 Kq, Y = (S^T J^T (I - Gk G) Kc J X S + Kz)^-1 Kz
// (SGquasistaticMaps' linMaps.P without the geometric terms Kju, Kjq, Ksz). Singular values below 1e-9 sigma_max
// count as zero. Throws std::invalid_argument for inconsistent sizes, std::runtime_error when rank G < 6.
Eigen::MatrixXd quasistatic_internal_force_basis(const QuasiStaticGrasp& grasp);

// One combination of contact states: its quality 1 / (V_min / (n_stick + n_slide)) with V summed over the sticking
// (3 constraints) and sliding (fmin, fmax) contacts, lambda = -Gk_S w + E_S y on the kept rows; feasible = the kept
// rows still constrain the object (rank G_S = 6 with singular values above 1e-9 sigma_max, SynGrasp's
// ker(K G^T) = 0). Infeasible: quality 0.
struct StateCombination {
  std::vector<ContactState> states;
  bool feasible = false;
  double quality = 0.0;
  VcostOptimum optimum;  // on the kept rows (sticking: 3, sliding: 1 each, in contact order)
};

// Evaluates one combination (states.size() == contacts.size()).
StateCombination evaluate_state_combination(const std::vector<Contact>& contacts, const QuasiStaticGrasp& grasp,
                                            const std::vector<ContactState>& states,
                                            const RobustnessOptions& options = {});

struct PgrResult {
  double pgr = 0.0;                        // max over combinations of their quality (0 if none is feasible)
  double pcr = 0.0;                        // quality of the all-sticking combination (SG_PGRbruteforce's PCR)
  std::vector<ContactState> best;          // the maximising combination
  std::vector<double> quality;             // every combination's quality, index sum_i state_i 3^i
  int feasible = 0;                        // number of feasible combinations
};

// PGR = max over the 3^n_c state combinations of their quality (SG_PGRbruteforce, brute force). Contacts must be
// hard fingers; n_c <= max_contacts (default 8: 6561 combinations) else std::invalid_argument -- the count grows as 3^n_c.
PgrResult potential_grasp_robustness(const std::vector<Contact>& contacts, const QuasiStaticGrasp& grasp,
                                     const RobustnessOptions& options = {}, int max_contacts = 8);

// SynGrasp's PGR heuristics (Pozzi et al. 2017 sec. IV; SG_PGRh1 .. SG_PGRh4) are the brute force over a shorter
// list of combinations (each calls SG_PGRbruteforce(hand, object, Comb)); every list below holds each combination
// once, one state per contact. Their PGR is at most the brute force's, equal when the list holds its best combination.
// Each list builder refuses (std::invalid_argument) a list of more than 1e5 combinations before building it.
using StateCombinations = std::vector<std::vector<ContactState>>;

// PGR over the listed combinations only: pgr, best and feasible among them, quality[k] of combinations[k]; pcr is the
// all-sticking combination's quality whether listed or not. Each combination must have contacts.size() states
// (std::invalid_argument naming the combination); contacts must be hard fingers, as potential_grasp_robustness.
PgrResult pgr_over_combinations(const std::vector<Contact>& contacts, const QuasiStaticGrasp& grasp,
                                const StateCombinations& combinations, const RobustnessOptions& options = {});

// SG_PGRh2: exactly `sticking` contacts stick, the others detach: C(n_c, sticking) combinations (0 <= sticking <= n_c).
StateCombinations pgr_h2_combinations(int nc, int sticking);

// SG_PGRh3: exactly `sticking` contacts stick, each other one slides or detaches: C(n_c, sticking) 2^(n_c - sticking).
StateCombinations pgr_h3_combinations(int nc, int sticking);

// SG_PGRh4: 2 contacts stick; of the others exactly 2 or exactly 3 slide and the rest detach:
// C(n_c, 2) (C(n_c - 2, 2) + C(n_c - 2, 3)). With n_c < 4 every 3^n_c combination (SynGrasp calls its brute force).
// SynGrasp has no n_c = 4 case: it evaluates nchoosek(nc0 - 2, 3) = nchoosek(2, 3), which MATLAB rejects ("K must be
// an integer between 0 and N"); here C(2, 3) counts as 0, giving C(4, 2) = 6 combinations (docs/grasp-analysis.md).
StateCombinations pgr_h4_combinations(int nc);

// SG_PGRh1: from the all-sticking optimum lambda0 (PCR's minimiser, VcostOptimum::lambda: 3 rows per contact, contact
// frames), a contact whose force makes an angle alpha with its normal below eps, or within eps of its friction-cone
// edge atan(mu) (or outside it), is fixed to sliding; the others take every state: 3^(free) combinations. SynGrasp
// comments the first case as "lost contact" yet assigns sliding, as here (docs/grasp-analysis.md); it uses one mu
// (0.8) for all contacts, here each contact's mu. eps [rad] > 0 (SynGrasp: 1 degree). A zero force stays free (SynGrasp's
// angle is then NaN, which neither test flags).
StateCombinations pgr_h1_combinations(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda0,
                                      double eps = 0.017453292519943295);

}  // namespace mjhand
