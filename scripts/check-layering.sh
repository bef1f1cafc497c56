#!/usr/bin/env bash
# Proves the layering is enforced (docs/architecture.md): builds probes (tests/layering/) as if they were files of a
# layer, in the given build directory. core_only must build; a probe that includes a higher layer's header must fail
# to compile (it is not in that layer's include tree); one that calls a higher layer's function must fail to link
# (the layer checks leave nothing undefined). Core -> adapters, core -> parallel and adapters -> models are probed.
# Usage: scripts/check-layering.sh [BUILD_DIR]   (default build; configured already)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
log="$(mktemp)"
trap 'rm -f "$log"; cmake -S "$root" -B "$build" -DMJHAND_LAYER_PROBE= >/dev/null' EXIT
probe() {  # probe NAME EXPECT(ok|fail) PATTERN
  cmake -S "$root" -B "$build" -DMJHAND_LAYER_PROBE="$1" >/dev/null
  if cmake --build "$build" --target mjhand_layer_probe_check -j2 >"$log" 2>&1; then
    [ "$2" = ok ] || { echo "layering: probe $1 built, but must not"; exit 1; }
  else
    [ "$2" = fail ] || { echo "layering: probe $1 failed to build:"; tail -20 "$log"; exit 1; }
    grep -q "$3" "$log" || { echo "layering: probe $1 failed, but not with '$3':"; tail -20 "$log"; exit 1; }
  fi
  echo "layering: $1: $2 as expected"
}
probe core:core_only ok ""
probe core:include_upward fail "fatal error: '\\?mjhand/native/native_plugins.h"
probe core:include_parallel fail "fatal error: '\\?mjhand/parallel/screws.h"
probe core:call_upward fail "undefined reference to .mjhand::register_native_plugins()"
probe adapters:adapters_include_models fail "fatal error: '\\?mjhand/generators/build_model.h"
probe adapters:adapters_call_models fail "undefined reference to .mjhand::build_hand_model"
