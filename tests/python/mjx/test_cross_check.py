"""mjhand.mjx against the C++ analysis on the same states (float64): the shipped scenes and two models/real/ hands.

The states are MuJoCo's own (mjx.put_data of the CPU mjData, contacts included), analysed in one jitted, vmapped call;
every quantity must equal mjhand.grasp's to 1e-9. MJX's own collision is compared apart (test_mjx_collision)."""
import jax
import mujoco
import numpy as np
import pytest
from mujoco import mjx
from scipy.optimize import linprog

import mjhand
import mjhand.mjx as mh
from conftest import SCENES, bare_state, grasp_states, stack

TOL = 1e-9


def close(a, b, tol=TOL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    return np.max(np.abs(a - b), initial=0.0) <= tol * max(1.0, np.max(np.abs(b), initial=0.0))


def exact_margin_bounds(g, edges=64):
    """Bounds m_in <= m <= m_out on the exact (unsmoothed) margin of a C++ grasp, an independent reference: max t with
    every friction_cone_margin term >= t over G lambda = 0, sum f_n = 1, each |(f_t, f_o)| <= mu f_n - t written as
    `edges` linear constraints u_k . (f_t, f_o) <= c (mu f_n - t): c = cos(pi / edges) inscribes the polygon in the
    cone (m_in), c = 1 circumscribes it (m_out). Linear programs (HiGHS); also the number of smooth terms."""
    rows = {mjhand.ContactModel.FRICTIONLESS_POINT: 1, mjhand.ContactModel.HARD_FINGER: 3,
            mjhand.ContactModel.SOFT_FINGER: 4}
    n = g.G.shape[1]
    starts = np.cumsum([0] + [rows[c.model] for c in g.contacts])[:-1]
    angles = 2 * np.pi * np.arange(edges) / edges
    out = []
    for c_edge in (np.cos(np.pi / edges), 1.0):
        A_ub, b_ub = [], []
        for s, c in zip(starts, g.contacts):
            row = np.zeros(n + 1)
            row[s], row[-1] = -1.0, 1.0  # t - f_n <= 0
            A_ub.append(row)
            if c.model != mjhand.ContactModel.FRICTIONLESS_POINT:
                for a in angles:  # cos a f_t + sin a f_o - c (mu f_n - t) <= 0
                    row = np.zeros(n + 1)
                    row[s], row[s + 1], row[s + 2], row[-1] = -c_edge * c.mu, np.cos(a), np.sin(a), c_edge
                    A_ub.append(row)
            if c.model == mjhand.ContactModel.SOFT_FINGER:  # +-m_n <= mu_t (f_n - t)
                for sign in (1.0, -1.0):
                    row = np.zeros(n + 1)
                    row[s], row[s + 3], row[-1] = -c.mu_torsion, sign, c.mu_torsion
                    A_ub.append(row)
        A_eq = np.zeros((7, n + 1))
        A_eq[:6, :n] = g.G
        A_eq[6, starts] = 1.0
        b_eq = np.zeros(7)
        b_eq[6] = 1.0
        r = linprog(np.eye(n + 1)[-1] * -1.0, A_ub=np.array(A_ub), b_ub=np.zeros(len(A_ub)), A_eq=A_eq, b_eq=b_eq,
                    bounds=[(None, None)] * (n + 1), method="highs")
        assert r.status == 0, r.message
        out.append(r.x[-1])
    terms = sum(1 + (c.model != mjhand.ContactModel.FRICTIONLESS_POINT) +
                (c.model == mjhand.ContactModel.SOFT_FINGER and c.mu_torsion > 0) for c in g.contacts)
    return out[0], out[1], terms


@pytest.mark.parametrize("scene, obj", SCENES)
def test_batched_analysis_equals_the_cpp_analysis(scene, obj):
    states = grasp_states(scene, obj)
    assert len(states) == 3, "every scene grasps its object at 0.6, 1.0 and 1.5 s"
    cpu = [bare_state(scene, q) for q in states]
    m = cpu[0][0]
    spec = mh.grasp_spec(m, obj, max_contacts=12)
    mx = mjx.put_model(m)
    batch = stack([mjx.put_data(mm, d) for mm, d in cpu])
    out = jax.jit(jax.vmap(lambda d: mh.analyze(spec, mx, d), in_axes=0))(batch)
    for i, (mm, d) in enumerate(cpu):
        g = mjhand.grasp(mm, d, obj)
        one = jax.tree_util.tree_map(lambda x: x[i], out)
        k = len(g.contacts)
        assert int(one.metrics.num_contacts) == k and not bool(one.metrics.overflow)
        assert close(one.contacts.pos[:k], g.positions) and close(one.contacts.frame[:k], g.frames)
        assert close(one.reference, mjhand.grasp(mm, d, obj).reference)
        G, J_H = mh.compact(spec, one)
        assert close(G, g.G), f"{scene} state {i}: G"
        assert close(J_H, g.J_H), f"{scene} state {i}: J_H"
        q = g.quality()
        assert close(one.metrics.sigma_min, g.sigma_min()) and close(one.metrics.sigma_min, q.sigma_min_G)
        assert close(one.metrics.sigma_max, q.sigma_max_G) and close(one.metrics.isotropy, q.isotropy_G)
        # The smooth margin lies in [m - s (1 + log terms), m] of the exact margin m, and converged.
        m_in, m_out, terms = exact_margin_bounds(g)
        margin = float(one.metrics.margin)
        assert bool(one.metrics.margin_converged) and bool(one.metrics.margin_feasible)
        assert m_in - mh.SMOOTHING * (1 + np.log(terms)) - 1e-7 <= margin <= m_out + 1e-7, (margin, m_in, m_out)
        # Its sign is force closure where the exact margin is clear of 0 (the C++ test linearises the cones).
        if min(abs(m_in), abs(m_out)) > 0.02 and q.rank_G == 6:
            assert (margin > 0) == g.force_closure(cone_edges=16), (scene, i, margin, m_in, m_out)


@pytest.mark.parametrize("scene, obj", [s for s in SCENES if s[0] != "real/robotiq_2f85_scene.xml"])
def test_mjx_collision_finds_the_same_contacts_as_mujoco(scene, obj):
    """metrics_from_qpos runs MJX's own collision: the same object-hand contacts as MuJoCo's CPU collision, their
    points within 5e-5 m (MJX places capsule-sphere and box-sphere points differently: 1.3e-5 to 2e-5 m measured) and
    so the metrics differ by that order (not checked here; BENCHMARKS.md: sigma_min 1.9e-5). Box-box pairs (the Robotiq pads) are MJX's own algorithm: 0.6 mm apart."""
    q = grasp_states(scene, obj, times=(1.0,))[0]
    m, d = bare_state(scene, q)
    g = mjhand.grasp(m, d, obj)
    spec = mh.grasp_spec(m, obj, max_contacts=12)
    mx = mjx.put_model(m)
    dq = jax.jit(lambda q: mh.positions(mx, mjx.make_data(mx), q))(q)
    cs = mh.contacts(spec, dq)
    k = len(g.contacts)
    assert int(cs.found) == k
    pairs = sorted((c.hand_geom, c.object_geom) for c in g.contacts)
    c = mh._data_contact(dq)
    geoms = np.asarray(c.geom)[np.asarray(cs.slot[:k])]
    ours = sorted((a, b) if m.geom_bodyid[b] == spec.object_body else (b, a) for a, b in geoms)
    assert ours == pairs
    for p in g.positions:
        assert np.min(np.linalg.norm(np.asarray(cs.pos[:k]) - p, axis=1)) <= 5e-5


def test_float32_data_gives_the_float64_metrics_to_its_precision():
    """Playground trains in float32: the same analysis on float32 data, tolerances scaled (mjx._tolerances)."""
    scene, obj = "real/allegro_scene.xml", "ball"
    m, d = bare_state(scene, grasp_states(scene, obj, times=(1.0,))[0])
    spec = mh.grasp_spec(m, obj, max_contacts=8)
    mx = mjx.put_model(m)
    dx = mjx.put_data(m, d)
    f32 = jax.tree_util.tree_map(lambda x: x.astype(np.float32) if np.asarray(x).dtype == np.float64 else x, dx)
    a64 = jax.jit(lambda d: mh.grasp_metrics(spec, mx, d))(dx)
    a32 = jax.jit(lambda d: mh.grasp_metrics(spec, mx, d))(f32)
    assert a32.margin.dtype == np.float32 and bool(a32.margin_feasible)
    assert abs(float(a32.margin) - float(a64.margin)) < 1e-3 and abs(float(a32.sigma_min) / float(a64.sigma_min) - 1) < 1e-3


def test_more_contacts_than_the_spec_holds_are_flagged():
    """A spec of K = 2 on the Allegro grasp (4 contacts): the first two are kept, overflow says so."""
    m, d = bare_state("real/allegro_scene.xml", grasp_states("real/allegro_scene.xml", "ball", times=(0.6,))[0])
    g = mjhand.grasp(m, d, "ball")
    assert len(g.contacts) > 2
    spec = mh.grasp_spec(m, "ball", max_contacts=2)
    out = jax.jit(lambda d: mh.analyze(spec, mjx.put_model(m), d))(mjx.put_data(m, d))
    assert bool(out.metrics.overflow) and int(out.metrics.num_contacts) == 2 and int(out.contacts.found) == len(g.contacts)
    assert close(out.contacts.pos, g.positions[:2])
    with pytest.raises(ValueError, match="max_contacts"):
        mh.grasp_spec(m, "ball", max_contacts=0)
