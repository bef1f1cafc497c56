"""Grasp bindings cross-checked against the C++ CLI (`python -m mjhand analyze --json`, mjhand's own report path) and
against MuJoCo's functions (mj_jac, mj_contactForce) computed here in NumPy."""
import mujoco
import numpy as np
import pytest

import mjhand


def test_same_state_as_the_cli(settled, report):
    m, d = settled
    assert d.time == pytest.approx(report["state"]["time_s"], abs=0)
    np.testing.assert_array_equal(mjhand.object_center(m, d, mjhand.hand(m, "ball")), report["object"]["center_m"])


def test_contacts_G_JH_equal_the_cli(settled, report):
    m, d = settled
    g = mjhand.grasp(m, d, object="ball")
    assert [f["name"] for f in report["hand"]["fingers"]] == g.hand.finger_names
    assert len(g.contacts) == len(report["contacts"])
    for c, r in zip(g.contacts, report["contacts"]):
        assert c.mj_contact == r["mj_index"] and c.rows == r["rows"]
        np.testing.assert_array_equal(c.pos, r["point_m"])
        np.testing.assert_array_equal(c.frame, np.column_stack([r["n"], r["t"], r["o"]]))
    # The same C++ functions on the same state: equal to the last bit (JSON carries shortest round-trip doubles).
    np.testing.assert_array_equal(g.G, np.array(report["G"]))
    np.testing.assert_array_equal(g.J_H, np.array(report["JH"]))
    np.testing.assert_array_equal(g.contact_forces(), np.concatenate([r["force_mujoco"] for r in report["contacts"]]))


def test_measures_equal_the_cli(settled, report):
    m, d = settled
    g = mjhand.grasp(m, d, object="ball")
    q, rq = g.quality(), report["quality"]
    for key in ("rank_G", "sigma_min_G", "sigma_max_G", "isotropy_G", "sigma_min_HO", "ellipsoid_volume_HO",
                "manipulability_JH"):
        assert getattr(q, key) == rq[key], key
    mob = g.mobility(report["mobility"]["actuated"])
    for key, value in report["mobility"].items():
        assert getattr(mob, key) == value, key
    eps = g.epsilon("L1")
    assert eps.force_closure and eps.epsilon == report["epsilon"]["L1"]["epsilon"]
    assert eps.facets == report["epsilon"]["L1"]["facets"]
    assert g.force_closure() == report["force_closure"]
    opt = g.optimal_forces(report["gravity_wrench"])
    assert opt.ok
    np.testing.assert_array_equal(opt.lambda_, report["optimal_forces"]["lambda"])
    np.testing.assert_array_equal(mjhand.joint_torques(g.J_H, opt.lambda_), report["optimal_forces"]["joint_torques"])
    pv = g.parallel()
    np.testing.assert_array_equal(pv.J_p, report["parallel"]["Jp"])
    np.testing.assert_array_equal(pv.J_Theta, report["parallel"]["JTheta"])


def test_linf_epsilon_bounds_as_the_cli(settled, report):
    """Grasp.epsilon('Linf') has analyze's point budget (the scene's four soft fingers need 83521 points: refused, as
    in the report) and time limit (with the budget raised, the ~30 s hull is stopped at time_limit)."""
    m, d = settled
    g = mjhand.grasp(m, d, object="ball")
    refused = g.epsilon("Linf")
    assert refused.status == mjhand.EpsilonStatus.TOO_MANY_POINTS
    assert report["epsilon"]["Linf"]["status"] == "too_many_points"
    assert "needs 83521 Minkowski-sum points" in refused.message
    stopped = g.epsilon("Linf", max_points=100000, time_limit=0.2)
    assert stopped.status == mjhand.EpsilonStatus.TIME_LIMIT and stopped.points == 83521 and stopped.epsilon == 0


def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def test_G_from_its_definition(settled):
    """G_i = [R_i 0; (c_i - p)^x R_i  R_i] H_i^T, built here in NumPy from the contact frames (Borras & Dollar)."""
    m, d = settled
    g = mjhand.grasp(m, d, object="ball")
    p = g.reference
    cols = []
    for c in g.contacts:
        R = c.frame
        full = np.block([[R, np.zeros((3, 3))], [skew(c.pos - p) @ R, R]])
        cols.append(full[:, :c.rows])  # hard finger: f_n, f_t, f_o; soft adds m_n (column 4 = torsion about n)
    # entries O(1) (R) and O(0.03) ((c - p)^x R): rounding of 3x3 products, ~1e-16
    np.testing.assert_allclose(g.G, np.hstack(cols), rtol=0, atol=1e-14)


def test_JH_against_mj_jac(settled):
    """Row block i = H_i [R_i^T jacp(c_i); R_i^T jacr] with MuJoCo's own mj_jac of the contact point on its link."""
    m, d = settled
    g = mjhand.grasp(m, d, object="ball")
    dofs = np.array(g.hand.dofs)
    rows = []
    for c in g.contacts:
        jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
        mujoco.mj_jac(m, d, jacp, jacr, c.pos, c.hand_body)
        local = np.vstack([c.frame.T @ jacp, c.frame.T @ jacr])[:, dofs]
        rows.append(local[:c.rows])
    # R^T jac with lever arms < 0.1 m: rounding ~1e-17; MuJoCo's mj_jac is what the C++ calls too
    np.testing.assert_allclose(g.J_H, np.vstack(rows), rtol=0, atol=1e-15)


def test_contact_forces_against_mj_contactForce(settled):
    """lambda_i = force of the finger on the ball rotated into [n t o], from mj_contactForce (geom order sign)."""
    m, d = settled
    g = mjhand.grasp(m, d, object="ball", tangent="mujoco")
    lam = g.contact_forces()
    k = 0
    for c in g.contacts:
        f6 = np.zeros(6)
        mujoco.mj_contactForce(m, d, c.mj_contact, f6)
        con = d.contact[c.mj_contact]
        frame = con.frame.reshape(3, 3)  # rows: MuJoCo's normal (geom1 -> geom2) and tangents
        sign = 1.0 if m.geom_bodyid[con.geom[1]] == g.hand.object_body else -1.0  # force on geom2 by geom1
        force_world = sign * frame.T @ f6[:3]
        torque_world = sign * frame.T @ f6[3:]
        expect = np.concatenate([c.frame.T @ force_world, [c.frame[:, 0] @ torque_world]])[:c.rows]
        # forces <= 3.5 N rotated by two 3x3 frames in another order: rounding ~ eps x 3.5 x few = 1e-15
        np.testing.assert_allclose(lam[k:k + c.rows], expect, rtol=0, atol=1e-12)
        k += c.rows
    # and the sum balances what the grasp sensor plugin reports as normal force
    assert k == lam.size


def test_grasp_analysis_is_zero_copy_and_matches(settled):
    m, d = settled
    h = mjhand.hand(m, "ball")
    ga = mjhand.GraspAnalysis(m, h)
    assert ga.compute(d) == 4
    G = ga.G
    g = mjhand.grasp(m, d, object="ball")
    np.testing.assert_array_equal(G, g.G)
    np.testing.assert_array_equal(ga.J_H, g.J_H)
    assert ga.sigma_min == g.sigma_min()
    assert not G.flags.writeable and not G.flags.owndata  # a view of the analysis' own storage
    # the view follows the storage: after compute on a later state the same array shows the new G
    before = G.copy()
    d3 = mujoco.MjData(m)
    mujoco.mj_copyData(d3, m, d)
    for _ in range(20):
        mujoco.mj_step(m, d3)
    mujoco.mj_forward(m, d3)
    assert ga.compute(d3) == 4
    np.testing.assert_array_equal(G, ga.G)
    assert not np.array_equal(G, before)
    np.testing.assert_array_equal(G, mjhand.grasp(m, d3, object="ball").G)
    # and a state without contacts gives empty matrices, not stale ones
    d2 = mujoco.MjData(m)
    mujoco.mj_forward(m, d2)
    assert ga.compute(d2) == 0 and ga.G.shape == (6, 0) and ga.J_H.shape == (0, h.num_hand_dofs)


def test_analytic_contacts_without_mujoco():
    """Three hard contacts 120 deg apart on a sphere: frictionless points cannot close, friction 0.5 does (SynGrasp)."""
    r = 0.03
    pts = [r * np.array([np.cos(a), np.sin(a), 0.0]) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
    hard = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, 0.5) for p in pts]
    G = mjhand.grasp_matrix(hard, np.zeros(3))
    assert G.shape == (6, 9)
    assert mjhand.is_force_closure(hard, np.zeros(3))
    points = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.FRICTIONLESS_POINT) for p in pts]
    assert not mjhand.is_force_closure(points, np.zeros(3))
    # internal forces: null(G) of the hard grasp has dimension m - rank G = 9 - 6 = 3
    E = mjhand.internal_force_basis(G)
    assert E.shape == (9, 3)
    # SVD null space of a G with entries <= 1: G E ~ eps ||G|| (~2e-16)
    np.testing.assert_allclose(G @ E, 0, atol=1e-15, rtol=0)
