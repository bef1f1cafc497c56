// Size checks for caller-sized outputs (Eigen::Ref views, preallocated workspaces). Eigen checks sizes only with
// assertions, which Release builds (NDEBUG) compile out, so a wrongly sized output is a silent write past its end.
// A check is one or two integer compares on the per-step path; the message is built (and allocates) only on failure,
// in an out-of-line function.
#pragma once

#include <Eigen/Core>

namespace mjhand {

namespace detail {
[[noreturn]] void throw_size_mismatch(const char* function, const char* argument, Eigen::Index rows, Eigen::Index cols,
                                      Eigen::Index expected_rows, Eigen::Index expected_cols, const char* why);
[[noreturn]] void throw_length_mismatch(const char* function, const char* argument, Eigen::Index length,
                                        Eigen::Index expected, const char* unit, const char* why, bool at_least);
}  // namespace detail

// Throws std::invalid_argument "FUNCTION: ARGUMENT must be R x C (WHY), got r x c" unless m is rows x cols.
// `why` (optional) says where the expected size comes from, e.g. "total_rows(contacts) columns".
template <typename M>
inline void require_size(const char* function, const char* argument, const M& m, Eigen::Index rows,
                         Eigen::Index cols, const char* why = nullptr) {
  if (m.rows() != rows || m.cols() != cols) {
    detail::throw_size_mismatch(function, argument, m.rows(), m.cols(), rows, cols, why);
  }
}

// The same for a length (vector size, std::vector size): "FUNCTION: ARGUMENT must have N entries (WHY), got n".
inline void require_length(const char* function, const char* argument, Eigen::Index length, Eigen::Index expected,
                           const char* why = nullptr) {
  if (length != expected) detail::throw_length_mismatch(function, argument, length, expected, "entries", why, false);
}

// For outputs that may be larger than needed: "FUNCTION: ARGUMENT must have at least N UNIT (WHY), got n", with UNIT
// e.g. "entries" or "columns".
inline void require_at_least(const char* function, const char* argument, Eigen::Index length, Eigen::Index expected,
                             const char* unit, const char* why = nullptr) {
  if (length < expected) detail::throw_length_mismatch(function, argument, length, expected, unit, why, true);
}

}  // namespace mjhand
