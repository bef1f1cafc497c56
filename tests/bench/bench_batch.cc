// Batch campaign throughput (issue 7): simulated steps per second of a contact-rich campaign (the 4 x 3 gripper's
// power grasp: contact_detection + hand_closure, 0.1 ms steps) on 1 and 2 worker threads (scaling efficiency =
// rate(2) / (2 rate(1)), target >= 90%), and the cost of the mjhand plugins inside mj_step (plugins on / bare mj_step
// of the same scene without plugins, replaying the plugins' inputs and forces; target < 1.05) on that scene and on
// the e_GRASP scene (posture servos + fingertip_kinematics). The replay is checked bitwise against the plugin run
// before it is timed.
//   ./build/tests/bench_batch --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "engine.h"
#include "test_util.h"
#include <mjhand/native/native_overrides.h>
#include <mjhand/native/native_plugins.h>

namespace {

namespace fs = std::filesystem;
using namespace mjhand::batch;

constexpr int kRollouts = 16;
constexpr double kDuration = 0.2;  // 2000 steps of 0.1 ms: the first contacts, the palm, the middle phalanges

// The power-grasp campaign: 16 seeds of +-1 mm on the sphere's start position, density 700 kg/m^3.
Campaign campaign(const std::string& out) {
  const std::string yaml = "name: bench\noutput: " + out + "\nduration: " + std::to_string(kDuration) +
                           "\nsample_period: 0.001\nseeds: " + std::to_string(kRollouts) +
                           "\nscenarios:\n  - name: power\n    model: " +
                           mjhand_test::source_path("models/scenarios/power_sphere_batch.xml") +
                           "\n    object: ball\n    init_noise: 0.001\ngrid:\n  density: [700]\n";
  return parse_campaign(yaml, "bench.yaml", ".");
}

double process_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Results go to RAM (/dev/shm) when it exists, so that the rate measures the engine, not the disk: on a disk shared
// with builds each rollout's fsync costs tens of ms. MJHAND_BENCH_OUT overrides the folder (e.g. to include the disk).
std::string bench_out() {
  if (const char* env = std::getenv("MJHAND_BENCH_OUT")) return env;
  const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  return (base / "mjhand_bench_batch").string();
}

void BM_Campaign(benchmark::State& state) {
  const std::string out = bench_out();
  const Campaign c = campaign(out);
  BatchOptions opt;
  opt.threads = static_cast<int>(state.range(0));
  long steps = 0;
  double cpu = 0;  // CPU time of the whole process (all workers) [s]
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(out);
    state.ResumeTiming();
    const double cpu0 = process_cpu_s();
    const BatchReport r = run_campaign(c, opt);
    cpu += process_cpu_s() - cpu0;
    if (r.ok != kRollouts) throw std::runtime_error("bench campaign failed");
    steps += r.steps;
  }
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  // Work per step summed over the workers: equal on 1 and 2 workers when the pool adds no contention, whatever
  // else runs on the machine (the wall-clock scaling needs idle cores).
  state.counters["cpu_us_per_step"] = 1e6 * cpu / static_cast<double>(steps);
  fs::remove_all(out);
}
void BM_Campaign1(benchmark::State& s) { BM_Campaign(s); }
void BM_Campaign2(benchmark::State& s) { BM_Campaign(s); }
BENCHMARK(BM_Campaign1)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Campaign2)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same campaign's stepping (16 rollouts of 2000 steps of the compiled power-grasp model, plugins on) split over
// n plain std::threads, with no engine, files or rows: the machine's own ceiling for the scaling figure. On a
// virtual machine whose cores are shared with other guests it is not 0.5 either.
std::unique_ptr<Variant> compile(const std::string& name);
void raw_threads(const mjModel* m, std::vector<mjhand::DataPtr>& data, int n) {
  const int steps = static_cast<int>(kDuration / m->opt.timestep + 0.5);
  std::vector<std::thread> pool;
  for (int t = 0; t < n; ++t) {
    pool.emplace_back([&, t] {
      for (int r = t; r < kRollouts; r += n) {
        mj_resetData(m, data[t].get());
        for (int k = 0; k < steps; ++k) mj_step(m, data[t].get());
      }
    });
  }
  for (std::thread& th : pool) th.join();
}

double wall_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Wall time on 2 workers / on 1, both measured back to back inside each iteration (in alternating order) so that
// the machine's drifting speed cancels in the ratio: for the engine's campaign and for the raw threads above.
void BM_ScalingPaired(benchmark::State& state) {
  const bool engine = state.range(0) == 1;
  const std::string out = bench_out();
  const Campaign c = campaign(out);
  auto v = compile("power_sphere");
  std::vector<mjhand::DataPtr> data;
  for (int t = 0; t < 2; ++t) data.push_back(mjhand::make_data(v->model.get()));
  double wall[3] = {0, 0, 0}, cpu[3] = {0, 0, 0};
  auto run = [&](int n) {  // one campaign on n workers; adds its wall and process CPU time to wall[n], cpu[n]
    fs::remove_all(out);
    const double t0 = wall_s(), c0 = process_cpu_s();
    if (engine) {
      BatchOptions opt;
      opt.threads = n;
      if (run_campaign(c, opt).ok != kRollouts) throw std::runtime_error("bench campaign failed");
    } else {
      raw_threads(v->model.get(), data, n);
    }
    wall[n] += wall_s() - t0;
    cpu[n] += process_cpu_s() - c0;
  };
  run(1);  // warm-up, discarded: the first run's cold caches and page faults would land on one side only
  run(2);
  wall[1] = wall[2] = cpu[1] = cpu[2] = 0;
  int iteration = 0;
  for (auto _ : state) {
    for (int k = 0; k < 2; ++k) run((iteration + k) % 2 + 1);
    ++iteration;
  }
  fs::remove_all(out);
  state.counters["wall_2_over_1"] = wall[2] / wall[1];
  state.counters["efficiency"] = 0.5 * wall[1] / wall[2];
  // The same work on both sides: CPU time on 2 workers / on 1 is the per-step CPU cost of running two at once.
  state.counters["cpu_2_over_1"] = cpu[2] / cpu[1];
}
BENCHMARK(BM_ScalingPaired)->ArgName("engine")->Arg(1)->Arg(0)->Iterations(4)->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// A scene for the per-step comparison, compiled as the engine compiles a campaign's model.
struct SceneDef {
  const char* model;    // under the source tree
  const char* grid;     // substitutes the model's ${...}
  int period;           // steps of one closing motion; both sides restart it at the same step
  bool acc_sensors;     // mjhand sensors at the acceleration stage (MuJoCo then runs mj_rnePostConstraint)
};
const std::map<std::string, SceneDef>& scenes() {
  static const std::map<std::string, SceneDef> s = {
      {"power_sphere", {"models/scenarios/power_sphere_batch.xml", "  density: [700]\n", 3000, false}},
      {"egrasp", {"models/campaigns/egrasp_scene_param.xml", "  density: [700]\n  gravity_z: [-9.81]\n", 1000, false}},
  };
  return s;
}

std::unique_ptr<Variant> compile(const std::string& name) {
  const SceneDef& def = scenes().at(name);
  const std::string yaml = std::string("name: s\nduration: 1\nscenarios:\n  - name: s\n    model: ") +
                           mjhand_test::source_path(def.model) + "\ngrid:\n" + def.grid;
  const Campaign c = parse_campaign(yaml, "scene.yaml", ".");
  auto v = compile_variant(c, expand_campaign(c).front());
  if (!v->error.empty()) throw std::runtime_error(v->error);
  return v;
}

// Controls of one period as the plugins set them, and the qpos at the end of the period to check the replay against.
const mjhand_bench::ControlRecording& recording(const std::string& name) {
  static std::map<std::string, mjhand_bench::ControlRecording> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  auto v = compile(name);
  mjhand::DataPtr d = mjhand::make_data(v->model.get());
  return cache[name] = mjhand_bench::record_controls(v->model.get(), d.get(), scenes().at(name).period);
}

void BM_StepPlugins(benchmark::State& state, const std::string& name) {
  auto v = compile(name);
  const mjModel* m = v->model.get();
  mjhand::DataPtr d = mjhand::make_data(m);
  const int period = scenes().at(name).period;
  int k = 0;
  for (auto _ : state) {
    mj_step(m, d.get());
    if (++k == period) {
      k = 0;
      mj_resetData(m, d.get());
    }
  }
}

// The same scene without mjhand (bench_util.h's bare_model_sources), from the same substituted model text.
mjhand::ModelPtr compile_bare(const std::string& name, bool keep_acc_stage) {
  const SceneDef& def = scenes().at(name);
  const std::string yaml = std::string("name: s\nduration: 1\nscenarios:\n  - name: s\n    model: ") +
                           mjhand_test::source_path(def.model) + "\ngrid:\n" + def.grid;
  const Campaign c = parse_campaign(yaml, "scene.yaml", ".");
  const auto spec = expand_campaign(c).front();
  const std::string path = c.scenarios[spec.scenario].model_path;
  return mjhand::compile_sources(
      path, mjhand_bench::bare_model_sources(mjhand::model_sources(path, spec.model_text), keep_acc_stage));
}

void BM_StepBare(benchmark::State& state, const std::string& name, bool keep_acc_stage) {
  const mjhand_bench::ControlRecording& rec = recording(name);
  const mjhand::ModelPtr model = compile_bare(name, keep_acc_stage);  // MuJoCo alone; the plugins' inputs and forces are replayed
  const mjModel* m = model.get();
  mjhand::DataPtr d = mjhand::make_data(m);
  const int period = scenes().at(name).period;
  if (const double diff = mjhand_bench::replay_difference(m, d.get(), rec); diff != 0) {
    state.SkipWithError(("replay differs from the plugin run by " + std::to_string(diff)).c_str());
    return;
  }
  mj_resetData(m, d.get());
  int k = 0;
  for (auto _ : state) {
    mjhand_bench::replay_step(m, d.get(), rec, k);
    if (++k == period) {
      k = 0;
      mj_resetData(m, d.get());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  std::vector<mjhand_bench::RatioPair> pairs = {
      {"2 workers / 1 worker (campaign wall time; efficiency = 0.5 / ratio)", "BM_Campaign2", "BM_Campaign1"}};
  // MJHAND_BENCH_STEPS=K fixes the steps of the per-step comparison (K = a multiple of the period covers the same
  // trajectory on both sides), for instruction counts under callgrind (BENCHMARKS.md has the command).
  const char* fixed = std::getenv("MJHAND_BENCH_STEPS");
  for (const auto& [name, def] : scenes()) {
    auto* on = benchmark::RegisterBenchmark(("StepPlugins/" + name).c_str(), BM_StepPlugins, name);
    auto* bare = benchmark::RegisterBenchmark(("StepBare/" + name).c_str(), BM_StepBare, name, false);
    if (fixed) {
      on->Iterations(std::atol(fixed));
      bare->Iterations(std::atol(fixed));
    }
    pairs.push_back({name + ": plugins on / bare mj_step without mjhand, replaying its outputs",
                     "StepPlugins/" + name, "StepBare/" + name});
    if (!def.acc_sensors) continue;
    auto* acc = benchmark::RegisterBenchmark(("StepBareAcc/" + name).c_str(), BM_StepBare, name, true);
    if (fixed) acc->Iterations(std::atol(fixed));
    pairs.push_back({name + ": plugins on / the same with MuJoCo's acc-stage sensor work (mjhand's own cost)",
                     "StepPlugins/" + name, "StepBareAcc/" + name});
  }
  return mjhand_bench::run_benchmarks(argc, argv, pairs, mjhand_bench::RatioReporter::Clock::kWall);
}
