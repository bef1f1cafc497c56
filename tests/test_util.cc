#include "test_util.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <stdexcept>
#include <unistd.h>

namespace mjhand_test {

std::string source_path(const std::string& relative) { return std::string(MJHAND_SOURCE_DIR) + "/" + relative; }

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

#ifdef MJHAND_CLI
CliResult run_cli(const std::string& args) {
  const std::string cmd = std::string(MJHAND_CLI) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int rc = pclose(pipe);
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, out};
}
#endif

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fresh_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("mjhand_test_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace mjhand_test
