// Closing a hand on an object in MuJoCo: along a synergy direction (SynGrasp 2.2 SGcloseHandWithSynergies: the
// synergy amplitudes grow by an increment per iteration until the fingers reach the object), and joint by joint
// until each phalanx touches (the SynGrasp-Simscape hand-closure rule, Pozzi et al. 2022 section 2.2.3.2), which
// records the grasp postures that synergies are fitted to. Both drive the joints with the soft-synergy torque
// tau = K_q (q_r - q) - D qdot written into d->qfrc_applied, so they need no actuators or plugins in the model.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include <mjhand/hand/synergies.h>

namespace mjhand {

// The fingers of a hand: a finger is the subtree of a body that carries a synergy joint and has no synergy-joint
// body above it. Bodies outside every finger and not above one (objects, the world's own geoms) are "the object".
struct HandFingers {
  std::vector<std::string> names;     // per finger: its root body's name, without the "_link1" of mjhand's hands
  std::vector<int> finger_of_body;    // m->nbody entries: finger index, or -1
  std::vector<char> above_fingers;    // m->nbody entries: 1 for the palm and every other ancestor of a finger root
};
HandFingers hand_fingers(const mjModel* m, const SynergyJoints& joints);

// Debounced per-body contact detection (as plugin/mjhand/<type>/contact_detection: the normal force, mj_contactForce,
// between a finger body and the object must exceed `threshold` for `samples` consecutive samples). No allocation
// after construction.
class FingerContacts {
 public:
  FingerContacts(const mjModel* m, HandFingers fingers, double threshold, int samples);
  // One sample from d's current contacts and constraint forces (call after mj_step).
  void sample(const mjModel* m, const mjData* d);
  bool body_touching(int body) const { return run_[static_cast<size_t>(body)] >= samples_; }
  // Number of fingers with a touching body; `touching` (optional, finger count entries) gets 0/1 per finger.
  int fingers_touching(std::vector<char>* touching = nullptr) const;
  const HandFingers& fingers() const { return fingers_; }

 private:
  HandFingers fingers_;
  double threshold_;
  int samples_;
  std::vector<int> run_;       // per body: consecutive samples above threshold
  std::vector<double> force_;  // per body: this sample's normal force
};

struct SynergyClosureOptions {
  // Where the joint reference is taken from: q_r = q_start + S (z - z_start), q_start the synergy joints' posture when
  // the call starts (SynGrasp's SGactivateSynergies: q = hand.q + S z, so a closure can start from the open hand);
  // or the synergies' own posture q_r = q0 + S z.
  enum class Reference { kFromCurrent, kSynergyPosture };
  Reference reference = Reference::kFromCurrent;
  Eigen::VectorXd z_start;    // k amplitudes the closure starts from (the hand is first held there for `settle`)
  Eigen::VectorXd direction;  // k: z moves along direction / |direction|
  double speed = 1.0;         // |dz/dt| [units of z per second]
  double travel = 10.0;       // largest distance z moves along the direction
  Eigen::VectorXd kq, kd;     // joint stiffness [N m/rad] and damping [N m s/rad], n each
  double threshold = 0.01;    // contact detection [N]
  int samples = 10;           // consecutive samples (steps)
  int stop_fingers = 1;       // stop moving z once this many fingers touch the object
  double settle = 0.1;        // [s] held at z_start before the ramp, and at the final z after it
};

struct SynergyClosureResult {
  Eigen::VectorXd z;                 // amplitudes where the ramp stopped
  double travel = 0;                 // distance moved along the direction
  bool stopped_by_contact = false;   // false: the whole travel was used
  std::vector<std::string> fingers;  // names of the fingers touching the object at the end
  int steps = 0;
  double deepest = 0;                // most negative contact distance (penetration) between a finger and the object [m]
};

// Ramps z = z_start + s * direction/|direction| (s = speed * t) under the soft-synergy torque (the reference as
// options.reference says) until stop_fingers
// fingers touch (debounced), then holds z for `settle`. Steps d with mj_step from its current state; writes
// d->qfrc_applied at the synergy dofs every step (other entries untouched). Throws std::invalid_argument on sizes.
SynergyClosureResult close_hand_with_synergies(const mjModel* m, mjData* d, const Synergies& s,
                                               const SynergyClosureOptions& options);

struct JointClosureOptions {
  double rate = 2.0;          // joint reference speed while unblocked [rad/s], toward the joint's upper limit
  Eigen::VectorXd kq, kd;     // n each
  double threshold = 0.01;    // [N]
  int samples = 10;
  double max_time = 3.0;      // [s] of closing at most
  double settle = 0.2;        // [s] held after every reference stopped
};

struct JointClosureResult {
  Eigen::VectorXd q;                 // settled posture (joint order of `joints`)
  std::vector<std::string> fingers;  // fingers touching at the end
  int steps = 0;
};

// The hand-closure rule on torque-driven joints: each joint's reference q_r advances at `rate` (clamped to its upper
// range) unless its body or a body below it touches the object; ends when every reference is blocked or at its
// limit (or after max_time), then holds for `settle`. No synergies involved: this is how the postures that
// synergies are fitted to are recorded. Writes d->qfrc_applied at the joints' dofs.
JointClosureResult close_joints_until_contact(const mjModel* m, mjData* d, const SynergyJoints& joints,
                                              const JointClosureOptions& options);

}  // namespace mjhand
