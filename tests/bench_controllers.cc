// Per-step cost of each joint controller on the e_GRASP hand (issue 4), as a ratio to the bare mj_step of the same
// scene following the same motion. The baseline replays the controls the controller produced in a recording run,
// so both sides integrate bit-identical states (checked before timing) and the ratio isolates the controller.
//   ./build/tests/bench_controllers --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/host.h"
#include "io/model_io.h"
#include "test_util.h"
#include "bench_util.h"
#include "native/native_plugins.h"

namespace {

constexpr int kPeriodSteps = 2000;  // one closing motion (4 s at 2 ms); both sides restart it at the same step
const char* kClose = "0,-0.7,-0.7,0,-0.7,-0.7,0,-0.7,-0.7,0,0.2,0.3";  // egrasp_scene.xml's closing posture
const char* kHandActuators =
    "f1_j1_act,f1_j2_act,f1_j3_act,f2_j1_act,f2_j2_act,f2_j3_act,f3_j1_act,f3_j2_act,f3_j3_act,f4_j1_act,f4_j2_act,"
    "f4_j3_act";
const char* kHandJoints = "f1_j1,f1_j2,f1_j3,f2_j1,f2_j2,f2_j3,f3_j1,f3_j2,f3_j3,f4_j1,f4_j2,f4_j3";

// One benchmarked configuration: the hand's actuators and the mjhand instances of the candidate. `replay_plugins`
// are instances the baseline keeps (an actuator model is physics, not control).
struct Variant {
  std::string actuators;
  std::string plugins;
  std::string replay_plugins;
};

std::string actuator_block(const char* element, const char* attrs) {
  std::string out = "<actuator>";
  for (int f = 1; f <= 4; ++f) {
    for (int j = 1; j <= 3; ++j) {
      const std::string joint = "f" + std::to_string(f) + "_j" + std::to_string(j);
      out += std::string("<") + element + " name=\"" + joint + "_act\" joint=\"" + joint + "\" " + attrs + "/>";
    }
  }
  return out + "</actuator>";
}

const std::map<std::string, Variant>& variants() {
  static const std::map<std::string, Variant> v = {
      {"pid",
       {actuator_block("motor", "ctrllimited=\"true\" ctrlrange=\"-0.5 0.5\""),
        std::string("<text name=\"mjhand:pid\" data=\"type=pid actuators=all setpoint=") + kClose +
            " kp=2 ki=4 kd=0.05 tf=0.004 period=0.002 dac_bits=12 encoder_cpr=4096\"/>",
        ""}},
      // The paper's block diagram: PID voltage into the DC-motor model (armature = (Ja + Jm)/n^2 = 5e-4 kg m^2).
      {"pid_dc_motor",
       {actuator_block("general", "gaintype=\"user\" biastype=\"user\" ctrllimited=\"true\" ctrlrange=\"-24 24\""),
        std::string("<text name=\"mjhand:pid\" data=\"type=pid actuators=all setpoint=") + kClose +
            " kp=40 ki=20 kd=0.5 tf=0.004 period=0.002 dac_bits=12 encoder_cpr=4096\"/>",
        std::string("<text name=\"mjhand:motor\" data=\"type=dc_motor actuators=") + kHandActuators +
            " R=2 ki=0.02 kb=0.02 Jm=1e-6 Ja=0.25e-6 Bm=1e-6 n=0.05\"/>"}},
      {"computed_torque",
       {actuator_block("motor", ""),
        std::string("<text name=\"mjhand:ct\" data=\"type=computed_torque trajectory=quintic T=1 joints=") +
            kHandJoints + " q1=" + kClose + "\"/>",
        ""}},
      {"feedforward",
       {actuator_block("motor", ""),
        std::string("<text name=\"mjhand:ff\" data=\"type=computed_torque law=feedforward trajectory=quintic T=1 "
                    "joints=") +
            kHandJoints + " q1=" + kClose + "\"/>",
        ""}},
  };
  return v;
}

// The generated hand with its actuator block replaced, over the table with a ball (as bench_foundation's scene).
std::string write_scene(const std::string& name, const Variant& v, bool candidate) {
  const std::string dir = "/tmp/mjhand_bench_controllers";
  std::filesystem::create_directories(dir);
  std::string hand = mjhand_test::read_all(mjhand_test::source_path("models/egrasp_hand.xml"));
  const size_t a = hand.find("<actuator>"), b = hand.find("</actuator>");
  if (a == std::string::npos || b == std::string::npos) throw std::runtime_error("egrasp_hand.xml has no actuators");
  hand.replace(a, b + 11 - a, v.actuators);
  const std::string hand_file = dir + "/hand_" + name + ".xml";
  std::ofstream(hand_file) << hand;
  const std::string path = dir + "/scene_" + name + (candidate ? "_ctl.xml" : "_replay.xml");
  std::ofstream out(path);
  out << "<mujoco><include file=\"hand_" << name << ".xml\"/>"
      << "<option timestep=\"0.002\" cone=\"elliptic\" impratio=\"10\"/><size nuserdata=\"400\"/>"
      << "<worldbody><geom type=\"plane\" size=\"2 2 0.05\"/>"
      << "<geom type=\"box\" pos=\"0.05 -0.022 0.2\" size=\"0.25 0.25 0.2\"/>"
      << "<body name=\"ball\" pos=\"0.04 -0.022 0.425\"><freejoint/>"
      << "<geom type=\"sphere\" size=\"0.025\" mass=\"0.05\" condim=\"4\"/></body></worldbody><custom>"
      << (candidate ? v.plugins : "") << v.replay_plugins << "</custom></mujoco>\n";
  return path;
}

// A compiled scene with its host (if it has instances) and data.
struct Sim {
  mjhand::ModelPtr m;
  std::unique_ptr<mjhand::Host> host;
  mjhand::DataPtr d;
  explicit Sim(const std::string& path) : m(mjhand::load_model(path)) {
    if (m->ntext > 0) host = mjhand::Host::attach(m.get());
    d = mjhand::make_data(m.get());
  }
};

// Controls of one period of the candidate's motion, and the final qpos to check the replay against.
mjhand_bench::ControlRecording record(const std::string& name) {
  Sim s(write_scene(name, variants().at(name), true));
  return mjhand_bench::record_controls(s.m.get(), s.d.get(), kPeriodSteps);
}

// The controller drives the hand.
void BM_Controlled(benchmark::State& state, const std::string& name) {
  Sim s(write_scene(name, variants().at(name), true));
  int k = 0;
  for (auto _ : state) {
    mj_step(s.m.get(), s.d.get());
    if (++k == kPeriodSteps) {
      k = 0;
      mj_resetData(s.m.get(), s.d.get());
    }
  }
}

// The same motion from replayed controls; first checks that the replay reproduces the controlled run exactly.
void BM_Replayed(benchmark::State& state, const std::string& name) {
  static std::map<std::string, mjhand_bench::ControlRecording> recordings;
  if (!recordings.count(name)) recordings[name] = record(name);
  const mjhand_bench::ControlRecording& rec = recordings[name];
  Sim s(write_scene(name, variants().at(name), false));
  if (const double diff = mjhand_bench::replay_difference(s.m.get(), s.d.get(), rec); diff != 0) {
    state.SkipWithError(("replay differs from the controlled run by " + std::to_string(diff)).c_str());
    return;
  }
  mj_resetData(s.m.get(), s.d.get());
  int k = 0;
  for (auto _ : state) {
    mjhand_bench::replay_step(s.m.get(), s.d.get(), rec, k);
    if (++k == kPeriodSteps) {
      k = 0;
      mj_resetData(s.m.get(), s.d.get());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  std::vector<mjhand_bench::RatioPair> pairs;
  for (const auto& [name, v] : variants()) {
    benchmark::RegisterBenchmark(("Controlled/" + name).c_str(), BM_Controlled, name);
    benchmark::RegisterBenchmark(("Replayed/" + name).c_str(), BM_Replayed, name);
    pairs.push_back({name + ": controlled / replayed mj_step", "Controlled/" + name, "Replayed/" + name});
  }
  return mjhand_bench::run_benchmarks(argc, argv, pairs, mjhand_bench::RatioReporter::Clock::kCpu);
}
