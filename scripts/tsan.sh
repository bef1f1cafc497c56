#!/usr/bin/env bash
# ThreadSanitizer run (docs/reliability.md): builds mjhand_thread_tests alone (the test files whose cases use threads,
# tests/CMakeLists.txt) with -fsanitize=thread in build-tsan and runs the test cases that use threads: the batch
# engine's worker pool and mjhand's plugins stepped from several threads
# (one mjData per thread, shared model). Any data race stops the run (halt_on_error=1) with both stacks.
# Default selection: tags [batch], [plugins], [faults] and every test case whose name mentions threads.
# Usage: scripts/tsan.sh [CATCH2 TEST SPEC]   (MJHAND_TSAN_BUILD=dir for another build directory)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${MJHAND_TSAN_BUILD:-build-tsan}"
spec="${1:-[batch],[plugins],[faults],*thread*}"
# Without the viewer: the threaded code is the plugins and the batch engine; the rendering tests run in the other builds.
# clang at -O1 -g1, as the ASan build (scripts/configure-sanitize.sh); stacks keep file:line.
scripts/configure-sanitize.sh "$build" thread
cmake --build "$build" -j"$(nproc)" --target mjhand_thread_tests
# The CLI tests that the batch cases run start bin/mjhand: TSan-built here as well, or with MJHAND_TEST_CLI_FROM=DIR
# (scripts/test.sh) that Release build's CLI (tests/CMakeLists.txt).
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4"
export MJHAND_SOURCE_DIR="$root"
"$build/tests/mjhand_thread_tests" "$spec"
