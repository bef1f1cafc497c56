// Doubles as text that reads back bit-identical, in as few digits as that allows (0.475, not 0.47499999999999998).
#pragma once

#include <string>

namespace mjhand {

// Shortest of %.15g/%.16g/%.17g that strtod() turns back into exactly v ("inf"/"-inf" for infinities).
std::string format_exact(double v);

}  // namespace mjhand
