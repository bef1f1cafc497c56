// Joint-space and fingertip Cartesian reference trajectories for the joint controllers (issue 4, item 6):
// the direct-drive hand's quintic point-to-point move and cosine open/close cycle (Ebner & Wallace 1994, 4.2-4.3)
// and e_GRASP's fingertip paths through via points passed near without stopping (Mattar 2013, section 6).
// Every trajectory is immutable after construction and evaluates without allocating, so one object serves every
// mjData of a model in any thread.
#pragma once

#include <Eigen/Core>

#include <vector>

#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

// A desired joint motion: position, velocity and acceleration of dof() joints at time t [s] (rad, rad/s, rad/s^2).
class JointTrajectory {
 public:
  virtual ~JointTrajectory() = default;
  // Number of joints the trajectory drives.
  virtual int dof() const = 0;
  // Fills q, qd, qdd (dof() values each); must not allocate, since controllers call it in every callback.
  virtual void evaluate(double t, double* q, double* qd, double* qdd) const = 0;
};

// Fifth-order polynomial from q0 to q1 in T seconds starting at t0 with zero boundary velocity and acceleration
// (direct-drive 4.3: a0 = q0, a1 = a2 = 0, a3 = 10 dq / T^3, a4 = -15 dq / T^4, a5 = 6 dq / T^5). Holds q0 before
// t0 and q1 after t0 + T, so the reference is C2 everywhere.
class QuinticTrajectory : public JointTrajectory {
 public:
  // Throws std::invalid_argument for mismatched lengths, non-finite values or T <= 0.
  QuinticTrajectory(std::vector<double> q0, std::vector<double> q1, double T, double t0 = 0.0);
  int dof() const override { return static_cast<int>(q0_.size()); }
  void evaluate(double t, double* q, double* qd, double* qdd) const override;
  // Coefficients a0..a5 of joint i (time measured from t0), as printed in the paper.
  std::vector<double> coefficients(int i) const;

 private:
  std::vector<double> q0_, q1_;
  double T_, t0_;
};

// The direct-drive hand's fast open/close cycle: theta(t) = A/2 (1 - cos(omega (t - t0))) + offset per joint.
// The paper's numbers (A = 85 deg, offset = 2.5 deg, omega = 360 deg * 3/2 per s = 540 deg/s) are the defaults of
// paper_cosine(); here everything is in radians. Before t0 the joints hold `offset`.
class CosineTrajectory : public JointTrajectory {
 public:
  // Throws std::invalid_argument for mismatched lengths, non-finite values or omega <= 0.
  CosineTrajectory(std::vector<double> amplitude, std::vector<double> offset, double omega, double t0 = 0.0);
  int dof() const override { return static_cast<int>(amplitude_.size()); }
  void evaluate(double t, double* q, double* qd, double* qdd) const override;

 private:
  std::vector<double> amplitude_, offset_;
  double omega_, t0_;
};

// The paper's cycle for n joints: A = 85 deg, offset 2.5 deg, omega = 540 deg/s (converted here, at the edge).
CosineTrajectory paper_cosine(int n, double t0 = 0.0);

// A Cartesian point path through waypoints W0..Wn: straight segments of durations T_k joined by parabolic blends of
// duration tb centred on the nominal knot times (the velocity ramps linearly from v_{k-1} to v_k over the blend).
// The motion starts at rest at t0, ends at rest at t0 + tb + sum T_k, follows the straight segments exactly outside
// the blends, and misses interior waypoint k by |v_k - v_{k-1}| tb / 8 (at the knot time), never stopping there.
class ViaPointPath {
 public:
  // waypoints: at least 2 (start, ..., goal); durations: one per segment, each >= blend > 0.
  // Throws std::invalid_argument for non-finite values, a zero-length segment, blend outside (0, min T], or a
  // via point where the blended velocity passes through zero (the path would reverse and stop there).
  ViaPointPath(std::vector<Eigen::Vector3d> waypoints, std::vector<double> durations, double blend, double t0 = 0.0);
  // Position, velocity, acceleration at t (held at the ends outside [start, end]).
  void evaluate(double t, Eigen::Vector3d* x, Eigen::Vector3d* xd, Eigen::Vector3d* xdd) const;
  double start_time() const { return t0_; }
  double end_time() const { return knots_.back() + tb_ / 2; }
  // Time of closest nominal approach to waypoint k (the knot time).
  double knot_time(int k) const { return knots_[k]; }
  int waypoint_count() const { return static_cast<int>(w_.size()); }
  const Eigen::Vector3d& waypoint(int k) const { return w_[k]; }
  // Blend duration tb [s].
  double blend() const { return tb_; }
  // The via point (1 .. waypoint_count() - 1) the path is heading for at time t: the first whose blend has not
  // ended by t (the goal after the last blend).
  int heading_for(double t) const;
  // Distance from waypoint k to the path at its knot time: |v_k - v_{k-1}| tb / 8 (0 for the start and goal).
  double via_miss(int k) const;
  // Smallest speed inside the interior blends (the path never stops between start and goal when this is > 0).
  double min_interior_speed() const;

 private:
  std::vector<Eigen::Vector3d> w_, v_;  // v_[k]: velocity on segment k
  std::vector<double> knots_;           // nominal knot times s_0..s_n
  double tb_, t0_;
};

// The fingertip path of computed_torque's trajectory=via: from the chain's tip at q_start (its FK, in the chain's
// reference frame) through `points` in that frame, one duration per segment, blend <= 0 giving a quarter of the
// shortest segment, starting at t0. Throws std::invalid_argument as ViaPointPath does, and for a q_start of the wrong
// size or no points.
ViaPointPath via_path_from_tip(const SerialChain& chain, const std::vector<double>& q_start,
                               const std::vector<Eigen::Vector3d>& points, std::vector<double> durations,
                               double blend, double t0 = 0.0);

// How a fingertip path resolves a finger's redundancy (more than 3 joints for a 3-D point): the joint velocity is
// the minimum-norm one that moves the tip as the path asks, plus a pull toward a rest posture inside the null space
// of the position Jacobian J (3 x n), proportional to the tip's speed:
//   qd = J+ xd + posture_gain |xd| (I - J+ J) (q_rest - q),   J+ = J^T (J J^T)^-1.
// The pull is per metre of tip travel, not per second, so the joint path depends on the geometric path only (not
// on its timing), and the joints stop when the tip stops (at the start, the goal and outside the path's span).
struct ViaRedundancy {
  double posture_gain = 50.0;  // [1/m] the posture error's null-space part decays by e every 1 / gain (20 mm) of tip
                               // travel (finite, >= 0; 0 gives the minimum-norm joint velocity alone)
  std::vector<double> rest;    // q_rest [rad or m], one per joint; empty: the start posture q_start
};

// A ViaPointPath of a serial chain's tool point converted to joint space, for any serial chain: a DH chain
// (to_serial_chain), an MJCF finger read from the kinematic tree (hand/tree_chains.h, TreeChain::chain), or a
// generated hand's embedded chain (read_model_chains, its TreeChain::chain). The path is in the chain's reference frame (where chain.base is
// expressed). Two regimes, chosen by the number of joints:
// - 3 joints (square position Jacobian): the path is sampled densely and solved with the kinematics core's DLS IK by
//   continuation from q_start (which also fixes the IK branch); each evaluate() refines the linearly interpolated
//   sample with Newton steps on the exact FK (stack-only, tip_pose_and_jacobian), then qd = J^-1 xd and
//   qdd = J^-1 (xdd - Jdot qd), Jdot qd from a second central difference of the FK along qd.
// - more than 3 joints (redundant): the ODE of ViaRedundancy is integrated from q_start (RK4 at the sample period,
//   each step projected back onto the path by minimum-norm Newton steps q += J+ e); q and qd are stored per sample.
//   evaluate() interpolates them with cubic Hermite polynomials, projects onto the path with minimum-norm Newton
//   steps, returns qd from the ODE at that q and qdd as its time derivative (the t-derivatives of J+ and of the
//   null-space projector from central differences of J along qd), so that J qd = xd and J qdd + Jdot qd = xdd.
// Construction checks every sample: the tip on the path (residual < 1e-9 m), J's smallest singular value >= 1e-6 m,
// every joint inside its limits [lower, upper] (to 1e-9). A failure throws std::invalid_argument naming the via point
// the path is heading for, the time and point, and: for a via point outside the finger's reach within its joint
// limits, the distance from the closest tip position found (DLS IK from the last good posture, q_start and the
// middle of the joint ranges); for a joint limit, the joint's index, value, range and the excess.
class ViaJointTrajectory : public JointTrajectory {
 public:
  // chain: at least 3 joints, at most kMaxStackChainDof (32), joints inside their limits at q_start.
  // Throws std::invalid_argument as described above, and for bad sizes, non-finite values or a bad posture_gain.
  ViaJointTrajectory(SerialChain chain, ViaPointPath path, std::vector<double> q_start, double sample_period = 1e-3,
                     ViaRedundancy redundancy = {});
  // A DH chain: the same as its to_serial_chain (bit for bit the same FK, so the same numbers).
  ViaJointTrajectory(const Chain& chain, ViaPointPath path, std::vector<double> q_start, double sample_period = 1e-3,
                     ViaRedundancy redundancy = {});
  int dof() const override { return chain_.dof(); }
  void evaluate(double t, double* q, double* qd, double* qdd) const override;
  const ViaPointPath& path() const { return path_; }
  const SerialChain& chain() const { return chain_; }
  // True when the chain has more than 3 joints (the ViaRedundancy regime).
  bool redundant() const { return chain_.dof() > 3; }

 private:
  void sample_square(const std::vector<double>& q_start);
  void sample_redundant(const std::vector<double>& q_start);
  [[noreturn]] void fail_unreachable(double t, const Eigen::Vector3d& x, const double* q_good, const char* reason,
                                     double miss) const;
  // Throws naming the path point at t and its heading when J's smallest singular value there is below kSigmaMin.
  void require_regular(double t, const Eigen::Vector3d& x, double sigma_min) const;
  // The redundant regime's joint velocity qd = F(q, t), and (if qdd) its time derivative along the motion.
  void redundant_rates(const double* q, const Eigen::Vector3d& xd, const Eigen::Vector3d& xdd, double* qd,
                       double* qdd) const;
  // Minimum-norm Newton steps q += J+ (x - FK(q)); returns the final residual [m].
  double project_min_norm(const Eigen::Vector3d& x, double* q) const;

  SerialChain chain_;
  ViaPointPath path_;
  double dt_;
  ViaRedundancy redundancy_;
  std::vector<double> q_start_;
  std::vector<double> samples_;      // (count x dof) joint positions at start + k dt
  std::vector<double> rate_samples_; // (count x dof) joint velocities (redundant regime only)
  int count_ = 0;
};

}  // namespace mjhand
