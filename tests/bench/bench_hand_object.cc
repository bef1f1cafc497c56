// Benchmark of the hand-object controller (plugin hand_object, e_GRASP eqs 39-44): mj_step of models/egrasp_hold.xml
// with the controller against the bare mj_step of the same scene, both replaying the same states (snapshots of a
// controlled Fig. 8 run, restored every 50 steps). The bare scene has motors in place of the controller's plugin
// actuators and no instance (bench_util.h's bare_model_sources); it holds the controller's torques of the snapshot
// as ctrl.
// Target: ratio < 1.15. Also counts heap allocations per controlled step (expected 0; skipped under ASan).
//   ./build/tests/bench_hand_object --benchmark_repetitions=20 --benchmark_enable_random_interleaving=true
//     --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <mjhand/hand_object/hand_object.h>
#include <mjhand/io/model_io.h>
#include "bench_util.h"
#include <mjhand/native/native_overrides.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

// ---- allocation counter: this program's malloc family forwards to glibc's and counts while armed ------------------
#if !defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__)
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
}
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace
extern "C" {
void* malloc(size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
void* calloc(size_t k, size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(k, n);
}
void* realloc(void* p, size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
}
#define MJHAND_COUNT_ALLOCATIONS 1
#endif

namespace {

const std::string kModel = std::string(MJHAND_SOURCE_DIR) + "/models/egrasp_hold.xml";
constexpr int kRestoreEvery = 50;

// The scene without the controller (same bodies, joints and actuator order; the motors take the torque as ctrl).
mjhand::ModelPtr load_bare_model() {
  const std::string text = mjhand_test::read_all(kModel);
  return mjhand::compile_sources(kModel, mjhand_bench::bare_model_sources(mjhand::model_sources(kModel, text)));
}

// The bare scene must be the controlled one minus the controller: fed the controller's torques as ctrl, it reproduces
// 1 s of the controlled run bitwise (the largest |qpos difference| at the end; 0 when it does).
double bare_twin_difference() {
  static const double diff = [] {
    mjhand::ModelPtr m = mjhand::load_model(kModel), bare = load_bare_model();
    mjhand::DataPtr d = mjhand::make_data(m.get()), b = mjhand::make_data(bare.get());
    return mjhand_bench::replay_difference(bare.get(), b.get(), mjhand_bench::record_controls(m.get(), d.get(), 1000));
  }();
  return diff;
}

// A controlled state to restart from: everything mj_step reads. plugin_state is the controller's state (integral,
// hold pose, counters, and the adapter's header: initialised and on); force is the torque of the step that led here.
struct Snapshot {
  double time;
  std::vector<mjtNum> qpos, qvel, force, plugin_state, warmstart;
};

// One snapshot every 50 ms of a 3 s controlled Fig. 8 run (the hold phase and the moving phase).
const std::vector<Snapshot>& snapshots() {
  static const std::vector<Snapshot> snaps = [] {
    mjhand::ModelPtr m = mjhand::load_model(kModel);
    mjhand::DataPtr d = mjhand::make_data(m.get());
    std::vector<Snapshot> out;
    for (int k = 1; k <= 3000; ++k) {
      mj_step(m.get(), d.get());  // after it, actuator_force holds the torques this step used
      if (k % 50 == 0) {
        out.push_back({d->time, std::vector<mjtNum>(d->qpos, d->qpos + m->nq),
                       std::vector<mjtNum>(d->qvel, d->qvel + m->nv),
                       std::vector<mjtNum>(d->actuator_force, d->actuator_force + m->nu),
                       std::vector<mjtNum>(d->plugin_state, d->plugin_state + m->npluginstate),
                       std::vector<mjtNum>(d->qacc_warmstart, d->qacc_warmstart + m->nv)});
      }
    }
    return out;
  }();
  return snaps;
}

// The controlled side takes the controller's state (its plugin actuators ignore ctrl); the bare side has no plugin
// state and takes the torques as ctrl.
void restore(const mjModel* m, mjData* d, const Snapshot& s) {
  d->time = s.time;
  mju_copy(d->qpos, s.qpos.data(), m->nq);
  mju_copy(d->qvel, s.qvel.data(), m->nv);
  mju_copy(d->ctrl, s.force.data(), m->nu);
  if (m->npluginstate) mju_copy(d->plugin_state, s.plugin_state.data(), m->npluginstate);
  mju_copy(d->qacc_warmstart, s.warmstart.data(), m->nv);
}

void step_benchmark(benchmark::State& state, bool controlled) {
  const std::vector<Snapshot>& snaps = snapshots();
  mjhand::ModelPtr m = controlled ? mjhand::load_model(kModel) : load_bare_model();
  if (m->npluginstate != (controlled ? static_cast<int>(snaps[0].plugin_state.size()) : 0)) {
    state.SkipWithError("the controlled model's plugin state does not match the snapshots'");
    return;
  }
  if (const double diff = bare_twin_difference(); diff != 0) {
    state.SkipWithError(("the bare scene replays the controlled run off by " + std::to_string(diff)).c_str());
    return;
  }
  mjhand::DataPtr d = mjhand::make_data(m.get());
  size_t next = 0;
  int k = 0;
  restore(m.get(), d.get(), snaps[next]);
  for (auto _ : state) {
    mj_step(m.get(), d.get());
    if (++k == kRestoreEvery) {
      k = 0;
      next = (next + 1) % snaps.size();
      restore(m.get(), d.get(), snaps[next]);
    }
  }
}

void BM_StepBare(benchmark::State& state) { step_benchmark(state, false); }
void BM_StepHandObject(benchmark::State& state) { step_benchmark(state, true); }

// The controller's compute() alone on one grasp state (plain class, on the scene with motors), for orientation.
void BM_HandObjectCompute(benchmark::State& state) {
  mjhand::ModelPtr m = load_bare_model();
  auto o = mjhand::HandObjectController::for_hand(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "ball"),
                                                  mj_name2id(m.get(), mjOBJ_BODY, "palm"));
  mjhand::HandObjectController ctl(m.get(), o);
  mjhand::DataPtr d = mjhand::make_data(m.get());
  mj_forward(m.get(), d.get());
  std::vector<mjtNum> s(ctl.nstate());
  ctl.reset(m.get(), d.get(), s.data());
  for (auto _ : state) {
    d->time += 1e-9;  // advance, so the integral path runs as in a real step
    ctl.compute(m.get(), d.get(), s.data());
    benchmark::DoNotOptimize(d->ctrl);
  }
}

BENCHMARK(BM_StepBare);
BENCHMARK(BM_StepHandObject);
BENCHMARK(BM_HandObjectCompute);

// Heap allocations in 1000 controlled steps (after the first, which sets up the controller state).
void report_allocations() {
#ifdef MJHAND_COUNT_ALLOCATIONS
  mjhand::ModelPtr m = mjhand::load_model(kModel);
  mjhand::DataPtr d = mjhand::make_data(m.get());
  for (int k = 0; k < 600; ++k) mj_step(m.get(), d.get());  // into the sinusoid
  g_allocations = 0;
  g_counting = true;
  for (int k = 0; k < 1000; ++k) mj_step(m.get(), d.get());
  g_counting = false;
  std::printf("heap allocations in 1000 controlled steps: %ld\n", g_allocations.load());
#else
  std::printf("heap allocations: not counted in this build (sanitizer or non-glibc)\n");
#endif
}

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  report_allocations();
  return mjhand_bench::run_benchmarks(argc, argv, {{"StepHandObject / StepBare", "BM_StepHandObject", "BM_StepBare"}},
                                      mjhand_bench::RatioReporter::Clock::kCpu);
}
