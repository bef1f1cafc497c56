// Benchmark of the direct-drive hand's closed-form dynamics (section 3.2) against MuJoCo computing the same
// quantities: M, V + G of one finger (a one-finger model built from models/direct_drive_hand.yaml) and of the whole
// hand (the DynamicModel behind computed_torque's model=direct_drive vs mj_fullM + mj_rne on the 15-dof hand).
// Both sides of a pair walk the same 256 random states. Prints each pair's ratio from the medians.
//   ./build/tests/bench_direct_drive --benchmark_repetitions=20 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true       (one command line)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <mjhand/direct_drive/dynamic_model.h>
#include <mjhand/direct_drive/dynamics.h>
#include <mjhand/direct_drive/finger.h>
#include <mjhand/generators/build_model.h>
#include <mjhand/io/model_io.h>
#include "bench_util.h"
#include <mjhand/native/native_plugins.h>

namespace {

const std::string kSpec = std::string(MJHAND_SOURCE_DIR) + "/models/direct_drive_hand.yaml";
constexpr int kStateCount = 256;

// The hand with only finger 2 (index) on the palm, palm down (gravity +9.81 along the palm's Y axis).
mjhand::ModelPtr one_finger_model() {
  mjhand::HandSpec spec = mjhand::load_hand_spec(kSpec);
  spec.fingers = {spec.fingers[1]};
  spec.actuators.clear();  // they name all 15 joints; M and bias do not need them
  spec.keyframes.clear();
  mjhand::ModelPtr m = std::move(mjhand::build_hand_model(spec).model);
  m->opt.gravity[0] = 0;
  m->opt.gravity[1] = 9.81;
  m->opt.gravity[2] = 0;
  return m;
}

mjhand::ModelPtr hand_model() {
  mjhand::ModelPtr m = std::move(mjhand::build_hand_model(mjhand::load_hand_spec(kSpec)).model);
  m->opt.gravity[0] = 0;
  m->opt.gravity[1] = 9.81;
  m->opt.gravity[2] = 0;
  return m;
}

// kStateCount random (phi, phid) pairs of n joints: phi in [0, 90 deg], phid in [-10, 10] rad/s, fixed seed.
std::vector<std::vector<double>> random_states(int n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> q(0.0, M_PI / 2), v(-10.0, 10.0);
  std::vector<std::vector<double>> out(kStateCount, std::vector<double>(2 * n));
  for (auto& s : out) {
    for (int i = 0; i < n; ++i) {
      s[i] = q(rng);
      s[n + i] = v(rng);
    }
  }
  return out;
}

void BM_ClosedFormFinger(benchmark::State& state) {
  const mjhand::DirectDriveFinger f = mjhand::paper_finger(2);
  const Eigen::Vector3d g = mjhand::gravity_in_base(f, Eigen::Vector3d(0, 9.81, 0));
  const auto states = random_states(3);
  Eigen::Matrix3d M;
  Eigen::Vector3d V, G;
  std::size_t k = 0;
  for (auto _ : state) {
    const std::vector<double>& s = states[k++ % kStateCount];
    mjhand::finger_dynamics(f, s.data(), s.data() + 3, g, &M, &V, &G);
    benchmark::DoNotOptimize(M.data());
    benchmark::DoNotOptimize(V.data());
    benchmark::DoNotOptimize(G.data());
  }
}

// What MuJoCo runs to get the same M (dense) and bias: the position stages M depends on, then RNE.
void mujoco_terms(benchmark::State& state, const mjModel* m, int n) {
  mjhand::DataPtr d = mjhand::make_data(m);
  const auto states = random_states(n);
  std::vector<mjtNum> M(m->nv * m->nv), bias(m->nv);
  std::size_t k = 0;
  for (auto _ : state) {
    const std::vector<double>& s = states[k++ % kStateCount];
    std::copy(s.begin(), s.begin() + n, d->qpos);
    std::copy(s.begin() + n, s.end(), d->qvel);
    mj_kinematics(m, d.get());
    mj_comPos(m, d.get());
    mj_crb(m, d.get());
    mj_fullM(m, d.get(), M.data());
    mj_comVel(m, d.get());
    mj_rne(m, d.get(), 0, bias.data());
    benchmark::DoNotOptimize(M.data());
    benchmark::DoNotOptimize(bias.data());
  }
}

void BM_MujocoFullMRneFinger(benchmark::State& state) {
  const mjhand::ModelPtr m = one_finger_model();
  mujoco_terms(state, m.get(), 3);
}

void BM_ClosedFormHand(benchmark::State& state) {
  const mjhand::ModelPtr m = hand_model();
  std::vector<int> joints(15);
  for (int i = 0; i < 15; ++i) joints[i] = i;
  const std::unique_ptr<mjhand::DynamicModel> model = mjhand::make_direct_drive_model(m.get(), joints);
  const auto states = random_states(15);
  std::vector<double> M(225), h(15);
  std::size_t k = 0;
  for (auto _ : state) {
    const std::vector<double>& s = states[k++ % kStateCount];
    model->evaluate(s.data(), s.data() + 15, M.data(), h.data());
    benchmark::DoNotOptimize(M.data());
    benchmark::DoNotOptimize(h.data());
  }
}

void BM_MujocoFullMRneHand(benchmark::State& state) {
  const mjhand::ModelPtr m = hand_model();
  mujoco_terms(state, m.get(), 15);
}

BENCHMARK(BM_ClosedFormFinger);
BENCHMARK(BM_MujocoFullMRneFinger);
BENCHMARK(BM_ClosedFormHand);
BENCHMARK(BM_MujocoFullMRneHand);

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  return mjhand_bench::run_benchmarks(
      argc, argv,
      {{"ClosedFormFinger / MujocoFullMRneFinger", "BM_ClosedFormFinger", "BM_MujocoFullMRneFinger"},
       {"ClosedFormHand / MujocoFullMRneHand", "BM_ClosedFormHand", "BM_MujocoFullMRneHand"}},
      mjhand_bench::RatioReporter::Clock::kWall);
}
