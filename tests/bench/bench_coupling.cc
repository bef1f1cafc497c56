// Per-step cost of the two coupling mechanisms on the BERUL thumb (issue 6), as ratios to the same thumb without
// any coupling (its three flexion joints free, the same position actuator and motion):
//   equality: MuJoCo joint equalities (models/berul_thumb.xml), two more constraint rows for the solver;
//   spring:   mjhand's "coupling" plugin (models/berul_thumb_spring.xml), two native passive plugin instances
//             (spring-dampers added to qfrc_passive by MuJoCo's passive stage).
//   ./build/tests/bench_coupling --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "bench_util.h"
#include <mjhand/io/model_io.h>
#include "test_util.h"
#include <mjhand/native/native_plugins.h>

namespace {

constexpr int kPeriodSteps = 1000;  // one flex-extend cycle (2 s at 2 ms), then reset: both sides see the same motion

struct Sim {
  mjhand::ModelPtr m;
  mjhand::DataPtr d;
  int actuator = -1;
};

// "equality", "spring" or "uncoupled" (berul_thumb.xml with its <equality> block removed).
Sim make_sim(const std::string& variant) {
  Sim s;
  if (variant == "spring") {
    s.m = mjhand_test::load_xml_file(mjhand_test::source_path("models/berul_thumb_spring.xml"));
  } else {
    std::string xml = mjhand_test::read_all(mjhand_test::source_path("models/berul_thumb.xml"));
    if (variant == "uncoupled") {
      const auto a = xml.find("  <equality>"), b = xml.find("</equality>\n");
      xml.erase(a, b + std::string("</equality>\n").size() - a);
    }
    s.m = mjhand_test::load_xml_string(xml);
  }
  s.d = mjhand::make_data(s.m.get());
  s.actuator = mj_name2id(s.m.get(), mjOBJ_ACTUATOR, "thumb_j2_position");
  return s;
}

void BM_Step(benchmark::State& state, const std::string& variant) {
  Sim s = make_sim(variant);
  int k = 0;
  for (auto _ : state) {
    s.d->ctrl[s.actuator] = 0.125 - 0.175 * std::cos(2 * M_PI * k / kPeriodSteps);
    mj_step(s.m.get(), s.d.get());
    if (++k == kPeriodSteps) {
      k = 0;
      mj_resetData(s.m.get(), s.d.get());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  for (const char* v : {"uncoupled", "equality", "spring"}) {
    benchmark::RegisterBenchmark((std::string("Step/") + v).c_str(), BM_Step, std::string(v));
  }
  return mjhand_bench::run_benchmarks(argc, argv,
                                      {{"equality: coupled / uncoupled mj_step", "Step/equality", "Step/uncoupled"},
                                       {"spring plugin: coupled / uncoupled mj_step", "Step/spring", "Step/uncoupled"}},
                                      mjhand_bench::RatioReporter::Clock::kCpu);
}
