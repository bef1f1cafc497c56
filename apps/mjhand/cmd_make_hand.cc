#include <cstdio>

#include "commands.h"

namespace mjhand::cli {
int cmd_make_hand(const Args&) {
  std::fprintf(stderr, "make-hand: not implemented yet\n");
  return 1;
}
}  // namespace mjhand::cli
