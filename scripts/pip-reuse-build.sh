# Sourced by scripts/test-python-package.sh and scripts/build-wheel.sh: pip_reuse_build BUILD sets REUSE_ARGS, the pip
# options that build the Python package in the configured Release build BUILD (--no-build-isolation, its folder and
# the options it was configured with, so that scikit-build-core's configure changes nothing but adding the module;
# pyproject.toml turns tests, benchmarks and the viewer off for a user's install), and exports its generator.
pip_reuse_build() {
  local build="$1"
  [ -f "$build/CMakeCache.txt" ] || { echo "$0: $build is not a configured build folder" >&2; exit 2; }
  opt() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
  export CMAKE_GENERATOR="$(opt CMAKE_GENERATOR)"
  REUSE_ARGS=(--no-build-isolation -C build-dir="$build"
              -C cmake.define.MJHAND_BUILD_TESTS="$(opt MJHAND_BUILD_TESTS)"
              -C cmake.define.MJHAND_BUILD_BENCHMARKS="$(opt MJHAND_BUILD_BENCHMARKS)"
              -C cmake.define.MJHAND_BUILD_VIEWER="$(opt MJHAND_BUILD_VIEWER)")
}
