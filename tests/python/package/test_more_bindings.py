"""The remaining bindings, each against the CLI's C++ result for the same state or an independent NumPy computation."""
import os
import subprocess
import sys

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import SOURCE, model



@pytest.fixture(scope="module")
def grasp(settled):
    m, d = settled
    return mjhand.grasp(m, d, object="ball")


def test_min_norm_forces_equal_the_cli(grasp, report):
    r = mjhand.min_norm_forces(grasp.contacts, grasp.G, report["gravity_wrench"])
    np.testing.assert_array_equal(r.lambda_, report["min_norm_forces"]["lambda"])
    assert r.balances == report["min_norm_forces"]["balances"] and r.in_cones == report["min_norm_forces"]["in_cones"]
    # the 0.49-N weight balanced by lambda = -G^+ W, cond(G) ~ 5 here: rounding ~ eps cond |W| (~1e-16)
    np.testing.assert_allclose(grasp.G @ r.lambda_, -np.array(report["gravity_wrench"]), atol=1e-14, rtol=0)


def test_statics_against_numpy(grasp):
    G, JH = grasp.G, grasp.J_H
    lam = np.linspace(0.1, 1.6, G.shape[1])
    # 16 products of O(1) G entries and lambda <= 1.6: rounding <= 16 eps 1.6 = 6e-15
    np.testing.assert_allclose(mjhand.balanced_wrench(G, lam), -G @ lam, rtol=0, atol=1e-14)
    # each torque sums the 4 rows of its finger's contact (entries <= 0.85, lambda <= 1.6): rounding ~1e-15
    np.testing.assert_allclose(mjhand.joint_torques(JH, lam), JH.T @ lam, rtol=0, atol=1e-15)
    # two SVDs: ~ eps cond(G) |G^+| = 1e-16 x 5 x 1.7 (measured 1e-15); 1e-12 is loose
    np.testing.assert_allclose(mjhand.pseudo_inverse(G), np.linalg.pinv(G), rtol=0, atol=1e-12)
    # sqrt of the eigenvalues of G G^T: relative error ~ eps cond(G)^2 (3e-15 here); 1e-7 holds for cond up to ~3e4
    np.testing.assert_allclose(mjhand.grasp_singular_values(G), np.linalg.svd(G, compute_uv=False), rtol=1e-7)
    # E = orthonormal basis of range(P_N J_H), P_N = I - G^+ G (SynGrasp's controllable internal forces)
    E = mjhand.controllable_internal_force_basis(G, JH)
    PN = np.eye(G.shape[1]) - np.linalg.pinv(G) @ G
    A = PN @ JH
    # orthonormal bases by SVD of 16-column matrices with O(1) entries: rounding ~ 16 eps (measured <= 3e-15)
    np.testing.assert_allclose(E.T @ E, np.eye(E.shape[1]), atol=1e-12, rtol=0)
    assert E.shape[1] == np.linalg.matrix_rank(A)
    np.testing.assert_allclose(G @ E, 0, atol=1e-12, rtol=0)
    np.testing.assert_allclose(E @ (E.T @ A), A, atol=1e-12, rtol=0)  # spans range(A)


def test_selection_matrix_and_cone_margin(grasp):
    H = mjhand.selection_matrix(grasp.contacts)
    rows = [c.rows for c in grasp.contacts]
    assert H.shape == (sum(rows), 6 * len(rows))
    k = 0
    for i, r in enumerate(rows):
        np.testing.assert_array_equal(H[k:k + r, 6 * i:6 * i + 6], np.eye(6)[[0, 1, 2, 3][:r]])
        k += r
    c = grasp.contacts[0]
    lam = np.array([2.0, 0.3, -0.4, 0.001])[:c.rows]
    expect = min(lam[0], c.mu * lam[0] - np.hypot(lam[1], lam[2]), lam[0] - abs(lam[3]) / c.mu_torsion)
    # the same three-term min in C++: rounding of a few operations on O(1) values
    assert mjhand.friction_cone_margin(c, lam) == pytest.approx(expect, rel=1e-14)


def test_object_twist_from_the_free_joint(grasp):
    m, d, h = grasp.model, grasp.data, grasp.hand
    p = grasp.reference
    T = mjhand.object_twist(m, d, h, p)
    adr = m.jnt_dofadr[m.body_jntadr[h.object_body]]
    R = d.xmat[h.object_body].reshape(3, 3)
    w = R @ d.qvel[adr + 3:adr + 6]  # MuJoCo keeps a free joint's angular velocity in the body frame
    v_origin = d.qvel[adr:adr + 3]   # ... and the linear velocity of the body origin in the world frame
    v_p = v_origin + np.cross(w, p - d.xpos[h.object_body])
    # 3x3 rotations and a cross product of velocities < 0.1 m/s: rounding ~1e-17
    np.testing.assert_allclose(T, np.concatenate([v_p, w]), rtol=0, atol=1e-14)


def test_parallel_twist_to_joint_rates(grasp):
    pv = grasp.parallel()
    # pseudo-inverses by Eigen's and LAPACK's SVD: ~ eps cond(J_Theta) (82 here: 2e-14 relative); 1e-9 is loose
    np.testing.assert_allclose(mjhand.twist_to_joint_rates(pv.J_p, pv.J_Theta), np.linalg.pinv(pv.J_Theta) @ pv.J_p,
                               rtol=0, atol=1e-9 * np.abs(np.linalg.pinv(pv.J_Theta) @ pv.J_p).max())
    # identical in exact arithmetic: rounding ~ eps cond(J_H) (82), measured 1.6e-15
    assert pv.relative_residual < 1e-12  # section 2.3's equivalence J_Theta^+ J_p S = J_H^+ G^T


def test_linf_epsilon_with_the_qhull_reference():
    """Three hard contacts on a sphere: L-inf epsilon by the fast path and by qhull agree; L-inf >= L1 (its GWS
    contains L1's)."""
    r = 0.03
    pts = [r * np.array([np.cos(a), np.sin(a), 0.2]) for a in (0.1, 2.2, 4.3)]
    cs = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, 0.6) for p in pts]
    ref = np.zeros(3)
    linf = mjhand.ferrari_canny(cs, ref, mjhand.WrenchNorm.LINF)
    linf_q = mjhand.ferrari_canny(cs, ref, mjhand.WrenchNorm.LINF, qhull=True)
    l1 = mjhand.ferrari_canny(cs, ref, mjhand.WrenchNorm.L1)
    assert linf.force_closure and l1.force_closure
    # docs/grasp-analysis.md: fast hull and qhull agree to 1.4e-12 max|w| (L1), 1e-13 (L-inf); 1e-9 as per grasp there
    assert linf.epsilon == pytest.approx(linf_q.epsilon, rel=1e-9)
    assert linf.epsilon >= l1.epsilon


def test_fit_coupling_csv_equals_the_cli(tmp_path):
    data = os.path.join(SOURCE, "tests", "data", "berul_thumb_capture.csv")
    fit = mjhand.fit_coupling_csv(data, "joint_1", "joint_2", 1, degrees=True, supplement=True)
    r = subprocess.run([sys.executable, "-m", "mjhand", "fit-coupling", data, "--x", "joint_1", "--y", "joint_2",
                        "--deg", "--supplement"], capture_output=True, text=True, timeout=60, check=True)
    import re
    printed = re.search(r"coefficients \[rad\]: c0=(\S+) c1=(\S+)", r.stdout)
    assert printed, r.stdout
    np.testing.assert_allclose(fit.coefficients, [float(printed[1]), float(printed[2])], rtol=1e-9)  # 10 digits
    assert fit.points == 41
    # and the coefficients are NumPy's least squares on the same converted data
    with open(data) as f:
        lines = [l.strip().split(",") for l in f if l.strip() and not l.startswith("#")]
    header, rows = lines[0], np.array(lines[1:], dtype=float)
    x = np.deg2rad(180.0 - rows[:, header.index("joint_1")])  # BERUL eq 1: theta = 180 deg - captured
    y = np.deg2rad(180.0 - rows[:, header.index("joint_2")])
    # 41 points, a straight line: QR vs NumPy's lstsq, rounding ~ eps x cond (< 10)
    np.testing.assert_allclose(fit.coefficients, np.polyfit(x, y, 1)[::-1], rtol=1e-10, atol=1e-12)


def test_build_scene_equals_make_scene(tmp_path):
    src = model(os.path.join("scenarios", "power_sphere.yaml"))
    out = tmp_path / "s.xml"
    subprocess.run([sys.executable, "-m", "mjhand", "make-scene", src, "-o", str(out)], check=True, timeout=120,
                   capture_output=True)
    with open(src) as f:
        xml = mjhand.build_scene_xml(f.read(), src, os.path.dirname(src))
    assert xml == out.read_text()


def test_linf_epsilon_has_the_point_budget_of_analyze():
    """Four soft contacts: L-inf enumerates (16 + 1)^4 = 83521 points. The default budget (LINF_MAX_POINTS, 10000,
    as `mjhand analyze`) refuses at once instead of taking seconds; an explicit budget computes."""
    assert mjhand.LINF_MAX_POINTS == 10000
    r = 0.03
    pts = [r * np.array([np.cos(a), np.sin(a), z]) for a, z in ((0.1, 0.2), (1.7, -0.3), (3.3, 0.25), (4.9, -0.2))]
    cs = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.SOFT_FINGER, 0.6, 0.01) for p in pts]
    refused = mjhand.ferrari_canny(cs, np.zeros(3), mjhand.WrenchNorm.LINF)
    assert refused.status == mjhand.EpsilonStatus.TOO_MANY_POINTS and refused.epsilon == 0
    hard = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, 0.6) for p in pts]
    within = mjhand.ferrari_canny(hard, np.zeros(3), mjhand.WrenchNorm.LINF)  # (8 + 1)^4 = 6561 points
    assert within.status == mjhand.EpsilonStatus.FORCE_CLOSURE and within.epsilon > 0


def test_linf_epsilon_has_the_time_limit_of_analyze():
    """Past time_limit seconds the hull is stopped and nothing is computed (default LINF_TIME_LIMIT = 10 s, as
    `mjhand analyze --linf-time-limit`): four soft contacts with the budget raised take ~30 s unlimited."""
    assert mjhand.LINF_TIME_LIMIT == 10.0
    r = 0.03
    pts = [r * np.array([np.cos(a), np.sin(a), z]) for a, z in ((0.1, 0.2), (1.7, -0.3), (3.3, 0.25), (4.9, -0.2))]
    cs = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.SOFT_FINGER, 0.6, 0.01) for p in pts]
    import time
    t = time.perf_counter()
    stopped = mjhand.ferrari_canny(cs, np.zeros(3), mjhand.WrenchNorm.LINF, max_points=100000, time_limit=0.3)
    assert time.perf_counter() - t < 10  # stopped, not after the ~30 s of the whole hull
    assert stopped.status == mjhand.EpsilonStatus.TIME_LIMIT and stopped.epsilon == 0 and stopped.facets == 0
    assert "time limit (0.3 s" in stopped.message
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="time_limit must be a finite number of seconds >= 0"):
            mjhand.ferrari_canny(cs, np.zeros(3), mjhand.WrenchNorm.LINF, time_limit=bad)


def test_stiffness_and_friction_functions_the_docs_list():
    """docs/syngrasp.md and docs/stiffness.md name contact_compliance, synergy_stiffness and in_friction_cones: bound,
    and consistent with their neighbours; their messages speak Python (None, not kRigid)."""
    r = 0.03
    pts = [r * np.array([np.cos(a), np.sin(a), 0.2]) for a in (0.1, 2.2, 4.3)]
    cs = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, 0.6) for p in pts]
    rng = np.random.default_rng(1)
    JH = rng.normal(size=(9, 6))
    Kc, Kq = mjhand.contact_stiffness(cs, 1000.0), mjhand.joint_stiffness(50.0, 6)
    C = mjhand.contact_compliance(JH, Kc, Kq)
    np.testing.assert_allclose(C, np.linalg.inv(Kc) + JH @ np.linalg.inv(Kq) @ JH.T, rtol=1e-12)
    np.testing.assert_allclose(np.linalg.inv(C), mjhand.equivalent_contact_stiffness(JH, Kc, Kq), rtol=1e-9)
    np.testing.assert_array_equal(mjhand.synergy_stiffness(3, 2.5), 2.5 * np.eye(3))
    with pytest.raises(ValueError, match="nz must be >= 1"):
        mjhand.synergy_stiffness(0, 1.0)
    G = mjhand.grasp_matrix(cs, np.zeros(3))
    opt = mjhand.optimal_forces(cs, G, [0, 0, -1, 0, 0, 0])
    assert opt.ok and mjhand.in_friction_cones(cs, opt.lambda_)
    outside = opt.lambda_.copy()
    outside[1] += 10 * abs(outside[0]) + 1  # a tangential force far beyond mu times the normal one
    assert not mjhand.in_friction_cones(cs, outside)
    with pytest.raises(ValueError, match="lambda_ must have 9 entries"):
        mjhand.in_friction_cones(cs, np.zeros(4))
    with pytest.raises(ValueError, match=r"equivalent_contact_stiffness: Kq must be positive definite.*None in Python"):
        mjhand.equivalent_contact_stiffness(JH, Kc, -Kq)


def test_mobility_count_and_internal_force_basis():
    # docs/grasp-analysis.md: three fingers of joints {2, 1, 3} each plus object and ground: 8 links, 9 joints -> 6
    assert mjhand.grubler_kutzbach(8, [2, 1, 3] * 3) == 6
    assert mjhand.grubler_kutzbach(4, [1, 1, 1, 1], space_dim=3) == 1  # the planar four-bar
    with pytest.raises(ValueError, match="space_dim must be 3"):
        mjhand.grubler_kutzbach(4, [1], space_dim=2)
    r = 0.03
    pts = [r * np.array([np.cos(a), np.sin(a), 0.2]) for a in (0.1, 2.2, 4.3)]
    cs = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, 0.6) for p in pts]
    G = mjhand.grasp_matrix(cs, np.zeros(3))
    JH = np.random.default_rng(2).normal(size=(9, 9))
    E = mjhand.quasistatic_internal_force_basis(G, JH, mjhand.contact_stiffness(cs, 1000.0),
                                                mjhand.joint_stiffness(10.0, 9))
    assert E.shape[0] == 9 and E.shape[1] == 3  # 9 rows - rank 6: three internal forces, all controllable here
    np.testing.assert_allclose(G @ E, 0, atol=1e-10)  # internal: no net wrench
