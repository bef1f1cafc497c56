// The process runner of the apps (apps/common/process_runner.h) and gnuplot through it (gnuplot.h): no shell, PATH
// looked up by mjhand, arguments passed exactly, output in a log, and "not found", "could not be run", "exited with
// status N" and "killed by signal" told apart. The shell versions it replaced (std::system("gnuplot '" + path + "'
// ...")) broke on a path holding a quote.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gnuplot.h"
#include "process_runner.h"
#include "test_util.h"

using namespace mjhand;
using Catch::Contains;
using mjhand_test::read_all;

namespace {

// Replaces PATH for one scope (the runner reads it at each call) and puts it back even when a check throws.
class PathGuard {
 public:
  explicit PathGuard(const std::string& path) : had_(std::getenv("PATH") != nullptr) {
    if (had_) old_ = std::getenv("PATH");
    setenv("PATH", path.c_str(), 1);
  }
  ~PathGuard() {
    if (had_) {
      setenv("PATH", old_.c_str(), 1);
    } else {
      unsetenv("PATH");
    }
  }

 private:
  bool had_;
  std::string old_;
};

void write_file(const std::string& path, const std::string& text, bool executable) {
  std::ofstream(path) << text;
  chmod(path.c_str(), executable ? 0755 : 0644);
}

}  // namespace

TEST_CASE("find_program looks PATH up at the call, without a shell", "[process]") {
  const std::string sh = find_program("sh");
  REQUIRE_FALSE(sh.empty());
  CHECK(sh.front() == '/');
  CHECK(find_program("mjhand-no-such-program") == "");
  CHECK(find_program("") == "");
  const std::string dir = mjhand_test::fresh_temp_dir("process_path");
  write_file(dir + "/mjhand-tool", "#!/bin/sh\nexit 0\n", true);
  write_file(dir + "/mjhand-data", "not a program\n", false);
  std::filesystem::create_directory(dir + "/mjhand-folder");
  {
    const PathGuard path("/nonexistent_mjhand_path:" + dir);
    CHECK(find_program("mjhand-tool") == dir + "/mjhand-tool");
    CHECK(find_program("mjhand-data") == "");    // not executable
    CHECK(find_program("mjhand-folder") == "");  // a folder is not a program
    CHECK(find_program("sh") == "");             // only PATH counts
  }
  CHECK(find_program(dir + "/mjhand-tool") == dir + "/mjhand-tool");  // with a '/': the path itself
  CHECK(find_program(dir + "/mjhand-data") == "");
}

TEST_CASE("run_process: a missing program is 'not found' and starts nothing", "[process]") {
  const std::string dir = mjhand_test::fresh_temp_dir("process_missing");
  const ProcessResult r = run_process({"mjhand-no-such-program", "x"}, dir + "/log");
  CHECK(r.status == ProcessResult::Status::kNotFound);
  CHECK_FALSE(r.ok());
  CHECK(describe(r) == "not found on PATH");
  CHECK_FALSE(std::filesystem::exists(dir + "/log"));
  const ProcessResult by_path = run_process({dir + "/nothing-here"}, "");
  CHECK(describe(by_path) == "not found (no executable file there)");
  CHECK_THROWS_AS(run_process({}, ""), std::invalid_argument);
}

TEST_CASE("run_process: a failing program's status, a signal, and its output in the log", "[process]") {
  const std::string dir = mjhand_test::fresh_temp_dir("process_fail");
  const ProcessResult r = run_process({"sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3"}, dir + "/log");
  CHECK(r.status == ProcessResult::Status::kExited);
  CHECK(r.exit_code == 3);
  CHECK_FALSE(r.ok());
  CHECK(describe(r) == "exited with status 3");
  CHECK(read_all(dir + "/log") == "to-stdout\nto-stderr\n");
  const ProcessResult killed = run_process({"sh", "-c", "kill -9 $$"}, "");
  CHECK(killed.status == ProcessResult::Status::kSignaled);
  CHECK(killed.signal == 9);
  CHECK_THAT(describe(killed), Contains("killed by signal 9"));
  // stdin is /dev/null: a program that reads it sees end of file at once instead of waiting for a terminal.
  CHECK(run_process({"sh", "-c", "read line && exit 1 || exit 0"}, "").ok());
}

TEST_CASE("run_process: a program that cannot be run, and a log that cannot be written, are not exit statuses",
          "[process]") {
  const std::string dir = mjhand_test::fresh_temp_dir("process_not_started");
  write_file(dir + "/not-a-binary", "\x01\x02 neither ELF nor #!\n", true);  // executable bit, nothing to execute
  const ProcessResult r = run_process({dir + "/not-a-binary"}, "");
  CHECK(r.status == ProcessResult::Status::kNotStarted);
  CHECK_THAT(describe(r), Contains("could not be run") && Contains("Exec format error"));
  const ProcessResult no_log = run_process({"true"}, dir + "/no/such/folder/log");
  CHECK(no_log.status == ProcessResult::Status::kNotStarted);
  CHECK_THAT(no_log.error, Contains("cannot open the log " + dir + "/no/such/folder/log"));
}

TEST_CASE("run_process: a succeeding program, and arguments with spaces and quotes passed exactly", "[process]") {
  const std::string dir = mjhand_test::fresh_temp_dir("process_args");
  CHECK(run_process({"true"}, "").ok());
  // printf itself, not a shell: every argument arrives as one word, untouched.
  const std::vector<std::string> args = {"a b", "it's", "\"double\"", "$HOME;rm -rf x", "", "back\\slash"};
  std::vector<std::string> argv = {"printf", "[%s]\\n"};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = run_process(argv, dir + "/log");
  REQUIRE(r.ok());
  CHECK(read_all(dir + "/log") == "[a b]\n[it's]\n[\"double\"]\n[$HOME;rm -rf x]\n[]\n[back\\slash]\n");
  // A file in a folder whose name has a space and a quote, as the plot scripts' folders may.
  const std::string odd = dir + "/it's a folder";
  std::filesystem::create_directory(odd);
  write_file(odd + "/data.txt", "content\n", false);
  REQUIRE(run_process({"cat", odd + "/data.txt"}, odd + "/log").ok());
  CHECK(read_all(odd + "/log") == "content\n");
}

TEST_CASE("run_gnuplot: missing, failing and succeeding gnuplot, with a script path holding a quote", "[process]") {
  const std::string dir = mjhand_test::fresh_temp_dir("process_gnuplot");
  const std::string odd = dir + "/it's plots";
  std::filesystem::create_directory(odd);
  const std::string script = odd + "/plot.gp", log = odd + "/gnuplot.log";
  write_file(script, "set terminal dumb\nplot x\n", false);
  {
    const PathGuard path("/nonexistent_mjhand_path");
    CHECK_FALSE(gnuplot_available());
    CHECK_THROWS_WITH(require_gnuplot(" (hint)"),
                      "gnuplot not found on PATH: install the Debian package gnuplot-nox (hint)");
    CHECK_THROWS_WITH(run_gnuplot(script, log, " (hint)"),
                      "gnuplot not found on PATH: install the Debian package gnuplot-nox (hint)");
  }
  // A stand-in gnuplot that reports its arguments and fails: the script path arrives as one argument.
  const std::string bin = dir + "/bin";
  std::filesystem::create_directory(bin);
  write_file(bin + "/gnuplot", "#!/bin/sh\nprintf '%s|' \"$#\" \"$@\"\nexit 1\n", true);
  {
    const PathGuard path(bin);
    CHECK_THROWS_WITH(run_gnuplot(script, log),
                      "gnuplot failed on " + script + " (exited with status 1), see " + log);
    CHECK(read_all(log) == "1|" + script + "|");  // the log is kept for the failure
  }
  if (!gnuplot_available()) {
    WARN("gnuplot not installed: the real-gnuplot part skipped");
    return;
  }
  CHECK_NOTHROW(run_gnuplot(script, log));
  CHECK_FALSE(std::filesystem::exists(log));  // removed when gnuplot succeeded
}
