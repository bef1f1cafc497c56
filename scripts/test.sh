#!/usr/bin/env bash
# Installs dependencies, builds mjhand and runs the whole test suite through ctest: first a Release build, then the
# Python package (pip install . + pytest), then an ASan+UBSan build, a ThreadSanitizer run of the threaded tests and short fuzz runs (docs/reliability.md; skip with
# MJHAND_SKIP_SANITIZE=1, MJHAND_SKIP_TSAN=1, MJHAND_SKIP_FUZZ=1).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/install-deps.sh
jobs="$(nproc)"
# Every outside dependency a test needs (X display via xvfb-run, gnuplot, KDL) is installed above: a missing one
# fails its test here instead of showing as skipped (tests/test_util.h: skip_without).
export MJHAND_REQUIRE_TEST_DEPS=1
# Each stage's start (wall time since the script began) in the log (docs/reliability.md, "Cost in CI"): the whole
# run must stay under 60 minutes.
stage() { printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$1"; }
stage "dependencies installed; Release build"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
stage "Release ctest, install, claims"
scripts/check-test-registration.sh build
scripts/check-layering.sh build  # a wrong-way include or call in the core layer must fail the build
(cd build && ctest --output-on-failure -j"$jobs")
scripts/test-install.sh build  # install into a temporary prefix; build the external example and pkg-config consumer
scripts/check-claims.sh build  # README/BENCHMARKS headline figures: re-derived (callgrind) or listed as by hand
stage "Python package"
scripts/test-python-package.sh  # `pip install .` as a user does it, then the package's pytest suite against it

if [ "${MJHAND_SKIP_SANITIZE:-0}" != "1" ]; then
  stage "ASan + UBSan build and ctest"
  # -O1 -g1 (line tables, no variable info): the sanitizers' recommended optimisation level and about half the
  # compile time of RelWithDebInfo's -O2 -g on these Eigen-heavy files (docs/reliability.md); reports keep file:line.
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
        -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DMJHAND_SANITIZE=ON -DMJHAND_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build build-sanitize -j"$jobs"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp"  # MuJoCo's leak when a plugin's init fails (see the file)
  (cd build-sanitize && ctest --output-on-failure -j"$jobs")
fi

if [ "${MJHAND_SKIP_TSAN:-0}" != "1" ]; then
  stage "ThreadSanitizer"
  scripts/tsan.sh  # ThreadSanitizer on the worker pool and the plugins stepped from several threads
fi
if [ "${MJHAND_SKIP_FUZZ:-0}" != "1" ]; then
  stage "fuzzing"
  scripts/fuzz.sh "${MJHAND_FUZZ_SECONDS:-20}"  # short libFuzzer run of every parser (20 s: the 60-min budget), then its regression inputs
fi
stage "done"
