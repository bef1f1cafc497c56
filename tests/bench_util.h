// Shared by the benchmark programs: Google Benchmark's console output plus candidate/baseline ratios of the medians
// (or of single runs when there are no repetitions), both sides measured in the same process.
#pragma once

#include <benchmark/benchmark.h>

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
