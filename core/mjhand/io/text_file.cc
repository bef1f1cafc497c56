#include <mjhand/io/text_file.h>

#include <filesystem>

namespace mjhand {

std::string text_file_problem(const std::string& path, std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows symlinks: a link to /dev/zero is /dev/zero
  if (ec || !fs::exists(st)) return "";
  if (fs::is_directory(st)) return "is a directory";
  if (!fs::is_regular_file(st)) return "is not a regular file (a FIFO, socket or device)";
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_bytes) {
    return "is larger than " + std::to_string(max_bytes >> 20) + " MiB (" + std::to_string(size) + " bytes)";
  }
  return "";
}

}  // namespace mjhand
