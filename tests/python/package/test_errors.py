"""Bad input from Python gives a Python exception that says what is wrong, never a crash or a NaN."""
import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model


@pytest.fixture(scope="module")
def scene(settled):  # the closed grasp of models/grasp_sensor_scene.xml (conftest.py)
    return settled


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
    with pytest.raises(TypeError, match="G must be an array of numbers"):
        mjhand.grasp_sigma_min(np.array([["a"] * 6] * 6))
    with pytest.raises(ValueError, match="G must have 1 or 2 dimensions, got 3"):
        mjhand.grasp_sigma_min(np.zeros((6, 4, 2)))
    with pytest.raises(ValueError, match="lambda must have 16 entries"):
        mjhand.joint_torques(g.J_H, np.zeros(3))
    with pytest.raises(ValueError, match=r"W must be a vector \(1-D, or one row or column\), got shape \(2, 3\)"):
        mjhand.optimal_forces(g.contacts, g.G, np.zeros((2, 3)))  # 6 entries, but a matrix: never flattened
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


# ---- inputs that used to crash or read out of bounds (review of the package) -----------------------------------------

def test_hand_and_contacts_of_another_model_are_refused(scene):
    m, d = scene
    g = mjhand.grasp(m, d, object="ball")
    other = mujoco.MjModel.from_xml_path(model("pid_finger.xml"))
    od = mujoco.MjData(other)
    mujoco.mj_forward(other, od)
    for call in (lambda: mjhand.hand_jacobian(other, od, g.hand, g.contacts),
                 lambda: mjhand.object_center(other, od, g.hand),
                 lambda: mjhand.object_twist(other, od, g.hand, np.zeros(3)),
                 lambda: mjhand.collect_contacts(other, od, g.hand),
                 lambda: mjhand.GraspAnalysis(other, g.hand)):
        with pytest.raises(ValueError, match="hand was made for another model"):
            call()
    # contacts naming geoms and bodies the other model does not have
    with pytest.raises(ValueError, match="contacts\\[0\\]"):
        mjhand.mujoco_contact_forces(other, od, g.contacts)


def test_contacts_from_another_step_are_refused(scene):
    m, d = scene
    g = mjhand.grasp(m, d, object="ball")
    d2 = mujoco.MjData(m)
    mujoco.mj_forward(m, d2)  # open hand: other contacts under the same indices
    with pytest.raises(ValueError, match="not a contact of this data"):
        mjhand.mujoco_contact_forces(m, d2, g.contacts)


def test_contact_fields_are_validated_when_set(scene):
    m, d = scene
    c = mjhand.grasp(m, d, object="ball").contacts[0]
    with pytest.raises(ValueError, match="pos is not finite"):
        c.pos = [np.nan, 0, 0]
    with pytest.raises(ValueError, match="not a rotation"):
        c.frame = np.zeros((3, 3))
    with pytest.raises(ValueError, match="mu must be finite"):
        c.mu = -1
    with pytest.raises(ValueError, match="hand_body 999 is not a body"):
        c.hand_body = 999
        mjhand.hand_jacobian(m, d, mjhand.hand(m, "ball"), [c])


def test_cone_edges_and_tolerances_are_bounded(scene):
    m, d = scene
    g = mjhand.grasp(m, d, object="ball")
    for call in (lambda: mjhand.ferrari_canny(g.contacts, g.reference, cone_edges=2 ** 30),
                 lambda: mjhand.is_force_closure(g.contacts, g.reference, cone_edges=10 ** 8),
                 lambda: mjhand.optimal_forces(g.contacts, g.G, np.zeros(6), cone_edges=10 ** 7)):
        with pytest.raises(ValueError, match="cone_edges must be in 3..64"):
            call()
    with pytest.raises(ValueError, match="tol is NaN"):
        mjhand.pseudo_inverse(np.eye(2), np.nan)
    with pytest.raises(ValueError, match="rank_tol is NaN"):
        mjhand.singularity_measures(np.eye(3), np.nan)
    with pytest.raises(ValueError, match="G must have 6 rows"):
        mjhand.internal_force_basis(g.G[:2])
    with pytest.raises(ValueError, match="lambda_ has a NaN"):
        mjhand.joint_torques(g.J_H, np.full(16, np.nan))
    with pytest.raises(ValueError, match="actuated must be >= 0"):
        mjhand.hand_object_mobility(g.contacts, g.G, g.J_H, -5)


def test_too_many_contacts_for_the_analysis_is_an_error_not_a_partial_grasp(scene):
    m, d = scene
    ga = mjhand.GraspAnalysis(m, mjhand.hand(m, "ball"), max_contacts=2)
    with pytest.raises(mjhand.GraspError, match="4 hand-object contacts do not fit max_contacts=2"):
        ga.compute(d)
    assert ga.G.shape == (6, 0)


def test_chain_and_finger_input():
    with pytest.raises(ValueError, match="dh has no rows"):
        mjhand.Chain(np.zeros((0, 4)))
    f = mjhand.EGraspFinger()
    with pytest.raises(ValueError, match="l1 must be a finite length"):
        f.l1 = float("nan")
    with pytest.raises(ValueError, match="lower <= upper"):
        f.lower = [1.0, 1.0, 1.0]
    with pytest.raises(mjhand.FitError, match="must be finite"):
        mjhand.fit_polynomial([0.0, 1.0, np.nan], [0.0, 1.0, 2.0], 1)
    with pytest.raises(TypeError, match="contact_model must be an mjhand.ContactModel"):
        m = mujoco.MjModel.from_xml_path(model("grasp_sensor_scene.xml"))
        d = mujoco.MjData(m)
        mujoco.mj_forward(m, d)
        mjhand.collect_contacts(m, d, mjhand.hand(m, "ball"), contact_model=3)
    with pytest.raises(ValueError, match="world body"):
        mjhand.hand(m, 0)


def test_crash_free_in_a_fresh_interpreter():
    """The worst inputs in one child process: it must end with Python exceptions, not a signal."""
    from conftest import run_python
    code = """
import mujoco, numpy as np, mjhand
M = %r
m = mujoco.MjModel.from_xml_path(M + 'grasp_sensor_scene.xml'); d = mujoco.MjData(m)
for _ in range(1000): mujoco.mj_step(m, d)
g = mjhand.grasp(m, d, object='ball')
big = mujoco.MjModel.from_xml_string('<mujoco><worldbody>' + ''.join(
    '<body name="b%%d">%%s<geom size=".01"/></body>' %% (i, '<freejoint/>' if i == 0 else '<joint/>')
    for i in range(300)) + '</worldbody></mujoco>')
bd = mujoco.MjData(big); mujoco.mj_forward(big, bd)
small = mujoco.MjModel.from_xml_string('<mujoco><worldbody><body name="a"><freejoint/><geom size=".1"/></body></worldbody></mujoco>')
sd = mujoco.MjData(small); mujoco.mj_forward(small, sd)
hb = mjhand.hand(big, 'b0', fingers=['b1'])
calls = [lambda: mjhand.hand_jacobian(small, sd, hb, g.contacts), lambda: mjhand.object_center(small, sd, hb),
         lambda: mjhand.object_twist(small, sd, hb, [0, 0, 0]), lambda: mjhand.GraspAnalysis(small, hb),
         lambda: mjhand.ferrari_canny(g.contacts, [0, 0, 0], cone_edges=2**30),
         lambda: mjhand.Chain(np.zeros((0, 4))).ik_position([0, 0, .1], np.zeros(0))]
n = 0
for c in calls:
    try:
        c()
    except (ValueError, TypeError) as e:
        n += 1
print('raised', n, 'of', len(calls))
""" % (model(""),)
    r = run_python(code)
    assert r.returncode == 0, r.stderr
    assert "raised 6 of 6" in r.stdout, r.stdout + r.stderr
