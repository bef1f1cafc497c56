// What every subcommand shares: running one with the CLI's error reporting, --help detection, and whether the CLI
// runs inside the Python package. Kept apart from the command table so that `mjhand-run` links `run` alone.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "args.h"
#include "commands.h"

namespace mjhand::cli {

namespace {
bool g_embedded = false;
std::string g_packaged_models;  // set by the Python package: its own copy of models/
}  // namespace

bool embedded_in_python() { return g_embedded; }
void set_embedded_in_python(bool on) { g_embedded = on; }
void set_packaged_models_dir(const std::string& dir) { g_packaged_models = dir; }

std::vector<std::pair<std::string, std::string>> model_search_dirs() {
  std::vector<std::pair<std::string, std::string>> dirs;
  if (const char* path = std::getenv("MJHAND_MODEL_PATH")) {
    std::stringstream list(path);
    for (std::string dir; std::getline(list, dir, ':');) {
      if (!dir.empty()) dirs.emplace_back(dir, "MJHAND_MODEL_PATH");
    }
  }
  // The models that came with this mjhand: the Python package's copy, else the installed and the source tree's.
  if (!g_packaged_models.empty()) {
    dirs.emplace_back(g_packaged_models, "the mjhand package's models");
  } else {
    dirs.emplace_back(MJHAND_INSTALL_MODELS_DIR, "mjhand's installed models");
    dirs.emplace_back(MJHAND_SOURCE_MODELS_DIR, "the models of the checkout mjhand was built from");
  }
  return dirs;
}

std::string resolve_model(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(name, ec) || fs::path(name).is_absolute()) return name;  // load_model reports what is wrong with it
  std::string looked = "  " + name + " (the current folder)\n";
  for (const auto& [dir, what] : model_search_dirs()) {
    const fs::path candidate = fs::path(dir) / name;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    looked += "  " + candidate.string() + " (" + what + ")\n";
  }
  throw std::runtime_error("no model '" + name + "'; looked for it at\n" + looked +
                           "give a path, or add a folder to MJHAND_MODEL_PATH (colon-separated)");
}

bool wants_help(const Args& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "-h" || a == "--help"; });
}

int run_command(const Command& c, const Args& args) {
  try {
    return c.run(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "mjhand %s: %s (see mjhand %s --help)\n", c.name, e.what(), c.name);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mjhand %s: error: %s\n", c.name, e.what());
    return 1;
  }
}

}  // namespace mjhand::cli
