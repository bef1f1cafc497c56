// What every subcommand shares: running one with the CLI's error reporting, --help detection, and whether the CLI
// runs inside the Python package. Kept apart from the command table so that `mjhand-run` links `run` alone.
#include <algorithm>
#include <cstdio>
#include <exception>

#include "args.h"
#include "commands.h"

namespace mjhand::cli {

namespace {
bool g_embedded = false;
}  // namespace

bool embedded_in_python() { return g_embedded; }
void set_embedded_in_python(bool on) { g_embedded = on; }

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
