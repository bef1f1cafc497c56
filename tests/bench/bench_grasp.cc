// Benchmarks of the grasp analysis: per-step G + J_H + sigma_min(G) for a 4-contact grasp (contacts read from
// MuJoCo, target < 3 us), and Ferrari-Canny epsilon with 8-edge cones (target < 1 ms), mjhand's hull against qhull
// (the reference) on the same contacts. Prints each pair's ratio of median CPU times, measured in one process.
//   ./build/tests/bench_grasp --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
//     --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/wrench_space.h>
#include "test_util.h"
#include "bench_util.h"
#include <mjhand/native/native_plugins.h>

namespace {

// `fingers` (hinge, hinge, slide) fingers with spherical tips touching a free sphere (as in test_grasp_mujoco.cc).
std::string finger_xml(int fingers) {
  const double R = 0.04, tip = 0.01, link = 0.06, depth = 1e-4, cz = 0.3;
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco><option cone=\"elliptic\" gravity=\"0 0 0\"/><worldbody><body name=\"palm\">";
  for (int k = 0; k < fingers; ++k) {
    const double az = 2 * M_PI / fingers * k + 0.1 * k, el = -0.25 - 0.05 * (k % 4) + (fingers > 4 ? 0.4 * (k % 2) : 0);
    const Eigen::Vector3d u(std::cos(el) * std::cos(az), std::cos(el) * std::sin(az), std::sin(el));
    const Eigen::Vector3d root = Eigen::Vector3d(0, 0, cz) + (R + tip - depth + link) * u;
    const Eigen::Vector3d ya = Eigen::Vector3d(-u.y(), u.x(), 0).normalized();
    x << "<body name=\"f" << k << "\" pos=\"" << root.transpose() << "\" xyaxes=\"" << (-u).transpose() << " "
      << ya.transpose() << "\"><joint type=\"hinge\" axis=\"0 0 1\"/><joint type=\"hinge\" axis=\"0 1 0\"/>"
      << "<geom type=\"capsule\" fromto=\"0 0 0 0.03 0 0\" size=\"0.004\" contype=\"0\" conaffinity=\"0\"/>"
      << "<body pos=\"" << link << " 0 0\"><joint type=\"slide\" axis=\"1 0 0\"/><geom type=\"sphere\" size=\"" << tip
      << "\" contype=\"2\" conaffinity=\"1\" condim=\"3\" friction=\"1 0.005 0.0001\"/></body></body>";
  }
  x << "</body><body name=\"object\" pos=\"0 0 " << cz << "\"><freejoint/><geom type=\"sphere\" size=\"" << R
    << "\" contype=\"1\" conaffinity=\"2\" condim=\"3\" friction=\"1 0.005 0.0001\"/></body></worldbody></mujoco>";
  return x.str();
}

struct Scene {
  explicit Scene(int fingers = 4)
      : m(mjhand_test::load_xml_string(finger_xml(fingers))), d(mjhand::make_data(m.get())) {
    mj_forward(m.get(), d.get());
    hand = mjhand::hand_from_palm(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "object"),
                                  mj_name2id(m.get(), mjOBJ_BODY, "palm"));
  }
  mjhand::ModelPtr m;
  mjhand::DataPtr d;
  mjhand::HandModel hand;
};

void BM_GraspMatrixHandJacobianSigmaMin(benchmark::State& state) {
  Scene s;
  mjhand::GraspData gd(s.m.get(), s.hand, 16);
  for (auto _ : state) {
    mjhand::compute_grasp(s.m.get(), s.d.get(), s.hand, gd);
    benchmark::DoNotOptimize(mjhand::grasp_sigma_min(gd.G()));
  }
  state.counters["contacts"] = static_cast<double>(gd.contacts.size());
}
BENCHMARK(BM_GraspMatrixHandJacobianSigmaMin);

// L1 epsilon of the scene's hard contacts x 8 edges with the given hull code (4 contacts: 32 wrenches, 1008 facets =
// 1158 simplices; issue 3's target < 1 ms). Counts the contacts as a check that the scene has them all.
void epsilon_benchmark(benchmark::State& state, mjhand::WrenchHullMethod hull, int fingers = 4) {
  Scene s(fingers);
  mjhand::GraspData gd(s.m.get(), s.hand, 16);
  mjhand::compute_grasp(s.m.get(), s.d.get(), s.hand, gd);
  if (static_cast<int>(gd.contacts.size()) != fingers) {
    state.SkipWithError(("the scene has " + std::to_string(gd.contacts.size()) + " contacts, not " +
                         std::to_string(fingers)).c_str());
    return;
  }
  mjhand::WrenchSpaceOptions opt;
  opt.cone_edges = 8;
  opt.hull = hull;
  mjhand::EpsilonResult r;
  for (auto _ : state) {
    r = mjhand::ferrari_canny(gd.contacts, gd.reference, opt);
    benchmark::DoNotOptimize(r);  // the whole result: the "+r" constraint on a lone double returns garbage with GCC
  }
  state.counters["epsilon"] = r.epsilon;
  state.counters["facets"] = r.facets;
  state.counters["points"] = r.points;
  state.counters["qhull"] = r.hull == mjhand::WrenchHullMethod::kQhull;  // 1 when qhull produced the numbers
}

void BM_FerrariCannyL1_8Edges(benchmark::State& state) { epsilon_benchmark(state, mjhand::WrenchHullMethod::kFast); }
void BM_FerrariCannyL1_8Edges_Qhull(benchmark::State& state) {
  epsilon_benchmark(state, mjhand::WrenchHullMethod::kQhull);
}
BENCHMARK(BM_FerrariCannyL1_8Edges)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FerrariCannyL1_8Edges_Qhull)->Unit(benchmark::kMicrosecond);
// Issue 33: the hull's growth with the contacts, 3 and 8 of them (24 and 64 wrenches).
void BM_FerrariCannyL1_3Contacts(benchmark::State& state) {
  epsilon_benchmark(state, mjhand::WrenchHullMethod::kFast, 3);
}
void BM_FerrariCannyL1_3Contacts_Qhull(benchmark::State& state) {
  epsilon_benchmark(state, mjhand::WrenchHullMethod::kQhull, 3);
}
void BM_FerrariCannyL1_8Contacts(benchmark::State& state) {
  epsilon_benchmark(state, mjhand::WrenchHullMethod::kFast, 8);
}
void BM_FerrariCannyL1_8Contacts_Qhull(benchmark::State& state) {
  epsilon_benchmark(state, mjhand::WrenchHullMethod::kQhull, 8);
}
BENCHMARK(BM_FerrariCannyL1_3Contacts)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FerrariCannyL1_3Contacts_Qhull)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FerrariCannyL1_8Contacts)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FerrariCannyL1_8Contacts_Qhull)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  return mjhand_bench::run_benchmarks(
      argc, argv,
      {{"FerrariCannyL1_8Edges fast / qhull", "BM_FerrariCannyL1_8Edges", "BM_FerrariCannyL1_8Edges_Qhull"},
       {"FerrariCannyL1 3 contacts fast / qhull", "BM_FerrariCannyL1_3Contacts", "BM_FerrariCannyL1_3Contacts_Qhull"},
       {"FerrariCannyL1 8 contacts fast / qhull", "BM_FerrariCannyL1_8Contacts", "BM_FerrariCannyL1_8Contacts_Qhull"}},
      mjhand_bench::RatioReporter::Clock::kCpu);
}
