#!/usr/bin/env bash
# Checks the headline figures of README.md and BENCHMARKS.md (issue 21): every one must be listed in
# scripts/claims.tsv, and every figure listed as "derived" is computed again here and must agree with the printed
# figure within the tolerance its entry states. Derived figures are instruction counts under callgrind
# (load-independent: one build gives the same counts on every run, and a build of the same sources with the same
# compiler, flags and libraries the same counts), from the build's benchmark programs; time ratios are listed as
# measured by hand with the reason (their date and command are in BENCHMARKS.md).
# Usage: scripts/check-claims.sh [BUILD_DIR]   (default build; needs valgrind and a Release build with benchmarks)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "check-claims: valgrind is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
# Instruction counts are the compiler's: the figures hold for the compiler claims.tsv names (its "# compiler:" line).
expected="$(sed -n 's/^# compiler: //p' "$root/scripts/claims.tsv")"
cmake_version="$(sed -n 's/^CMAKE_CACHE_\(MAJOR\|MINOR\|PATCH\)_VERSION:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null |
  paste -sd.)" || true
actual="$(sed -n 's/^set(CMAKE_CXX_COMPILER_\(ID\|VERSION\) "\(.*\)")$/\2/p' \
  "$build/CMakeFiles/$cmake_version/CMakeCXXCompiler.cmake" 2>/dev/null | paste -sd' ')" || true
if [ -z "$expected" ] || [ "$actual" != "$expected" ]; then
  echo "check-claims: the figures are counts of code compiled by '$expected' (scripts/claims.tsv); $build was" \
       "compiled by '${actual:-an unknown compiler}' (configure a build folder with that compiler: cmake picks clang by default)" >&2
  exit 1
fi

# Per-step instruction counts of the campaign scene (power_sphere, 3000 steps) and the e_GRASP scene (1000 steps), the
# method of BENCHMARKS.md's "contact_detection samples at the end of the step" section: Ir of the mj_step calls from
# BM_StepPlugins / K, and from BM_StepBare (which records K plugin steps first, then replays 2K) minus that, / 2K.
callgrind_scene() {  # SCENE K -> "plugin_per_step bare_per_step"
  local scene=$1 k=$2 out="$work/cg.$1"
  (cd "$work" && MJHAND_BENCH_STEPS=$k valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='*BM_Step*' \
      "$build/tests/bench_batch" --benchmark_filter="^Step(Plugins|Bare)/$scene/" >/dev/null 2>&1)
  callgrind_annotate --tree=caller --inclusive=yes "$out" 2>/dev/null | python3 -c '
import re, sys
k = int(sys.argv[1]); plugins = bare = None; callers = []
for line in sys.stdin:  # each function: its caller lines ("<"), then its own line ("*")
    if not line.strip():
        callers = []
    elif re.search(r"\*\s+\?\?\?:mj_step \[", line):
        # Only BM_StepPlugins calls mj_step itself; the calls of BM_StepBare may come through the helpers of
        # bench_util.h (record_controls, replay_step) that the compiler did not inline; mj_step calls of the model
        # compiler (mjCModel::TryCompile) are not steps.
        other_ir = other_calls = 0
        for c in callers:
            m = re.match(r"\s*([\d,]+) \(.*<\s+\?\?\?:(.*) \((\d[\d,]*)x\)", c)
            if not m: continue
            ir, calls = int(m.group(1).replace(",", "")), int(m.group(3).replace(",", ""))
            if m.group(2).startswith("(anonymous namespace)::BM_StepPlugins("):
                if calls == k: plugins = ir
            elif m.group(2).startswith(("(anonymous namespace)::BM_StepBare(", "mjhand_bench::")):
                other_ir += ir; other_calls += calls
        if other_calls == 3 * k: bare = other_ir
        break
    elif "<" in line:
        callers.append(line)
if plugins is None or bare is None:
    sys.exit("check-claims: callgrind output without the mj_step calls of BM_StepPlugins/BM_StepBare")
print(plugins / k, (bare - plugins) / (2 * k))
' "$k"
}

# Instructions per iteration of Google Benchmark loops, for the A / B ratios of two benchmarks of one program.
# Google Benchmark runs a benchmark function once per trial (1 iteration, then more until --benchmark_min_time is
# reached) and reports the last trial; each trial sets up (models, random states), then runs its timed loop between
# State::StartKeepRunning and State::FinishKeepRunning. Callgrind dumps its counters on entering either, so every
# part that ends at FinishKeepRunning holds one trial's loop and nothing else (plus StartKeepRunning itself, which is
# subtracted). The last such part of a benchmark is the reported trial: its instructions / the iterations in the JSON
# output are exact, whatever iteration count the timing under valgrind chose. Each benchmark comes with a function
# its loop calls a known number of times per iteration, outside the benchmark's own file so the compiler cannot
# inline it there ("BM_NAME|FUNCTION|CALLS", FUNCTION qualified, without parameters: any overload counts); the calls
# callgrind counted in that part must equal CALLS x iterations, so a part of the wrong benchmark or a misread
# iteration count fails instead of giving a ratio.
callgrind_loops() {  # PROGRAM MIN_TIME FILTER BM|FUNCTION|CALLS... -> "BM instructions_per_iteration" per line
  local prog=$1 min_time=$2 filter=$3 out="$work/loops.$1"
  shift 3
  (cd "$work" && valgrind --tool=callgrind --callgrind-out-file="$out" --compress-strings=no \
      --dump-before='benchmark::State::StartKeepRunning*' --dump-before='benchmark::State::FinishKeepRunning*' \
      "$build/tests/$prog" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
      --benchmark_out="$out.json" --benchmark_out_format=json >/dev/null 2>&1) ||
    { echo "check-claims: $prog failed under callgrind" >&2; return 1; }
  python3 - "$prog" "$out" "$@" <<'PY'
import glob, json, re, sys
prog, out, specs = sys.argv[1], sys.argv[2], [s.split("|") for s in sys.argv[3:]]
def fail(msg):
    sys.exit(f"check-claims: {prog}: {msg}")
def skip_balanced(name, i, open_, close):  # index after the bracket group that starts at name[i]
    depth = 0
    for k in range(i, len(name)):
        depth += {open_: 1, close: -1}.get(name[k], 0)
        if depth == 0: return k + 1
    return len(name) + 1
# "f", "f(parameters)" [const] [clone] or "void f<T...>(parameters)" (a function template as callgrind names it), not
# a lambda or a class inside f. Only a "void " return type is stripped: a template of another return type does not
# match, so its entry fails loudly (0 calls) instead of counting something else.
def is_function(name, function):
    name = re.sub(r"^void ", "", name)
    if name == function: return True
    i = len(function)
    if not name.startswith(function) or i >= len(name): return False
    if name[i] == "<": i = skip_balanced(name, i, "<", ">")
    if i >= len(name) or name[i] != "(": return False
    return re.fullmatch(r"( const)?( \[clone [\w.]+\])*", name[skip_balanced(name, i, "(", ")"):]) is not None
try:
    benchmarks = json.load(open(out + ".json"))["benchmarks"]
except (OSError, ValueError, KeyError) as e:
    fail(f"no benchmark results ({e}); was it built with its libraries? "
         "(bench_kdl needs Orocos KDL, bench_pinocchio libpinocchio)")
iterations = {}
for b in benchmarks:
    if b["run_name"] in iterations: fail(f"{b['run_name']} reported twice (repetitions?)")
    iterations[b["run_name"]] = b["iterations"]
parts = sorted((p for p in glob.glob(glob.escape(out) + ".*") if re.search(r"\.\d+$", p)),
               key=lambda p: int(p.rsplit(".", 1)[1]))
loop = {}  # benchmark -> its last loop part
for p in parts:
    text = open(p).read()
    if "\ndesc: Trigger: --dump-before=benchmark::State::FinishKeepRunning" not in text: continue
    owners = [n for n in iterations
              if re.search(r"^c?fn=.*::" + re.escape(n) + r"\(benchmark::State&\)", text, re.M)]
    if len(owners) != 1: fail(f"{p}: a timed loop of {owners or 'no benchmark'}")
    loop[owners[0]] = text
for name, function, per_iteration in specs:
    if name not in iterations or name not in loop: fail(f"{name} did not run (filter?)")
    text, n = loop[name], iterations[name]
    total = int(re.search(r"^summary: (\d+)$", text, re.M).group(1))
    start = calls = 0; in_start = False; callee = None
    for line in text.split("\n"):
        if line.startswith("fn="):
            in_start = line.startswith("fn=benchmark::State::StartKeepRunning(")
        elif line.startswith("cfn="):
            callee = line[4:]
        elif line.startswith("calls="):
            if is_function(callee, function):
                calls += int(line[6:].split()[0])
        elif in_start:  # every cost line of StartKeepRunning: its own instructions and its calls' (inclusive)
            m = re.match(r"[0-9+*-]\S* (\d+)\s*$", line)
            if m: start += int(m.group(1))
    if calls != int(per_iteration) * n:
        fail(f"{name}: {calls} calls of {function} in its loop of {n} iterations, expected {per_iteration} each")
    print(name, (total - start) / n)
PY
}

declare -A derived  # name -> value (a plain number)
declare -A instr    # benchmark -> instructions per iteration
read -r p b < <(callgrind_scene power_sphere 3000)
derived[power_sphere_kinstr]="$(python3 -c "print($p / 1000)")"
derived[power_sphere_ratio]="$(python3 -c "print($p / $b)")"
read -r p b < <(callgrind_scene egrasp 1000)
derived[egrasp_ratio]="$(python3 -c "print($p / $b)")"

# The benchmark programs' A / B pairs (BENCHMARKS.md, "A / B ratios inside one benchmark program").
loops="$(callgrind_loops bench_foundation 0.05 '^BM_(MjhandFkJacobianAllFingers|MujocoKinematicsJacSite)$' \
  'BM_MjhandFkJacobianAllFingers|mjhand::forward_kinematics|4' \
  'BM_MujocoKinematicsJacSite|mj_kinematics|1')"
loops+=$'\n'"$(callgrind_loops bench_direct_drive 0.05 '^BM_(ClosedForm|MujocoFullMRne)(Finger|Hand)$' \
  'BM_ClosedFormFinger|mjhand::finger_dynamics|1' \
  'BM_MujocoFullMRneFinger|mj_rne|1' \
  'BM_ClosedFormHand|mjhand::DirectDriveDynamicModel::evaluate|1' \
  'BM_MujocoFullMRneHand|mj_rne|1')"
# min_time 0.5: ~10 or more iterations of the own hull (a first call in a process also allocates its workspace)
loops+=$'\n'"$(callgrind_loops bench_grasp 0.5 '^BM_FerrariCannyL1_(8Edges|3Contacts|8Contacts)(_Qhull)?$' \
  'BM_FerrariCannyL1_8Edges|mjhand::ferrari_canny|1' \
  'BM_FerrariCannyL1_8Edges_Qhull|mjhand::ferrari_canny|1' \
  'BM_FerrariCannyL1_3Contacts|mjhand::ferrari_canny|1' \
  'BM_FerrariCannyL1_3Contacts_Qhull|mjhand::ferrari_canny|1' \
  'BM_FerrariCannyL1_8Contacts|mjhand::ferrari_canny|1' \
  'BM_FerrariCannyL1_8Contacts_Qhull|mjhand::ferrari_canny|1')"
loops+=$'\n'"$(callgrind_loops bench_kdl 0.05 '^BM_(MjhandFk|KdlFk|MjhandFkJacobian|KdlJacobian)<[37]>$' \
  'BM_MjhandFk<3>|mjhand::forward_kinematics|1' \
  'BM_MjhandFk<7>|mjhand::forward_kinematics|1' \
  'BM_KdlFk<3>|KDL::ChainFkSolverPos_recursive::JntToCart|1' \
  'BM_KdlFk<7>|KDL::ChainFkSolverPos_recursive::JntToCart|1' \
  'BM_MjhandFkJacobian<3>|mjhand::compute_jacobian|1' \
  'BM_MjhandFkJacobian<7>|mjhand::compute_jacobian|1' \
  'BM_KdlJacobian<3>|KDL::ChainJntToJacSolver::JntToJac|1' \
  'BM_KdlJacobian<7>|KDL::ChainJntToJacSolver::JntToJac|1')"
loops+=$'\n'"$(callgrind_loops bench_pinocchio 0.05 '^BM_(Mjhand|Pinocchio)(AllegroFinger|EgraspHand|AllegroHand)$' \
  'BM_MjhandAllegroFinger|mjhand::tip_pose_and_jacobian|1' \
  'BM_PinocchioAllegroFinger|pinocchio::computeFrameJacobian|1' \
  'BM_MjhandEgraspHand|mjhand::tip_pose_and_jacobian|4' \
  'BM_PinocchioEgraspHand|pinocchio::computeFrameJacobian|4' \
  'BM_MjhandAllegroHand|mjhand::tip_pose_and_jacobian|4' \
  'BM_PinocchioAllegroHand|pinocchio::computeFrameJacobian|4')"
while read -r name value; do instr[$name]=$value; done <<<"$loops"
ratio() {  # NAME A B: derived[NAME] = instructions per iteration of A / of B
  [ -n "${instr[$2]:-}" ] && [ -n "${instr[$3]:-}" ] || { echo "check-claims: $1: no count for $2 or $3" >&2; exit 1; }
  derived[$1]="$(python3 -c "print(${instr[$2]} / ${instr[$3]})")"
  printf 'instr    %s = %s / %s = %.0f / %.0f\n' "$1" "$2" "$3" "${instr[$2]}" "${instr[$3]}"
}
ratio fkj_over_mujoco BM_MjhandFkJacobianAllFingers BM_MujocoKinematicsJacSite
ratio dd_finger_over_mujoco BM_ClosedFormFinger BM_MujocoFullMRneFinger
ratio dd_hand_over_mujoco BM_ClosedFormHand BM_MujocoFullMRneHand
ratio epsilon_own_over_qhull BM_FerrariCannyL1_8Edges BM_FerrariCannyL1_8Edges_Qhull
ratio epsilon_own_over_qhull_3 BM_FerrariCannyL1_3Contacts BM_FerrariCannyL1_3Contacts_Qhull
ratio epsilon_own_over_qhull_8 BM_FerrariCannyL1_8Contacts BM_FerrariCannyL1_8Contacts_Qhull
ratio kdl_fk3 'BM_MjhandFk<3>' 'BM_KdlFk<3>'
ratio kdl_fk7 'BM_MjhandFk<7>' 'BM_KdlFk<7>'
ratio kdl_fkj3 'BM_MjhandFkJacobian<3>' 'BM_KdlJacobian<3>'
ratio kdl_fkj7 'BM_MjhandFkJacobian<7>' 'BM_KdlJacobian<7>'
ratio pinocchio_allegro_finger BM_MjhandAllegroFinger BM_PinocchioAllegroFinger
ratio pinocchio_egrasp_hand BM_MjhandEgraspHand BM_PinocchioEgraspHand
ratio pinocchio_allegro_hand BM_MjhandAllegroHand BM_PinocchioAllegroHand

# Whether FIGURE's first number agrees with VALUE within TOLERANCE: "exact" = VALUE rounded to the figure's decimals
# gives the figure; "N%" = within N % of VALUE. Prints the verdict's detail; exit status 0 when it agrees.
agrees() {  # FIGURE VALUE TOLERANCE
  python3 - "$@" <<'PY'
import re, sys
figure, value, tolerance = sys.argv[1], float(sys.argv[2]), sys.argv[3]
m = re.search(r"\d+(?:\.(\d+))?", figure)
if not m: sys.exit(f"no number in '{figure}'")
printed, decimals = float(m.group(0)), len(m.group(1) or "")
if tolerance == "exact":
    print(f"{value:.{decimals + 2}f}, exact to the printed digits")
    sys.exit(0 if round(value, decimals) == printed else 1)
t = re.fullmatch(r"(\d+(?:\.\d+)?)%", tolerance)
if not t: sys.exit(f"unknown tolerance '{tolerance}' (exact or N%)")
off = abs(printed - value) / abs(value) * 100
print(f"{value:.{decimals + 2}f}, printed {off:.2f} % off, tolerance {tolerance}")
sys.exit(0 if off <= float(t.group(1)) else 1)
PY
}

fail=0
# 1. Every listed figure is still in its file, and derived ones agree with their derivation.
while IFS=$'\t' read -r file figure how detail; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  if ! grep -qF -- "$figure" "$root/$file"; then
    echo "check-claims: $file no longer contains '$figure' (stale entry in scripts/claims.tsv)"; fail=1; continue
  fi
  case "$how" in
    derived)
      read -r name tolerance <<<"$detail"
      value="${derived[$name]:-}"
      if [ -z "$value" ] || [ -z "${tolerance:-}" ]; then
        echo "check-claims: $file '$figure': detail must be 'DERIVATION TOLERANCE' with a derivation of this script"
        fail=1; continue
      fi
      if verdict="$(agrees "$figure" "$value" "$tolerance")"; then
        echo "ok       $file $figure = $name ($verdict)"
      else
        echo "check-claims: $file says '$figure', $name gives $verdict"; fail=1
      fi ;;
    by-hand) echo "by hand  $file $figure: $detail" ;;
    *) echo "check-claims: $file '$figure': unknown kind '$how'"; fail=1 ;;
  esac
done < "$root/scripts/claims.tsv"

# 2. Every headline figure of the two files is listed.
python3 - "$root" <<'PY' || fail=1
import re, sys
root = sys.argv[1]
listed = set()
for line in open(f"{root}/scripts/claims.tsv"):
    if line.strip() and not line.startswith("#"):
        f, fig = line.split("\t")[:2]
        listed.add((f, fig))
found = set()
for m in re.finditer(r"\*\*[^*\n]*\d[^*\n]*\*\*", open(f"{root}/BENCHMARKS.md").read()):
    found.add(("BENCHMARKS.md", m.group(0)))
for m in re.finditer(r"\b\d+\.\d+x\b|\b\d+\.\d+ \+- \d+\.\d+\b", open(f"{root}/README.md").read()):
    found.add(("README.md", m.group(0)))
missing = sorted(found - listed)
for f, fig in missing:
    print(f"check-claims: {f}: headline figure {fig} is not in scripts/claims.tsv (derive it or say why by hand)")
sys.exit(1 if missing else 0)
PY
[ "$fail" = 0 ] && echo "check-claims: every headline figure is derived or listed as measured by hand"
exit "$fail"
