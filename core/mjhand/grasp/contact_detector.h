// Phalanx-level contact detection (SynGrasp-Simscape section 2.2.3.1): per phalanx and palm, the normal force MuJoCo
// computes (mj_contactForce) must exceed a threshold for N consecutive samples before the 0/1 signal goes to 1, so a
// one-sample spike of a rebound never counts; unlike the paper also where (the strongest contact's point and normal
// in the link's frame). Which bodies form which channel (ContactLayout) for generated and any other hands. The
// contact_detection sensor plugin (plugin/mjhand/contact_detection/contact_detection_plugin.h) runs a ContactDetector every step.
#pragma once

#include <mujoco/mujoco.h>

#include <cstring>
#include <string>
#include <vector>

namespace mjhand {

// Signals fit on the stack so the per-step path never allocates; 16 fingers x 15 phalanges is far beyond any hand.
constexpr int kMaxContactChannels = 241;

// Which body each signal belongs to: fingers x phalanges (row-major) then the palm. Shared with hand_closure, which
// reads the signals.
struct ContactLayout {
  std::vector<std::string> fingers;  // in sensor order
  int phalanges = 0;                 // columns: the most links any listed finger has
  std::vector<int> bodies;           // fingers.size() * phalanges body ids, -1 where a finger has fewer links
  int palm = -1;                     // body id, or -1 without a palm channel
  // Number of signals: fingers x phalanges + 1 (the palm's, always present, 0 without a palm).
  int channels() const { return static_cast<int>(bodies.size()) + 1; }
};

// Finger names of the DH chains a generated hand carries (<custom> numeric "mjhand:chain:<finger>"), in model order.
std::vector<std::string> embedded_finger_names(const mjModel* m);

// Layout for fingers and a palm body ("" for none). A finger is a generated hand's (bodies <finger>_link1, _link2, ...
// as mjhand's hand builder names them), else on a hand without embedded chains a finger infer_hand_structure names
// (its bodies), else a root body (its subtree), bodies in body order. Throws std::runtime_error naming a finger that
// is none of these, a missing palm body, or a body in two fingers or in a finger and the palm.
ContactLayout contact_layout(const mjModel* m, const std::vector<std::string>& fingers, const std::string& palm);

// Layout from the keys a contact_detection instance takes: fingers "all" (a generated hand's embedded chains, else
// the fingers infer_hand_structure finds, each named by its root with the most dofs) or "F1,F2,..."; palm a body,
// "none", or nullptr for the default (body "palm" when the model has one, else the inferred hand's palm). Throws
// std::runtime_error as contact_layout does, or when "all" finds no fingers.
ContactLayout contact_layout_from_keys(const mjModel* m, const std::string& fingers, const std::string* palm);

// Names of the signals in sensor order: "<finger>_p<k>" (k from 1) for fingers x phalanges, then "palm".
std::vector<std::string> contact_channel_names(const ContactLayout& layout);

// Debounced detection over a layout. State (nstate() numbers, kept by the caller, e.g. in mjData's plugin state): per
// channel the run length of samples above the threshold, then with `where` per channel the 6 where-values of the
// latest sample. Nothing is allocated after construction.
class ContactDetector {
 public:
  ContactDetector(const mjModel* m, ContactLayout layout, double threshold, int samples, bool where);
  const ContactLayout& layout() const { return layout_; }
  int nstate() const { return (where_ ? 7 : 1) * layout_.channels(); }
  // One sample of d's contacts and their constraint forces (as the step computed them) into state.
  void sample(const mjModel* m, const mjData* d, mjtNum* state) const;
  // The 0/1 signal of every channel (layout().channels() numbers).
  void signals(const mjtNum* state, mjtNum* out) const {
    const int n = layout_.channels();
    for (int c = 0; c < n; ++c) out[c] = state[c] >= samples_ ? 1 : 0;
  }
  // Contact point [m] and outward normal of each channel's strongest contact in the link frame, zeros while its
  // signal is 0 (6 x channels numbers); only for a detector made with `where`.
  void where(const mjtNum* state, mjtNum* out) const {
    const int n = layout_.channels();
    std::memcpy(out, state + n, 6 * n * sizeof(mjtNum));
  }

 private:
  ContactLayout layout_;
  double threshold_;
  int samples_;
  bool where_;
  std::vector<int> channel_of_body_;  // body id -> channel, -1 for bodies that are not the hand's
};

}  // namespace mjhand
