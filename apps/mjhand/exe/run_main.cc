// mjhand-run: `mjhand run` alone, linked against the plugin runtime (libmjhand_runtime.a) without the other
// subcommands and the libraries only they need, so that scripts/main.sh compiles 104 of the 150 files `mjhand` needs.
#include "commands.h"
#include <mjhand/native/native_plugins.h>

int main(int argc, char** argv) {
  mjhand::register_native_plugins();  // "mjhand.*" plugins known to MuJoCo before any model loads
  static const mjhand::cli::Command run{"run", "simulate a model with its mjhand plugins", mjhand::cli::cmd_run};
  return mjhand::cli::run_command(run, mjhand::cli::Args(argv + 1, argv + argc));
}
