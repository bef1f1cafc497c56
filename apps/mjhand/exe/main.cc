// mjhand: the headless command-line front end (apps/mjhand/cli_main.cc).
#include "cli_main.h"

int main(int argc, char** argv) { return mjhand::cli::cli_main(argc, argv); }
