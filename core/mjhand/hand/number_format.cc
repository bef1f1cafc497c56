#include <mjhand/hand/number_format.h>

#include <cstdio>
#include <cstdlib>

namespace mjhand {

std::string format_exact(double v) {
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace mjhand
