#include "host/faults.h"

namespace mjhand {

const char* to_string(FaultKind kind) {
  switch (kind) {
    case FaultKind::kCtrl: return "ctrl";
    case FaultKind::kQfrcApplied: return "qfrc_applied";
    case FaultKind::kXfrcApplied: return "xfrc_applied";
    case FaultKind::kQfrcPassive: return "qfrc_passive";
    case FaultKind::kActuatorGain: return "actuator gain";
    case FaultKind::kActuatorBias: return "actuator bias";
    case FaultKind::kActuatorDyn: return "actuator dyn";
    case FaultKind::kSensor: return "sensor";
  }
  return "?";
}

void FaultTable::record(const mjData* d, const Fault& f) {
  for (Slot& s : slots_) {
    if (s.data.load(std::memory_order_acquire) == d) {
      s.last_time.store(f.time, std::memory_order_relaxed);
      s.count.fetch_add(1, std::memory_order_release);
      return;
    }
  }
  for (Slot& s : slots_) {
    const mjData* expected = nullptr;
    if (s.data.compare_exchange_strong(expected, d, std::memory_order_acq_rel)) {
      s.first = f;
      s.last_time.store(f.time, std::memory_order_relaxed);
      s.count.store(1, std::memory_order_release);
      return;
    }
  }
  untracked_.fetch_add(1, std::memory_order_relaxed);
}

FaultSummary FaultTable::get(const mjData* d) const {
  FaultSummary out;
  for (const Slot& s : slots_) {
    if (s.data.load(std::memory_order_acquire) != d) continue;
    out.count = s.count.load(std::memory_order_acquire);
    if (out.count > 0) {
      out.first = s.first;
      out.last_time = s.last_time.load(std::memory_order_relaxed);
    }
    break;
  }
  return out;
}

void FaultTable::clear(const mjData* d) {
  for (Slot& s : slots_) {
    if (s.data.load(std::memory_order_acquire) != d) continue;
    s.count.store(0, std::memory_order_relaxed);
    s.data.store(nullptr, std::memory_order_release);
  }
}

}  // namespace mjhand
