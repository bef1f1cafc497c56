"""Derivatives of the metrics with respect to qpos, through MJX's kinematics and collision, against central finite
differences of the same jitted function: every hinge joint and the object's position."""
import jax
import jax.numpy as jnp
import mujoco
import numpy as np
import pytest
from mujoco import mjx

import mjhand.mjx as mh
from conftest import bare_state, grasp_states

KEYS = ("margin", "sigma_min", "isotropy")


@pytest.mark.parametrize("scene, obj", [("real/allegro_scene.xml", "ball"), ("scenarios/precision_sphere.xml", "object")])
def test_gradients_match_finite_differences(scene, obj):
    m, _ = bare_state(scene, grasp_states(scene, obj, times=(1.0,))[0])
    q0 = jnp.asarray(grasp_states(scene, obj, times=(1.0,))[0])
    mx = mjx.put_model(m)
    spec = mh.grasp_spec(m, obj, max_contacts=8)
    dx = mjx.make_data(mx)

    def f(q):
        r = mh.metrics_from_qpos(spec, mx, dx, q)
        return jnp.stack([getattr(r, k) for k in KEYS])

    jf = jax.jit(f)
    assert bool(jax.jit(lambda q: mh.metrics_from_qpos(spec, mx, dx, q).margin_converged)(q0))
    jac = np.asarray(jax.jit(jax.jacrev(f))(q0))
    assert np.all(np.isfinite(jac))
    coords = [m.jnt_qposadr[j] for j in range(m.njnt) if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_HINGE]
    if m.body_jntnum[spec.object_body]:  # a free object (the Allegro's ball; the precision sphere is fixed)
        obj_adr = m.jnt_qposadr[m.body_jntadr[spec.object_body]]
        coords += [obj_adr, obj_adr + 1, obj_adr + 2]
    h = 1e-6
    moved = 0
    for a in coords:
        fd = (np.asarray(jf(q0.at[a].add(h))) - np.asarray(jf(q0.at[a].add(-h)))) / (2 * h)
        assert np.allclose(jac[:, a], fd, rtol=1e-5, atol=1e-7), (a, jac[:, a], fd)
        moved += np.any(np.abs(fd) > 1e-4)
    assert moved >= 6, "the metrics depend on the contact fingers' joints and the object's position"
