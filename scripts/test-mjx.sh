#!/usr/bin/env bash
# The mjx test tier: mjhand.mjx (grasp metrics on MJX, docs/python.md "Grasp metrics on MJX") on JAX's CPU backend.
# Installs the extra's pins ("tier mjx" in constraints.txt) into the venv -- no other tier installs JAX -- then runs
# tests/python/mjx against the installed package (scripts/test-python-package.sh installs it) and a smoke run of the
# batch benchmark. Each pytest run is bounded by a timeout so that a hang in XLA fails the tier instead of CI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MJHAND_VENV:-$root/.venv}"
"$root/scripts/install-deps.sh" mjx >/dev/null
cd "$root/tests/python/mjx"
timeout 1200 "$venv/bin/python" -m pytest -q -p no:cacheprovider .
timeout 600 "$venv/bin/python" bench_mjx.py --states 256 --repetitions 1  # smoke run (BENCHMARKS.md has the figures)
