// Benchmarks of the foundation: mjhand's DH FK + Jacobian of every finger against MuJoCo's equivalent, and the
// cost of one native mjhand plugin instance that does nothing (the adapter's share) against a bare mj_step. Prints each pair's ratio, measured in one process.
//   ./build/tests/bench_foundation --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <mjhand/hand/model_chains.h>
#include <mjhand/host/registry.h>
#include <mjhand/io/model_io.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include "bench_util.h"
#include <mjhand/native/native_plugins.h>

namespace {

const std::string kHand = std::string(MJHAND_SOURCE_DIR) + "/models/egrasp_hand.xml";

// Random joint configurations within the joint ranges, fixed seed, reused by both sides of a comparison.
std::vector<std::vector<double>> random_qpos(const mjModel* m, int count) {
  std::mt19937 rng(42);
  std::vector<std::vector<double>> out(count, std::vector<double>(m->qpos0, m->qpos0 + m->nq));
  for (auto& q : out) {
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) continue;
      const double lo = m->jnt_limited[j] ? m->jnt_range[2 * j] : -3.0;
      const double hi = m->jnt_limited[j] ? m->jnt_range[2 * j + 1] : 3.0;
      q[m->jnt_qposadr[j]] = std::uniform_real_distribution<double>(lo, hi)(rng);
    }
  }
  return out;
}

void BM_MjhandFkJacobianAllFingers(benchmark::State& state) {
  mjhand::ModelPtr m = mjhand::load_model(kHand);
  std::vector<mjhand::TreeChain> chains = mjhand::read_model_chains(m.get());
  mjhand::set_world_bases(m.get(), nullptr, chains);
  std::vector<mjhand::ChainData> data;
  for (const auto& c : chains) data.emplace_back(c.dh);
  const auto qs = random_qpos(m.get(), 256);
  double q[16];
  size_t k = 0;
  for (auto _ : state) {
    const auto& qpos = qs[k++ & 255];
    for (size_t f = 0; f < chains.size(); ++f) {
      mjhand::gather_joint_positions(chains[f], qpos.data(), q);
      mjhand::fk_and_jacobian(chains[f].dh, q, data[f]);
      benchmark::DoNotOptimize(data[f].jacobian.data());
    }
  }
  state.counters["fingers"] = static_cast<double>(chains.size());
}

void BM_MujocoKinematicsJacSite(benchmark::State& state) {
  mjhand::ModelPtr m = mjhand::load_model(kHand);
  mjhand::DataPtr d = mjhand::make_data(m.get());
  std::vector<mjhand::TreeChain> chains = mjhand::read_model_chains(m.get());
  const auto qs = random_qpos(m.get(), 256);
  std::vector<mjtNum> jacp(3 * m->nv), jacr(3 * m->nv);
  size_t k = 0;
  for (auto _ : state) {
    const auto& qpos = qs[k++ & 255];
    std::copy(qpos.begin(), qpos.end(), d->qpos);
    mj_kinematics(m.get(), d.get());
    mj_comPos(m.get(), d.get());
    for (const auto& c : chains) {
      mj_jacSite(m.get(), d.get(), jacp.data(), jacr.data(), c.tip_site);
      benchmark::DoNotOptimize(jacp.data());
    }
  }
}

// The hand over a table with a ball, with or without one no-op plugin instance. Written to a temporary folder next
// to a copy of the generated hand, because MJCF includes resolve relative to the including file.
std::string bench_scene(bool with_noop) {
  const std::string dir = "/tmp/mjhand_bench";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kHand, dir + "/egrasp_hand.xml", std::filesystem::copy_options::overwrite_existing);
  const std::string path = dir + (with_noop ? "/scene_noop.xml" : "/scene_bare.xml");
  std::ofstream out(path);
  out << "<mujoco><include file=\"egrasp_hand.xml\"/><option timestep=\"0.002\" cone=\"elliptic\" impratio=\"10\"/>"
      << "<worldbody><geom type=\"plane\" size=\"2 2 0.05\"/>"
      << "<geom type=\"box\" pos=\"0.05 -0.022 0.2\" size=\"0.25 0.25 0.2\"/>"
      << "<body name=\"ball\" pos=\"0.04 -0.022 0.425\"><freejoint/>"
      << "<geom type=\"sphere\" size=\"0.025\" mass=\"0.05\" condim=\"4\"/></body></worldbody>";
  if (with_noop) {
    out << "<extension><plugin plugin=\"mjhand.bench_noop\"><instance name=\"noop\"/></plugin></extension>";
  }
  out << "</mujoco>\n";
  return path;
}

class NoopPlugin : public mjhand::Plugin {
 public:
  int capabilities() const override { return mjhand::kCapControl | mjhand::kCapPassive; }
  int nstate() const override { return 1; }
};

void step_benchmark(benchmark::State& state, bool with_noop) {
  mjhand::ModelPtr m = mjhand::load_model(bench_scene(with_noop));
  mjhand::DataPtr d = mjhand::make_data(m.get());
  for (int i = 0; i < m->nu; ++i) d->ctrl[i] = 0.3;  // close the hand so contacts are part of the step
  int k = 0;
  for (auto _ : state) {
    mj_step(m.get(), d.get());
    if (++k == 2000) {  // stay in the same regime: restart the closing motion every 2000 steps
      k = 0;
      mj_resetData(m.get(), d.get());
      for (int i = 0; i < m->nu; ++i) d->ctrl[i] = 0.3;
    }
  }
}

void BM_StepBare(benchmark::State& state) { step_benchmark(state, false); }
void BM_StepWithNoopPlugin(benchmark::State& state) { step_benchmark(state, true); }

BENCHMARK(BM_MujocoKinematicsJacSite);
BENCHMARK(BM_MjhandFkJacobianAllFingers);
BENCHMARK(BM_StepBare);
BENCHMARK(BM_StepWithNoopPlugin);

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_plugin_type(
      "bench_noop", "does nothing (plugin overhead benchmark)",
      [](const mjModel*, const mjhand::Config&) { return std::unique_ptr<mjhand::Plugin>(new NoopPlugin()); },
      {"note"});
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  return mjhand_bench::run_benchmarks(
      argc, argv,
      {{"MjhandFkJacobianAllFingers / MujocoKinematicsJacSite", "BM_MjhandFkJacobianAllFingers",
        "BM_MujocoKinematicsJacSite"},
       {"StepWithNoopPlugin / StepBare", "BM_StepWithNoopPlugin", "BM_StepBare"}},
      mjhand_bench::RatioReporter::Clock::kWall);
}
