#!/usr/bin/env bash
# Installs dependencies, builds mjhand and runs the main job: the e_GRASP hand closing on an object, headless.
# Usage: scripts/main.sh [extra `mjhand run` options, e.g. --duration 5]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/install-deps.sh main  # of the PyPI packages only mujoco-core and numpy
# Ninja for a new build folder (an existing one keeps its generator).
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# `mjhand run` alone on the plugin runtime (docs/architecture.md): none of the other subcommands, parallel/ or the
# generators is compiled. `cmake --build build --target mjhand_cli` builds the whole CLI afterwards.
cmake --build build -j"$(nproc)" --target mjhand_run
./build/bin/mjhand-run models/egrasp_scene.xml --duration 2 --out out/egrasp_scene "$@"
