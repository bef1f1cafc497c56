#!/usr/bin/env bash
# Headless test of mjhand-simulate (stock mujoco-simulate + libmjhand_preload.so) under Xvfb.
# usage: run_simulate.sh good|bad|headless WRAPPER MODEL [SANITIZER_RUNTIME]
#   good: the log must show the attach and a control line whose ctrl equals the posture plugin's closed form
#         0.5 (1 - exp(-t / 0.05)) at the logged time (tests/preload/posture_joint.xml).
#   bad:  the model has a misspelt plugin key; stderr must carry the "mjhand:" error naming it, and simulate must
#         still be running.
#   headless: no window: through the same wrapper (MJHAND_SIMULATE), mujoco-compile turns MODEL into an .mjb
#         (mj_loadXML + mj_deleteModel: attach and detach lines), then mujoco-testspeed steps the .mjb in two threads
#         (mj_loadModel: attach, and the control line checked like "good").
# simulate never exits by itself: it is killed (its own process group) once the evidence is there.
# Exit 77 (ctest SKIP_RETURN_CODE) when xvfb-run or mujoco-simulate is missing.
set -u
mode=$1 wrapper=$2 model=$3 sanitizer_runtime=${4:-}
if [ "$mode" = headless ]; then tools=(mujoco-compile mujoco-testspeed); else tools=(xvfb-run mujoco-simulate); fi
for tool in "${tools[@]}"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not found (Debian packages xvfb and libmujoco-samples; scripts/install-deps.sh installs them)"
    exit 77
  fi
done

work=$(mktemp -d)
log=$work/preload.log out=$work/stdout err=$work/stderr
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null
    sleep 0.5
    kill -KILL -- "-$pid" 2>/dev/null
  fi
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  echo "--- log";    cat "$log" 2>/dev/null
  echo "--- stderr"; tail -n 30 "$err"
  exit 1
}

# A sanitized build's library needs its runtime loaded first; simulate itself is not instrumented, so its leaks
# at exit are not ours to report.
run_env=(env MJHAND_PRELOAD_LOG="$log")
if [ -n "$sanitizer_runtime" ]; then
  run_env+=(LD_PRELOAD="$sanitizer_runtime" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1)
fi
# check_control_line FILE: the control line's ctrl must be the posture plugin's closed form at the logged time.
check_control_line() {
  local line
  line=$(grep "^control $1 " "$log" | head -n 1)
  [ -n "$line" ] || fail "no control line for $1 in the preload log"
  echo "log: $line"
  awk -v line="$line" 'BEGIN {
    n = split(line, f, " ");
    for (i = 1; i <= n; ++i) {
      if (f[i] ~ /^time=/) t = substr(f[i], 6) + 0;
      if (f[i] ~ /^ctrl=/) c = substr(f[i], 6) + 0;
    }
    want = 0.5 * (1 - exp(-t / 0.05));
    printf "t = %.6f s, ctrl = %.15f, closed form 0.5 (1 - exp(-t/0.05)) = %.15f\n", t, c, want;
    # 1e-12: the plugin multiplies ~100 per-step decay factors, the closed form takes one exp (rounding only).
    if (!(t > 0) || !(c > 0) || (c - want > 1e-12) || (want - c > 1e-12)) exit 1;
  }' || fail "ctrl in the control line is not what the posture plugin computes"
}

if [ "$mode" = headless ]; then
  mjb=$work/model.mjb
  "${run_env[@]}" MJHAND_SIMULATE=mujoco-compile "$wrapper" "$model" "$mjb" >"$out" 2>"$err" \
    || fail "mujoco-compile through the wrapper failed"
  "${run_env[@]}" MJHAND_SIMULATE=mujoco-testspeed "$wrapper" "$mjb" 500 2 0 >>"$out" 2>>"$err" \
    || fail "mujoco-testspeed through the wrapper failed"
  cat "$log"
  [ "$(grep -c . "$log")" = 4 ] || fail "expected exactly 4 log lines"
  grep -q "^attach $model instances=reach(posture)\$" "$log" || fail "no attach line for $model (mj_loadXML)"
  grep -q "^detach $model\$" "$log" || fail "no detach line for $model (mj_deleteModel)"
  grep -q "^attach $mjb instances=reach(posture)\$" "$log" || fail "no attach line for the .mjb (mj_loadModel)"
  check_control_line "$mjb"
  grep -q . "$err" && fail "unexpected output on stderr"
  echo PASS
  exit 0
fi

# setsid: simulate, Xvfb and the wrappers share one new process group, killed together by cleanup() (timeout
# --foreground keeps simulate in that group; without it timeout moves its child into a group of its own).
setsid xvfb-run -a timeout --foreground 30 "${run_env[@]}" "$wrapper" "$model" >"$out" 2>"$err" &
pid=$!

# wait_for PATTERN FILE SECONDS: polls until grep finds PATTERN in FILE.
wait_for() {
  local i
  for ((i = 0; i < $3 * 10; ++i)); do
    grep -q -- "$1" "$2" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { sleep 0.2; grep -q -- "$1" "$2" 2>/dev/null; return; }
    sleep 0.1
  done
  return 1
}

case $mode in
  good)
    wait_for '^control ' "$log" 25 || fail "no control line in the preload log within 25 s"
    grep -q "^attach $model instances=reach(posture)\$" "$log" || fail "no attach line for $model with instance reach(posture)"
    check_control_line "$model"
    ;;
  bad)
    wait_for '^mjhand: ' "$err" 25 || fail "no 'mjhand:' error on stderr within 25 s"
    grep -q "key 'tua'" "$err" || fail "the error does not name the bad key 'tua'"
    grep -q "^error $model: " "$log" || fail "no error line in the preload log"
    sleep 2  # simulate must survive the rejected model and go on running it
    kill -0 "$pid" 2>/dev/null || fail "simulate exited after the rejected model"
    pgrep -g "$pid" -f mujoco-simulate >/dev/null || fail "mujoco-simulate is no longer running"
    grep '^mjhand: ' "$err"
    ;;
  *) echo "unknown mode '$mode'"; exit 2 ;;
esac
echo PASS
