#!/usr/bin/env bash
# The Python package as a user installs it: `pip install .` into .venv with pip's build isolation (so the build
# requirements pinned in pyproject.toml are what builds it), then the pytest suite of tests/python/package against
# the installed package, from outside the checkout's python/ folder. Needs scripts/install-deps.sh and, for the
# second-copy test, the Release build's libmjhand_plugins.so (build/). Usage: scripts/test-python-package.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MJHAND_VENV:-$root/.venv}"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$root"
cd "$root/tests/python/package"
MJHAND_PLUGIN_LIBRARY="$root/build/lib/libmjhand_plugins.so" "$venv/bin/python" -m pytest -q -p no:cacheprovider .
"$venv/bin/python" bench_overhead.py --n 2000 --repetitions 3  # smoke run of the benchmark program (BENCHMARKS.md)
