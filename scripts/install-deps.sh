#!/usr/bin/env bash
# Installs every Debian package mjhand needs to build, test and benchmark, then the PyPI packages pinned in
# pyproject.toml (the mujoco-core wheel with MuJoCo's headers and library, numpy, pytest, the package's build tools
# scikit-build-core and nanobind, the viewer extra) into the virtual environment .venv at the top of the checkout
# (MJHAND_VENV overrides the place). Idempotent. The mjhand Python package itself is `pip install .` (README).
# Usage: scripts/install-deps.sh [main]   main: of the PyPI pins only the package's runtime dependencies (mujoco-core,
# numpy), what scripts/main.sh needs (~15 s into a new .venv from pip's cache instead of ~50 s); a later run without
# it adds the rest.
set -euo pipefail
mode="${1:-all}"
case "$mode" in all|main) ;; *) echo "usage: $0 [main]" >&2; exit 2 ;; esac
PKGS=(
  build-essential cmake pkg-config
  ninja-build            # the generator scikit-build-core uses for `pip install .`
  libqhull-dev           # reentrant qhull: the grasp wrench space hull (plugin/grasp)
  libeigen3-dev          # dense linear algebra (FK, Jacobians, SVD)
  libglpk-dev            # GLPK LP solver: optimal contact force distribution (plugin/grasp)
  libglfw3-dev           # window + GL context for mjhand-view
  libimgui-dev           # Dear ImGui (with its GLFW + OpenGL3 backends): mjhand-view's panels and live plots
  libpng-dev             # PNG screenshots of mjhand-view and rendered camera images
  catch2                 # unit tests (v2)
  libyaml-cpp-dev        # hand description parser (line numbers in errors)
  libbenchmark-dev       # Google Benchmark for the benchmark program
  gnuplot-nox            # PNG plots of `mjhand current-study` (direct-drive hand currents, power, heating)
  xvfb xauth             # headless GL for viewer smoke tests
  liborocos-kdl-dev      # Orocos KDL: independent peer check of mjhand's FK and Jacobians (tests/core/kinematics/test_kdl_peer.cc)
  clang libclang-rt-14-dev  # libFuzzer targets of every parser (scripts/fuzz.sh)
  valgrind               # instruction counts (callgrind) of the plugin-cost figures in BENCHMARKS.md
)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} Debian packages present"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# PyPI: the engine and the Python side, into a virtual environment of the checkout's own.
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MJHAND_VENV:-$root/.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# The pins, read from pyproject.toml (the one place they are written): build requirements, dependencies, extras.
mapfile -t pins < <("$venv/bin/python" - "$root/pyproject.toml" "$mode" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    p = tomllib.load(f)
pins = list(p["project"]["dependencies"])
if sys.argv[2] == "all":
    pins = list(p["build-system"]["requires"]) + pins
    for extra in p["project"]["optional-dependencies"].values():
        pins += extra
for pin in dict.fromkeys(pins):
    print(pin)
PY
)
if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check "${pins[@]}"; then
  echo "install-deps: pip could not install the pins of pyproject.toml (${pins[*]}) into $venv" >&2
  exit 1
fi
echo "install-deps: $("$venv/bin/python" -c 'import mujoco; print("mujoco", mujoco.__version__, "in", mujoco.__file__)')"
