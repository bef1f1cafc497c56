#include "test_util.h"

#include <mjhand/host/config.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include <stdexcept>
#include <unistd.h>

namespace mjhand_test {

std::string source_dir() { return MJHAND_SOURCE_DIR; }

std::string source_path(const std::string& relative) { return source_dir() + "/" + relative; }

std::string binary_dir() { return MJHAND_BINARY_DIR; }

bool cli_has_viewer() { return MJHAND_CLI_HAS_VIEWER; }

ModelPtr load_xml_string(const std::string& xml) {
  char name[] = "/tmp/mjhand_test_XXXXXX.xml";
  const int fd = mkstemps(name, 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  std::ofstream(name) << xml;
  try {
    ModelPtr m = mjhand::load_model(name);
    std::remove(name);
    return m;
  } catch (...) {
    std::remove(name);
    throw;
  }
}

std::string attach_error(const std::string& xml) {
  try {
    load_xml_string(xml);  // an instance's configuration is checked while MuJoCo compiles
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

StepMetrics step_metrics(const std::vector<double>& t, const std::vector<double>& y, double final) {
  auto crossing = [&](double level) {
    for (size_t i = 1; i < y.size(); ++i) {
      if (y[i] >= level && y[i - 1] < level) return t[i - 1] + (level - y[i - 1]) / (y[i] - y[i - 1]) * (t[i] - t[i - 1]);
    }
    return std::nan("");
  };
  StepMetrics s{crossing(0.9 * final) - crossing(0.1 * final),
                (*std::max_element(y.begin(), y.end()) - final) / final, 0};
  for (size_t i = 1; i < y.size(); ++i) {
    if (std::abs(y[i - 1] - final) > 0.02 * final && std::abs(y[i] - final) <= 0.02 * final) {
      const double lvl = y[i - 1] > final ? 1.02 * final : 0.98 * final;
      s.settling = t[i - 1] + (lvl - y[i - 1]) / (y[i] - y[i - 1]) * (t[i] - t[i - 1]);
    }
  }
  return s;
}

#ifdef MJHAND_CLI
namespace {
CliResult run_program(const std::string& program, const std::string& args) {
  // timeout(1): a regression that blocks (e.g. on a FIFO) fails its test instead of hanging the suite.
  const std::string cmd = "timeout --kill-after=10 300 " + program + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int rc = pclose(pipe);
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, out};
}
}  // namespace

CliResult run_cli(const std::string& args) { return run_program(MJHAND_CLI, args); }
CliResult run_mjhand_run(const std::string& args) { return run_program(MJHAND_RUN, args); }
#endif

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fresh_temp_dir(const std::string& name) {
  // Named per build tree: two checkouts (worktrees, CI and a developer) running ctest at once must not remove each
  // other's files; within one tree every case passes its own name.
  const std::string tree = std::to_string(std::hash<std::string>{}(binary_dir()) % 1000000007u) + "_";
  const auto dir = std::filesystem::temp_directory_path() / ("mjhand_test_" + tree + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string two_link_arm_worldbody() {
  return R"(<worldbody>
    <body name="l1"><joint name="j1" axis="0 1 0" damping="0.05"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/>
      <body name="l2" pos="0.1 0 0"><joint name="j2" axis="0 1 0" damping="0.05"/>
        <geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/><site name="tip" pos="0.1 0 0"/></body></body>
  </worldbody>)";
}

}  // namespace mjhand_test

namespace mjhand_test {

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", x);
  return buf;
}

std::string with_instance(const std::string& xml, const std::string& instance, const std::string& data) {
  const std::string open = "<instance name=\"" + instance + "\">";
  const size_t a = xml.find(open);
  if (a == std::string::npos) throw std::runtime_error("with_instance: no " + open + " in the model");
  const size_t b = xml.find("</instance>", a);
  std::string body = "\n";
  for (const auto& [k, v] : mjhand::parse_key_values(data, [] { return std::string("with_instance"); })) {
    if (k != "type") body += "        <config key=\"" + k + "\" value=\"" + v + "\"/>\n";
  }
  std::string out = xml;
  out.replace(a + open.size(), b - a - open.size(), body + "      ");
  return out;
}

}  // namespace mjhand_test
