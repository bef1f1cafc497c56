"""The documented pickle limitation and its workaround: pickling an MjData of a plugin model crashes at interpreter
exit (upstream MuJoCo 4.0.1); mjhand.get_state / set_state carry the whole integration state, plugin state included,
through pickle, and the run continues bit for bit."""
import pickle
import subprocess
import sys

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model


def test_state_through_pickle_continues_bit_for_bit():
    m = mujoco.MjModel.from_xml_path(model("grasp_sensor_scene.xml"))  # posture servo + grasp sensor plugins
    assert m.nplugin >= 2 and m.npluginstate > 0
    d = mujoco.MjData(m)
    for _ in range(400):
        mujoco.mj_step(m, d)
    blob = pickle.dumps(mjhand.get_state(m, d))
    for _ in range(300):
        mujoco.mj_step(m, d)
    d2 = mujoco.MjData(m)
    mjhand.set_state(m, d2, pickle.loads(blob))
    for _ in range(300):
        mujoco.mj_step(m, d2)
    np.testing.assert_array_equal(d2.qpos, d.qpos)
    np.testing.assert_array_equal(d2.plugin_state, d.plugin_state)
    np.testing.assert_array_equal(d2.sensordata, d.sensordata)
    with pytest.raises(ValueError, match="a state of another model"):
        mjhand.set_state(m, d2, np.zeros(3))


def test_the_workaround_exits_cleanly_where_pickling_mjdata_does_not():
    code = ("import pickle, mujoco, mjhand\n"
            f"m = mujoco.MjModel.from_xml_path({model('grasp_sensor_scene.xml')!r})\n"
            "d = mujoco.MjData(m)\n"
            "mujoco.mj_step(m, d)\n"
            "{body}\n")
    ok = subprocess.run([sys.executable, "-c", code.format(
        body="s = pickle.loads(pickle.dumps(mjhand.get_state(m, d)))\nmjhand.set_state(m, mujoco.MjData(m), s)")],
        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    # The limitation the docs describe (upstream): if MuJoCo fixes it, this fails and the docs can drop the warning.
    bad = subprocess.run([sys.executable, "-c", code.format(body="pickle.loads(pickle.dumps(d))")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0
