#include <mjhand/io/atomic_file.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace mjhand {

namespace {
[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw std::runtime_error(path + ": cannot write (" + what + "): " + std::strerror(err));
}

// fsync of the containing folder makes the rename itself durable.
void sync_dir(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  // A folder we may write but not read cannot be opened; the file is complete under its name already, only the
  // durability of the rename across a power cut is then up to the file system.
  if (fd < 0) return;
  int err = 0;
  while (::fsync(fd) != 0) {
    if (errno == EINTR) continue;
    // EINVAL/ENOTSUP: the file system does not sync folders (some FUSE and network file systems); nothing to report.
    if (errno != EINVAL && errno != ENOTSUP) err = errno;
    break;
  }
  ::close(fd);
  if (err) {
    throw std::runtime_error(path + ": written, but fsync of its folder " + dir + " failed: " + std::strerror(err));
  }
}
}  // namespace

void write_file_atomically(const std::string& path, const std::string& content, const WriteHooks* hooks) {
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
    fail(path, "rename of " + tmp + " failed", err);
  }
  sync_dir(path);
}

}  // namespace mjhand
