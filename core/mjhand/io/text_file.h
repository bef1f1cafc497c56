// Checks on the text files users name (descriptions, campaigns, CSVs, --set-file, MJCF): a FIFO or a device such as
// /dev/zero would block the open or never reach end-of-file, and a huge file would be read into memory whole.
#pragma once

#include <cstdint>
#include <string>

namespace mjhand {

// Larger text inputs than this are refused: mjhand's own files are kilobytes, a CSV of a long rollout megabytes.
constexpr std::uintmax_t kMaxTextFileBytes = std::uintmax_t{256} << 20;

// Why `path` must not be read as a text file ("is a directory", "is not a regular file (a FIFO, socket or device)",
// "is larger than 256 MiB"), or "" when it may. Looks at the file without opening it; a path that does not exist or
// cannot be inspected also gives "", so that the caller's own "cannot open" message reports it.
std::string text_file_problem(const std::string& path, std::uintmax_t max_bytes = kMaxTextFileBytes);

}  // namespace mjhand
