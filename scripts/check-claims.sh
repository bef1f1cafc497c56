#!/usr/bin/env bash
# Checks the headline figures of README.md and BENCHMARKS.md (issue 21): every one must be listed in
# scripts/claims.tsv, and every figure listed as "derived" is computed again here and must come out as printed.
# Derived figures are instruction counts under callgrind (load-independent, the same on every run of one build),
# from the build's benchmark programs; time ratios are listed as measured by hand with the reason.
# Usage: scripts/check-claims.sh [BUILD_DIR]   (default build; needs valgrind and a Release build with benchmarks)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "check-claims: valgrind is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }

# Per-step instruction counts of the campaign scene (power_sphere, 3000 steps) and the e_GRASP scene (1000 steps), the
# method of BENCHMARKS.md's first section: Ir of the mj_step calls from BM_StepPlugins / K, and from BM_StepBare
# (which records K plugin steps first, then replays 2K) minus that, / 2K.
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
        for c in callers:
            m = re.match(r"\s*([\d,]+) \(.*<\s+\?\?\?:\(anonymous namespace\)::BM_Step(Plugins|Bare)\(.*\((\d[\d,]*)x\)", c)
            if m:
                ir, calls = int(m.group(1).replace(",", "")), int(m.group(3).replace(",", ""))
                if m.group(2) == "Plugins" and calls == k: plugins = ir
                if m.group(2) == "Bare" and calls == 3 * k: bare = ir
        break
    elif "<" in line:
        callers.append(line)
if plugins is None or bare is None:
    sys.exit("check-claims: callgrind output without the mj_step calls of BM_StepPlugins/BM_StepBare")
print(plugins / k, (bare - plugins) / (2 * k))
' "$k"
}

declare -A derived
read -r p b < <(callgrind_scene power_sphere 3000)
derived[power_sphere_kinstr]="$(python3 -c "print(f'{$p/1000:.1f}k')")"
derived[power_sphere_ratio]="$(python3 -c "print(f'{$p/$b:.3f}')")"
read -r p b < <(callgrind_scene egrasp 1000)
derived[egrasp_ratio]="$(python3 -c "print(f'{$p/$b:.3f}')")"

fail=0
# 1. Every listed figure is still in its file, and derived ones match.
while IFS=$'\t' read -r file figure how detail; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  if ! grep -qF -- "$figure" "$root/$file"; then
    echo "check-claims: $file no longer contains '$figure' (stale entry in scripts/claims.tsv)"; fail=1; continue
  fi
  case "$how" in
    derived)
      value="${derived[$detail]:-}"
      if [ -z "$value" ]; then echo "check-claims: no derivation '$detail' for $file '$figure'"; fail=1; continue; fi
      if [[ "$figure" != *"$value"* ]]; then
        echo "check-claims: $file says '$figure', $detail gives $value"; fail=1
      else
        echo "ok       $file $figure = $detail ($value)"
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
