#!/usr/bin/env bash
# The Python package and its pytest suite (tests/python/package), run against the installed package from outside the
# checkout's python/ folder. Needs scripts/install-deps.sh and, for the second-copy test, the Release build's
# libmjhand_plugins.so (build/).
#   scripts/test-python-package.sh                 `pip install .` as a user does it: pip's build isolation (so the
#                                                  build requirements of pyproject.toml, at the pins of constraints.txt)
#                                                  and a build folder of its own (build-python/), then the suite.
#   scripts/test-python-package.sh --reuse BUILD   the quick tier: `pip install --no-build-isolation` into the
#                                                  configured Release build BUILD, which compiles only the
#                                                  extension module (the library's objects have the same flags), then
#                                                  the suite. BUILD keeps MJHAND_BUILD_PYTHON=ON afterwards.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MJHAND_VENV:-$root/.venv}"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
if [ "${1:-}" = --reuse ]; then
  build="$(cd "${2:?usage: $0 [--reuse BUILD_DIR]}" && pwd)"
  . "$root/scripts/pip-reuse-build.sh"
  pip_reuse_build "$build"
  "${pip[@]}" "${REUSE_ARGS[@]}" "$root"
  # pip's staging folder, now deleted, must not stay the build's install prefix (`cmake --install BUILD`).
  cmake -S "$root" -B "$build" -UCMAKE_INSTALL_PREFIX >/dev/null
elif [ $# -eq 0 ]; then
  PIP_CONSTRAINT="$root/constraints.txt" "${pip[@]}" "$root"
else
  echo "usage: $0 [--reuse BUILD_DIR]" >&2
  exit 2
fi
cd "$root/tests/python/package"
MJHAND_PLUGIN_LIBRARY="$root/build/lib/libmjhand_plugins.so" "$venv/bin/python" -m pytest -q -p no:cacheprovider .
"$venv/bin/python" bench_overhead.py --n 2000 --repetitions 3  # smoke run of the benchmark program (BENCHMARKS.md)
