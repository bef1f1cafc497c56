// Sensor plugin "contact_detection": the paper's phalanx-level contact detection (SynGrasp-Simscape section 2.2.3.1):
// per phalanx and palm, the normal force MuJoCo computes (mj_contactForce) must exceed a threshold for N consecutive
// samples before the 0/1 signal goes to 1, so a one-sample spike of a rebound never counts. Unlike the paper it also
// reports where: the contact point and normal in the link's frame. One sample per step, taken at the step's end
// (MuJoCo's plugin advance) from the contacts and forces the step computed; mj_forward takes none and shows the state
// the last step ended with. Layout and sampling in docs/scenes.md.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

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

// The layout a contact_detection instance declared in m uses (its own keys, as compiled into m), and the id of
// its signal sensor. Throws std::runtime_error when there is no such instance or it is of another type.
ContactLayout declared_contact_layout(const mjModel* m, const std::string& instance, int* signal_sensor);

// The same from an instance's resolved configuration (Instance::config: MJCF keys, then overrides); also the id of
// its where-sensor (-1 without one). Does not validate what the plugin's factory already checked.
ContactLayout configured_contact_layout(const mjModel* m,
                                        const std::vector<std::pair<std::string, std::string>>& config,
                                        int* signal_sensor, int* where_sensor);

// Names of the signals in sensor order: "<finger>_p<k>" (k from 1) for fingers x phalanges, then "palm".
std::vector<std::string> contact_channel_names(const ContactLayout& layout);

// Keys: sensor=SENSOR (its <sensor><plugin>, sized fingers x phalanges + 1), fingers=all|F1,F2,... (default all:
// every embedded chain), palm=BODY|none (default "palm" when the model has it), threshold=N (default 0.01 N),
// samples=N (default 10, as in the paper), where=SENSOR (optional, its <sensor><plugin>, sized 6 x channels: contact
// point [m] and outward normal of the channel's strongest contact in the link frame, zeros while the signal is 0).
std::unique_ptr<Plugin> make_contact_detection_plugin(const mjModel* m, const Config& cfg);

}  // namespace mjhand
