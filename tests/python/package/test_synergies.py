"""Postural synergies from Python: the committed synergy file is NumPy's PCA of the committed postures, posture and
amplitudes invert each other, file errors name file and line, and closing along a synergy in MuJoCo applies the
soft-synergy law (checked in NumPy from MjData)."""
import csv
import os

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import SOURCE, model

SYNERGIES = os.path.join(SOURCE, "models", "synergies", "direct_drive_hand.csv")
POSTURES = os.path.join(SOURCE, "models", "synergies", "direct_drive_hand_postures.csv")


def postures():
    with open(POSTURES) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    header, body = rows[0], rows[1:]
    first = header.index("fingers") + 1
    return header[first:], np.array([[float(v) for v in r[first:]] for r in body])


def test_the_committed_synergies_are_numpys_pca_of_the_committed_postures():
    joints, Q = postures()
    s = mjhand.read_synergies(SYNERGIES)
    assert s.joints == joints and s.k == 3
    # q0 is the mean: the same sum in another order (100 rows): rounding.
    np.testing.assert_allclose(s.q0, Q.mean(axis=0), atol=1e-14, rtol=0)
    # S spans the first 3 principal directions of NumPy's SVD: principal angles ~ 0 (the singular values are
    # separated by > 10 %, so the subspace is well conditioned: rounding x condition).
    _, sv, Vt = np.linalg.svd(Q - Q.mean(axis=0), full_matrices=False)
    cos = np.linalg.svd(Vt[:3] @ s.S, compute_uv=False)
    np.testing.assert_allclose(cos, 1.0, atol=1e-10, rtol=0)
    fit = mjhand.fit_synergies(joints, Q, 3)
    np.testing.assert_allclose(fit.variance, sv ** 2 / (len(Q) - 1), rtol=1e-12, atol=0)  # sample variance
    np.testing.assert_allclose(fit.explained[2], (sv[:3] ** 2).sum() / (sv ** 2).sum(), rtol=1e-12, atol=0)


def test_posture_and_amplitudes_invert_each_other(tmp_path):
    s = mjhand.read_synergies(SYNERGIES)
    z = np.array([0.3, -0.2, 0.1])
    q = s.posture(z)
    np.testing.assert_allclose(q, s.q0 + s.S @ z, atol=1e-15, rtol=0)
    np.testing.assert_allclose(s.amplitudes(q), z, atol=1e-14, rtol=0)  # S has orthonormal columns
    s2 = mjhand.Synergies(s.joints, list(s.q0), s.S.tolist())
    path = tmp_path / "s.csv"
    mjhand.write_synergies(str(path), s2, "copied")
    back = mjhand.read_synergies(str(path))
    assert np.array_equal(back.S, s.S) and np.array_equal(back.q0, s.q0)  # bit-identical round trip


def test_bad_synergies_are_named(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("row,a,b\nq0,0,0\ns1,1,x\n")
    with pytest.raises(RuntimeError, match=r"bad\.csv:3"):
        mjhand.read_synergies(str(bad))
    with pytest.raises(ValueError, match="S"):
        mjhand.Synergies(["a", "b"], [0, 0], [[1.0], [0.0], [1.0]])


def test_closing_along_a_synergy_applies_the_soft_synergy_law():
    s = mjhand.read_synergies(SYNERGIES)
    spec = mujoco.MjSpec.from_file(model("direct_drive_hand.xml"))
    body = spec.worldbody.add_body(pos=[0.2, 0.09, 0.0])  # fixed, as the posture recording's objects
    body.add_geom(type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[0.035, 0, 0])
    m = spec.compile()
    m.opt.gravity[:] = 0
    m.opt.timestep = 5e-4
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    kq, kd = 0.5, 0.01
    r = mjhand.close_hand_with_synergies(m, d, s, s.S.T @ s.q0, kq, kd, travel=4.0, stop_fingers=2)
    # The fingers whose planes cut the sphere (docs/synergies.md: f3 and f4 at z = +-25 mm).
    assert r.stopped_by_contact and sorted(r.fingers) == ["f3", "f4"]
    assert -1e-3 < r.deepest < 0  # touching, within MuJoCo's default 1 mm solimp width
    # The torque of the last step, recomputed here: K_q (q_start + S z - q) - D qdot, q_start = 0 (the open hand).
    # It was written from the state before the last mj_step; d holds the state after it, so the step's change of
    # the law is the bound.
    dofs = [m.jnt_dofadr[m.joint(j).id] for j in s.joints]
    adr = [m.jnt_qposadr[m.joint(j).id] for j in s.joints]
    tau = kq * (s.S @ r.z - d.qpos[adr]) - kd * d.qvel[dofs]
    # One step moves q by h qdot and qdot by h qacc: |dtau| <= kq h |qdot| + kd h |qacc|.
    bound = kq * m.opt.timestep * np.abs(d.qvel[dofs]) + kd * m.opt.timestep * np.abs(d.qacc[dofs]) + 1e-12
    assert np.all(np.abs(d.qfrc_applied[dofs] - tau) <= bound)
