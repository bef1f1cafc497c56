#include <mjhand/util/size_check.h>

#include <stdexcept>
#include <string>

namespace mjhand::detail {

namespace {
std::string because(const char* why) { return why && *why ? std::string(" (") + why + ")" : std::string(); }
}  // namespace

void throw_size_mismatch(const char* function, const char* argument, Eigen::Index rows, Eigen::Index cols,
                         Eigen::Index expected_rows, Eigen::Index expected_cols, const char* why) {
  throw std::invalid_argument(std::string(function) + ": " + argument + " must be " + std::to_string(expected_rows) +
                              " x " + std::to_string(expected_cols) + because(why) + ", got " + std::to_string(rows) +
                              " x " + std::to_string(cols));
}

void throw_length_mismatch(const char* function, const char* argument, Eigen::Index length, Eigen::Index expected,
                           const char* unit, const char* why, bool at_least) {
  throw std::invalid_argument(std::string(function) + ": " + argument + " must have " + (at_least ? "at least " : "") +
                              std::to_string(expected) + " " + unit + because(why) + ", got " +
                              std::to_string(length));
}

}  // namespace mjhand::detail
