#include "output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace mjhand::batch {

void ensure_writable_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("output folder '" + dir + "' cannot be created: " + ec.message());
  if (!std::filesystem::is_directory(dir, ec)) {  // the non-throwing form: a stat that fails is reported, not thrown
    throw std::runtime_error("output folder '" + dir + "' " +
                             (ec ? "cannot be inspected: " + ec.message() : std::string("is not a folder")));
  }
  const std::string probe = dir + "/.mjhand-write-probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw std::runtime_error("output folder '" + dir + "' is not writable: " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace mjhand::batch
