#!/usr/bin/env bash
# Short libFuzzer runs of every mjhand parser (docs/reliability.md): configures the clang sanitizer build
# (scripts/configure-sanitize.sh: ASan + UBSan, the parsers' files instrumented for coverage; build-sanitize, which
# scripts/test.sh's ASan stage builds too), builds the fuzz targets, runs each for SECONDS (default 60) from its seed
# corpus in tests/fuzz/corpus/, then replays tests/fuzz/regressions/<target>/.
# The targets run side by side, one per core. Exits non-zero if any target finds something: a crash, sanitizer
# report, leak, uncaught exception or an input that takes longer than MJHAND_FUZZ_TIMEOUT seconds (default 1). New
# corpus entries go to BUILD/corpus/, never into the repository.
# Usage: scripts/fuzz.sh [SECONDS]   (MJHAND_FUZZ_BUILD=dir to use another build directory)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
build="${MJHAND_FUZZ_BUILD:-build-sanitize}"
timeout="${MJHAND_FUZZ_TIMEOUT:-1}"
targets=(fuzz_config fuzz_hand_spec fuzz_scene_spec fuzz_campaign fuzz_coupling_csv)
scripts/configure-sanitize.sh "$build"
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fuzz_target() {  # TARGET: fuzz it, then replay its regression inputs; non-zero on a finding
  local t=$1 work="$build/corpus/$1" artifacts="$build/findings/$1/"
  mkdir -p "$work" "$artifacts"
  echo "== $t: ${seconds}s from tests/fuzz/corpus/$t"
  # -fork would survive findings and keep going; a finding must stop CI, so run in-process.
  if ! "$build/tests/fuzz/$t" "$work" "tests/fuzz/corpus/$t" -max_total_time="$seconds" -timeout="$timeout" \
       -max_len=8192 -rss_limit_mb=2048 -artifact_prefix="$artifacts" -print_final_stats=1 2>"$build/$t.log"; then
    # On a shared, loaded machine a unit can be descheduled past the timeout: a timeout counts only if the input is
    # slow again when replayed alone (a real hang is); crashes and sanitizer reports always count.
    local slow
    slow="$(ls -t "$artifacts"timeout-* 2>/dev/null | head -n 1 || true)"
    if grep -q "ERROR: libFuzzer: timeout" "$build/$t.log" && [ -n "$slow" ] &&
       "$build/tests/fuzz/$t" -timeout="$timeout" "$slow" 2>"$build/$t.replay.log"; then
      echo "fuzz.sh: warning: $t timed out on $slow under load but replays within ${timeout}s; not a finding"
    else
      tail -n 60 "$build/$t.log"
      echo "fuzz.sh: $t found a problem; the input is in $artifacts"
      return 1
    fi
  fi
  grep -E "^(Done|stat::number_of_executed_units)" "$build/$t.log" || true
  local regressions=(tests/fuzz/regressions/"$t"/*)
  if [ -e "${regressions[0]}" ]; then
    echo "== $t: replaying ${#regressions[@]} regression input(s)"
    "$build/tests/fuzz/$t" -timeout="$timeout" "${regressions[@]}" 2>"$build/$t.regressions.log" ||
      { tail -n 60 "$build/$t.regressions.log"; echo "fuzz.sh: a regression input of $t fails again"; return 1; }
  fi
}

# One target per core at a time (each libFuzzer run is a single process): the same seconds of fuzzing per target in
# a fraction of the wall time. Each target's report is printed whole, in the list's order, once all have finished.
slots="$(nproc)"
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT  # an interrupted run leaves no fuzzer behind
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$slots" ]; do wait -n || true; done
  rm -f "$build/$t.status"
  (if fuzz_target "$t" >"$build/$t.report" 2>&1; then echo 0; else echo 1; fi >"$build/$t.status") &
done
wait
failed=()
for t in "${targets[@]}"; do
  cat "$build/$t.report" 2>/dev/null || true
  [ "$(cat "$build/$t.status" 2>/dev/null)" = 0 ] || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in ${failed[*]} (reports above; inputs in $build/findings/)" >&2
  exit 1
fi
echo "fuzz.sh: no findings (${#targets[@]} targets, ${seconds}s each, $slots at a time)"
