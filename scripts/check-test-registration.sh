#!/usr/bin/env bash
# Checks that ctest runs every Catch2 test case exactly once: catch_discover_tests turns each test-case name into a
# ctest entry and a command-line filter, and names with ';' or '[' ']' break that silently (the entry then runs no
# test, or several names merge into one). Usage: scripts/check-test-registration.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: $0 BUILD_DIR}"
exe="$build/tests/mjhand_tests"
# Catch2 v2 exits with the number of listed test cases, so the listing's status is not an error.
# The rendering cases ([render], [vision]) run in their xvfb-run entries, not one ctest entry each.
names="$("$exe" --list-test-names-only "~[render]~[vision]" || true)"
catch_count="$(grep -c . <<<"$names")"
# Tests labelled "script" (viewer, preload, install checks) are not Catch2 test cases and are not counted.
ctest_count="$(cd "$build" && ctest -N -LE script | grep -c '^ *Test *#')"
bad="$(grep -n '[][;]' <<<"$names" || true)"
if [ -n "$bad" ]; then
  echo "test-case names must not contain ';', '[' or ']' (they break ctest registration):" >&2
  echo "$bad" >&2
  exit 1
fi
if [ "$catch_count" != "$ctest_count" ]; then
  echo "ctest has $ctest_count tests but mjhand_tests has $catch_count test cases: some are not run by ctest" >&2
  exit 1
fi
echo "test registration: $ctest_count ctest tests = $catch_count Catch2 test cases"
