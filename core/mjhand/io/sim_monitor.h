// Watches a rollout step by step for MuJoCo's warnings and for divergence, with the simulation time and cause,
// without allocating per step. Shared by `mjhand run` (and meant for every loop that calls mj_step unattended).
#pragma once

#include <mujoco/mujoco.h>

#include <string>

namespace mjhand {

// "mjWARN_BADQACC", ...: the enumerator's name.
const char* warning_name(int warning);

class SimMonitor {
 public:
  // What one warning type did during the rollout.
  struct WarningRecord {
    long count = 0;           // occurrences seen
    double first_time = 0;    // start time of the step in which it first appeared
    int first_info = 0;       // MuJoCo's lastinfo then (dof, actuator or array size, depending on the warning)
  };

  explicit SimMonitor(const mjModel* m) : m_(m) {}
  // Remembers d's time and warning counters; call right before mj_step (or mj_step1).
  void before_step(const mjData* d);
  // Call right after the step. Records every new warning; returns nullptr, or why the state is no longer a
  // continuation of the rollout: non-finite qpos/qvel, or MuJoCo's bad qpos/qvel/qacc (after which MuJoCo has
  // reset d to qpos0 and time 0) or bad ctrl (it then uses ctrl = 0 for every actuator). Sticky once diverged.
  // The text lives until the next call; diverged_at() is the start time of that step (d->time may be 0 again).
  const char* after_step(const mjData* d);

  bool diverged() const { return diverged_; }
  double diverged_at() const { return diverged_at_; }
  const WarningRecord& warning(int w) const { return warnings_[w]; }
  // One line per warning type seen, e.g. "mjWARN_CONTACTFULL: 12 time(s), first at t = 0.35 s (info 100)"; "" if
  // none. Allocates: for reports after the rollout.
  std::string report() const;

 private:
  const mjModel* m_;
  double step_start_ = 0;
  int last_number_[mjNWARNING] = {};
  WarningRecord warnings_[mjNWARNING];
  bool diverged_ = false;
  double diverged_at_ = 0;
  char reason_[192] = {};
};

}  // namespace mjhand
