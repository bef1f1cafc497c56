#include <cstdio>

#include "commands.h"

namespace mjhand::cli {
int cmd_run(const Args&) {
  std::fprintf(stderr, "run: not implemented yet\n");
  return 1;
}
}  // namespace mjhand::cli
