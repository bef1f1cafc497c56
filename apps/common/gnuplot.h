// gnuplot (Debian gnuplot-nox) for the PNG plots of the batch engine (mjhand plot), the current study and
// identify-coupling: one way to find it and run it, through run_process (no shell).
#pragma once

#include <string>

namespace mjhand {

// gnuplot is on PATH (find_program).
bool gnuplot_available();

// Throws std::runtime_error "gnuplot not found on PATH: install the Debian package gnuplot-nox" followed by `hint`
// (e.g. " (CSV already written)") unless gnuplot_available().
void require_gnuplot(const std::string& hint = "");

// Runs `gnuplot SCRIPT` with its stdout and stderr in LOG, which is removed when gnuplot succeeds. Throws
// std::runtime_error: "gnuplot not found on PATH: ..." (with `hint`), or "gnuplot failed on SCRIPT (exited with
// status 1), see LOG" (killed by a signal, could not be run: said instead), keeping the log.
void run_gnuplot(const std::string& script, const std::string& log, const std::string& hint = "");

}  // namespace mjhand
