// Bad numbers that plugins write during a simulation: the host replaces each by 0 and records it per mjData, so a
// controller never feeds NaN/Inf into MuJoCo and the program can still learn what happened, where and when.
#pragma once

#include <mujoco/mujoco.h>

#include <atomic>

namespace mjhand {

// Where a bad value was caught.
enum class FaultKind : int {
  kCtrl,          // d->ctrl of an actuator the instance owns (Plugin::owned_ctrls)
  kQfrcApplied,   // d->qfrc_applied[dof]
  kXfrcApplied,   // d->xfrc_applied of a body, component 0..5 (force, then torque)
  kQfrcPassive,   // d->qfrc_passive[dof] after a passive plugin added into it
  kActuatorGain,  // what the instance returned as gain of a user actuator it owns
  kActuatorBias,  // ... as bias
  kActuatorDyn,   // ... as activation derivative
  kSensor,        // an element of the sensordata of a <user> sensor the instance owns
};

// "ctrl", "qfrc_applied", ...: the name of the array or quantity.
const char* to_string(FaultKind kind);

// One bad value: NaN, +-Inf or |x| > mjMAXVAL (1e10), i.e. what MuJoCo's own mju_isBad rejects.
struct Fault {
  int instance = -1;  // index into Host::instances()
  FaultKind kind = FaultKind::kCtrl;
  int index = -1;      // actuator id (ctrl, gain, bias, dyn), dof (qfrc_*), body id (xfrc_applied), sensor id
  int component = 0;   // xfrc_applied: 0..5; sensor: element within the sensor's sensordata
  double value = 0;    // the bad value as it was written
  double time = 0;     // d->time when it was caught
};

// The faults of one mjData since the last Host::clear_faults.
struct FaultSummary {
  long count = 0;         // bad values replaced (0: none)
  Fault first;            // the first of them (meaningful when count > 0)
  double last_time = 0;   // d->time of the latest
};

// Per-mjData fault records of one Host without allocation or locks: a fixed table keyed by the mjData's address.
// A slot is taken only when an mjData has its first fault, so the table holds the mjData that went wrong, not all.
// Each mjData is stepped by one thread at a time, which alone writes its slot; readers in other threads see the
// first fault complete once they see count > 0 (release/acquire on count).
class FaultTable {
 public:
  static constexpr int kSlots = 64;
  // Records f for d (rare path: only called when a bad value was found).
  void record(const mjData* d, const Fault& f);
  // The summary for d (count 0 when d had none).
  FaultSummary get(const mjData* d) const;
  // Forgets d's faults and frees its slot; not while d is being stepped.
  void clear(const mjData* d);
  // Faults of mjData that found the table full (replaced all the same, counted here only).
  long untracked() const { return untracked_.load(std::memory_order_relaxed); }

 private:
  struct Slot {
    std::atomic<const mjData*> data{nullptr};
    std::atomic<long> count{0};
    std::atomic<double> last_time{0};
    Fault first;  // written once, by the thread that takes the slot, before count becomes 1
  };
  Slot slots_[kSlots];
  std::atomic<long> untracked_{0};
};

}  // namespace mjhand
