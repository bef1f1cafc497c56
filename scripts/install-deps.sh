#!/usr/bin/env bash
# Installs what mjhand needs, by group (README, "Install"):
#   scripts/install-deps.sh [--dev]   contributors and CI: every Debian package to build, test and benchmark (compilers,
#                                     valgrind, KDL, Xvfb, ...), then every PyPI pin of constraints.txt into the
#                                     virtual environment .venv at the top of the checkout (MJHAND_VENV overrides it).
#   scripts/install-deps.sh --python  Python users building from source (`pip install .` into their own environment,
#                                     where `pip install mujoco` already is): only the Debian -dev packages the
#                                     package's C++ build links (Eigen, yaml-cpp, GLPK, qhull) and its tools; no venv.
#                                     The binary wheel (scripts/build-wheel.sh) needs none of this.
#   scripts/install-deps.sh main      scripts/main.sh: the --dev Debian packages, and of the PyPI pins only mujoco-core
#                                     and numpy (~15 s into a new .venv from pip's cache instead of ~50 s).
#   scripts/install-deps.sh mjx       the test tier of mjhand.mjx (scripts/test-mjx.sh): the --dev install, then the
#                                     pins tagged "tier mjx" in constraints.txt (JAX, MJX; the extra mjhand[mjx]),
#                                     which no other mode installs.
# Idempotent. Exact PyPI versions come from constraints.txt, the one place they are written.
set -euo pipefail
mode="${1:---dev}"
case "$mode" in --dev|all) mode=dev ;; --python) mode=python ;; main | mjx) ;; *)
  echo "usage: $0 [--dev|--python|main|mjx]" >&2; exit 2 ;; esac
PYTHON_PKGS=(
  build-essential cmake pkg-config
  ninja-build            # the generator scikit-build-core uses for `pip install .`
  libqhull-dev           # reentrant qhull: the grasp wrench space hull (core/grasp)
  libeigen3-dev          # dense linear algebra (FK, Jacobians, SVD)
  libglpk-dev            # GLPK LP solver: optimal contact force distribution (core/grasp)
  libyaml-cpp-dev        # hand description parser (line numbers in errors)
  python3-dev            # Python's headers, for the extension module when Debian's python3 builds it
)
DEV_PKGS=(
  libglfw3-dev           # window + GL context for mjhand-view
  libimgui-dev           # Dear ImGui (with its GLFW + OpenGL3 backends): mjhand-view's panels and live plots
  libpng-dev             # PNG screenshots of mjhand-view and rendered camera images
  catch2                 # unit tests (v2)
  libbenchmark-dev       # Google Benchmark for the benchmark program
  gnuplot-nox            # PNG plots of `mjhand current-study` (direct-drive hand currents, power, heating)
  xvfb xauth             # headless GL for viewer smoke tests
  libegl1 libegl-mesa0 libgl1-mesa-dri  # EGL without a display for mujoco.Renderer (MUJOCO_GL=egl): the Gymnasium
                         # environments' rgb_array frames in the Python tests
  liborocos-kdl-dev      # Orocos KDL: independent peer check of mjhand's FK and Jacobians (tests/core/kinematics/test_kdl_peer.cc)
  clang libclang-rt-14-dev  # libFuzzer targets of every parser (scripts/fuzz.sh)
  valgrind               # instruction counts (callgrind) of the plugin-cost figures in BENCHMARKS.md
  debootstrap            # the clean Debian root the binary wheel is tested in (scripts/test-wheel.sh)
)
PKGS=("${PYTHON_PKGS[@]}")
if [ "$mode" != python ]; then PKGS+=("${DEV_PKGS[@]}"); fi
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

if [ "$mode" = python ]; then
  echo "install-deps: the Debian packages of 'pip install .' are present; now, in your environment: pip install ."
  exit 0
fi
# PyPI: the engine and the Python side, into a virtual environment of the checkout's own.
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MJHAND_VENV:-$root/.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# The pins of constraints.txt: all but the mjx tier's, (main) mujoco-core and numpy, or (mjx) all with the mjx tier's.
constraints="$root/constraints.txt"
mapfile -t pins < <(grep -v -E "$([ "$mode" = mjx ] && echo '^$' || echo 'tier mjx')" "$constraints" |
                    sed -e 's/#.*//' -e 's/[[:space:]]//g' | grep -v '^$' |
                    { if [ "$mode" = main ]; then grep -E '^(mujoco-core|numpy)=='; else cat; fi; })
if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$constraints" "${pins[@]}"; then
  echo "install-deps: pip could not install the pins of constraints.txt (${pins[*]}) into $venv" >&2
  exit 1
fi
echo "install-deps: $("$venv/bin/python" -c 'import mujoco; print("mujoco", mujoco.__version__, "in", mujoco.__file__)')"
