#!/bin/bash
# Script tests of mjhand-view, run by ctest under Xvfb (the script wraps itself in xvfb-run -a).
#   viewer_test.sh MODE VIEWER VIEW_CHECK SOURCE_DIR WORK_DIR
# MODE models: every complete models/*.xml and models/real/*.xml -> --screenshot --time 0.2 exits 0, writes a PNG of the asked size that
#              is not uniform (>= 2% of pixels unlike the corner; an empty or black shot has 0, the smallest scene,
#              berul_finger_markers.xml, 2.4%, the next ones 5%); a model MuJoCo cannot compile alone passes only when another model
#              includes it (an include-only fragment, listed), and every other model must give a screenshot.
# MODE errors: bad model -> nonzero exit + MuJoCo's message; --keyframe nonexistent -> the known keyframes; no
#              display -> the xvfb-run hint; --synergy-ellipsoid without a synergy instance -> refused; --force-ellipsoid
#              changes the image, a bad --force-ellipsoid-scale is refused; --ui draws panels (image differs from the one without); the
#              interactive window runs and quits (--quit-after); --help lists every flag.
# Exit 77 (ctest SKIP_RETURN_CODE) when xvfb-run is not installed.
set -u
MODE=$1 VIEWER=$2 CHECK=$3 SRC=$4 WORK=$5
if [ -z "${MJHAND_VIEW_UNDER_XVFB:-}" ]; then
  if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "SKIP: xvfb-run not found (Debian package xvfb); the viewer tests need a virtual X display"
    exit 77
  fi
  export MJHAND_VIEW_UNDER_XVFB=1
  exec xvfb-run -a -s "-screen 0 1280x1024x24" "$0" "$@"
fi
# Under AddressSanitizer, LeakSanitizer's scan of dynamic TLS crashes at exit on the mesa GL driver's TLS blocks
# ("Tracer caught signal 11 ... DTLS ... at 0x...cb7", libsanitizer of g++ 12) for some models, which would fail
# the run for a reason that is not mjhand's. These GL processes run without leak detection; ASan's memory errors still
# stop them. (Since 2026-11-28 the sanitizer build has no viewer, so this script and the viewer's session and panel
# tests, mjhand_view_tests, run in the Release build only: docs/reliability.md, "Compile time".)
if [ -n "${ASAN_OPTIONS:-}" ]; then export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"; fi
mkdir -p "$WORK"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

if [ "$MODE" = models ]; then
  shot=0 skipped=""
  for model in "$SRC"/models/*.xml "$SRC"/models/real/*.xml; do
    name=$(basename "$model" .xml)
    if ! "$CHECK" loads "$model" 2>"$WORK/$name.load.err"; then
      # Only an include-only fragment may fail to compile alone, and only when another model includes it.
      if grep -qs "<include file=\"$name.xml\"" "$(dirname "$model")"/*.xml; then
        skipped="$skipped $name"
      else
        bad "$name: MuJoCo cannot compile it and no model includes it"; cat "$WORK/$name.load.err"
      fi
      continue
    fi
    out="$WORK/$name.png"
    rm -f "$out"
    if ! "$VIEWER" "$model" --screenshot "$out" --time 0.2 --width 320 --height 240 >"$WORK/$name.log" 2>&1; then
      bad "$name: mjhand-view exited nonzero"; cat "$WORK/$name.log"; continue
    fi
    [ -f "$out" ] || { bad "$name: no PNG written"; continue; }
    read -r w h frac < <("$CHECK" png "$out") || { bad "$name: unreadable PNG"; continue; }
    [ "$w" = 320 ] && [ "$h" = 240 ] || bad "$name: PNG is ${w}x${h}, expected 320x240"
    awk -v f="$frac" 'BEGIN{exit !(f >= 0.02)}' || bad "$name: image is (nearly) uniform: only $frac of pixels differ from the corner"
    echo "ok $name: ${w}x${h}, $frac of pixels unlike the corner"
    shot=$((shot + 1))
  done
  echo "screenshots: $shot; skipped include-only fragments:${skipped:- none}"
  total=$(ls "$SRC"/models/*.xml "$SRC"/models/real/*.xml | wc -l)
  nskipped=$(wc -w <<<"$skipped")
  [ $((shot + nskipped)) -eq "$total" ] || bad "$total models, $shot screenshots + $nskipped fragments"
  exit $fail
fi

if [ "$MODE" = errors ]; then
  # 1. A model MuJoCo cannot compile: nonzero exit, MuJoCo's own message on stderr.
  printf '<mujoco>\n  <worldbody>\n    <nosuchelement/>\n  </worldbody>\n</mujoco>\n' >"$WORK/broken.xml"
  "$VIEWER" "$WORK/broken.xml" --screenshot "$WORK/broken.png" 2>"$WORK/broken.err" >/dev/null
  rc=$?
  [ $rc -ne 0 ] || bad "broken model: exit 0"
  grep -qi "unrecognized element" "$WORK/broken.err" || { bad "broken model: MuJoCo's message missing"; cat "$WORK/broken.err"; }
  grep -q "broken.xml" "$WORK/broken.err" || bad "broken model: the file is not named"
  [ ! -f "$WORK/broken.png" ] || bad "broken model: a PNG was written anyway"
  # 2. Unknown keyframe: the known ones are listed.
  "$VIEWER" "$SRC/models/direct_drive_hand.xml" --keyframe nonexistent --screenshot "$WORK/k.png" 2>"$WORK/key.err" >/dev/null
  [ $? -ne 0 ] || bad "--keyframe nonexistent: exit 0"
  for k in open_hand close_hand point_finger count_1 count_5; do
    grep -q "$k" "$WORK/key.err" || bad "--keyframe nonexistent: '$k' not listed"
  done
  grep -q "nonexistent" "$WORK/key.err" || bad "--keyframe nonexistent: the bad name is not repeated"
  # A known keyframe works.
  "$VIEWER" "$SRC/models/direct_drive_hand.xml" --keyframe count_3 --screenshot "$WORK/count_3.png" --width 200 --height 150 >/dev/null 2>&1 ||
    bad "--keyframe count_3 failed"
  # 3. No display and no --screenshot: the xvfb-run hint.
  env -u DISPLAY -u WAYLAND_DISPLAY "$VIEWER" "$SRC/models/pid_finger.xml" 2>"$WORK/nodisplay.err" >/dev/null
  [ $? -ne 0 ] || bad "no display: exit 0"
  grep -q "xvfb-run -a mjhand-view" "$WORK/nodisplay.err" || { bad "no display: no xvfb-run hint"; cat "$WORK/nodisplay.err"; }
  grep -q -- "--screenshot" "$WORK/nodisplay.err" || bad "no display: the hint does not mention --screenshot"
  # 4. Unknown --object and a bad --set are named.
  "$VIEWER" "$SRC/models/egrasp_scene.xml" --object nosuchbody --screenshot "$WORK/o.png" 2>"$WORK/obj.err" >/dev/null
  [ $? -ne 0 ] && grep -q "nosuchbody" "$WORK/obj.err" || bad "--object nosuchbody not reported"
  "$VIEWER" "$SRC/models/pid_finger.xml" --set hold.kp=-1 --screenshot "$WORK/s.png" 2>"$WORK/set.err" >/dev/null
  [ $? -ne 0 ] && grep -q "hold" "$WORK/set.err" && grep -q "kp" "$WORK/set.err" || { bad "--set hold.kp=-1 not reported"; cat "$WORK/set.err"; }
  # 4b. --synergy-ellipsoid needs a synergy instance: refused by name without one, drawn with one.
  "$VIEWER" "$SRC/models/pid_finger.xml" --synergy-ellipsoid --screenshot "$WORK/se.png" 2>"$WORK/se.err" >/dev/null
  [ $? -eq 2 ] && grep -q "no synergy plugin instance" "$WORK/se.err" || { bad "--synergy-ellipsoid without synergies not refused"; cat "$WORK/se.err"; }
  "$VIEWER" "$SRC/models/direct_drive_synergy_grasp.xml" --keyframe hold --synergy-ellipsoid --screenshot "$WORK/se_ok.png" \
    --width 320 --height 240 >/dev/null 2>&1 || bad "--synergy-ellipsoid on the synergy grasp failed"
  # 4c. --force-ellipsoid draws the force ellipsoid instead of the kinematic one (the images differ); a bad
  # --force-ellipsoid-scale is refused by name.
  "$VIEWER" "$SRC/models/egrasp_hold.xml" --ellipsoid --screenshot "$WORK/ke.png" --width 320 --height 240 >/dev/null 2>&1 ||
    bad "--ellipsoid on egrasp_hold failed"
  "$VIEWER" "$SRC/models/egrasp_hold.xml" --force-ellipsoid --force-ellipsoid-scale 2 --screenshot "$WORK/fe.png" \
    --width 320 --height 240 >/dev/null 2>&1 || bad "--force-ellipsoid on egrasp_hold failed"
  d=$("$CHECK" diff "$WORK/ke.png" "$WORK/fe.png") || bad "cannot compare the kinematic and force ellipsoid screenshots"
  awk -v f="$d" 'BEGIN{exit !(f >= 0.01)}' || bad "--force-ellipsoid changed only $d of the pixels"
  "$VIEWER" "$SRC/models/egrasp_hold.xml" --force-ellipsoid-scale 0 --screenshot "$WORK/fs.png" 2>"$WORK/fs.err" >/dev/null
  [ $? -eq 2 ] && grep -q -- "--force-ellipsoid-scale" "$WORK/fs.err" || { bad "--force-ellipsoid-scale 0 not refused"; cat "$WORK/fs.err"; }
  # 5. --ui draws the panels into the screenshot: the image differs from the plain one in a sizeable area.
  M="$SRC/models/grasp_sensor_scene.xml"
  "$VIEWER" "$M" --screenshot "$WORK/plain.png" --time 0.3 --width 640 --height 480 >/dev/null 2>&1 || bad "plain screenshot failed"
  "$VIEWER" "$M" --screenshot "$WORK/ui.png" --time 0.3 --width 640 --height 480 --ui >/dev/null 2>&1 || bad "--ui screenshot failed"
  d=$("$CHECK" diff "$WORK/plain.png" "$WORK/ui.png") || bad "cannot compare plain and --ui screenshots"
  awk -v f="$d" 'BEGIN{exit !(f >= 0.10)}' || bad "--ui changed only $d of the pixels; panels not drawn?"
  echo "--ui changes $d of the pixels"
  # 6. The interactive window (GLFW + ImGui + real-time loop) runs and closes cleanly; frames were simulated.
  "$VIEWER" "$SRC/models/pid_finger.xml" --quit-after 1.5 --width 640 --height 480 >"$WORK/window.log" 2>&1 ||
    { bad "interactive window: nonzero exit"; cat "$WORK/window.log"; }
  t_closed=$(sed -n 's/.*closed at t = \([0-9.]*\) s after [1-9][0-9]* frames.*/\1/p' "$WORK/window.log")
  # Real time for 1.5 s: well over 0.1 s simulated even on a slow, loaded machine.
  awk -v t="${t_closed:-0}" 'BEGIN{exit !(t > 0.1)}' ||
    { bad "interactive window: no frames or no simulated time"; cat "$WORK/window.log"; }
  # 7. --help lists every flag and the main keys.
  help=$("$VIEWER" --help) || bad "--help exit code"
  for f in --keyframe --set --object --speed --paused --cones --epsilon --width --height --camera --lookat --azimuth \
           --elevation --distance --plot --screenshot --time --ui --quit-after --ellipsoid --synergy-ellipsoid --force-ellipsoid --force-ellipsoid-scale space backspace F2 ctrl+L; do
    grep -q -- "$f" <<<"$help" || bad "--help does not mention $f"
  done
  exit $fail
fi
echo "unknown mode $MODE"; exit 2
