// Files that are either complete or absent: the one writer every mjhand output goes through (models written by
// make-hand/make-scene, run summaries, study CSVs, batch rollouts and summaries, gnuplot scripts).
#pragma once

#include <functional>
#include <string>

namespace mjhand {

// Test hooks for fault injection (both optional).
struct WriteHooks {
  // Called before writing `path`; a nonzero errno makes the write fail as if the system had returned it (ENOSPC).
  std::function<int(const std::string& path)> fail_errno;
  // Called after the data is on disk under `tmp`, just before the rename to `path`.
  std::function<void(const std::string& tmp, const std::string& path)> before_rename;
};

// Writes `content` to PATH.tmp in the same folder (same file system, so the rename is atomic), fsyncs it, renames it
// over `path` and fsyncs the folder, so that neither a crash, Ctrl-C nor a full disk leaves a truncated file under
// the final name, and a completed call survives a power cut. One writer per path at a time (the temporary's name is
// fixed, so a crashed write's leftover is simply overwritten by the next). Throws std::runtime_error
// "PATH: cannot write (STAGE): <strerror>" and removes the temporary on any failed open, write, fsync, close or
// rename; "PATH: written, but ..." when only the folder's fsync failed (the file is complete under its name).
void write_file_atomically(const std::string& path, const std::string& content, const WriteHooks* hooks = nullptr);

}  // namespace mjhand
