#!/usr/bin/env bash
# Configures the sanitizer build that scripts/test.sh (ASan + UBSan ctest) and scripts/fuzz.sh (libFuzzer) share:
# clang, the library, the CLI and the unit and threaded tests under AddressSanitizer + UndefinedBehaviorSanitizer, the
# parsers' files also instrumented for coverage and the fuzz targets beside the tests (MJHAND_FUZZ); no viewer (its
# tests run in the Release build) and no benchmarks. -O1 -g1 (line tables, no variable info): the sanitizers'
# recommended optimisation level; reports keep file:line in the library, apps and CLI (test frames linked from the
# Release build's objects show function names only). Clang because it compiles these Eigen-heavy files under
# ASan + UBSan in about half GCC's time (docs/reliability.md, "Compile time") and libFuzzer needs it.
# With `thread`, the same compiler and flags for scripts/tsan.sh's ThreadSanitizer build instead (no fuzz targets).
# MJHAND_TEST_OBJECTS_FROM=DIR (address only; scripts/test.sh sets it to its Release build): link that build's
# compiled test files instead of compiling them again (tests/CMakeLists.txt says why that checks the same).
# MJHAND_TEST_CLI_FROM=DIR (thread only; scripts/test.sh sets it to its Release build): the tests start that build's
# CLI instead of one built here (tests/CMakeLists.txt says what ThreadSanitizer then watches).
# Usage: scripts/configure-sanitize.sh BUILD_DIR [address|thread]   (default address: ASan + UBSan)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: $0 BUILD_DIR [address|thread]}"
case "${2:-address}" in
  address) from="${MJHAND_TEST_OBJECTS_FROM:-}"
           [ -z "$from" ] || from="$(cd "$from" && pwd)"
           # Always set, so that a configure without it (scripts/fuzz.sh's) compiles the tests here again.
           sanitizer=(-DMJHAND_SANITIZE=ON -DMJHAND_FUZZ=ON -DMJHAND_TEST_OBJECTS_FROM="$from") ;;
  thread) cli="${MJHAND_TEST_CLI_FROM:-}"
          [ -z "$cli" ] || cli="$(cd "$cli" && pwd)"
          sanitizer=(-DMJHAND_TSAN=ON -DMJHAND_TEST_CLI_FROM="$cli") ;;
  *) echo "usage: $0 BUILD_DIR [address|thread]" >&2; exit 2 ;;
esac
command -v clang++ >/dev/null ||
  { echo "$0: clang++ not found (scripts/install-deps.sh installs clang and libclang-rt-14-dev)" >&2; exit 1; }
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  "${sanitizer[@]}" -DMJHAND_BUILD_BENCHMARKS=OFF -DMJHAND_BUILD_VIEWER=OFF >/dev/null
