#!/bin/sh
# What a MuJoCo user does with mjhand's binary wheel, checked step by step (scripts/test-wheel.sh runs it on this
# machine and inside a clean Debian 12 root; POSIX sh, since that root has no bash extras):
#   wheel-user-check.sh WHEEL README.md PYTHON
# (1) a new virtual environment of PYTHON and `pip install mujoco` (MJHAND_TEST_MUJOCO, default the current release
# `mujoco==4.0.0`: mujoco-core 4.0.0 + mujoco-studio); (2) the MuJoCo imports that work before mjhand; (3) the wheel,
# timed, with no compiler involved; (4) `pip check`, the same imports again, mujoco's version unchanged, the README's
# Python block, `python -m mjhand analyze` on a packaged model, and that no library of the wheel resolves outside the
# wheel, MuJoCo's wheel and the base system (ldd), the plugin library loaded by a process without mjhand; then a MuJoCo
# mjhand does not support left working and named by `import mjhand`.
set -eu
wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; readme="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; python="$3"
work="$(mktemp -d)"
venv="$work/venv"
"$python" -m venv "$venv"
pip="$venv/bin/python -m pip --disable-pip-version-check -q"
$pip install "${MJHAND_TEST_MUJOCO:-mujoco==4.0.0}"
before="$($venv/bin/python -m pip --disable-pip-version-check list 2>/dev/null | grep -i '^mujoco')"
imports="mujoco mujoco.viewer mujoco.studio"
worked=""
for mod in $imports; do
  if "$venv/bin/python" -c "import $mod" 2>/dev/null; then worked="$worked $mod"; fi
done
echo "wheel check: before mjhand: $(echo "$before" | tr -s ' ' | tr '\n' ';') imports that work:$worked"
case " $worked " in *" mujoco "*) ;; *) echo "wheel check: 'import mujoco' fails before mjhand is installed" >&2; exit 1 ;; esac
seconds="$("$venv/bin/python" - "$wheel" <<'PY'
import subprocess, sys, time
start = time.perf_counter()
subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "install", sys.argv[1]], check=True)
print(f"{time.perf_counter() - start:.1f}")
PY
)"
echo "wheel check: installed $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB) in $seconds s"
$venv/bin/python -m pip --disable-pip-version-check check
after="$($venv/bin/python -m pip --disable-pip-version-check list 2>/dev/null | grep -i '^mujoco')"
[ "$before" = "$after" ] || { echo "wheel check: installing mjhand changed MuJoCo: $before -> $after" >&2; exit 1; }
for mod in $worked; do
  "$venv/bin/python" -c "import $mod" || { echo "wheel check: 'import $mod' worked before mjhand, not after" >&2; exit 1; }
done
cd "$work"
"$venv/bin/python" - "$readme" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"### Python package.*?```python\n(.*?)```", text, re.S).group(1)
exec(compile(block, "README.md (### Python package)", "exec"))
PY
model="$("$venv/bin/python" -c 'import mjhand; print(mjhand.model_path("grasp_sensor_scene.xml"))')"
case " $worked " in *" mujoco.studio "*)  # Studio is a Python library: its scripts import mjhand for the plugins
  "$venv/bin/python" -c "import mujoco, mujoco.studio, mjhand; mujoco.MjModel.from_xml_path('$model')" ;; esac
"$venv/bin/python" -m mjhand analyze grasp_sensor_scene.xml --settle 1 >"$work/analyze.txt"  # a packaged model by name
grep -q "force closure" "$work/analyze.txt" || { cat "$work/analyze.txt" >&2; echo "wheel check: analyze" >&2; exit 1; }
# The plugin library in a process that does not import mjhand (as MuJoCo's simulate or a C program loads it; in
# Python the libmujoco `import mujoco` loaded must be made global first, as a C program's link makes it).
"$venv/bin/python" - <<'PY'
import ctypes, importlib.util, os
import mujoco
ctypes.CDLL(os.path.join(os.path.dirname(mujoco.__file__), "libmujoco.so." + mujoco.__version__),
            mode=os.RTLD_GLOBAL | os.RTLD_NOLOAD)
package = importlib.util.find_spec("mjhand").submodule_search_locations[0]
mujoco.mj_loadPluginLibrary(os.path.join(package, "plugin", "libmjhand_plugins.so"))
m = mujoco.MjModel.from_xml_path(os.path.join(package, "models", "grasp_sensor_scene.xml"))
d = mujoco.MjData(m)
mujoco.mj_step(m, d, 200)
assert m.nplugin > 0 and d.sensor("grasp").data.size > 0, "the plugins did not run"
print(f"wheel check: libmjhand_plugins.so loaded without mjhand: {m.nplugin} plugin instances stepped")
PY
site="$("$venv/bin/python" -c 'import mjhand, os; print(os.path.dirname(mjhand.__file__))')"
for lib in "$site"/_core.*.so "$site"/plugin/libmjhand_plugins.so; do
  outside="$(ldd "$lib" | awk '/=>/ {print $3}' | grep -v -e "/mjhand.libs/" -e '^/lib/' -e '^/usr/lib/' || true)"
  missing="$(ldd "$lib" | grep 'not found' || true)"
  if [ -n "$outside$missing" ]; then
    echo "wheel check: $(basename "$lib") resolves outside the wheel and the base system: $outside $missing" >&2
    exit 1
  fi
done
# A MuJoCo mjhand does not support (MJHAND_TEST_OLD_MUJOCO, default mujoco==3.17.0, the last 3.x): installing the
# wheel leaves it working, and `import mjhand` names the installed and supported versions and the command.
old="$work/old"
"$python" -m venv "$old"
"$old/bin/python" -m pip --disable-pip-version-check -q install "${MJHAND_TEST_OLD_MUJOCO:-mujoco==3.17.0}"
"$old/bin/python" -m pip --disable-pip-version-check -q install "$wheel"
"$old/bin/python" -c "import mujoco" || { echo "wheel check: mjhand broke an unsupported MuJoCo's import" >&2; exit 1; }
if "$old/bin/python" -c "import mjhand" 2>"$work/old.txt"; then
  echo "wheel check: import mjhand succeeded with ${MJHAND_TEST_OLD_MUJOCO:-mujoco==3.17.0}" >&2; exit 1
fi
grep -q "ImportError: mjhand needs MuJoCo 4.0" "$work/old.txt" || { cat "$work/old.txt" >&2; exit 1; }
echo "wheel check: with an unsupported MuJoCo: $(tail -1 "$work/old.txt" | cut -c1-160)..."
echo "wheel check: ok (pip check clean, MuJoCo untouched, README block, analyze, ldd, plugin library, unsupported MuJoCo refused)"
rm -rf "$work"
