// Running helper programs (gnuplot) without a shell: the program is found on PATH by mjhand itself, its arguments
// are passed exactly as given (a path with spaces or quotes is one argument, never re-parsed), its output goes to a
// log file, and "not found", "could not start", "exited with status N" and "killed by signal" are told apart.
#pragma once

#include <string>
#include <vector>

namespace mjhand {

// Where `program` runs from: a name containing '/' as it is, else the first PATH entry (read at the call) holding an
// executable regular file of that name (an empty entry is the current folder, as for the shell). "" when there is
// none. What `command -v PROGRAM` answers, without a shell.
std::string find_program(const std::string& program);

struct ProcessResult {
  enum class Status {
    kExited,      // ran and exited: exit_code
    kSignaled,    // killed by signal `signal`
    kNotFound,    // find_program found nothing: nothing was started
    kNotStarted,  // found, but the log could not be opened, the system could not start it, or its status was
                  // lost: `error`
  };
  Status status = Status::kNotStarted;
  int exit_code = -1;
  int signal = 0;
  std::string program;  // the path that was run (or the name that was not found)
  std::string error;    // why kNotStarted (strerror text)

  bool ok() const { return status == Status::kExited && exit_code == 0; }
};

// Runs argv[0] (through find_program) with argv[1..] as its arguments, stdin from /dev/null, stdout and stderr both
// into log_path (created or truncated; "" = /dev/null), and waits for it. Never throws for the program's own
// failures: they are the result. Throws std::invalid_argument for an empty argv.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& log_path);

// For messages: "exited with status 3", "killed by signal 9 (Killed)", "not found on PATH",
// "could not be run: Permission denied".
std::string describe(const ProcessResult& result);

}  // namespace mjhand
