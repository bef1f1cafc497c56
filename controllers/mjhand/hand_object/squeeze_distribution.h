// Contact forces for a desired object wrench without an LP: Mattar eq 40, f = G^+ W + N y, with the internal
// (null-space) part N y restricted to one squeeze direction whose size is found in closed form from the friction
// cones. Fast, allocation-free, deterministic; the hand-object controller's per-step force distribution.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/grasp_statics.h>

namespace mjhand {

struct SqueezeOptions {
  double min_normal_force = 0.5;  // f_n >= this at every contact [N] (> 0: no contact may open)
  double friction_scale = 0.8;    // use this fraction of each contact's mu (and mu_torsion): a safety margin
                                  // against creep of MuJoCo's soft contacts near the cone boundary; (0, 1]
};

enum class SqueezeStatus {
  kOk,              // G lambda = W and every contact is inside its (scaled) cone with f_n >= min_normal_force
  kNoContacts,      // nothing to distribute to: lambda is empty
  kRankDeficient,   // W has a part outside range(G) (too few / degenerate contacts): least-squares G^+ W used
  kConeInfeasible,  // the squeeze direction cannot bring every contact into its cone: lambda is the smallest squeeze
                    // that gives every contact min_normal_force (some cone violated); callers may try the LP
};

// Human-readable reason for reports.
const char* to_string(SqueezeStatus status);

struct SqueezeResult {
  SqueezeStatus status = SqueezeStatus::kNoContacts;
  double squeeze = 0.0;           // size s of the internal part s * d [N]
  double wrench_residual = 0.0;   // |G lambda - W| [N, N m]
  double min_normal_margin = 0.0; // min over contacts of f_n - min_normal_force [N]
  double min_cone_margin = 0.0;   // min over contacts of friction_cone_margin with the unscaled mu [N]
};

// Scratch sized once for up to `max_rows` force components, so that squeeze_forces does not allocate.
struct SqueezeWorkspace {
  explicit SqueezeWorkspace(int max_rows);
  Eigen::VectorXd e, d;  // unit normal squeeze, its projection onto null(G)
};

// lambda (total_rows(contacts) values, contact frames) with G lambda = W (the wrench the hand applies to the object,
// about G's reference point) plus the smallest multiple s of d = P_N e (e: unit normal force at every contact,
// P_N = I - G^+ G the projector onto the internal forces) that puts every contact inside its friction cone scaled by
// friction_scale with f_n >= min_normal_force. Each contact's cone gives an interval of s in closed form (a quadratic
// in s), so the answer is exact for the circular cone, not a pyramid. Never returns NaN: invalid input (non-finite G
// or W) gives lambda = 0 and kRankDeficient with residual |W|. Sizes are checked (std::invalid_argument naming the
// argument): G 6 x total_rows(contacts), lambda total_rows(contacts), ws made for at least that many rows.
SqueezeResult squeeze_forces(const Contact* contacts, int count, const Eigen::Ref<const Eigen::MatrixXd>& G,
                             const Wrench& W, const SqueezeOptions& options, SqueezeWorkspace& ws,
                             Eigen::Ref<Eigen::VectorXd> lambda);

// How distribute_forces found its answer.
enum class ForceMethod : int {
  kSqueeze = 0,        // G^+ W + squeeze: every (scaled) cone satisfied
  kLinearProgram = 1,  // the squeeze could not satisfy the cones, GLPK's optimal_forces did (allocates)
  kBestEffort = 2,     // neither: the smallest squeeze with every f_n >= min_normal_force, some cone violated
  kNoGrasp = 3,        // no contacts, or W outside range(G): forces where possible (least squares)
};

// Human-readable name for reports.
const char* to_string(ForceMethod method);

struct ForceChoice {
  ForceMethod method = ForceMethod::kNoGrasp;
  SqueezeResult result;  // margins and residual of the lambda returned (squeeze = 0 for the LP)
};

// squeeze_forces, and when it reports kConeInfeasible and lp_fallback is set, optimal_forces (GLPK, pyramids with
// 8 edges inscribed in the same scaled cones, minimum sum of normal forces) on the same problem. Only that fallback
// allocates. Never NaN: lambda is finite in every case.
ForceChoice distribute_forces(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                              const Wrench& W, const SqueezeOptions& options, bool lp_fallback, SqueezeWorkspace& ws,
                              Eigen::Ref<Eigen::VectorXd> lambda);

// Margins of a given lambda (as reported in SqueezeResult): min f_n - min_normal_force and min friction_cone_margin.
void force_margins(const Contact* contacts, int count, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                   double min_normal_force, double* normal_margin, double* cone_margin);

}  // namespace mjhand
