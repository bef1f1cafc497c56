"""Hand structure and actuation of any MJCF hand from Python: infer_hand_structure against the C++ CLI's analysis of
the same scene (`mjhand analyze --json`, the program MJHAND_CLI names, else `python -m mjhand`), the actuation
matrix against MuJoCo's own actuator forces (data.qfrc_actuator = A data.actuator_force) and dense efc_J rows, the
actuator statics against its definition computed in NumPy, and bad input named in the exception."""
import json
import os
import subprocess
import sys

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import SOURCE, model, run_python

sys.path.insert(0, os.path.join(SOURCE, "tests", "python"))  # the README/docs block reader shared with tests/python
from readme_blocks import readme_python_block  # noqa: E402

SCENES = [("allegro_scene.xml", "ball"), ("shadow_scene.xml", "ball"), ("robotiq_2f85_scene.xml", "box")]


def analyze(scene, *options):
    """`mjhand analyze models/real/SCENE --keyframe grasp --json OPTIONS` by the CLI binary (MJHAND_CLI) when set."""
    cli = os.environ.get("MJHAND_CLI")
    cmd = [cli] if cli else [sys.executable, "-m", "mjhand"]
    r = subprocess.run(cmd + ["analyze", model("real/" + scene), "--keyframe", "grasp", "--json",
                              "--linf-max-points", "1", *options],
                       capture_output=True, text=True, timeout=120, cwd=SOURCE)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def at_grasp(scene):
    m = mujoco.MjModel.from_xml_path(model("real/" + scene))
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    mujoco.mj_forward(m, d)
    return m, d


def names(m, bodies):
    return [m.body(b).name for b in bodies]


def dof_names(m, dofs):
    return [m.joint(m.dof_jntid[v]).name for v in dofs]


@pytest.mark.parametrize("scene,obj", SCENES)
def test_inferred_structure_is_the_clis(scene, obj):
    m, _ = at_grasp(scene)
    h = mjhand.infer_hand_structure(m, object=obj)
    report = analyze(scene)["hand"]
    assert m.body(h.palm_body).name == report["palm"]
    assert names(m, h.palm_bodies) == report["palm_links"]
    assert h.finger_names == [f["name"] for f in report["fingers"]]
    for k, f in enumerate(report["fingers"]):
        assert sorted(names(m, h.finger_bodies(k))) == sorted(f["links"])
    assert dof_names(m, h.dofs) == report["dofs"]
    assert dof_names(m, h.wrist_dofs) == report["wrist_dofs"]
    assert mjhand.describe_hand_structure(m, h) in report["source"]


def test_structure_options_are_the_clis():
    m, _ = at_grasp("shadow_scene.xml")
    tips = ["rh_ffdistal", "rh_thdistal"]
    h = mjhand.infer_hand_structure(m, "ball", palm="rh_palm", finger_tips=tips, with_wrist=True)
    report = analyze("shadow_scene.xml", "--palm", "rh_palm", "--finger-tips", ",".join(tips), "--with-wrist")["hand"]
    assert dof_names(m, h.dofs) == report["dofs"]  # the two wrist joints first
    assert dof_names(m, h.wrist_dofs) == report["wrist_dofs"] == ["rh_WRJ2", "rh_WRJ1"]
    assert [m.body(t).name if t >= 0 else None for t in h.finger_tips] == [f["tip"] for f in report["fingers"]]
    # the same bodies by id, and fingers given as roots
    ids = [m.body(t).id for t in tips]
    assert mjhand.infer_hand_structure(m, m.body("ball").id, palm=m.body("rh_palm").id, finger_tips=ids,
                                       with_wrist=True).dofs == h.dofs
    two = mjhand.infer_hand_structure(m, "ball", fingers=["rh_ffknuckle", "rh_thbase"])
    assert two.finger_names == ["rh_ffknuckle", "rh_thbase"]


PALM_ON_FREE_BASE = """<mujoco><worldbody>
  <body name="base" pos="0 0 0.5"><freejoint/><geom type="box" size="0.02 0.02 0.02" mass="0.5"/>
    <body name="palm" pos="0 0 0.05"><joint name="wrist" axis="0 0 1"/>
      <geom name="palm" type="box" size="0.05 0.05 0.01" mass="0.2"/>
      <body name="pad" pos="0 0 0.01"><geom name="pad" type="box" size="0.03 0.03 0.002" mass="0.01"/></body>
      <body name="f1" pos="0.04 0 0.01"><joint name="j1" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.05" size="0.008"/></body>
      <body name="f2" pos="-0.04 0 0.01"><joint name="j2" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.05" size="0.008"/></body>
    </body></body>
  <body name="ball" pos="0 0 0.5918"><freejoint/><geom name="ball" type="sphere" size="0.03" mass="0.05"/></body>
</worldbody></mujoco>"""


def test_palm_contacts_join_the_grasp():
    """A ball resting on a pad fixed to the palm of a hand on a free base: the inferred hand makes the free joint and
    the wrist hinge the wrist, the pad part of the palm, and keeps the ball-pad contacts MuJoCo found as palm
    contacts (finger -1), of the model palm_contact_model asks for."""
    m = mujoco.MjModel.from_xml_string(PALM_ON_FREE_BASE)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    h = mjhand.infer_hand_structure(m, "ball")
    assert (h.palm_body, h.finger_names) == (m.body("palm").id, ["f1", "f2"])
    assert h.palm_bodies == [m.body("palm").id, m.body("pad").id] and h.is_palm(m.body("pad").id)
    assert h.wrist_dofs == list(range(7)) and h.dofs == [7, 8]  # free base (6) + wrist hinge; j1, j2
    pair = {m.geom("ball").id, m.geom("pad").id}
    on_pad = [k for k in range(d.ncon) if {d.contact[k].geom1, d.contact[k].geom2} == pair]
    contacts = mjhand.collect_contacts(m, d, h)
    assert len(on_pad) >= 1 and sorted(c.mj_contact for c in contacts) == on_pad
    assert all(c.finger == -1 and c.hand_body == m.body("pad").id for c in contacts)
    soft = mjhand.collect_contacts(m, d, h, palm_contact_model=mjhand.ContactModel.SOFT_FINGER)
    assert [c.rows for c in soft] == [4] * len(on_pad)
    g = mjhand.grasp(m, d, "ball", hand=h, palm_contact_model=mjhand.ContactModel.SOFT_FINGER)
    assert g.G.shape == (6, 4 * len(on_pad)) and g.J_H.shape == (4 * len(on_pad), 2)
    assert not g.J_H.any()  # the wrist held: nothing in J_H moves the pad
    # by name, as `mjhand analyze --palm-contact sf` takes it (any case), or the enum's name
    for name in ("sf", "SF", "soft_finger"):
        assert [c.rows for c in mjhand.collect_contacts(m, d, h, palm_contact_model=name)] == [4] * len(on_pad)
    assert [c.rows for c in mjhand.grasp(m, d, "ball", hand=h, palm_contact_model="hf").contacts] == [3] * len(on_pad)
    with pytest.raises(ValueError, match="palm_contact_model: unknown contact model 'soft'; give 'pwof', 'hf' or 'sf'"):
        mjhand.collect_contacts(m, d, h, palm_contact_model="soft")
    with pytest.raises(TypeError, match="palm_contact_model must be an mjhand.ContactModel, 'pwof', 'hf' or 'sf'"):
        mjhand.collect_contacts(m, d, h, palm_contact_model=2)


@pytest.mark.parametrize("scene,obj", SCENES)
def test_transmission_is_mujocos_actuator_force(scene, obj):
    m, d = at_grasp(scene)
    rng = np.random.default_rng(3)
    for _ in range(3):
        d.ctrl[:] = rng.uniform(m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1])
        mujoco.mj_forward(m, d)
        A = mjhand.actuator_transmission(m, d)
        assert A.shape == (m.nv, d.actuator_force.size)
        # MuJoCo sums the same products (actuator_moment^T force): rounding ~ a few eps |A| |f|
        np.testing.assert_allclose(A @ d.actuator_force, d.qfrc_actuator, rtol=0,
                                   atol=1e-12 * (1 + np.abs(d.actuator_force).max()))
    h = mjhand.infer_hand_structure(m, obj)
    act = mjhand.hand_actuation(m, d, h)
    np.testing.assert_array_equal(act.A, mjhand.actuator_transmission(m, d, h.dofs))
    np.testing.assert_array_equal(act.A, A[h.dofs])  # the same numbers read for a subset of the rows


@pytest.mark.parametrize("scene,obj", SCENES)
def test_actuation_counts_are_the_clis(scene, obj):
    m, d = at_grasp(scene)
    act = mjhand.hand_actuation(m, d, mjhand.infer_hand_structure(m, obj))
    report = analyze(scene)["actuation"]
    for key in ("constraint_rows", "rank_Jeq", "joint_mobility", "actuated"):
        assert getattr(act, key) == report[key], key
    assert [act.output_names[k] for k in act.outputs] == report["actuators_on_hand"]
    # the CLI prints shortest round-trip decimals: equal to the last bit
    np.testing.assert_array_equal(act.A, np.array(report["A"], dtype=float).reshape(act.A.shape))
    np.testing.assert_array_equal(act.Jeq, np.array(report["Jeq"], dtype=float).reshape(act.Jeq.shape))


def test_equality_rows_are_mujocos_efc_J():
    """The 2F-85's two connect loops and joint coupling: rows of MuJoCo's dense efc_J with a non-zero on the hand."""
    m, d = at_grasp("robotiq_2f85_scene.xml")
    m.opt.jacobian = mujoco.mjtJacobian.mjJAC_DENSE
    mujoco.mj_forward(m, d)
    h = mjhand.infer_hand_structure(m, "box")
    rows = mjhand.equality_jacobian(m, d, h)
    J = d.efc_J.reshape(d.nefc, m.nv)
    eq = [r for r in range(d.nefc) if d.efc_type[r] == mujoco.mjtConstraint.mjCNSTR_EQUALITY
          and np.any(J[r, h.dofs] != 0)]
    np.testing.assert_array_equal(rows.J, J[np.ix_(eq, h.dofs)])
    np.testing.assert_array_equal(rows.equality, d.efc_id[eq])
    # MuJoCo's 7 equality rows (2 connects x 3 + 1 coupling); each planar loop's out-of-plane row is zero on the hand
    assert sum(d.efc_type == mujoco.mjtConstraint.mjCNSTR_EQUALITY) == 7 and rows.J.shape[0] == 5


def test_actuator_statics_is_its_definition():
    """f = (P A)^+ P tau, mu = (Jeq^T)^+ (tau - A f), P the projector onto null(Jeq), computed here in NumPy."""
    m, d = at_grasp("robotiq_2f85_scene.xml")
    act = mjhand.hand_actuation(m, d, mjhand.infer_hand_structure(m, "box"))
    A, Jeq = act.A, act.Jeq
    P = np.eye(A.shape[0]) - np.linalg.pinv(Jeq) @ Jeq
    rng = np.random.default_rng(5)
    for tau in (rng.normal(size=A.shape[0]), A @ [2.0] + Jeq.T @ rng.normal(size=Jeq.shape[0])):
        s = mjhand.actuator_statics(act, tau)
        f = np.linalg.pinv(P @ A) @ P @ tau
        mu = np.linalg.pinv(Jeq.T) @ (tau - A @ f)
        # two SVD pseudo-inverses of O(0.1) matrices with condition <= ~1e2: ~1e-16 x 1e2 x |tau|; 1e-12 is loose
        np.testing.assert_allclose(s.f, f, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s.mu, mu, rtol=0, atol=1e-12 * (1 + np.abs(mu).max()))
        np.testing.assert_allclose(s.residual, P @ (tau - A @ f), rtol=0, atol=1e-12)
    assert s.resisted  # the last tau is holdable by construction: A f0 + Jeq^T mu0
    np.testing.assert_allclose(act.statics(list(tau)).f, s.f, rtol=0, atol=0)  # a list is an array too


def test_bad_input_is_named():
    m, d = at_grasp("shadow_scene.xml")
    with pytest.raises(ValueError, match="palm: no body named 'nope' in the model"):
        mjhand.infer_hand_structure(m, "ball", palm="nope")
    with pytest.raises(ValueError, match=r"fingers\[1\]: no body named 'rh_nope'"):
        mjhand.infer_hand_structure(m, "ball", fingers=["rh_ffknuckle", "rh_nope"])
    with pytest.raises(ValueError, match="object: body id 999 is not in"):
        mjhand.infer_hand_structure(m, 999)
    with pytest.raises(TypeError, match="palm must be a body name or id, got float"):
        mjhand.infer_hand_structure(m, "ball", palm=1.5)
    with pytest.raises(mjhand.GraspError, match="rh_ffdistal"):  # two tips in one finger
        mjhand.infer_hand_structure(m, "ball", finger_tips=["rh_ffdistal", "rh_ffmiddle"])
    with pytest.raises(ValueError, match=r"dof 999 \(entry 1\) is not a dof of the model"):
        mjhand.actuator_transmission(m, d, [0, 999])
    act = mjhand.hand_actuation(m, d, mjhand.infer_hand_structure(m, "ball"))
    with pytest.raises(ValueError, match="tau must have 22 entries"):
        mjhand.actuator_statics(act, np.zeros(3))
    with pytest.raises(ValueError, match="hand has no object"):
        mjhand.collect_contacts(m, d, mjhand.infer_hand_structure(m))
    other = mujoco.MjModel.from_xml_path(model("pid_finger.xml"))
    with pytest.raises(ValueError, match="made for another mujoco.MjModel"):
        mjhand.hand_actuation(m, mujoco.MjData(other), [0])


def test_lists_are_arrays_everywhere():
    """One conversion for every array argument (numpy.asarray in C++): lists give the arrays' results."""
    A = [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]
    np.testing.assert_array_equal(mjhand.pseudo_inverse(A), mjhand.pseudo_inverse(np.array(A)))
    # views with any strides and other dtypes read the same numbers (an SVD each: rounding, 1e-12 loose)
    B = np.arange(24.0).reshape(4, 6) ** 1.5
    for view in (B[:, ::2], B[::-1, 1::3], B.T, np.asfortranarray(B), B.astype(np.int64), B[1], B[:, 2]):
        expected = np.linalg.pinv(np.asarray(view, dtype=float).reshape(view.shape[0], -1))
        np.testing.assert_allclose(mjhand.pseudo_inverse(view), expected, rtol=0, atol=1e-12 * np.abs(expected).max())
    np.testing.assert_array_equal(mjhand.joint_torques(A, [1, 2, 3]), mjhand.joint_torques(np.array(A), np.arange(1.0, 4)))
    chain = mjhand.Chain([[0.02, np.pi / 2, 0, 0], [0.045, 0, 0, 0]])
    np.testing.assert_array_equal(chain.forward_kinematics([0.1, 0.2]), chain.forward_kinematics(np.array([0.1, 0.2])))
    np.testing.assert_array_equal(mjhand.contact_frame_from_normal((0, 0, 1)), mjhand.contact_frame_from_normal(np.eye(3)[2]))


def test_the_docs_example_runs():
    """docs/python.md's "Any MJCF hand" block, as a user copies it (a fresh interpreter)."""
    r = run_python(readme_python_block("## Any MJCF hand", "docs/python.md"))
    assert r.returncode == 0, r.stderr
    assert "palm 'rh_palm'" in r.stdout and "CONVERGED" in r.stdout.upper(), r.stdout
