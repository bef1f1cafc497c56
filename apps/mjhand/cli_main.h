// The CLI as a function: `mjhand` (apps/mjhand/exe/main.cc) and `python -m mjhand` both run it.
#pragma once

namespace mjhand::cli {

// Runs `mjhand argv[1] ...` (argv[0] is the program name) and returns the exit code; registers mjhand's plugins
// with MuJoCo first. Never throws: errors are printed to stderr with the exit code the docs give.
int cli_main(int argc, char** argv);

}  // namespace mjhand::cli
