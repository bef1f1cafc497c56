// Per-step cost of each joint controller on the e_GRASP hand (issue 4), as a ratio to the bare mj_step of the same
// scene following the same motion. The baseline replays the controls the controller produced in a recording run
// (a native controller's output is the force of its own actuators, replayed as the ctrl of motor twins), so both
// sides integrate bit-identical states (checked before timing) and the ratio isolates the controller.
//   ./build/tests/bench_controllers --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/io/model_io.h>
#include "test_util.h"
#include "bench_util.h"
#include <mjhand/native/native_plugins.h>

namespace {

constexpr int kPeriodSteps = 2000;  // one closing motion (4 s at 2 ms); both sides restart it at the same step
const char* kClose = "0,-0.7,-0.7,0,-0.7,-0.7,0,-0.7,-0.7,0,0.2,0.3";  // egrasp_scene.xml's closing posture
const char* kHandActuators =
    "f1_j1_act,f1_j2_act,f1_j3_act,f2_j1_act,f2_j2_act,f2_j3_act,f3_j1_act,f3_j2_act,f3_j3_act,f4_j1_act,f4_j2_act,"
    "f4_j3_act";
const char* kHandJoints = "f1_j1,f1_j2,f1_j3,f2_j1,f2_j2,f2_j3,f3_j1,f3_j2,f3_j3,f4_j1,f4_j2,f4_j3";

// One benchmarked configuration: the hand's actuators with the candidate and in the baseline, the native mjhand
// instances of the candidate, and those the baseline keeps (`replay_plugins`: an actuator model is physics, not
// control). A controller's own plugin actuators become motors with the same joint and ranges in the baseline, which
// replays the controller's force as their ctrl.
struct Variant {
  std::string actuators, replay_actuators;
  std::string plugins;
  std::string replay_plugins;
};

std::string actuator_block(const std::string& element, const std::string& attrs) {
  std::string out = "<actuator>";
  for (int f = 1; f <= 4; ++f) {
    for (int j = 1; j <= 3; ++j) {
      const std::string joint = "f" + std::to_string(f) + "_j" + std::to_string(j);
      out += "<" + element + " name=\"" + joint + "_act\" joint=\"" + joint + "\" " + attrs + "/>";
    }
  }
  return out + "</actuator>";
}

// Actuators bound to native instance `instance`.
std::string plugin_actuators(const std::string& instance, const std::string& attrs) {
  return actuator_block("plugin", "instance=\"" + instance + "\" " + attrs);
}

// <plugin plugin="mjhand.TYPE"><instance name="NAME"> with the keys of `config` ("k=v k2=v2").
std::string instance(const std::string& type, const std::string& name, const std::string& config) {
  return mjhand_test::with_instance(
      "<plugin plugin=\"mjhand." + type + "\"><instance name=\"" + name + "\"></instance></plugin>", name, config);
}

const std::map<std::string, Variant>& variants() {
  static const std::map<std::string, Variant> v = {
      {"pid",
       {plugin_actuators("pid", "ctrllimited=\"true\" ctrlrange=\"-0.5 0.5\""),
        actuator_block("motor", "ctrllimited=\"true\" ctrlrange=\"-0.5 0.5\""),
        instance("pid", "pid", std::string("actuators=all setpoint=") + kClose +
                                   " kp=2 ki=4 kd=0.05 tf=0.004 period=0.002 dac_bits=12 encoder_cpr=4096"),
        ""}},
      // The paper's block diagram: PID voltage into the DC-motor model (armature = (Ja + Jm)/n^2 = 5e-4 kg m^2).
      {"pid_dc_motor",
       {plugin_actuators("motor", "ctrllimited=\"true\" ctrlrange=\"-24 24\""),
        plugin_actuators("motor", "ctrllimited=\"true\" ctrlrange=\"-24 24\""),
        instance("pid", "pid", std::string("actuators=") + kHandActuators + " setpoint=" + kClose +
                                   " kp=40 ki=20 kd=0.5 tf=0.004 period=0.002 dac_bits=12 encoder_cpr=4096"),
        instance("dc_motor", "motor", std::string("actuators=") + kHandActuators +
                                          " R=2 ki=0.02 kb=0.02 Jm=1e-6 Ja=0.25e-6 Bm=1e-6 n=0.05")}},
      {"computed_torque",
       {plugin_actuators("ct", ""), actuator_block("motor", ""),
        instance("computed_torque", "ct",
                 std::string("trajectory=quintic T=1 joints=") + kHandJoints + " q1=" + kClose),
        ""}},
      {"feedforward",
       {plugin_actuators("ff", ""), actuator_block("motor", ""),
        instance("computed_torque", "ff",
                 std::string("law=feedforward trajectory=quintic T=1 joints=") + kHandJoints + " q1=" + kClose),
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
  hand.replace(a, b + 11 - a, candidate ? v.actuators : v.replay_actuators);
  const std::string suffix = candidate ? "_ctl" : "_replay";
  const std::string hand_file = dir + "/hand_" + name + suffix + ".xml";
  std::ofstream(hand_file) << hand;
  const std::string path = dir + "/scene_" + name + suffix + ".xml";
  const std::string plugins = (candidate ? v.plugins : "") + v.replay_plugins;
  std::ofstream out(path);
  out << "<mujoco>" << (plugins.empty() ? "" : "<extension>" + plugins + "</extension>")
      << "<include file=\"hand_" << name << suffix << ".xml\"/>"
      << "<option timestep=\"0.002\" cone=\"elliptic\" impratio=\"10\"/>"
      << "<worldbody><geom type=\"plane\" size=\"2 2 0.05\"/>"
      << "<geom type=\"box\" pos=\"0.05 -0.022 0.2\" size=\"0.25 0.25 0.2\"/>"
      << "<body name=\"ball\" pos=\"0.04 -0.022 0.425\"><freejoint/>"
      << "<geom type=\"sphere\" size=\"0.025\" mass=\"0.05\" condim=\"4\"/></body></worldbody></mujoco>\n";
  return path;
}

// A compiled scene (MuJoCo runs its native instances) and its data.
struct Sim {
  mjhand::ModelPtr m;
  mjhand::DataPtr d;
  explicit Sim(const std::string& path) : m(mjhand::load_model(path)), d(mjhand::make_data(m.get())) {}
};

// Inputs of one period of the candidate's motion, and the final qpos to check the replay against: the ctrl of an
// actuator whose plugin the baseline keeps (the voltage the PID gave the DC motor), the force of a controller's own
// plugin actuator (its motor twin replays it as ctrl).
mjhand_bench::ControlRecording record(const std::string& name) {
  Sim s(write_scene(name, variants().at(name), true));
  const mjModel* m = s.m.get();
  mjData* d = s.d.get();
  Sim replay(write_scene(name, variants().at(name), false));
  std::set<std::string> kept;
  for (int i = 0; i < replay.m->nplugin; ++i) kept.insert(mj_id2name(replay.m.get(), mjOBJ_PLUGIN, i));
  mjhand_bench::ControlRecording r;
  r.nu = m->nu;
  r.steps = kPeriodSteps;
  for (int k = 0; k < kPeriodSteps; ++k) {
    mj_step(m, d);  // forces are computed in this step's actuation stage and stay in d
    for (int a = 0; a < m->nu; ++a) {
      const int p = m->actuator_plugin[a];
      const bool force = p >= 0 && !kept.count(mj_id2name(m, mjOBJ_PLUGIN, p));
      r.ctrl.push_back(force ? d->actuator_force[a] : d->ctrl[a]);
    }
  }
  r.final_qpos.assign(d->qpos, d->qpos + m->nq);
  return r;
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
