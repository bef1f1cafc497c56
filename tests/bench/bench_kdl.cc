// mjhand's DH forward kinematics and geometric Jacobian against Orocos KDL's ChainFkSolverPos_recursive and
// ChainJntToJacSolver on the same random standard-DH revolute chains (3 and 7 joints), same configurations.
// Prints the ratio mjhand/KDL of each pair (below 1: mjhand faster). KDL's side gets its leanest form: no base or
// tool segments, and for FK+Jacobian only JntToJac (which runs its own FK but does not return the pose), whereas
// mjhand's fk_and_jacobian returns the tool pose and the Jacobian.
//   ./build/tests/bench_kdl --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdio>

#ifdef MJHAND_HAVE_KDL

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>
#include <kdl/frames.hpp>
#include <kdl/jacobian.hpp>
#include <kdl/jntarray.hpp>

#include <cmath>
#include <random>
#include <vector>

#include <mjhand/kinematics/forward_kinematics.h>
#include "bench_util.h"
#include <mjhand/native/native_plugins.h>

namespace {

constexpr int kConfigs = 256;  // cycled through, so the branch predictor cannot learn one configuration

// A seeded random standard-DH revolute chain in both libraries' forms.
struct PeerChain {
  mjhand::Chain chain;
  KDL::Chain kdl;
  std::vector<KDL::JntArray> q;
};

PeerChain make_chain(int dof) {
  std::mt19937 rng(1000 + dof);
  std::uniform_real_distribution<double> len(-0.1, 0.1), ang(-M_PI, M_PI);
  PeerChain p;
  for (int i = 0; i < dof; ++i) {
    mjhand::DHLink l;
    l.a = len(rng);
    l.alpha = ang(rng);
    l.d = len(rng);
    l.theta = ang(rng);
    p.chain.links.push_back(l);
    p.kdl.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ), KDL::Frame::DH(l.a, l.alpha, l.d, l.theta)));
  }
  for (int k = 0; k < kConfigs; ++k) {
    KDL::JntArray q(dof);
    for (int i = 0; i < dof; ++i) q(i) = ang(rng);
    p.q.push_back(q);
  }
  return p;
}

// Times step(k) over the cycled configurations k.
template <typename Step>
void cycle(benchmark::State& state, Step step) {
  int k = 0;
  for (auto _ : state) step(k++ & (kConfigs - 1));
}

template <int kDof>
void BM_MjhandFk(benchmark::State& state) {
  const PeerChain p = make_chain(kDof);
  mjhand::ChainData d(p.chain);
  cycle(state, [&](int k) {
    mjhand::forward_kinematics(p.chain, p.q[k].data.data(), d);
    benchmark::DoNotOptimize(d.tip.data());
  });
}

template <int kDof>
void BM_KdlFk(benchmark::State& state) {
  const PeerChain p = make_chain(kDof);
  KDL::ChainFkSolverPos_recursive fk(p.kdl);
  KDL::Frame tip;
  cycle(state, [&](int k) {
    fk.JntToCart(p.q[k], tip);
    benchmark::DoNotOptimize(&tip);
  });
}

template <int kDof>
void BM_MjhandFkJacobian(benchmark::State& state) {
  const PeerChain p = make_chain(kDof);
  mjhand::ChainData d(p.chain);
  cycle(state, [&](int k) {
    mjhand::fk_and_jacobian(p.chain, p.q[k].data.data(), d);
    benchmark::DoNotOptimize(d.jacobian.data());
  });
}

template <int kDof>
void BM_KdlJacobian(benchmark::State& state) {
  const PeerChain p = make_chain(kDof);
  KDL::ChainJntToJacSolver solver(p.kdl);
  KDL::Jacobian j(p.kdl.getNrOfJoints());
  cycle(state, [&](int k) {
    solver.JntToJac(p.q[k], j);
    benchmark::DoNotOptimize(j.data.data());
  });
}

BENCHMARK_TEMPLATE(BM_MjhandFk, 3);
BENCHMARK_TEMPLATE(BM_MjhandFk, 7);
BENCHMARK_TEMPLATE(BM_KdlFk, 3);
BENCHMARK_TEMPLATE(BM_KdlFk, 7);
BENCHMARK_TEMPLATE(BM_MjhandFkJacobian, 3);
BENCHMARK_TEMPLATE(BM_MjhandFkJacobian, 7);
BENCHMARK_TEMPLATE(BM_KdlJacobian, 3);
BENCHMARK_TEMPLATE(BM_KdlJacobian, 7);

}  // namespace

// Google Benchmark's main plus the mjhand/KDL ratios (CPU time: the 2-core CI machine is shared).
int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  return mjhand_bench::run_benchmarks(argc, argv,
                                      {{"FK 3 joints mjhand/KDL", "BM_MjhandFk<3>", "BM_KdlFk<3>"},
                                       {"FK 7 joints mjhand/KDL", "BM_MjhandFk<7>", "BM_KdlFk<7>"},
                                       {"FK+Jacobian 3 joints mjhand/KDL", "BM_MjhandFkJacobian<3>",
                                        "BM_KdlJacobian<3>"},
                                       {"FK+Jacobian 7 joints mjhand/KDL", "BM_MjhandFkJacobian<7>",
                                        "BM_KdlJacobian<7>"}},
                                      mjhand_bench::RatioReporter::Clock::kCpu);
}

#else  // built without Orocos KDL

// Says why there is nothing to measure, so a missing library is visible rather than silent.
int main() {
  std::printf("bench_kdl: built without Orocos KDL (apt-get install liborocos-kdl-dev, MJHAND_WITH_KDL=ON)\n");
  return 0;
}

#endif  // MJHAND_HAVE_KDL
