// The mjhand CLI's entry point, shared by the `mjhand` executable and `python -m mjhand` (the Python package calls
// it in-process). Dispatches to one subcommand per file.
#include <cstdio>
#include <cstring>

#include "cli_main.h"
#include "commands.h"
#include <mjhand/native/native_plugins.h>

namespace {
void print_usage() {
  std::printf("usage: mjhand <command> [options]   (mjhand <command> --help for details)\n\ncommands:\n");
  for (const auto& c : mjhand::cli::commands()) std::printf("  %-17s %s\n", c.name, c.summary);
}
}  // namespace

namespace mjhand::cli {

int cli_main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help")) {
    print_usage();
    return argc < 2 ? 2 : 0;
  }
  for (const auto& c : mjhand::cli::commands()) {
    if (std::strcmp(argv[1], c.name) == 0) {
      return run_command(c, Args(argv + 2, argv + argc));
    }
  }
  std::fprintf(stderr, "mjhand: unknown command '%s'\n", argv[1]);
  print_usage();
  return 2;
}

}  // namespace mjhand::cli
