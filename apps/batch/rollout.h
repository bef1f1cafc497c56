// One rollout of a campaign: a compiled model variant (shared read-only by the workers) and the simulation of one
// spec on a worker's mjData, producing the complete text of its result file and its summary numbers.
#pragma once

#include <mujoco/mujoco.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "campaign.h"
#include <mjhand/grasp/contact_frames.h>
#include <mjhand/io/model_io.h>

namespace mjhand::batch {

// A model compiled from one substituted MJCF text with one plugin configuration (its mjhand instances validated by
// MuJoCo's compile).
struct Variant {
  std::string key;
  ModelPtr model;
  std::string error;  // why it cannot run (compile, plugin or keyframe error): its rollouts fail with this reason
  int keyframe = -1;  // -1: qpos0
  int object = -1;    // reported body, -1: none
  bool has_hand = false;
  HandModel hand;     // fingers for the grasp metrics (when an object is known and the hand can be found)
  std::vector<std::string> columns;  // the time series' columns
  // The contact signals of the model's contact_detection instances, read every step for the contact sequence.
  std::vector<std::string> channel_names;   // "f1_p1", ..., "palm" (instance-prefixed when there are several)
  std::vector<int> channel_adr;             // sensordata address of each channel
};

// Compiles spec's model text (through MuJoCo's VFS under the original file name, so relative includes and meshes
// resolve) with the overrides written into the instances' <config>, applies the campaign timestep. Never throws:
// errors go to .error.
std::unique_ptr<Variant> compile_variant(const Campaign& c, const RolloutSpec& spec);

// What one rollout produced.
struct RolloutResult {
  enum class Status { kOk, kFailed, kDiscarded } status = Status::kFailed;
  std::string reason;      // why it failed ("" when ok)
  double final_time = 0;   // simulated time reached [s]
  long steps = 0;
  bool has_object = false;
  double object_pose[10] = {0};  // x y z [m], qw qx qy qz, ZYX Euler rz ry rx [rad] of the final state
  bool has_grasp = false;
  int contacts = 0;        // object-finger and object-palm contacts in the final state
  double sigma_min = 0;    // sigma_min(G) of those contacts
  std::string force_closure;  // "yes", "no" or why undecided
  double normal_force = 0; // sum of the finger contacts' normal forces [N] (MuJoCo's)
  double isotropy = 0;     // sigma_min / sigma_max of G
  int other_contacts = 0;  // object contacts with anything but a finger or the palm (floor, another object)
  std::string contact_signals;   // channels whose signal is 1 in the final state, space-separated
  std::string contact_sequence;  // "NAME@T" per channel in order of its first signal (T [s], %.4f), space-separated
  std::string series;      // CSV header line + rows (no comment lines)
};

// Simulates spec on d (reset first; d must belong to v.model, or be null when v has an error). Checks for NaN and
// MuJoCo's instability warnings every step and the wall clock every 256 steps; stops early (kDiscarded) when *stop
// becomes true. Deterministic: the result depends only on the spec, never on the thread or on d's history.
RolloutResult run_rollout(const Campaign& c, const RolloutSpec& spec, const Variant& v, mjData* d,
                          const std::atomic<bool>* stop);

// The uniform perturbation in [-a, a) added to qpos entry `i` of a rollout with this scenario and seed
// (splitmix64 counter stream: the same seed perturbs every grid point of a scenario alike, common random numbers).
double init_noise_sample(const std::string& scenario, long seed, int i, double a);

}  // namespace mjhand::batch
