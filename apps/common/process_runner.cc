#include "process_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace mjhand {

namespace {
bool executable_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

ProcessResult not_started(ProcessResult r, int err) {
  r.status = ProcessResult::Status::kNotStarted;
  r.error = std::strerror(err);
  return r;
}
}  // namespace

std::string find_program(const std::string& program) {
  if (program.empty()) return "";
  if (program.find('/') != std::string::npos) return executable_file(program) ? program : "";
  const char* env = std::getenv("PATH");
  // POSIX leaves an unset PATH to the implementation; glibc's execvp falls back to this list.
  const std::string path = env ? env : "/bin:/usr/bin";
  size_t start = 0;
  while (true) {
    const size_t end = path.find(':', start);
    std::string dir = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + program;
    if (executable_file(candidate)) return candidate;
    if (end == std::string::npos) return "";
    start = end + 1;
  }
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& log_path) {
  if (argv.empty()) throw std::invalid_argument("run_process: no program given (empty argv)");
  ProcessResult r;
  r.program = find_program(argv[0]);
  if (r.program.empty()) {
    r.program = argv[0];
    r.status = ProcessResult::Status::kNotFound;
    return r;
  }
  // The log is opened here rather than by the child so that a log that cannot be written is told from a program
  // that cannot be started. O_CLOEXEC: only the child's dup2'ed copies survive its exec.
  const std::string log = log_path.empty() ? "/dev/null" : log_path;
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    ProcessResult bad = not_started(r, errno);
    bad.error = "cannot open the log " + log + ": " + bad.error;
    return bad;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));  // posix_spawn does not write them
  args.push_back(nullptr);
  pid_t pid = -1;
  // glibc's posix_spawn reports a failed exec (EACCES, ENOEXEC, ...) as its return value, not as exit status 127.
  const int spawn_error = ::posix_spawn(&pid, r.program.c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(log_fd);
  if (spawn_error != 0) return not_started(r, spawn_error);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno == EINTR) continue;
    ProcessResult lost = not_started(r, errno);  // e.g. SIGCHLD ignored by the host program: the status is gone
    lost.error = "started, but its exit status is lost: " + lost.error;
    return lost;
  }
  if (WIFSIGNALED(status)) {
    r.status = ProcessResult::Status::kSignaled;
    r.signal = WTERMSIG(status);
  } else {
    r.status = ProcessResult::Status::kExited;
    r.exit_code = WEXITSTATUS(status);
  }
  return r;
}

std::string describe(const ProcessResult& r) {
  switch (r.status) {
    case ProcessResult::Status::kExited: return "exited with status " + std::to_string(r.exit_code);
    case ProcessResult::Status::kSignaled:
      return "killed by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")";
    case ProcessResult::Status::kNotFound:
      return r.program.find('/') == std::string::npos ? "not found on PATH" : "not found (no executable file there)";
    case ProcessResult::Status::kNotStarted: return "could not be run: " + r.error;
  }
  return "?";
}

}  // namespace mjhand
