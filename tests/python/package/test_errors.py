"""Bad input from Python gives a Python exception that says what is wrong, never a crash or a NaN."""
import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model


@pytest.fixture(scope="module")
def scene():
    m = mujoco.MjModel.from_xml_path(model("grasp_sensor_scene.xml"))
    d = mujoco.MjData(m)
    for _ in range(1000):
        mujoco.mj_step(m, d)
    return m, d


def test_wrong_object_types(scene):
    m, d = scene
    with pytest.raises(TypeError, match="model must be a mujoco.MjModel, got ndarray"):
        mjhand.collect_contacts(np.zeros(3), d, mjhand.hand(m, "ball"))
    with pytest.raises(TypeError, match="data must be a mujoco.MjData, got MjModel"):
        mjhand.collect_contacts(m, m, mjhand.hand(m, "ball"))
    with pytest.raises(TypeError):
        mjhand.GraspAnalysis(m, "not a hand")


def test_data_of_another_model(scene):
    m, _ = scene
    other = mujoco.MjModel.from_xml_path(model("pid_finger.xml"))
    with pytest.raises(ValueError, match="made for another mujoco.MjModel"):
        mjhand.collect_contacts(m, mujoco.MjData(other), mjhand.hand(m, "ball"))


def test_unknown_bodies(scene):
    m, d = scene
    with pytest.raises(ValueError, match="object: no body named 'cube' in the model"):
        mjhand.grasp(m, d, object="cube")
    with pytest.raises(ValueError, match="palm: body id 999 is not in"):
        mjhand.hand(m, "ball", palm=999)
    with pytest.raises(mjhand.GraspError):
        mjhand.hand(m, "ball", fingers=["ball"])  # the object inside a finger


def test_model_without_contacts():
    m = mujoco.MjModel.from_xml_path(model("grasp_sensor_scene.xml"))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)  # open hand: the ball touches only the table
    with pytest.raises(mjhand.GraspError, match="no contact between the object 'ball' and a finger"):
        mjhand.grasp(m, d, object="ball")


def test_wrong_shapes_and_dtypes(scene):
    m, d = scene
    g = mjhand.grasp(m, d, object="ball")
    with pytest.raises(ValueError, match=r"G must have shape \(6, 16\) for these 4 contacts, got \(6, 15\)"):
        mjhand.optimal_forces(g.contacts, g.G[:, :15], np.zeros(6))
    with pytest.raises(ValueError, match="W must have 6 entries"):
        mjhand.optimal_forces(g.contacts, g.G, np.zeros(5))
    with pytest.raises(ValueError, match="J_H must have as many rows as G has columns"):
        mjhand.grasp_quality(g.G, g.J_H[:3])
    with pytest.raises(ValueError, match="reference must have 3 entries"):
        mjhand.grasp_matrix(g.contacts, np.zeros(2))
    with pytest.raises(ValueError, match="G has a NaN"):
        bad = g.G.copy()
        bad[0, 0] = np.nan
        mjhand.grasp_sigma_min(bad)
    with pytest.raises(TypeError):
        mjhand.grasp_sigma_min(np.array([["a"] * 6] * 6))
    with pytest.raises(TypeError):
        mjhand.grasp_sigma_min(np.zeros((6, 4, 2)))
    with pytest.raises(ValueError, match="lambda must have 16 entries"):
        mjhand.joint_torques(g.J_H, np.zeros(3))
    with pytest.raises(ValueError, match="norm must be 'L1' or 'Linf'"):
        g.epsilon("L2")


def test_kinematics_input():
    chain = mjhand.egrasp_chain(mjhand.EGraspFinger())
    with pytest.raises(ValueError, match="q must have 3 entries"):
        chain.forward_kinematics(np.zeros(2))
    with pytest.raises(ValueError, match="q is not finite"):
        chain.forward_kinematics(np.array([0, np.nan, 0]))
    with pytest.raises(ValueError, match="dh must have 4 columns"):
        mjhand.Chain(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="base: not a rigid transform"):
        mjhand.Chain(np.zeros((1, 4)), base=2 * np.eye(4))
    with pytest.raises(ValueError, match="damping"):
        chain.ik_position(np.zeros(3), np.zeros(3), damping=-1)
    with pytest.raises(ValueError, match="frame must be 'base' or 'tool'"):
        chain.jacobian(np.zeros(3), frame="world")


def test_bad_plugin_config_in_mujoco_carries_mjhands_message():
    xml = open(model("pid_finger.xml")).read()
    import re
    bad = re.sub(r'(<config key="kp" value=")[^"]*"', r'\1fast"', xml, count=1)
    assert bad != xml
    with pytest.raises(ValueError, match=r"kp.*fast"):
        mujoco.MjModel.from_xml_string(bad)


def test_fit_errors():
    with pytest.raises(mjhand.FitError, match="same length"):
        mjhand.fit_polynomial([0.0, 1.0], [0.0], 1)
    with pytest.raises(mjhand.FitError):
        mjhand.fit_polynomial([0.0, 0.0, 0.0], [1.0, 2.0, 3.0], 1)  # constant x
