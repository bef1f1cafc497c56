"""SynGrasp's analysis from Python, each against its definition computed here in NumPy: grasp stiffness, the
quasi-static solution (the linear system solved directly), the kinematic manipulability ellipsoid (an SVD of the
compatible-input map), the force-closure cost V and PCR."""
import numpy as np
import pytest

import mjhand


@pytest.fixture(scope="module")
def held(settled):
    m, d = settled
    g = mjhand.grasp(m, d, object="ball")
    assert g.G.shape[1] >= 12  # four fingertips
    return g


def test_grasp_stiffness_is_G_K_GT(held):
    G, J = held.G, held.J_H
    Kc = mjhand.contact_stiffness(held.contacts, 1000.0)
    np.testing.assert_array_equal(Kc, 1000.0 * np.eye(G.shape[1]))
    Kq = mjhand.joint_stiffness(2.0, J.shape[1])
    K = np.linalg.inv(np.linalg.inv(Kc) + J @ np.linalg.inv(Kq) @ J.T)
    KO = mjhand.grasp_stiffness(G, J, Kc, Kq)
    # Same products in another order; entries ~1e3, condition of the compliance ~1e3: rounding x condition.
    np.testing.assert_allclose(KO, G @ K @ G.T, atol=1e-9 * np.abs(KO).max(), rtol=0)
    np.testing.assert_allclose(mjhand.grasp_stiffness(G, J, Kc), G @ Kc @ G.T, atol=1e-12 * 1000, rtol=0)  # rigid joints


def test_quasistatic_solution_solves_the_model_equations(held):
    """dlambda = Kc (J dq - G^T du), J^T dlambda = -Kq dq (reference fixed), G dlambda = -dw: one linear system."""
    G, J = held.G, held.J_H
    m, n = J.shape
    Kc = mjhand.contact_stiffness(held.contacts, 800.0)
    Kq = mjhand.joint_stiffness(3.0, n)
    dw = np.array([0.02, -0.01, 0.03, 1e-4, -2e-4, 5e-5])
    s = mjhand.quasistatic_solution(mjhand.quasistatic_maps(G, J, Kc, Kq), dw)
    A = np.zeros((6 + m + n, 6 + m + n))  # unknowns (du, dlambda, dq)
    A[:m, :6], A[:m, 6:6 + m], A[:m, 6 + m:] = Kc @ G.T, np.eye(m), -Kc @ J
    A[m:m + n, 6:6 + m], A[m:m + n, 6 + m:] = J.T, Kq
    A[m + n:, 6:6 + m] = G
    b = np.concatenate([np.zeros(m + n), -dw])
    x = np.linalg.solve(A, b)
    # rounding x the system's condition (~1e6 here: stiffnesses 1e3 against lever arms 1e-2)
    np.testing.assert_allclose(s.du, x[:6], atol=1e-9 * np.abs(x[:6]).max(), rtol=0)
    np.testing.assert_allclose(s.dlambda, x[6:6 + m], atol=1e-9 * np.abs(x[6:6 + m]).max(), rtol=0)
    np.testing.assert_allclose(s.dq, x[6 + m:], atol=1e-9 * np.abs(x[6 + m:]).max(), rtol=0)


def test_kinematic_ellipsoid_is_the_svd_of_the_compatible_input_map(held):
    G, J = held.G, held.J_H
    n = J.shape[1]
    e = mjhand.kinematic_manipulability(G, J)
    # Inputs dq with J dq in range(G^T): null space of the projector onto range(G^T)'s complement applied to J.
    P = np.eye(G.shape[1]) - G.T @ np.linalg.pinv(G.T)
    _, sv, Vt = np.linalg.svd(P @ J)
    N = Vt[np.sum(sv > 1e-9 * sv.max()):].T  # n x r orthonormal compatible inputs
    assert N.shape[1] == e.compatible_inputs
    M = np.linalg.pinv(G.T) @ J @ N
    axes = np.linalg.svd(M, compute_uv=False)
    finite = np.sort(e.full.semi_axes[np.isfinite(e.full.semi_axes)])[::-1]
    k = min(len(axes), len(finite))
    np.testing.assert_allclose(finite[:k], axes[:k], atol=1e-9 * axes.max(), rtol=0)  # two SVDs: rounding
    assert e.inputs == n


def numpy_vcost(lam, mu, fmin, fmax, k):
    a, b, c = 3 / (2 * k ** 4), 4 / k ** 3, 3 / k ** 2
    barrier = lambda s: 1 / (2 * s * s) if s < -k else a * s * s + b * s + c  # noqa: E731
    total = 0.0
    for f in lam.reshape(-1, 3):
        norm = np.linalg.norm(f)
        total += barrier(fmin - f[0]) + barrier(norm - fmax) + barrier(norm / np.sqrt(1 + mu * mu) - f[0])
    return total


def test_force_closure_cost_and_pcr_from_their_definitions():
    r, mu = 0.03, 0.5
    pts = [r * np.array([np.cos(a), np.sin(a), 0.0]) for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)]
    hard = [mjhand.analytic_contact(p, -p, mjhand.ContactModel.HARD_FINGER, mu) for p in pts]
    G = mjhand.grasp_matrix(hard, np.zeros(3))
    E = mjhand.internal_force_basis(G)
    Gp = np.linalg.pinv(G)
    w = np.array([0, 0, -0.5, 0, 0, 0])
    opt = mjhand.minimize_force_closure_cost(hard, Gp, w, E)
    np.testing.assert_allclose(opt.lambda_, -Gp @ w + E @ opt.y, atol=1e-12, rtol=0)
    # V by its definition (Gabiccini et al. 2011) at the optimum: the same sum in another order.
    assert opt.cost == pytest.approx(numpy_vcost(opt.lambda_, mu, 1.0, 30.0, 0.01), rel=1e-12)
    assert opt.cost < 3 / 0.01 ** 2  # below the threshold: every force strictly inside its cone and bounds
    for f in opt.lambda_.reshape(-1, 3):
        assert 1.0 < f[0] and np.linalg.norm(f[1:]) < mu * f[0]
    assert mjhand.force_closure_cost(hard, opt.lambda_) == pytest.approx(opt.cost, rel=1e-15)
    # PCR = n_c / min_y V with w = 0 and SG_PCR's k = 0.001
    pcr = mjhand.potential_contact_robustness(hard, Gp, E)
    v0 = mjhand.minimize_force_closure_cost(hard, Gp, np.zeros(6), E, k=0.001)
    assert pcr == pytest.approx(3 / v0.cost, rel=1e-9)
    with pytest.raises(ValueError):
        mjhand.minimize_force_closure_cost(hard, Gp, w, E[:5])  # E of the wrong height is named
