// Damped-least-squares (Levenberg-Marquardt style) inverse kinematics for any DH Chain or SerialChain, within its
// joint limits.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>

#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/forward_kinematics.h>

namespace mjhand {

// Every solve checks these and throws std::invalid_argument naming the first bad one: a NaN or non-positive value
// would otherwise make the loop unbounded, never converge, or silently turn q into NaN.
struct DlsOptions {
  double damping = 1e-6;            // lambda floor [m], finite and >= 0; the solver uses lambda^2 = damping^2 + |e|^2
  int max_iterations = 200;         // >= 1 joint updates at most
  double tolerance = 1e-10;         // converged when the (weighted) error norm is below this [m]; finite and > 0
  double max_step = 0.2;            // largest per-joint change per iteration [rad or m], > 0 (+inf: unlimited);
                                    // keeps the linearisation valid
  double orientation_weight = 0.05; // [m/rad] makes rotation error commensurate with position (about a finger length);
                                    // finite and >= 0
};

// Throws std::invalid_argument naming the offending field if options are out of the ranges documented above.
void validate(const DlsOptions& options);

enum class DlsStatus {
  kConverged,       // error below DlsOptions::tolerance
  kIterationLimit,  // max_iterations updates taken without converging
  kStalled,         // no joint moved (pinned on the limits, or at a singular minimum): more iterations cannot help
  kInvalidInput,    // NaN/inf seed or target (q is left untouched), or a chain whose FK is not finite
};

// Human-readable reason for logs and error messages.
const char* to_string(DlsStatus status);

struct DlsResult {
  bool converged = false;                                       // same as status == DlsStatus::kConverged
  DlsStatus status = DlsStatus::kIterationLimit;                // why the solve stopped
  int iterations = 0;                                           // joint updates taken
  double error = std::numeric_limits<double>::infinity();      // final weighted error norm [m]
  double position_error = std::numeric_limits<double>::infinity();     // [m]
  double orientation_error = std::numeric_limits<double>::infinity();  // [rad], 0 for position-only targets
};

// Everything an iteration touches, sized once from the chain so that solving never allocates.
struct DlsWorkspace {
  // Sizes every buffer for chain; reuse one workspace per chain across calls.
  explicit DlsWorkspace(const Chain& chain);
  // The same for a general serial chain (e.g. a finger read from an MJCF tree, hand/tree_chains.h).
  explicit DlsWorkspace(const SerialChain& chain);

  ChainData data;
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian;  // row-weighted copy of data.jacobian
  Eigen::VectorXd dq;
};

// Moves the tool point to target (reference frame); q holds the initial guess on entry and the solution on return.
// Throws std::invalid_argument for bad options, for a chain with NaN or crossed (lower > upper) joint limits, or for
// a workspace built for a chain with another number of joints.
DlsResult dls_ik_position(const Chain& chain, const Eigen::Vector3d& target, double* q, DlsWorkspace& ws,
                          const DlsOptions& options = {});

// Moves the whole tool frame to target; for chains with fewer than 6 joints only consistent poses converge.
// Throws like dls_ik_position.
DlsResult dls_ik_pose(const Chain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                      const DlsOptions& options = {});

// The same two solvers for a general serial chain (one implementation serves both chain types).
DlsResult dls_ik_position(const SerialChain& chain, const Eigen::Vector3d& target, double* q, DlsWorkspace& ws,
                          const DlsOptions& options = {});
DlsResult dls_ik_pose(const SerialChain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                      const DlsOptions& options = {});

}  // namespace mjhand
