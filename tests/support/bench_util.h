// Shared by the benchmark programs: Google Benchmark's console output plus candidate/baseline ratios of the medians
// (or of single runs when there are no repetitions), both sides measured in the same process.
#pragma once

#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
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

// Inputs of `steps` steps as the plugins set them, and the qpos after them: the baseline of a per-step cost
// comparison replays them through a bare mj_step of the model without plugins (bare_model_sources): the ctrl of
// every actuator, and for an actuator that was a native plugin actuator the force the plugin computed (its motor
// twin takes it as ctrl).
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
    mj_step(m, d);  // forces are computed in this step's actuation stage and stay in d
    for (int a = 0; a < m->nu; ++a) r.ctrl.push_back(m->actuator_plugin[a] >= 0 ? d->actuator_force[a] : d->ctrl[a]);
  }
  r.final_qpos.assign(d->qpos, d->qpos + m->nq);
  return r;
}

// One mj_step with the inputs of step k of the recording.
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

// The model's sources (mjhand::model_sources) without mjhand: no <extension>, plugin sensors dropped, every plugin
// actuator a gain-1 motor with the same joint, gear and ranges (it replays the plugin's force as its ctrl).
// keep_acc_stage: one empty <user> sensor at the acceleration stage stays, so MuJoCo still runs what it runs for any
// acc-stage sensor (mj_rnePostConstraint): the baseline then isolates mjhand's own work from that.
inline std::map<std::string, std::string> bare_model_sources(std::map<std::string, std::string> sources,
                                                             bool keep_acc_stage = false) {
  const std::regex extension(R"(<extension>[\s\S]*?</extension>)");
  const std::regex sensor_plugin(R"(<plugin\s+name="[^"]*"\s+instance="[^"]*"[^>]*/>)");
  const std::regex actuator_plugin(R"(<plugin(\s+name="[^"]*"\s+joint="[^"]*")\s+instance="[^"]*"([^>]*)/>)");
  const std::regex actdim(R"(\s+actdim="[^"]*")");
  for (auto& [path, text] : sources) {
    text = std::regex_replace(text, extension, "");
    text = std::regex_replace(text, actuator_plugin, "<motor$1$2/>");
    text = std::regex_replace(text, actdim, "");
    text = std::regex_replace(text, sensor_plugin, "");
    if (keep_acc_stage) {
      const size_t at = text.find("</sensor>");
      if (at != std::string::npos) text.insert(at, "<user name=\"bench_acc_stage\" needstage=\"acc\" dim=\"1\"/>");
      keep_acc_stage = at == std::string::npos;  // once, in the file that has the sensors
    }
  }
  return sources;
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
