"""SynGrasp's compliant wrist, SGslide, the compliant force ellipsoid, the PGR heuristics and a model's synergies on
J_H's columns from Python, each against its definition computed here in NumPy (docs/stiffness.md, "A compliant
wrist"; docs/grasp-analysis.md)."""
import itertools
import math

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model


@pytest.fixture(scope="module")
def held(settled):
    m, d = settled
    return mjhand.grasp(m, d, object="ball")


ROWS = {mjhand.ContactModel.FRICTIONLESS_POINT: 1, mjhand.ContactModel.HARD_FINGER: 3,
        mjhand.ContactModel.SOFT_FINGER: 4, mjhand.ContactModel.COMPLETE_CONSTRAINT: 6}


def skew(r):
    return np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])


def test_wrist_jacobian_is_the_rigid_twist_of_every_contact_point(held):
    """J_w rows: the contact-frame velocity of each contact point when the hand moves rigidly with twist (v, w) of
    the wrist point: R_i^T (v + w x (p_i - p_w)); the first 3 rows of each contact are its translation."""
    p_w = np.array([0.01, -0.02, 0.05])
    Jw = mjhand.wrist_jacobian(held.contacts, p_w)
    assert Jw.shape == (sum(ROWS[c.model] for c in held.contacts), 6)
    at = 0
    for c, R, p in zip(held.contacts, held.frames, held.positions):
        expect = R.T @ np.hstack([np.eye(3), -skew(p - p_w)])
        rows = min(ROWS[c.model], 3)
        np.testing.assert_allclose(Jw[at:at + rows], expect[:rows], atol=1e-15, rtol=0)  # one product: rounding
        at += ROWS[c.model]


def test_wrist_stiffness_forms():
    np.testing.assert_array_equal(mjhand.wrist_stiffness(400.0, 20.0), np.diag([400.0] * 3 + [20.0] * 3))
    k = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    np.testing.assert_array_equal(mjhand.wrist_stiffness(k), np.diag(k))
    with pytest.raises(ValueError):
        mjhand.wrist_stiffness([1.0, 2.0])  # 6 entries, or (translation, rotation)


def test_wrist_maps_solve_the_extended_model_equations(held):
    """With a wrist: dlambda = Kc (J dq + J_w dx_w - G^T du), J^T dlambda = -Kq dq, J_w^T dlambda = -Kw dx_w,
    G dlambda = -dw (references fixed), one linear system; the maps' dq carries (dq, dx_w)."""
    G, J = held.G, held.J_H
    m, n = J.shape
    Jw = mjhand.wrist_jacobian(held.contacts, held.reference + np.array([0.0, 0.0, -0.08]))
    Kc = mjhand.contact_stiffness(held.contacts, 800.0)
    Kq = mjhand.joint_stiffness(3.0, n)
    Kw = mjhand.wrist_stiffness(400.0, 20.0)
    dw = np.array([0.02, -0.01, 0.03, 1e-4, -2e-4, 5e-5])
    s = mjhand.quasistatic_solution(mjhand.wrist_quasistatic_maps(G, J, Jw, Kc, Kq, Kw), dw)
    N = 6 + m + n + 6  # unknowns (du, dlambda, dq, dx_w)
    A = np.zeros((N, N))
    A[:m, :6], A[:m, 6:6 + m], A[:m, 6 + m:6 + m + n], A[:m, 6 + m + n:] = Kc @ G.T, np.eye(m), -Kc @ J, -Kc @ Jw
    A[m:m + n, 6:6 + m], A[m:m + n, 6 + m:6 + m + n] = J.T, Kq
    A[m + n:m + n + 6, 6:6 + m], A[m + n:m + n + 6, 6 + m + n:] = Jw.T, Kw
    A[m + n + 6:, 6:6 + m] = G
    x = np.linalg.solve(A, np.concatenate([np.zeros(m + n + 6), -dw]))
    # rounding x the system's condition (~1e6: stiffnesses 1e3 against lever arms 1e-2)
    np.testing.assert_allclose(s.du, x[:6], atol=1e-9 * np.abs(x[:6]).max(), rtol=0)
    np.testing.assert_allclose(s.dlambda, x[6:6 + m], atol=1e-9 * np.abs(x[6:6 + m]).max(), rtol=0)
    np.testing.assert_allclose(s.dq[:n], x[6 + m:6 + m + n], atol=1e-9 * np.abs(x[6 + m:]).max(), rtol=0)
    np.testing.assert_allclose(s.dq[n:], x[6 + m + n:], atol=1e-9 * np.abs(x[6 + m:]).max(), rtol=0)
    # A softer wrist lets the object move more under the same wrench.
    stiff = mjhand.quasistatic_solution(mjhand.quasistatic_maps(G, J, Kc, Kq), dw)
    assert np.linalg.norm(s.du[:3]) > np.linalg.norm(stiff.du[:3])


def test_slide_solves_syngrasps_system(held):
    """SGslide: (J_ext^T Kc J_ext + Kq_ext) dq_ext = Kq_ext dq_r_ext against a fixed object, dlambda = Kc J_ext dq_ext."""
    J = held.J_H
    m, n = J.shape
    Jw = mjhand.wrist_jacobian(held.contacts, held.reference)
    Kc = mjhand.contact_stiffness(held.contacts, 800.0)
    Kq = mjhand.joint_stiffness(3.0, n)
    Kw = mjhand.wrist_stiffness(400.0, 20.0)
    rng = np.random.default_rng(3)
    dq_r, dx_r = 1e-3 * rng.standard_normal(n), 1e-3 * rng.standard_normal(6)
    s = mjhand.slide_displacements(J, Jw, Kc, Kq, Kw, dq_r, dx_r)
    Jext = np.hstack([J, Jw])
    Kext = np.block([[Kq, np.zeros((n, 6))], [np.zeros((6, n)), Kw]])
    dq_ext = np.linalg.solve(Jext.T @ Kc @ Jext + Kext, Kext @ np.concatenate([dq_r, dx_r]))
    scale = np.abs(dq_ext).max()
    np.testing.assert_allclose(s.dq, dq_ext[:n], atol=1e-9 * scale, rtol=0)  # two factorisations: rounding x cond
    np.testing.assert_allclose(s.dx_w, dq_ext[n:], atol=1e-9 * scale, rtol=0)
    dl = Kc @ Jext @ dq_ext
    np.testing.assert_allclose(s.dlambda, dl, atol=1e-9 * np.abs(dl).max(), rtol=0)
    np.testing.assert_allclose(s.dwrench, Jw.T @ s.dlambda, atol=1e-12 * np.abs(dl).max(), rtol=0)
    zero = mjhand.slide_displacements(J, Jw, Kc, Kq, Kw)  # no reference change: nothing moves
    assert np.abs(zero.dq).max() == 0 and np.abs(zero.dlambda).max() == 0


def test_compliant_force_ellipsoid_equals_the_rigid_one(held):
    """docs/grasp-analysis.md proves SynGrasp's compliant force ellipsoid independent of the stiffness; check it."""
    G, J = held.G, held.J_H
    n = J.shape[1]
    rigid = mjhand.force_manipulability(G, J)
    for kc, kq in ((800.0, 3.0), (50.0, 0.2)):
        maps = mjhand.quasistatic_maps(G, J, mjhand.contact_stiffness(held.contacts, kc), mjhand.joint_stiffness(kq, n))
        e = mjhand.compliant_force_manipulability(maps)
        a, b = e.full.semi_axes, rigid.full.semi_axes
        assert np.array_equal(np.isinf(a), np.isinf(b))
        fin = np.isfinite(b)
        np.testing.assert_allclose(a[fin], b[fin], atol=1e-9 * b[fin].max(), rtol=0)  # two eigen-solutions: rounding


def three_finger_pinch():
    r, mu = 0.03, 0.5
    pts = [r * np.array([np.cos(a), np.sin(a), 0.0]) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
    contacts = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, mu) for p in pts]
    G = mjhand.grasp_matrix(contacts, np.zeros(3))
    J = np.eye(9)  # each contact point moved by three joints of its own
    return contacts, G, J, mjhand.contact_stiffness(contacts, 1000.0), mjhand.joint_stiffness(1.0, 9)


def test_pgr_heuristic_lists_and_the_brute_force():
    contacts, G, J, Kc, Kq = three_finger_pinch()
    every = [list(c) for c in itertools.product((0, 1, 2), repeat=3)]
    brute = mjhand.potential_grasp_robustness(contacts, G, J, Kc, Kq)
    over = mjhand.pgr_over_combinations(contacts, G, J, Kc, Kq, every)
    assert over.pgr == brute.pgr and over.best == brute.best  # the same 27 combinations, the same evaluations
    for s in range(4):  # SG_PGRh2: C(n, s) lists, s sticking and the rest detached
        h2 = mjhand.pgr_h2_combinations(5, s)
        assert len(h2) == math.comb(5, s) and len({tuple(c) for c in h2}) == len(h2)
        assert all(c.count(0) == s and c.count(2) == 5 - s for c in h2)
    h3 = mjhand.pgr_h3_combinations(5, 2)  # s sticking, each other sliding or detached
    assert len(h3) == math.comb(5, 2) * 2 ** 3 and all(c.count(0) == 2 for c in h3)
    h4 = mjhand.pgr_h4_combinations(6)
    assert len(h4) == math.comb(6, 2) * (math.comb(4, 2) + math.comb(4, 3))
    assert all(c.count(0) == 2 and c.count(1) in (2, 3) for c in h4)
    with pytest.raises(ValueError, match="combinations\\[0\\]"):
        mjhand.pgr_over_combinations(contacts, G, J, Kc, Kq, [[0, 0, 3]])


def test_synergy_matrix_on_the_hand_dofs():
    """The direct-drive synergy scene's S (from its CSV) on J_H's columns: each synergy joint's row at its dof."""
    m = mujoco.MjModel.from_xml_path(model("direct_drive_synergy_grasp.xml"))
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, m.key("hold").id)
    mujoco.mj_forward(m, d)
    s = mjhand.read_synergies(model("synergies/direct_drive_hand.csv"))
    hand = mjhand.hand(m, "ball")
    S = mjhand.synergy_matrix_on_dofs(m, s, hand.dofs)
    assert S.shape == (len(hand.dofs), s.S.shape[1])
    row_of = {m.joint(name).dofadr[0]: i for i, name in enumerate(s.joints)}
    for r, dof in enumerate(hand.dofs):
        expect = s.S[row_of[dof]] if dof in row_of else np.zeros(s.S.shape[1])
        np.testing.assert_array_equal(S[r], expect)
    with pytest.raises(ValueError, match="no dof of the model"):
        mjhand.synergy_matrix_on_dofs(m, s, [m.nv])
