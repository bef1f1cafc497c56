#include "gnuplot.h"

#include <cstdio>
#include <stdexcept>

#include "process_runner.h"

namespace mjhand {

namespace {
std::string missing(const std::string& hint) {
  return "gnuplot not found on PATH: install the Debian package gnuplot-nox" + hint;
}
}  // namespace

bool gnuplot_available() { return !find_program("gnuplot").empty(); }

void require_gnuplot(const std::string& hint) {
  if (!gnuplot_available()) throw std::runtime_error(missing(hint));
}

void run_gnuplot(const std::string& script, const std::string& log, const std::string& hint) {
  const ProcessResult r = run_process({"gnuplot", script}, log);
  if (r.status == ProcessResult::Status::kNotFound) throw std::runtime_error(missing(hint));
  if (!r.ok()) throw std::runtime_error("gnuplot failed on " + script + " (" + describe(r) + "), see " + log);
  std::remove(log.c_str());
}

}  // namespace mjhand
