#!/usr/bin/env bash
# mjhand's test suite in two tiers (README, "Run the tests"; docs/reliability.md, "Cost in CI"):
#   scripts/test.sh quick   contributors: Release build (no benchmark programs), the test-registration and layering
#                           checks, ctest, then the Python package built from that same build and its pytest suite.
#   scripts/test.sh [full]  CI (.ci/run): the quick tier with the benchmark programs, the install check, the
#                           headline-figure check (callgrind) and a configure of the `pip install .` configuration,
#                           the mjx tier (scripts/test-mjx.sh: JAX and MJX installed, mjhand.mjx's tests),
#                           the binary wheel installed into a clean Debian root (root: debootstrap, chroot),
#                           then an ASan+UBSan build of the library and its unit and threaded tests, ThreadSanitizer
#                           on the threaded tests, and short libFuzzer runs of every parser. Skip stages with
#                           MJHAND_SKIP_WHEEL=1 (not root), MJHAND_SKIP_SANITIZE=1, MJHAND_SKIP_TSAN=1, MJHAND_SKIP_FUZZ=1,
#                           MJHAND_SKIP_MJX=1.
# Both install the dependencies first (scripts/install-deps.sh). Each stage's start is printed as "== [m:ss] stage".
set -euo pipefail
tier="${1:-full}"
case "$tier" in
  quick | full) ;;
  *) echo "usage: $0 [quick|full]   (default full: what CI runs)" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/install-deps.sh
jobs="$(nproc)"
# Every outside dependency a test needs (X display via xvfb-run, gnuplot, KDL) is installed above: a missing one
# fails its test here instead of showing as skipped (tests/support/test_util.h: skip_without).
export MJHAND_REQUIRE_TEST_DEPS=1
stage() { printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$1"; }
stage "dependencies installed; Release build ($tier tier)"
# The binary wheel stage's clean Debian root (debootstrap: downloads and unpacking, ~1 min, little CPU) is made
# beside the Release build; its stage waits for it.
root_job=""
root_log="$(mktemp)"
if [ "$tier" = full ] && [ "${MJHAND_SKIP_WHEEL:-0}" != "1" ]; then
  scripts/test-wheel.sh --make-root >"$root_log" 2>&1 &
  root_job=$!
fi

# Ninja for a new build folder (an existing one keeps its generator).
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"
# The benchmark programs only feed the headline-figure check of the full tier.
benchmarks=ON
if [ "$tier" = quick ]; then benchmarks=OFF; fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMJHAND_BUILD_BENCHMARKS="$benchmarks" >/dev/null
cmake --build build -j"$jobs"
stage "Release ctest"
scripts/check-test-registration.sh build
scripts/check-layering.sh build  # a wrong-way include or call in a layer must fail the build
(cd build && ctest --output-on-failure -j"$jobs")

if [ "$tier" = full ]; then
  stage "install check, headline figures"
  scripts/test-install.sh build  # install into a temporary prefix; build the external example and pkg-config consumer
  scripts/check-claims.sh build  # README/BENCHMARKS headline figures: re-derived (callgrind) or listed as by hand
  # The configuration a user's `pip install .` makes (pyproject.toml: no tests, benchmarks or viewer) must configure;
  # the isolated install itself compiles the library again (~5 min) and is measured by hand (docs/reliability.md).
  cmake -S . -B build-pip-config -DCMAKE_BUILD_TYPE=Release -DMJHAND_BUILD_PYTHON=ON -DMJHAND_BUILD_TESTS=OFF \
        -DMJHAND_BUILD_BENCHMARKS=OFF -DMJHAND_BUILD_VIEWER=OFF \
        -DPython_EXECUTABLE="${MJHAND_VENV:-$root/.venv}/bin/python" >/dev/null
fi
stage "Python package (from the Release build)"
scripts/test-python-package.sh --reuse build  # pip builds the wheel in build/ (only the module compiles), then pytest
if [ "$tier" = full ] && [ "${MJHAND_SKIP_MJX:-0}" != "1" ]; then
  stage "grasp metrics on MJX (the mjx tier: JAX on CPU)"
  scripts/test-mjx.sh  # installs the extra's pins (only this tier does), then tests/python/mjx
fi
if [ "$tier" = quick ]; then
  stage "done (quick tier)"
  exit 0
fi

if [ "${MJHAND_SKIP_WHEEL:-0}" != "1" ]; then
  stage "binary wheel: build, then install into a clean Debian 12 root after pip install mujoco"
  wheel="$(scripts/build-wheel.sh --reuse build -o build/dist)"  # from the Release build: only repackaging
  wait "$root_job" || { cat "$root_log" >&2; echo "$0: making the Debian root failed" >&2; exit 1; }
  scripts/test-wheel.sh "$wheel"  # needs root: debootstrap'ed root (~1 min), then the user's steps (docs/python.md)
fi

if [ "${MJHAND_SKIP_SANITIZE:-0}" != "1" ]; then
  stage "ASan + UBSan build and ctest"
  # clang: the library, the CLI, the unit and threaded tests and the fuzz targets in one build, which fuzzing below
  # reuses (scripts/configure-sanitize.sh says what is in it and why). The test files are not instrumented under
  # ASan + UBSan: their objects come from the Release build above instead of a second compilation (tests/CMakeLists.txt).
  MJHAND_TEST_OBJECTS_FROM="$root/build" scripts/configure-sanitize.sh build-sanitize
  cmake --build build-sanitize -j"$jobs"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp"  # MuJoCo's leak when a plugin's init fails (see the file)
  (cd build-sanitize && ctest --output-on-failure -j"$jobs")
fi

if [ "${MJHAND_SKIP_TSAN:-0}" != "1" ]; then
  stage "ThreadSanitizer"
  # ThreadSanitizer on the worker pool and the plugins stepped from several threads; the CLI subprocesses of a few
  # batch cases are the Release build's (not compiled a third time: tests/CMakeLists.txt, MJHAND_TEST_CLI_FROM).
  MJHAND_TEST_CLI_FROM="$root/build" scripts/tsan.sh
fi
if [ "${MJHAND_SKIP_FUZZ:-0}" != "1" ]; then
  stage "fuzzing"
  scripts/fuzz.sh "${MJHAND_FUZZ_SECONDS:-20}"  # short libFuzzer run of every parser, then its regression inputs
fi
stage "done (full tier)"
