"""The smooth force-closure margin on analytic grasps: known values, the sign of force closure against the C++ test
on random grasps, bad and degenerate input without a NaN."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mjhand
import mjhand.mjx as mh


def grasp(points, normals, condim=3, mu=0.5, mu_torsion=0.0, k=None):
    """Contacts of an analytic grasp about the origin, G and the metrics' pieces."""
    cs = mh.analytic_contacts(points, normals, condim=condim, mu=mu, mu_torsion=mu_torsion, max_contacts=k)
    G = mh.grasp_matrix(cs, jnp.zeros(3))
    return cs, G


def test_two_antipodal_hard_contacts_press_with_half_the_force_each():
    cs, G = grasp([[0.05, 0, 0], [-0.05, 0, 0]], [[-1, 0, 0], [1, 0, 0]], mu=0.5, k=4)
    margin, converged, feasible = mh.force_closure_margin(G, cs)
    assert bool(feasible)
    # exact: f_n = 1/2 each, f_t = 0: min(f_n, mu f_n) = 0.25; smooth: within s (1 + log 4) below
    assert converged and 0.25 - mh.SMOOTHING * (1 + np.log(4)) <= float(margin) <= 0.25
    smin, _, _ = mh.singular_values(G, mh.row_mask(cs))
    assert float(smin) == 0.0  # rotation about the axis through both contacts is free: rank 5, no force closure


def test_one_contact_or_none_is_infeasible_and_finite():
    cs, G = grasp([[0.05, 0, 0]], [[-1, 0, 0]], k=3)
    assert float(mh.force_closure_margin(G, cs)[0]) == mh.INFEASIBLE_MARGIN
    empty = cs._replace(active=jnp.zeros(3, bool), found=jnp.asarray(0))
    G0 = mh.grasp_matrix(empty, jnp.zeros(3))
    margin, converged, feasible = mh.force_closure_margin(G0, empty)
    assert float(margin) == mh.INFEASIBLE_MARGIN and bool(converged) and not bool(feasible)
    assert all(np.isfinite(float(x)) for x in mh.singular_values(G0, mh.row_mask(empty)))
    g = jax.grad(lambda p: mh.force_closure_margin(mh.grasp_matrix(cs._replace(pos=p), jnp.zeros(3)), cs)[0])(cs.pos)
    assert np.all(np.isfinite(np.asarray(g)))
    # no contact at all: every metric and its gradient finite (one dropped object must not poison a batch's gradient)
    def total(p):
        e = empty._replace(pos=p)
        G = mh.grasp_matrix(e, jnp.zeros(3))
        smin, smax, iso = mh.singular_values(G, mh.row_mask(e))
        return mh.force_closure_margin(G, e)[0] + smin + iso
    g0 = jax.grad(total)(empty.pos + 0.01)
    assert np.all(np.isfinite(np.asarray(g0)))


def test_soft_contacts_need_torsional_friction_for_a_positive_margin_about_their_axis():
    pts, nrm = [[0.05, 0, 0], [-0.05, 0, 0]], [[-1, 0, 0], [1, 0, 0]]
    cs, G = grasp(pts, nrm, condim=4, mu=0.5, mu_torsion=0.01, k=2)
    smin, _, _ = mh.singular_values(G, mh.row_mask(cs))
    assert float(smin) > 0  # the torsion rows close the rotation about the axis
    margin, _, _ = mh.force_closure_margin(G, cs)
    assert 0.25 - mh.SMOOTHING * (1 + np.log(6)) <= float(margin) <= 0.25


def random_sphere_grasp(rng, n):
    p = rng.normal(size=(n, 3))
    p /= np.linalg.norm(p, axis=1, keepdims=True)
    return 0.04 * p, -p  # points on a 4 cm sphere, normals into it


def test_sign_agrees_with_the_cpp_force_closure_test_on_random_grasps():
    rng = np.random.default_rng(7)
    fn = jax.jit(lambda pts, nrm: (lambda cs: (mh.force_closure_margin(mh.grasp_matrix(cs, jnp.zeros(3)), cs),
                                               mh.singular_values(mh.grasp_matrix(cs, jnp.zeros(3)),
                                                                  mh.row_mask(cs))[0]))(
        mh.analytic_contacts(pts, nrm, condim=3, mu=0.4, max_contacts=5)))
    checked = {True: 0, False: 0}
    for _ in range(120):
        n = int(rng.integers(2, 6))
        pts, nrm = random_sphere_grasp(rng, n)
        (margin, conv, _), smin = fn(pts, nrm)  # padded to 5 contacts inside: one compile per n
        assert bool(conv)
        if abs(float(margin)) < 0.03 or float(smin) == 0.0:
            continue  # near the boundary the C++ test's linearised cones decide differently
        contacts = [mjhand.analytic_contact(p, q, mjhand.ContactModel.HARD_FINGER, 0.4) for p, q in zip(pts, nrm)]
        closure = mjhand.is_force_closure(contacts, np.zeros(3), 32)
        assert (float(margin) > 0) == closure, (n, float(margin))
        checked[closure] += 1
    assert checked[True] >= 5 and checked[False] >= 5, checked


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="max_contacts"):
        mh.analytic_contacts([[0, 0, 0]] * 3, [[1, 0, 0]] * 3, max_contacts=2)
    with pytest.raises(ValueError, match="condim"):
        mh.analytic_contacts([[0, 0, 0]], [[1, 0, 0]], condim=2)
    with pytest.raises(ValueError, match="normals"):
        mh.analytic_contacts([[0, 0, 0]], [[0, 0, 0]])
