"""examples/python/ run as a user runs them, and what each prints or writes is checked."""
import importlib.util
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import SOURCE

EXAMPLES = os.path.join(SOURCE, "examples", "python")


def run(name, *args, timeout=300):
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args], capture_output=True, text=True,
                       timeout=timeout, cwd=SOURCE)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_analyze_grasp_in_ten_lines():
    with open(os.path.join(EXAMPLES, "analyze_grasp.py")) as f:
        code = [l for l in f.read().split('"""', 2)[2].splitlines() if l.strip() and not l.strip().startswith("#")]
    assert len(code) <= 10, code
    out = run("analyze_grasp.py")
    assert "4 contacts" in out and "force closure: True" in out


def test_rollout_with_the_pid_plugin_reaches_its_setpoint():
    out = run("rollout_pid.py", "--setpoint", "0.3,0.2,0.1", "--duration", "2")
    err = float(out.strip().splitlines()[-1].split("=")[1].split()[0])
    # the 12-bit DAC and 4096-count encoders limit the hold accuracy to about a count: 2 pi / 4096 = 1.5e-3 rad
    assert err < 2 * np.pi / 4096, out


def test_rollout_rejects_a_bad_setpoint_with_mjhands_message():
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, "rollout_pid.py"), "--setpoint", "0.3,x,0.1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "setpoint" in r.stderr


def test_grasp_env_example_runs_random_and_scripted_episodes(tmp_path):
    png = tmp_path / "frame.png"
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, "grasp_env.py"), "--episodes", "2", "--png", str(png)],
                       capture_output=True, text=True, timeout=300,
                       env={**os.environ, "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl")})
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("random") == 2 and "scripted seed 0: 150 steps" in r.stdout and "success True" in r.stdout
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_plot_script_writes_a_png(tmp_path):
    out = tmp_path / "closing.png"
    text = run("plot_closing.py", "--out", str(out), "--duration", "1")
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert "4 contacts" in text


def test_python_m_mjhand_view_runs_mujocos_viewer_with_plugins():
    if shutil.which("xvfb-run") is None:  # scripts/test.sh sets MJHAND_REQUIRE_TEST_DEPS=1: a failure there
        if os.environ.get("MJHAND_REQUIRE_TEST_DEPS") == "1":
            pytest.fail("needs xvfb-run (Debian xvfb), which scripts/install-deps.sh installs")
        pytest.skip("needs xvfb-run (Debian xvfb)")
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", sys.executable, "-m", "mjhand.view",
                        os.path.join(SOURCE, "models", "grasp_sensor_scene.xml"), "--duration", "0.5"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "simulated 0.50" in r.stdout and "plugin instances" in r.stdout and "viewer closed" not in r.stdout
    r = subprocess.run([sys.executable, "-m", "mjhand.view", os.path.join(SOURCE, "models", "nope.xml")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "nope.xml" in r.stderr
