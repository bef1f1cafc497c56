#include "atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace mjhand::batch {

namespace {
[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw std::runtime_error(path + ": cannot write (" + what + "): " + std::strerror(err));
}

// fsync of the containing folder makes the rename itself durable.
void sync_dir(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;  // some file systems refuse to open folders; the rename already happened
  ::fsync(fd);
  ::close(fd);
}
}  // namespace

void write_atomically(const std::string& path, const std::string& content, const WriteHooks* hooks) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create " + tmp, errno);
  int err = hooks && hooks->fail_errno ? hooks->fail_errno(path) : 0;
  std::size_t done = 0;
  while (!err && done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) err = n < 0 ? errno : EIO;
    else done += static_cast<std::size_t>(n);
  }
  std::string stage = "write";
  if (!err && ::fsync(fd) != 0) {
    err = errno;
    stage = "fsync";
  }
  if (::close(fd) != 0 && !err) {
    err = errno;
    stage = "close";
  }
  if (err) {
    ::unlink(tmp.c_str());
    fail(path, stage + " of " + tmp + " failed", err);
  }
  if (hooks && hooks->before_rename) hooks->before_rename(tmp, path);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    fail(path, "rename from " + tmp + " failed", err);
  }
  sync_dir(path);
}

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
