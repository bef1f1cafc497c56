// Helpers shared by tests and benchmarks: repository paths, models from strings.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <string>
#include <vector>

#include <mjhand/io/model_io.h>

namespace mjhand_test {

using mjhand::DataPtr;
using mjhand::make_data;
using mjhand::ModelPtr;

// Absolute path of the source tree's top folder, and of a file in it, e.g. source_path("models/egrasp_hand.xml").
std::string source_dir();
std::string source_path(const std::string& relative);

// The build folder (CMake's top binary directory) the tests were built in.
std::string binary_dir();

// The build's facts live in test_util.cc alone (its compile definitions), never in a test file, so a test file's
// object is the same in every build folder and the sanitizer build can link the Release build's (tests/CMakeLists.txt).
// Whether this build's CLI has the viewer (MJHAND_BUILD_VIEWER).
bool cli_has_viewer();

// Loads an MJCF file or throws std::runtime_error with MuJoCo's message.
inline ModelPtr load_xml_file(const std::string& path) { return mjhand::load_model(path); }

// Compiles an MJCF string (through a temporary file) or throws.
ModelPtr load_xml_string(const std::string& xml);

// Compiles `xml`: MuJoCo's load error (which carries mjhand's message for a bad plugin instance), or "" when it
// compiles.
std::string attach_error(const std::string& xml);

// Exact decimal text of x (%.17g: reads back to the same double; std::to_string keeps 6 decimals: 3.8e-5 would
// lose 1 %), for gains and values written into XML and command lines.
std::string num(double x);

// `xml` with the configuration of native instance <instance name="instance"> replaced by the keys of `data`
// ("k=v k2=v2"; a type= key is ignored).
std::string with_instance(const std::string& xml, const std::string& instance, const std::string& data);

// Step-response figures of a sampled response y(t) toward `final`.
struct StepMetrics {
  double rise;       // 10 % -> 90 % of the final value [s]
  double overshoot;  // (peak - final) / final
  double settling;   // last time the response enters the +-2 % band around the final value [s]
};
StepMetrics step_metrics(const std::vector<double>& t, const std::vector<double>& y, double final);

// Exit status and combined stdout+stderr of the mjhand CLI run with `args` (a shell-quoted string).
struct CliResult {
  int status;
  std::string output;
};
CliResult run_cli(const std::string& args);
// The same for `mjhand-run ARGS` (`mjhand run` alone, scripts/main.sh's executable).
CliResult run_mjhand_run(const std::string& args);

// Largest entry of |a - b| over the largest entry of |b| (Eigen expressions; 1e-300 keeps an all-zero reference
// finite): the relative error of the cross-checks against MuJoCo.
template <typename A, typename B>
double rel_error(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

// Whole content of a file ("" when it cannot be read).
std::string read_all(const std::string& path);

// An empty folder under the system temp directory, named for the test.
std::string fresh_temp_dir(const std::string& name);

// The <worldbody> of the host tests' two-link arm: hinges j1, j2 about y, links l1, l2 of 0.1 m, site "tip".
std::string two_link_arm_worldbody();

// A test that needs something outside mjhand (an X display, gnuplot, KDL) calls this first and returns when it gives
// true. Missing and MJHAND_REQUIRE_TEST_DEPS=1 (scripts/test.sh sets it: CI must never skip): the test fails naming
// what is missing. Missing otherwise: prints "MJHAND_SKIP: <what>", which ctest reports as skipped
// (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), never as passed.
bool skip_without(bool available, const std::string& what);

}  // namespace mjhand_test
