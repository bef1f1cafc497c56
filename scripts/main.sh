#!/usr/bin/env bash
# Installs dependencies, builds mjhand and runs the main job: the e_GRASP hand closing on an object, headless.
# Usage: scripts/main.sh [extra `mjhand run` options, e.g. --duration 5]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
./build/bin/mjhand run models/egrasp_scene.xml --duration 2 --out out/egrasp_scene "$@"
