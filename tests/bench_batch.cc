// Batch campaign throughput (issue 7): simulated steps per second of one campaign on 1 and 2 worker threads
// (scaling efficiency = rate(2) / (2 rate(1)), target >= 90%), and the cost of the mjhand plugins inside mj_step on
// the campaign's scene (plugins on / bare mj_step replaying the same controls, target < 1.10).
//   ./build/tests/bench_batch --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_util.h"
#include "engine.h"
#include "host/host.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using namespace mjhand::batch;

constexpr int kRollouts = 16;
constexpr double kDuration = 2.0;  // 1000 steps of 2 ms per rollout

// The closure_gains-like campaign: the e_GRASP hand closing on a free ball under gravity, seeded perturbations.
Campaign bench_campaign(const std::string& out) {
  const std::string yaml = "name: bench\noutput: " + out + "\nduration: " + std::to_string(kDuration) +
                           "\nsample_period: 0.02\nseeds: " + std::to_string(kRollouts) +
                           "\nscenarios:\n  - name: ball\n    model: " +
                           mjhand_test::source_path("models/campaigns/egrasp_scene_param.xml") +
                           "\n    object: ball\n    init_noise: 0.005\ngrid:\n  density: [700]\n  gravity_z: [-9.81]\n";
  return parse_campaign(yaml, "bench.yaml", ".");
}

void BM_Campaign(benchmark::State& state) {
  const std::string out = (fs::temp_directory_path() / "mjhand_bench_batch").string();
  const Campaign c = bench_campaign(out);
  BatchOptions opt;
  opt.threads = static_cast<int>(state.range(0));
  long steps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(out);
    state.ResumeTiming();
    const BatchReport r = run_campaign(c, opt);
    if (r.ok != kRollouts) throw std::runtime_error("bench campaign failed");
    steps += r.steps;
  }
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  fs::remove_all(out);
}
void BM_Campaign1(benchmark::State& s) { BM_Campaign(s); }
void BM_Campaign2(benchmark::State& s) { BM_Campaign(s); }
BENCHMARK(BM_Campaign1)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Campaign2)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The campaign's model (substituted text), compiled as the engine does.
struct Scene {
  std::unique_ptr<Variant> v;
  Scene() {
    const Campaign c = bench_campaign("unused");
    v = compile_variant(c, expand_campaign(c).front());
    if (!v->error.empty()) throw std::runtime_error(v->error);
  }
};

constexpr int kPeriod = 1000;  // steps per closing motion; both sides restart it at the same step

// Controls the plugins produce over one period (recorded once, with the plugins running).
std::vector<mjtNum> recorded_controls(const mjModel* m) {
  mjhand::DataPtr d = mjhand::make_data(m);
  mj_forward(m, d.get());
  std::vector<mjtNum> ctrl;
  for (int k = 0; k < kPeriod; ++k) {
    mj_step(m, d.get());
    ctrl.insert(ctrl.end(), d->ctrl, d->ctrl + m->nu);
  }
  return ctrl;
}

void BM_StepPlugins(benchmark::State& state) {
  Scene s;
  const mjModel* m = s.v->model.get();
  mjhand::DataPtr d = mjhand::make_data(m);
  int k = 0;
  for (auto _ : state) {
    if (k == kPeriod) {
      mj_resetData(m, d.get());
      k = 0;
    }
    mj_step(m, d.get());
    ++k;
  }
}

void BM_StepBare(benchmark::State& state) {
  Scene s;
  const std::vector<mjtNum> ctrl = recorded_controls(s.v->model.get());
  s.v->host.reset();  // detached: mj_step runs MuJoCo alone; the controls are replayed
  const mjModel* m = s.v->model.get();
  mjhand::DataPtr d = mjhand::make_data(m);
  int k = 0;
  for (auto _ : state) {
    if (k == kPeriod) {
      mj_resetData(m, d.get());
      k = 0;
    }
    std::copy(ctrl.begin() + k * m->nu, ctrl.begin() + (k + 1) * m->nu, d->ctrl);
    mj_step(m, d.get());
    ++k;
  }
}
BENCHMARK(BM_StepPlugins);
BENCHMARK(BM_StepBare);

}  // namespace

int main(int argc, char** argv) {
  using mjhand_bench::RatioPair;
  using mjhand_bench::RatioReporter;
  return mjhand_bench::run_benchmarks(
      argc, argv,
      {{"2 workers / 1 worker (campaign wall time; efficiency = 0.5 / ratio)", "BM_Campaign2", "BM_Campaign1"},
       {"plugins on / bare mj_step replaying the controls", "BM_StepPlugins", "BM_StepBare"}},
      RatioReporter::Clock::kWall);
}
