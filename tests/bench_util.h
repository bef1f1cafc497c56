// Shared by the benchmark programs: Google Benchmark's console output plus candidate/baseline ratios of the medians
// (or of single runs when there are no repetitions), both sides measured in the same process.
#pragma once

#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mjhand_bench {

// "ratio <label> = candidate / baseline" for two benchmark function names.
struct RatioPair {
  std::string label, candidate, baseline;
};

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // CPU time resists a busy second core; wall time is what a user waits for.
  enum class Clock { kWall, kCpu };
  RatioReporter(std::vector<RatioPair> pairs, Clock clock) : pairs_(std::move(pairs)), clock_(clock) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      const bool median = r.aggregate_name == "median";
      if ((r.run_type == Run::RT_Aggregate && !median) || r.error_occurred) continue;
      const std::string name = r.run_name.function_name;
      const double t = clock_ == Clock::kCpu ? r.GetAdjustedCPUTime() : r.GetAdjustedRealTime();
      if (median || !times_.count(name)) times_[name] = t;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    for (const RatioPair& p : pairs_) {
      if (!times_.count(p.candidate) || !times_.count(p.baseline)) continue;
      std::printf("ratio %s (%s time) = %.4f\n", p.label.c_str(), clock_ == Clock::kCpu ? "CPU" : "wall",
                  times_[p.candidate] / times_[p.baseline]);
    }
  }

 private:
  std::vector<RatioPair> pairs_;
  Clock clock_;
  std::map<std::string, double> times_;
};

// Controls of `steps` steps as the plugins set them, and the qpos after them: the baseline of a per-step cost
// comparison replays them through a bare mj_step (mjcb_control runs at the end of mj_step1 in 2.2.2: ctrl is final
// there).
struct ControlRecording {
  int nu = 0, steps = 0;
  std::vector<mjtNum> ctrl;  // steps x nu
  std::vector<mjtNum> final_qpos;
};

inline ControlRecording record_controls(const mjModel* m, mjData* d, int steps) {
  ControlRecording r;
  r.nu = m->nu;
  r.steps = steps;
  for (int k = 0; k < steps; ++k) {
    mj_step1(m, d);
    r.ctrl.insert(r.ctrl.end(), d->ctrl, d->ctrl + m->nu);
    mj_step2(m, d);
  }
  r.final_qpos.assign(d->qpos, d->qpos + m->nq);
  return r;
}

// One mj_step with the controls of step k of the recording.
inline void replay_step(const mjModel* m, mjData* d, const ControlRecording& r, int k) {
  std::copy(r.ctrl.begin() + k * r.nu, r.ctrl.begin() + (k + 1) * r.nu, d->ctrl);
  mj_step(m, d);
}

// Replays the whole recording from d's state: the largest |qpos - recorded qpos| at the end (0 when the bare run
// reproduces the plugin run bitwise, which the baseline must before it is timed).
inline double replay_difference(const mjModel* m, mjData* d, const ControlRecording& r) {
  for (int k = 0; k < r.steps; ++k) replay_step(m, d, r, k);
  double diff = 0;
  for (int i = 0; i < m->nq; ++i) {
    const double e = std::abs(d->qpos[i] - r.final_qpos[i]);
    if (std::isnan(e)) return e;  // a NaN on either side is a difference
    diff = std::max(diff, e);
  }
  return diff;
}

// benchmark's usual main with the ratio reporter; returns main's exit status.
inline int run_benchmarks(int argc, char** argv, std::vector<RatioPair> pairs, RatioReporter::Clock clock) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter(std::move(pairs), clock);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace mjhand_bench
