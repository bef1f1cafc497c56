// Grasp wrench space (GWS) from linearised friction cones: Ferrari-Canny epsilon (L1 and L-infinity), GWS volume and
// the force-closure test. The hull comes from mjhand's certified 6-D quickhull (wrench_space_hull.h), with qhull
// (reentrant libqhull_r) as the reference and the fallback.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_model.h>

namespace mjhand {

enum class WrenchNorm {
  kL1,    // sum of normal forces <= 1: GWS = conv(union of every contact's primitive wrenches)
  kLinf,  // every normal force <= 1: GWS = Minkowski sum over contacts of conv({0} u primitive wrenches)
};

// Which convex-hull code computes the wrench space.
enum class WrenchHullMethod {
  kFast,   // L1: WrenchHull (simplicial quickhull, certified), falling back to qhull when it cannot certify its hull;
           // L-infinity: qhull (see docs/grasp-analysis.md)
  kQhull,  // qhull with its default options (merged facets, exact pre-merge): the reference
};

// Default point budget of L-infinity epsilon (prod_i (K_i + 1) Minkowski-sum points): the same in `mjhand analyze`,
// Python and C++ callers. 4 hard contacts at 8 edges (6561 points) stay inside it; 4 soft contacts (83521 points, a
// 6-D hull that takes seconds) are refused (kTooManyPoints) unless a caller raises it.
inline constexpr int kLinfMaxPoints = 10000;

// Default wall-clock limit [s] of a wrench-space hull, the same in `mjhand analyze` and Python: inside the point
// budget an L-infinity hull takes up to ~6 s on an idle 2-core machine (4 hard contacts at 8 edges) and several times
// that under load; past the limit nothing is computed (kTimeLimit). The grasp_analysis sensor uses none, so that a
// rollout's values never depend on the machine's load.
inline constexpr double kLinfTimeLimit = 10.0;

struct WrenchSpaceOptions {
  int cone_edges = 8;            // 3..64 primitive forces per contact: n + mu (cos(2 pi k/N) t + sin(2 pi k/N) o)
  double torque_length = 0.0;    // L [m]: moments are divided by L so they compare with forces; <= 0 selects
                                 // max_i |c_i - p| (the grasp's own radius, scale invariant)
  WrenchNorm norm = WrenchNorm::kL1;
  bool compute_volume = false;   // GWS volume (one 6 x 6 determinant per hull simplex; qhull: an extra pass)
  int max_points = kLinfMaxPoints;  // L-infinity enumerates prod_i (K_i + 1) sums; more than this is refused
  double time_limit = kLinfTimeLimit;  // [s] wall clock from the call; checked before the hull and while qhull adds
                                       // points (the fast L1 hull takes milliseconds and is not checked); <= 0: none
  double closure_tol = 1e-10;    // the origin must be this far (scaled units) inside every facet to count as closure
  WrenchHullMethod hull = WrenchHullMethod::kFast;
};

enum class EpsilonStatus {
  kForceClosure,     // origin strictly inside the GWS: epsilon > 0
  kNotForceClosure,  // origin on or outside the hull: epsilon = 0
  kNoContacts,       // epsilon = 0
  kRankDeficient,    // primitive wrenches span fewer than 6 dimensions (e.g. one or two hard contacts): epsilon = 0
  kTooManyPoints,    // L-infinity enumeration above max_points: nothing computed
  kHullFailed,       // qhull error (message has qhull's exit code): nothing computed
  kTimeLimit,        // the hull was not done within time_limit: stopped, nothing computed
  kInvalidInput,     // NaN/inf, negative friction, cone_edges outside 3..64, a complete-constraint contact
                     // (unbounded moments)
};

// Human-readable reason for messages.
const char* to_string(EpsilonStatus status);

struct EpsilonResult {
  EpsilonStatus status = EpsilonStatus::kInvalidInput;
  double epsilon = 0.0;       // radius of the largest origin-centred ball inside the GWS; 0 unless force closure
  double signed_margin = 0.0; // min over hull facets of their distance from the origin, negative when the origin is
                              // outside (a lower bound of how far); equals epsilon for force closure
  double volume = 0.0;        // GWS volume (if asked), in the scaled (N, N m / L) units
  double torque_length = 0.0; // the L used [m]
  int points = 0;             // wrenches given to the hull
  int facets = 0;             // hull facets (coplanar simplices merged, as qhull reports them)
  std::string message;
  WrenchHullMethod hull = WrenchHullMethod::kFast;  // options.hull, or kQhull when the fast hull fell back to it

  bool force_closure() const { return status == EpsilonStatus::kForceClosure; }
};

// Primitive wrenches (f, (c - p) x f / L) of one contact into out (6 x count returned); soft fingers add +-mu_torsion n /
// L to the moment of each edge (decoupled linearisation of the soft-finger friction set). Returns the count:
// 1 (frictionless), N (hard), 2N (soft). out must have room for that many columns (checked: std::invalid_argument).
// A complete-constraint contact (unbounded moments) throws std::invalid_argument.
int primitive_wrenches(const Contact& contact, const Eigen::Vector3d& reference, int cone_edges, double torque_length,
                       Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> out);

// Ferrari-Canny epsilon of the contacts about `reference` (the object centre). Never NaN; see EpsilonStatus.
// kInvalidInput (message names the contact) for a complete-constraint contact: its wrench set is unbounded.
EpsilonResult ferrari_canny(const std::vector<Contact>& contacts, const Eigen::Vector3d& reference,
                            const WrenchSpaceOptions& options = {});

// Force closure with linearised cones: the L1 GWS contains a ball of radius > tol around the origin. GraspError when
// cone_edges is outside kMinConeEdges..kMaxConeEdges (a bool cannot say "invalid input").
bool is_force_closure(const std::vector<Contact>& contacts, const Eigen::Vector3d& reference, int cone_edges = 8,
                      double tol = 1e-9);

}  // namespace mjhand
