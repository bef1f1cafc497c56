"""mjhand's native plugins in MuJoCo's own Python bindings (`import mujoco`), no mjhand code but the plugin library.

Run by ctest (tests/CMakeLists.txt) with the build's libmjhand_plugins.so and bin/mjhand in the environment:
MJHAND_PLUGIN_LIBRARY, MJHAND_CLI, MJHAND_SOURCE_DIR.
"""
import csv
import os
import subprocess

import mujoco
import numpy as np
import pytest
from readme_blocks import readme_python_block

SOURCE = os.environ.get("MJHAND_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
LIBRARY = os.environ["MJHAND_PLUGIN_LIBRARY"]
CLI = os.environ["MJHAND_CLI"]
SCENE = os.path.join(SOURCE, "models", "grasp_sensor_scene.xml")

mujoco.mj_loadPluginLibrary(LIBRARY)


def test_readme_snippet_runs_with_plugins_live(tmp_path):
    code = readme_python_block("### From Python").replace("build/lib/libmjhand_plugins.so", LIBRARY)
    code = code.replace("models/grasp_sensor_scene.xml", SCENE)
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    grasp = scope["d"].sensor("grasp").data
    assert grasp[0] == 4  # four fingertips touch the ball
    assert grasp[3] == 1  # force closure


def test_sensor_values_equal_mjhand_run(tmp_path):
    m = mujoco.MjModel.from_xml_path(SCENE)
    d = mujoco.MjData(m)
    steps = 750
    for _ in range(steps):
        mujoco.mj_step(m, d)
    out = tmp_path / "run"
    subprocess.run([CLI, "run", SCENE, "--duration", str(steps * m.opt.timestep), "--out", str(out), "--quiet"],
                   check=True, timeout=120)
    with open(out / "trajectory.csv") as f:
        rows = list(csv.DictReader(f))
    last = rows[-1]
    # the CSV prints time with %.17g and both ran the same 750 steps: equal; 1e-12 > 750 eps x 1.5 s (summation order)
    assert float(last["time"]) == pytest.approx(d.time, abs=1e-12)
    logged = np.array([float(last[f"sensor:grasp[{i}]"]) for i in range(7)])
    # Same library, same model, same steps: the same numbers, bit for bit.
    np.testing.assert_array_equal(logged, d.sensor("grasp").data)
    assert logged[0] == 4


def test_bad_config_is_a_load_error_naming_instance_key_value(tmp_path):
    with open(SCENE) as f:
        scene = f.read()
    bad = scene.replace('<config key="epsilon_every" value="50"/>', '<config key="epsilon_every" value="-3"/>')
    assert bad != scene
    (tmp_path / "scene.xml").write_text(bad)
    with open(os.path.join(SOURCE, "models", "egrasp_hand_servo.xml")) as f:
        (tmp_path / "egrasp_hand_servo.xml").write_text(f.read())
    with pytest.raises(ValueError) as err:
        mujoco.MjModel.from_xml_path(str(tmp_path / "scene.xml"))
    message = str(err.value)
    assert "plugin instance 'grasp'" in message
    assert "key 'epsilon_every'" in message and "'-3'" in message


def test_state_is_in_mjdata_and_copies_with_it():
    m = mujoco.MjModel.from_xml_path(SCENE)
    d = mujoco.MjData(m)
    for _ in range(200):
        mujoco.mj_step(m, d)
    c = mujoco.MjData(m)
    mujoco.mj_copyData(c, m, d)
    np.testing.assert_array_equal(c.plugin_state, d.plugin_state)
    for _ in range(200):
        mujoco.mj_step(m, d)
        mujoco.mj_step(m, c)
    np.testing.assert_array_equal(c.qpos, d.qpos)
    np.testing.assert_array_equal(c.sensordata, d.sensordata)
