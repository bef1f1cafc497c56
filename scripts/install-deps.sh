#!/usr/bin/env bash
# Installs every Debian package mjhand needs to build, test and benchmark. Idempotent.
set -euo pipefail
PKGS=(
  build-essential cmake pkg-config
  libmujoco-dev          # MuJoCo 2.2.2: physics engine mjhand extends
  libqhull-dev           # mujoco::mujoco CMake target lists /usr/include/libqhull_r (Debian packaging gap);
                         # also qhull_r for the grasp wrench space hull (plugin/grasp)
  libeigen3-dev          # dense linear algebra (FK, Jacobians, SVD)
  libglpk-dev            # GLPK LP solver: optimal contact force distribution (plugin/grasp)
  libglfw3-dev           # window + GL context for mjhand-view
  libimgui-dev           # Dear ImGui (with its GLFW + OpenGL3 backends): mjhand-view's panels and live plots
  libpng-dev             # PNG screenshots of mjhand-view and rendered camera images
  libmujoco-samples      # stock mujoco-simulate, for mjhand-simulate (plugins preloaded into MuJoCo's own viewer)
  catch2                 # unit tests (v2)
  libyaml-cpp-dev        # hand description parser (line numbers in errors)
  libbenchmark-dev       # Google Benchmark for the benchmark program
  gnuplot-nox            # PNG plots of `mjhand current-study` (direct-drive hand currents, power, heating)
  xvfb xauth             # headless GL for viewer smoke tests
  liborocos-kdl-dev      # Orocos KDL: independent peer check of mjhand's FK and Jacobians (tests/test_kdl_peer.cc)
  clang libclang-rt-14-dev  # libFuzzer targets of every parser (scripts/fuzz.sh)
)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
