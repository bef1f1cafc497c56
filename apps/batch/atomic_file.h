// Result files that are either complete or absent: written to PATH.tmp, fsync'ed, renamed over PATH, and the folder
// fsync'ed, so a crash, Ctrl-C or a full disk never leaves a truncated file under the final name.
#pragma once

#include <functional>
#include <string>

namespace mjhand::batch {

// Test hooks for fault injection (both optional).
struct WriteHooks {
  // Called before writing `path`; a nonzero errno makes the write fail as if the system had returned it (ENOSPC).
  std::function<int(const std::string& path)> fail_errno;
  // Called after the data is on disk under `tmp`, just before the rename to `path`.
  std::function<void(const std::string& tmp, const std::string& path)> before_rename;
};

// Writes content to path atomically (see above); throws std::runtime_error "PATH: cannot write: <strerror>" and
// removes the temporary file on any failed open, write, fsync, close or rename.
void write_atomically(const std::string& path, const std::string& content, const WriteHooks* hooks = nullptr);

// Creates dir (and parents) and proves it writable with a probe file; throws naming the folder and the reason.
void ensure_writable_dir(const std::string& dir);

}  // namespace mjhand::batch
