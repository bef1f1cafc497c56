"""pytest suite of the installed `mjhand` Python package (after `pip install .`; README "Python package").

Run from the checkout: `.venv/bin/python -m pytest tests/python/package` (scripts/test.sh does, after installing).
The package must come from site-packages, not from python/ in the checkout (that folder lacks the extension)."""
import os
import sys

import pytest

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture(scope="session")
def source():
    return SOURCE


def model(name):
    """A model of the checkout's models/ folder (the package ships the same files)."""
    return os.path.join(SOURCE, "models", name)


def run_python(code, timeout=300, env=None):
    """Runs `python -c code` in a fresh interpreter (plugin registration is per process); returns CompletedProcess."""
    import subprocess
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=SOURCE)


@pytest.fixture(scope="session")
def settled():
    """models/grasp_sensor_scene.xml as `mjhand analyze --settle 2` leaves it: mj_forward, 1000 mj_step (2 s at 2 ms:
    the posture servos close the four fingers on the ball), mj_forward. Shared: tests must not change it."""
    import mujoco
    m = mujoco.MjModel.from_xml_path(model("grasp_sensor_scene.xml"))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    for _ in range(1000):
        mujoco.mj_step(m, d)
    mujoco.mj_forward(m, d)
    return m, d


@pytest.fixture(scope="session")
def report():
    """The C++ CLI's analysis of the same state (`python -m mjhand analyze ... --settle 2 --json`), run once."""
    import json
    import subprocess
    r = subprocess.run([sys.executable, "-m", "mjhand", "analyze", model("grasp_sensor_scene.xml"), "--settle", "2",
                        "--json"], capture_output=True, text=True, timeout=300, check=True)
    return json.loads(r.stdout)
