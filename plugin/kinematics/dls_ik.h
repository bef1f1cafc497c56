// Damped-least-squares (Levenberg-Marquardt style) inverse kinematics for any DH Chain, within its joint limits.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>

#include "kinematics/dh_chain.h"
#include "kinematics/forward_kinematics.h"

namespace mjhand {

struct DlsOptions {
  double damping = 1e-6;            // lambda floor [m]; the solver uses lambda^2 = damping^2 + |error|^2
  int max_iterations = 200;
  double tolerance = 1e-10;         // converged when the (weighted) error norm is below this [m]
  double max_step = 0.2;            // largest per-joint change per iteration [rad or m]; keeps the linearisation valid
  double orientation_weight = 0.05; // [m/rad] makes rotation error commensurate with position (about a finger length)
};

struct DlsResult {
  bool converged = false;
  int iterations = 0;                                           // joint updates taken
  double error = std::numeric_limits<double>::infinity();      // final weighted error norm [m]
  double position_error = std::numeric_limits<double>::infinity();     // [m]
  double orientation_error = std::numeric_limits<double>::infinity();  // [rad], 0 for position-only targets
};

// Everything an iteration touches, sized once from the chain so that solving never allocates.
struct DlsWorkspace {
  // Sizes every buffer for chain; reuse one workspace per chain across calls.
  explicit DlsWorkspace(const Chain& chain);

  ChainData data;
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian;  // row-weighted copy of data.jacobian
  Eigen::VectorXd dq;
};

// Moves the tool point to target (reference frame); q holds the initial guess on entry and the solution on return.
DlsResult dls_ik_position(const Chain& chain, const Eigen::Vector3d& target, double* q, DlsWorkspace& ws,
                          const DlsOptions& options = {});

// Moves the whole tool frame to target; for chains with fewer than 6 joints only consistent poses converge.
DlsResult dls_ik_pose(const Chain& chain, const Eigen::Isometry3d& target, double* q, DlsWorkspace& ws,
                      const DlsOptions& options = {});

}  // namespace mjhand
