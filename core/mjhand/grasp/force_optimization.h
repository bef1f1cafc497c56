// Optimal contact force distribution: the smallest contact forces (sum of normal forces) that balance a given object
// wrench with every contact inside its linearised friction cone, solved as a linear program with GLPK.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/grasp_statics.h>

namespace mjhand {

struct ForceOptimizationOptions {
  int cone_edges = 8;             // facets of the inscribed friction pyramid (3..64); inscribed, so every solution also
                                  // lies in the exact circular cone
  double min_normal_force = 0.0;  // f_n >= this at every contact [N] (> 0 keeps contacts from opening)
  double max_normal_force = std::numeric_limits<double>::infinity();  // optional actuator limit per contact [N]
};

enum class ForceStatus {
  kOptimal,       // lambda balances W inside every cone
  kInfeasible,    // no admissible lambda: W outside the reachable wrench set (friction too low, G rank deficient in
                  // W's direction, min_normal_force incompatible with W, or no contacts and W != 0)
  kUnbounded,     // cannot happen with a positive objective; reported if GLPK says so
  kInvalidInput,  // sizes, NaN/inf, negative friction, cone_edges outside 3..64, min > max normal force
  kSolverError,   // GLPK failed (numerical trouble); lambda is not usable
};

// Human-readable reason for messages.
const char* to_string(ForceStatus status);

struct ForceDistribution {
  ForceStatus status = ForceStatus::kInvalidInput;
  Eigen::VectorXd lambda;            // contact forces (contact frames), zero-filled unless kOptimal
  double total_normal_force = 0.0;   // objective: sum of f_n [N]
  double wrench_residual = 0.0;      // |G lambda + W| of the returned lambda
  double min_cone_margin = 0.0;      // smallest friction_cone_margin over contacts [N] (exact cones)
  std::string message;               // "" when optimal, else why not

  bool ok() const { return status == ForceStatus::kOptimal; }
};

// minimise sum f_n  s.t.  -G lambda = W,  f_n >= min_normal_force (<= max),  for each contact edge k:
// cos(phi_k) f_t + sin(phi_k) f_o <= mu cos(pi/N) f_n with phi_k = (2k+1) pi / N (pyramid with vertices at
// angles 2 pi k / N from t, the same edges as the wrench space), and |m_n| <= mu_torsion f_n for soft fingers;
// the moments of a complete-constraint contact are free (no friction limit, contact_model.h).
ForceDistribution optimal_forces(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                                 const Wrench& W, const ForceOptimizationOptions& options = {});

}  // namespace mjhand
