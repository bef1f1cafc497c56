"""Kinematics bindings: a generated model's chains against MuJoCo's site poses and mj_jacSite, DH FK against a
NumPy product of the printed DH matrices, IK round trips, singularity measures against NumPy's SVD."""
import mujoco
import numpy as np
import pytest

import mjhand
from conftest import model


def dh_standard(a, alpha, d, theta):
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st], [0, sa, ca, d], [0, 0, 0, 1]])


def test_fk_equals_the_printed_dh_product():
    dh = np.array([[0.02, np.pi / 2, 0, 0], [0.045, 0, 0, 0], [0.03, 0, 0, 0]])  # the e_GRASP finger (Table 1)
    chain = mjhand.Chain(dh, name="f")
    q = np.array([0.3, -0.4, 0.7])
    T = np.eye(4)
    for row, qi in zip(dh, q):
        T = T @ dh_standard(row[0], row[1], row[2], row[3] + qi)
    # three 4x4 products of O(1) entries (positions O(0.1 m)): rounding ~1e-16 each
    np.testing.assert_allclose(chain.forward_kinematics(q), T, rtol=0, atol=1e-15)
    assert len(chain.frames(q)) == 4
    # the e_GRASP helper builds the same chain
    np.testing.assert_allclose(mjhand.egrasp_chain(mjhand.EGraspFinger()).dh, dh)


def test_model_chains_against_mujoco_sites_and_mj_jacSite():
    m = mujoco.MjModel.from_xml_path(model("egrasp_hand.xml"))
    d = mujoco.MjData(m)
    rng = np.random.default_rng(7)
    with pytest.raises(ValueError, match="has no pose yet"):
        mjhand.model_chains(m, d)  # a fresh MjData has no body poses: refused, not zero bases
    chains = mjhand.model_chains(m)  # the palm is fixed: bases from model constants
    assert len(chains) == 4
    assert all(mc.dh is not None and mc.dh.dof == mc.dof for mc in chains)
    assert mjhand.tree_chain(m, "f1_link1", "f1_tip").dh is None  # a chain read from the tree carries no table
    for trial in range(5):
        for mc in chains:
            for j, adr in zip(mc.joint_ids, mc.qpos_adr):
                lo, hi = m.jnt_range[j]
                d.qpos[adr] = rng.uniform(lo, hi)
        mujoco.mj_forward(m, d)
        for mc in mjhand.model_chains(m, d):
            q = d.qpos[mc.qpos_adr]
            T = mc.dh.forward_kinematics(q)  # the embedded DH table
            np.testing.assert_array_equal(mc.forward_kinematics(q), T)  # its serial form: bit for bit
            # DH FK vs MuJoCo's quaternion FK of the same shortest-round-trip numbers: rounding (~1e-16); 1e-12 is loose
            np.testing.assert_allclose(T[:3, 3], d.site_xpos[mc.tip_site], rtol=0, atol=1e-12)
            np.testing.assert_allclose(T[:3, :3], d.site_xmat[mc.tip_site].reshape(3, 3), rtol=0, atol=1e-12)
            jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
            mujoco.mj_jacSite(m, d, jacp, jacr, mc.tip_site)
            J = mc.dh.jacobian(q)
            np.testing.assert_array_equal(mc.jacobian(q), J)
            np.testing.assert_allclose(J[:3], jacp[:, mc.dof_adr], rtol=0, atol=1e-12)
            np.testing.assert_allclose(J[3:], jacr[:, mc.dof_adr], rtol=0, atol=1e-12)


def test_ik_round_trip_and_closed_form():
    f = mjhand.EGraspFinger()
    chain = mjhand.egrasp_chain(f)
    q_true = np.array([0.2, 0.3, -0.25])
    target = chain.forward_kinematics(q_true)
    q, res = chain.ik_position(target[:3, 3], np.zeros(3))
    # the solver's tolerance 1e-10 m (the ik_position default); the FK check repeats it
    assert res.converged and res.position_error < 1e-10
    np.testing.assert_allclose(chain.forward_kinematics(q)[:3, 3], target[:3, 3], atol=1e-10, rtol=0)
    q, res = chain.ik_pose(target, np.zeros(3))
    assert res.converged
    # weighted error < 1e-10 (orientation_weight 0.05 m/rad): < 2e-9 rad of rotation, ~3e-9 rad on 0.03-m links
    np.testing.assert_allclose(q, q_true, atol=1e-8, rtol=0)  # the pose fixes q for this finger (Mattar eqs 6-11)
    status, sols = mjhand.egrasp_ik_position(f, target[:3, 3])
    assert status == "ok", status
    # a branch match only: acos near a straight finger keeps ~1e-8 rad; allclose's default rtol 1e-5 adds to atol
    assert any(np.allclose(s, q_true, atol=1e-9, rtol=0) for s, within in sols)
    # closed form (eqs 12-13) away from the straight finger: atan2/acos rounding on 0.1-m tips (~1e-16 m)
    for s, _ in sols:
        np.testing.assert_allclose(chain.forward_kinematics(s)[:3, 3], target[:3, 3], atol=1e-12, rtol=0)


def test_singularity_measures_against_numpy():
    chain = mjhand.egrasp_chain(mjhand.EGraspFinger())
    for q in ([0.1, 0.5, 0.4], [0.0, 0.0, 0.0]):  # the second: fully stretched, singular in position
        J = chain.jacobian(np.array(q))[:3]
        s = np.linalg.svd(J, compute_uv=False)
        meas = mjhand.singularity_measures(J)
        # SVD of a 3x3 by Eigen and by LAPACK: each backward stable, errors ~ eps * sigma_max
        assert meas.sigma_max == pytest.approx(s[0], rel=1e-12)
        # sigma_min's absolute error is ~ eps * sigma_max (~1e-17 for a 0.1-m Jacobian): abs covers the singular q = 0
        assert meas.sigma_min == pytest.approx(s[-1], rel=1e-9, abs=1e-15)
        # the product inherits sigma_min's absolute error times sigma_max^2 (< 0.01): abs 1e-18
        assert meas.manipulability == pytest.approx(np.prod(s), rel=1e-9, abs=1e-18)
        assert meas.rank == np.linalg.matrix_rank(J)


def test_coupling_fit_against_numpy_polyfit():
    rng = np.random.default_rng(3)
    x = np.linspace(0.0, 1.2, 40)
    y = 0.1 + 0.8 * x - 0.15 * x ** 2 + rng.normal(0, 1e-3, x.size)
    fit = mjhand.fit_polynomial(x.tolist(), y.tolist(), 2)
    # centred-and-scaled QR vs NumPy's lstsq of a degree-2 Vandermonde on [0, 1.2] (condition ~1e2): rounding ~1e-14
    np.testing.assert_allclose(fit.coefficients, np.polyfit(x, y, 2)[::-1], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fit.residual, y - np.polyval(np.polyfit(x, y, 2), x), atol=1e-12, rtol=0)
    assert fit(0.5) == pytest.approx(np.polyval(np.polyfit(x, y, 2), 0.5), abs=1e-12)
