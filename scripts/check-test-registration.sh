#!/usr/bin/env bash
# Checks that ctest runs every Catch2 test case exactly once: catch_discover_tests turns each test-case name into a
# ctest entry and a command-line filter, and names with ';' or '[' ']' break that silently (the entry then runs no
# test, or several names merge into one). Counts the cases of every test binary the build made (tests/CMakeLists.txt)
# and prints the total, the figure that must not shrink when the build changes (docs/reliability.md).
# Usage: scripts/check-test-registration.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: $0 BUILD_DIR}"
names=""
for exe in mjhand_unit_tests mjhand_app_tests mjhand_thread_tests mjhand_view_tests; do
  [ -x "$build/tests/$exe" ] || continue
  # Catch2 v2 exits with the number of listed test cases, so the listing's status is not an error.
  # The rendering cases ([render], [vision]) run in their xvfb-run entries, not one ctest entry each.
  names+="$("$build/tests/$exe" --list-test-names-only "~[render]~[vision]" || true)"$'\n'
done
catch_count="$(grep -c . <<<"$names")"
duplicates="$(grep . <<<"$names" | sort | uniq -d)"
if [ -n "$duplicates" ]; then
  echo "test cases defined in two test binaries (each name must be one ctest entry):" >&2
  echo "$duplicates" >&2
  exit 1
fi
# Tests labelled "script" (viewer, preload, install checks) are not Catch2 test cases and are not counted.
ctest_count="$(cd "$build" && ctest -N -LE script | grep -c '^ *Test *#')"
bad="$(grep -n '[][;]' <<<"$names" || true)"
if [ -n "$bad" ]; then
  echo "test-case names must not contain ';', '[' or ']' (they break ctest registration):" >&2
  echo "$bad" >&2
  exit 1
fi
if [ "$catch_count" != "$ctest_count" ]; then
  echo "ctest has $ctest_count tests but the test binaries have $catch_count test cases: some are not run by ctest" >&2
  exit 1
fi
total="$(cd "$build" && ctest -N | sed -n 's/^Total Tests: //p')"
echo "test registration: $ctest_count ctest tests = $catch_count Catch2 test cases; $total ctest entries in all"
