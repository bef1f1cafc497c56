// Closed-chain kinematics of the 3-UR hand (section 2's loop equations c_i(finger) = p + R c~_i): inverse (object
// pose -> 9 joint angles, closed form per finger) and forward (9 joint angles -> object pose, Levenberg-Marquardt).
#pragma once

#include <array>
#include <string>

#include <mjhand/parallel/three_ur_hand.h>

namespace mjhand {

// Which of a finger's four inverse solutions: reach = sign of m_i (+1: the finger plane e_i points from a_i toward
// the contact, -1: away from it, theta_i1 + pi); elbow = sign of theta_i3. The grasp in models/three_ur_hand.xml is
// reach +1, elbow -1 (the distal link folds back toward the object).
struct FingerBranch {
  int reach = +1;
  int elbow = -1;
};
using ThreeURBranches = std::array<FingerBranch, 3>;

enum class FingerIKStatus {
  kOk,
  kUnreachable,  // |c_i - a_i| in the finger plane is outside [|l - d|, l + d]
  kSingular,     // c_i straight above a_i: theta_i1 is undefined (m_i = 0)
};

// Human-readable name for messages.
const char* to_string(FingerIKStatus status);

struct ThreeURInverse {
  ThreeURJoints theta = ThreeURJoints::Zero();  // wrapped to (-pi, pi]; a finger that is not kOk keeps zeros
  std::array<FingerIKStatus, 3> status{{FingerIKStatus::kOk, FingerIKStatus::kOk, FingerIKStatus::kOk}};
  std::array<double, 3> reach_margin{{0, 0, 0}};  // [m] distance of |(m_i, n_i)| to the nearer workspace boundary
                                                   // (|l - d| or l + d); negative when unreachable
  std::string message;                             // "" when every finger is kOk

  // True when every finger is kOk (the 9 angles are usable).
  bool ok() const;
};

// Solves each finger's loop equation in closed form: theta_i1 = atan2 of the horizontal part of c_i - a_i (per
// reach), theta_i3 from the cosine law, theta_i2 = atan2(n, m) - atan2(d sin t3, l + d cos t3). Throws ParallelError
// for an invalid hand or a non-finite pose.
ThreeURInverse three_ur_inverse(const ThreeURHand& hand, const ObjectPose& pose, const ThreeURBranches& branches = {});

enum class ForwardStatus {
  kConverged,      // every loop closes within closure_tolerance
  kNotClosed,      // the iteration settled but the loops do not close: the 9 angles are inconsistent (the hand is
                   // redundant: 9 angles for 6 pose coordinates); pose is the least-squares fit
  kMaxIterations,  // stopped before the step fell below step_tolerance
};

// Human-readable name for messages.
const char* to_string(ForwardStatus status);

struct ForwardOptions {
  int max_iterations = 100;
  double step_tolerance = 1e-14;      // stop when |(dp, dphi)| falls below this
  double closure_tolerance = 1e-9;    // [m] largest loop error accepted as closed
  bool use_initial = false;           // start from `initial` instead of the fingertips' best-fit (Kabsch) pose
  ObjectPose initial;
};

struct ThreeURForward {
  ObjectPose pose;
  ForwardStatus status = ForwardStatus::kMaxIterations;
  double loop_error = 0.0;  // [m] max_i |p + R c~_i - c_i(Theta)|
  int iterations = 0;
  std::string message;      // "" when converged
};

// Solves the 9 loop equations for (p, R) by Levenberg-Marquardt on R <- exp(dphi^) R, p <- p + dp. The start is
// `initial` or the rigid best fit of c~_i onto the fingertips (Kabsch). Throws ParallelError for non-finite angles
// or an invalid hand.
ThreeURForward three_ur_forward(const ThreeURHand& hand, const ThreeURJoints& theta, const ForwardOptions& options = {});

// Fingertip c_i of each finger for the 9 angles (finger_geometry per finger).
std::array<Eigen::Vector3d, 3> fingertips(const ThreeURHand& hand, const ThreeURJoints& theta);

}  // namespace mjhand
