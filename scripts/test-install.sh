#!/usr/bin/env bash
# Checks that an mjhand build installs into a fresh prefix and is usable from other projects:
#   1. `cmake --install BUILD_DIR --prefix TMP` and the expected layout (CLI, libraries, headers, CMake package,
#      pkg-config file, models);
#   2. the installed CLI runs an installed model (MuJoCo found through its rpath into the wheel);
#   3. tests/external_project (find_package(mjhand) + mjhand::mjhand) configures, builds and runs;
#   4. the prefix is moved elsewhere, and the pkg-config consumer (tests/external_project/pkgconfig) builds and runs
#      against the moved copy (both the CMake package and mjhand.pc are relocatable).
# usage: scripts/test-install.sh BUILD_DIR      (BUILD_DIR already built, e.g. `build`)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ne 1 ] || [ ! -f "$1/CMakeCache.txt" ]; then
  echo "usage: $0 BUILD_DIR   (a configured and built mjhand build directory)" >&2
  exit 2
fi
build="$(cd "$1" && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/mjhand-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
step() { echo "== test-install: $*"; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "install failed"; }
lib="$(dirname "$(find "$prefix" -name libmjhand.a -print -quit)")"
[ -n "$lib" ] && [ "$lib" != . ] || fail "libmjhand.a was not installed"
for f in "$prefix/bin/mjhand" "$lib/cmake/mjhand/FindMuJoCo.cmake" "$lib/libmjhand_plugins.so" \
         "$prefix/include/mjhand/native/instances.h" "$prefix/include/mjhand/host/registry.h" \
         "$prefix/include/mjhand/pid/pid.h" "$lib/cmake/mjhand/mjhandConfig.cmake" \
         "$lib/cmake/mjhand/mjhandConfigVersion.cmake" "$lib/cmake/mjhand/mjhandTargets.cmake" \
         "$lib/pkgconfig/mjhand.pc" "$prefix/share/mjhand/models/pid_finger.xml"; do
  [ -e "$f" ] || fail "missing after install: ${f#$prefix/}"
done

step "installed CLI"
"$prefix/bin/mjhand" --help >/dev/null || fail "installed mjhand --help failed"
"$prefix/bin/mjhand" run "$prefix/share/mjhand/models/pid_finger.xml" --duration 0.05 --out "$tmp/run" >/dev/null \
  || fail "installed mjhand run on an installed model failed"

step "external CMake project (find_package(mjhand))"
cmake -S "$root/tests/external_project" -B "$tmp/external" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=Release >"$tmp/external.log" 2>&1 || { cat "$tmp/external.log"; fail "configure failed"; }
cmake --build "$tmp/external" >>"$tmp/external.log" 2>&1 || { cat "$tmp/external.log"; fail "build failed"; }
"$tmp/external/app" || fail "the external example reported failure"

step "pkg-config consumer against the prefix moved to another place"
mv "$prefix" "$tmp/moved"
PKG_CONFIG_PATH="$tmp/moved/${lib#$prefix/}/pkgconfig" make -s -C "$root/tests/external_project/pkgconfig" \
  OUT="$tmp" run || fail "the pkg-config consumer failed"
echo "test-install: OK"
