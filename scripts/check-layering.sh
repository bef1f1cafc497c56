#!/usr/bin/env bash
# Proves the layering is enforced (docs/architecture.md): builds probes (tests/layering/) as if they were files of a
# layer, in the given build directory. core_only must build; a probe that includes a higher layer's header must fail
# to compile (that folder is not among the layer's include directories); one that calls a higher layer's function
# must fail to link (the layer checks leave nothing undefined). One include and one call probe per edge: core ->
# controllers, controllers -> plugin, plugin -> generators, generators (the library's top) -> apps; core -> plugin
# and core -> parallel besides. Then the include lint: a quoted include in a library layer, or a relative path
# anywhere, would reach past the include directories, so both are refused (probe: relative_include.cc).
# Usage: scripts/check-layering.sh [BUILD_DIR]   (default build; configured already)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
log="$(mktemp)"
trap 'rm -f "$log"; cmake -S "$root" -B "$build" -DMJHAND_LAYER_PROBE= >/dev/null' EXIT
probe() {  # probe LAYER:NAME EXPECT(ok|fail) PATTERN
  cmake -S "$root" -B "$build" -DMJHAND_LAYER_PROBE="$1" >/dev/null
  if cmake --build "$build" --target mjhand_layer_probe_check -j2 >"$log" 2>&1; then
    [ "$2" = ok ] || { echo "layering: probe $1 built, but must not"; exit 1; }
  else
    [ "$2" = fail ] || { echo "layering: probe $1 failed to build:"; tail -20 "$log"; exit 1; }
    grep -q "$3" "$log" || { echo "layering: probe $1 failed, but not with '$3':"; tail -20 "$log"; exit 1; }
  fi
  echo "layering: $1: $2 as expected"
}
missing="fatal error: '\\?"
probe core:core_only ok ""
probe core:core_include_controllers fail "${missing}mjhand/trajectory/trajectory.h"
probe core:core_call_controllers fail "undefined reference to .mjhand::paper_cosine"
probe core:core_include_plugin fail "${missing}mjhand/native/native_plugins.h"
probe core:core_call_parallel fail "undefined reference to .mjhand::prismatic_twist"
probe controllers:controllers_include_plugin fail "${missing}mjhand/host/config.h"
probe controllers:controllers_call_plugin fail "undefined reference to .mjhand::register_native_plugins()"
probe plugin:plugin_include_generators fail "${missing}mjhand/generators/build_model.h"
probe plugin:plugin_call_generators fail "undefined reference to .mjhand::build_hand_model"
probe generators:generators_include_apps fail "${missing}grasp_planner.h"
probe generators:generators_call_apps fail "undefined reference to .mjhand::planner::closure_eigengrasps"

# The include lint. Prints the offending lines of the given files; fails when there are none.
quoted_includes() { grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@"; }
relative_includes() { grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]*\.\./' "$@"; }
relative_includes "$root/tests/layering/relative_include.cc" >/dev/null ||
  { echo "layering: the lint does not see relative_include.cc's relative include"; exit 1; }
cd "$root"
library=$(git ls-files 'core/*.cc' 'core/*.h' 'controllers/*.cc' 'controllers/*.h' 'plugin/*.cc' 'plugin/*.h' \
          'apps/generators/*.cc' 'apps/generators/*.h')
everything=$(git ls-files '*.cc' '*.h' | grep -v '^tests/layering/relative_include\.cc$')
if quoted_includes $library; then
  echo "layering: quoted includes in the library's layers (use <mjhand/...>, resolved by the layer's include directories)"
  exit 1
fi
if relative_includes $everything; then
  echo "layering: relative includes (use the folder's include directory)"
  exit 1
fi
echo "layering: include lint: $(echo "$library" | wc -l) library files, $(echo "$everything" | wc -l) files: no quoted or relative includes past the layers"
