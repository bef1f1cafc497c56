// Constants that many files need, defined once (a file-local copy in each would collide in a unity build).
#pragma once

#include <limits>

namespace mjhand {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace mjhand
