"""Grasp metrics on MJX, MuJoCo's JAX backend (``pip install 'mjhand[mjx]'``; docs/python.md, "Grasp metrics on MJX").

The contacts of an ``mjx.Data`` between the object and the hand, their frames, G, J_H, sigma_min, isotropy and a smooth
force-closure margin, as pure JAX functions of the data: ``jax.jit`` compiles them, ``jax.vmap`` batches them over
thousands of states, and ``metrics_from_qpos`` is differentiable with respect to qpos (``jax.grad``). Every quantity
is the C++ analysis' (``mjhand.grasp``) on the same contacts: same frames (eq 2 tangents), same rows per contact in the
order of the data's contact list (``mjx.put_data`` groups a CPU state's contacts by condim), same sigma_min rule;
tests/python/mjx cross-checks them in float64 (``jax.config.update("jax_enable_x64", True)``). float32 works with
tolerances scaled to its precision (``_tolerances``); float64 is what the cross-checks hold to.

Shapes are fixed so that one compiled function serves every state: a spec holds up to ``max_contacts`` contacts (K);
G is 6 x 4K and J_H 4K x n_hand, four rows per contact (f_n, f_t, f_o, m_n) of which a frictionless contact uses the
first, a hard finger the first three and a soft finger all four; ``row_mask`` says which rows are in use and
``compact`` gives the C++ layout (numpy, outside jit).
"""
import dataclasses
from typing import NamedTuple

import numpy as np


def _import_mjx():
    """mujoco.mjx, without the two lines its optional Warp backend prints to stdout when warp-lang is not installed
    ("Failed to import warp: ..."; mjhand uses MJX's JAX implementation); anything else it prints is passed on."""
    import contextlib
    import io
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            from mujoco import mjx
    finally:
        for line in out.getvalue().splitlines():
            if not line.startswith(("Failed to import warp:", "Failed to import mujoco_warp:")):
                print(line)
    return mjx


try:
    import jax
    import jax.numpy as jnp
    _mjx = _import_mjx()
except ImportError as _e:  # the extra is not installed: say which one
    raise ImportError("mjhand.mjx needs JAX and MuJoCo's MJX: pip install 'mjhand[mjx]' (jax, jaxlib, mujoco-mjx; "
                      f"docs/python.md, 'Grasp metrics on MJX'). Import failed with: {_e}") from _e

from .grasp import body_id as _body_id, hand as _hand

#: Smoothing of the force-closure margin (softmin temperature and friction-cone rounding), in units of the total
#: normal force: the smooth margin lies in [m - SMOOTHING (1 + log(terms)), m] of the exact margin m.
SMOOTHING = 2e-3
#: Newton iterations of the margin's inner maximisation (converged long before on the shipped scenes: docs).
MARGIN_ITERATIONS = 30
#: The margin when no internal force presses the object at all (e.g. a single contact, or none): a fixed value, not a
#: measure (a feasible grasp can be lower); GraspMetrics.margin_feasible tells the two apart.
INFEASIBLE_MARGIN = -1.0


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class GraspSpec:
    """What is constant for a (model, object, hand): body and dof tables as tuples (hashable, so a spec is static
    under jit). Made by ``grasp_spec``."""
    object_body: int
    hand_of_body: tuple   # per body: 1 for a finger or palm body, else 0
    geom_body: tuple      # per geom: its body
    dofs: tuple           # the hand's dofs (J_H columns), as Hand.dofs
    max_contacts: int     # K
    finger_names: tuple

    @property
    def num_hand_dofs(self):
        return len(self.dofs)


def grasp_spec(model, object, palm=None, fingers=None, hand=None, max_contacts=16):
    """The spec of a grasp of ``object`` (name or id) in the CPU ``mujoco.MjModel`` ``model``: the hand as
    ``mjhand.hand(model, object, palm, fingers)`` infers it (or ``hand``, a ``mjhand.Hand``), up to ``max_contacts``
    object-hand contacts per state (a state with more reports ``overflow``)."""
    if not isinstance(max_contacts, (int, np.integer)) or not 1 <= int(max_contacts) <= 256:
        raise ValueError(f"max_contacts must be an integer in 1..256, got {max_contacts!r}")
    if hand is not None and (palm is not None or fingers is not None):
        raise ValueError("give hand, or palm / fingers, not both")
    h = _hand(model, object, palm, fingers) if hand is None else hand
    if hand is not None and h.object_body != _body_id(model, object, "object"):
        raise ValueError(f"hand: its object is body {h.object_body}, not '{object}'")
    in_hand = np.zeros(model.nbody, dtype=int)
    for b, f in enumerate(h.finger_of_body):
        in_hand[b] = f >= 0
    in_hand[list(h.palm_bodies)] = 1
    return GraspSpec(int(h.object_body), tuple(int(x) for x in in_hand),
                     tuple(int(b) for b in model.geom_bodyid), tuple(int(v) for v in h.dofs), int(max_contacts),
                     tuple(h.finger_names))


class Contacts(NamedTuple):
    """Up to K object-hand contacts of one state, in the order of the data's contact list (padded after ``count``)."""
    pos: jax.Array         # (K, 3) contact points [m, world]
    frame: jax.Array       # (K, 3, 3) columns n (into the object), t, o (eq 2)
    dim: jax.Array         # (K,) MuJoCo condim: 1 frictionless, 3 hard finger, 4 or 6 soft finger (as the C++)
    mu: jax.Array          # (K,) sliding friction
    mu_torsion: jax.Array  # (K,) torsional friction [m]
    hand_body: jax.Array   # (K,) body on the hand side
    slot: jax.Array        # (K,) index into the data's contact arrays
    active: jax.Array      # (K,) bool: a real contact (the first ``found``)
    found: jax.Array       # () object-hand contacts in the data (may exceed K: see overflow); not `count`, which
                           # would hide the tuple method
    overflow: jax.Array    # () bool: more contacts than K; the first K are kept and every metric is flagged


class GraspMetrics(NamedTuple):
    """Scalar measures of one state (batched: one entry per state)."""
    num_contacts: jax.Array  # object-hand contacts kept (<= K)
    overflow: jax.Array      # more contacts than the spec's K
    sigma_min: jax.Array     # sigma_min(G) (0 below 1e-7 sigma_max or with fewer than 6 rows: as grasp_sigma_min)
    sigma_max: jax.Array
    isotropy: jax.Array      # sigma_min / sigma_max (0 when G = 0)
    margin: jax.Array        # smooth force-closure margin (force_closure_margin)
    margin_converged: jax.Array  # the margin's Newton iterations met their tolerance
    margin_feasible: jax.Array   # some internal force presses the object (else margin = INFEASIBLE_MARGIN)


def _data_contact(d):
    impl = getattr(d, "_impl", None)
    return impl.contact if impl is not None and hasattr(impl, "contact") else d.contact


def contact_frame(n):
    """Eq 2's frame [n t o] for a normal n toward the object (columns), t = (n_y, -n_x, 0)/|(n_x, n_y)|, world x for a
    vertical n (as ``contact_frame_from_normal``); safe to differentiate at the fallback."""
    n = n / jnp.linalg.norm(n)
    h2 = n[0] ** 2 + n[1] ** 2
    ok = h2 > 1e-18
    h = jnp.sqrt(jnp.where(ok, h2, 1.0))
    t = jnp.where(ok, jnp.stack([n[1] / h, -n[0] / h, jnp.zeros_like(h)]), jnp.array([1.0, 0.0, 0.0], n.dtype))
    return jnp.stack([n, t, jnp.cross(n, t)], axis=1)


def contacts(spec, d):
    """The object-hand contacts of ``d`` (an mjx.Data after ``mjx.forward``/``step``/``collision``, or
    ``mjx.put_data`` of a CPU state), as ``collect_contacts`` keeps them: penetrating (dist <= 0) contacts between the
    object and a finger or palm body, normals into the object."""
    c = _data_contact(d)
    geom = c.geom if hasattr(c, "geom") and c.geom is not None else jnp.stack([c.geom1, c.geom2], axis=-1)
    gb = jnp.asarray(spec.geom_body)[geom]
    obj = spec.object_body
    second = (gb[:, 1] == obj) & (gb[:, 0] != obj)  # MuJoCo's normal points from geom1 to geom2
    first = (gb[:, 0] == obj) & (gb[:, 1] != obj)
    hand_body = jnp.where(second, gb[:, 0], gb[:, 1])
    relevant = (second | first) & (jnp.asarray(spec.hand_of_body)[hand_body] == 1) & (c.dist <= 0)
    count = jnp.sum(relevant)
    k = spec.max_contacts
    (slot,) = jnp.nonzero(relevant, size=k, fill_value=0)
    active = jnp.arange(k) < count
    sign = jnp.where(second[slot], 1.0, -1.0).astype(c.pos.dtype)
    # Padding slots may hold a zero normal (mjx.put_data's unused slots): a unit one keeps every number finite.
    normal = jnp.where(active[:, None], sign[:, None] * c.frame[slot, 0, :], jnp.array([0.0, 0.0, 1.0], c.pos.dtype))
    frame = jax.vmap(contact_frame)(normal)
    return Contacts(c.pos[slot], frame, jnp.asarray(c.dim)[slot], jnp.asarray(c.friction)[slot, 0],
                    jnp.asarray(c.friction)[slot, 2], hand_body[slot], slot,
                    active, count, count > k)


def analytic_contacts(points, normals, condim=3, mu=0.5, mu_torsion=0.0, max_contacts=None):
    """Contacts of an analytic grasp (SynGrasp's and ``mjhand.analytic_contact``'s way): n points [m] and normals
    toward the object, each contact's condim (1, 3, 4 or 6) and friction (scalars or one per contact), padded to
    ``max_contacts`` (default n). For grasp_matrix and force_closure_margin; no hand (hand_body -1, no J_H).
    Concrete input is checked (ValueError naming the argument); traced input (inside jit) is taken as is."""
    concrete = not any(isinstance(x, jax.core.Tracer) for x in (points, normals, condim, mu, mu_torsion))
    pts = jnp.asarray(points, dtype=float).reshape(-1, 3)
    nrm = jnp.asarray(normals, dtype=float).reshape(-1, 3)
    n = pts.shape[0]
    k = n if max_contacts is None else int(max_contacts)
    dim = jnp.broadcast_to(jnp.asarray(condim, dtype=int), (n,))
    mu = jnp.broadcast_to(jnp.asarray(mu, dtype=pts.dtype), (n,))
    mut = jnp.broadcast_to(jnp.asarray(mu_torsion, dtype=pts.dtype), (n,))
    if concrete:
        if nrm.shape[0] != n:
            raise ValueError(f"normals: {nrm.shape[0]} rows for {n} points")
        if k < n:
            raise ValueError(f"max_contacts={k} is fewer than the {n} points")
        if not np.all(np.isin(np.asarray(dim), (1, 3, 4, 6))):
            raise ValueError(f"condim must be 1, 3, 4 or 6 per contact, got {np.asarray(dim).tolist()}")
        lengths = np.linalg.norm(np.asarray(nrm), axis=1)
        if not (np.all(np.isfinite(np.asarray(pts))) and np.all(np.isfinite(lengths)) and np.all(lengths > 1e-12)):
            raise ValueError("points and normals must be finite, normals non-zero")
        if not (np.all(np.asarray(mu) >= 0) and np.all(np.asarray(mut) >= 0)):
            raise ValueError("mu and mu_torsion must be >= 0")
    pad = k - n
    active = jnp.arange(k) < n
    nrm = jnp.concatenate([nrm, jnp.tile(jnp.array([0.0, 0.0, 1.0], nrm.dtype), (pad, 1))])
    return Contacts(jnp.concatenate([pts, jnp.zeros((pad, 3), pts.dtype)]), jax.vmap(contact_frame)(nrm),
                    jnp.concatenate([dim, jnp.full(pad, 3, int)]), jnp.concatenate([mu, jnp.zeros(pad, mu.dtype)]),
                    jnp.concatenate([mut, jnp.zeros(pad, mut.dtype)]), jnp.full(k, -1), jnp.full(k, -1), active,
                    jnp.asarray(n), jnp.asarray(False))


def row_mask(cs):
    """(K, 4) bool: the rows (f_n, f_t, f_o, m_n) each contact uses (by condim, as the C++ contact models)."""
    frictional = cs.dim != 1
    return jnp.stack([cs.active, cs.active & frictional, cs.active & frictional, cs.active & (cs.dim >= 4)], axis=1)


def grasp_matrix(cs, reference):
    """G (6 x 4K) about ``reference`` (the object's centre of mass: ``d.xipos[spec.object_body]``); unused rows zero."""
    r = cs.pos - reference
    forces = jnp.concatenate([jnp.swapaxes(cs.frame, 1, 2), jnp.cross(r[:, None, :], jnp.swapaxes(cs.frame, 1, 2))],
                             axis=2)  # (K, 3, 6): [a_j; r x a_j]
    torsion = jnp.concatenate([jnp.zeros_like(r), cs.frame[:, :, 0]], axis=1)[:, None, :]  # (K, 1, 6): [0; n]
    cols = jnp.concatenate([forces, torsion], axis=1) * row_mask(cs)[:, :, None]
    return cols.reshape(-1, 6).T


def hand_jacobian(spec, m, d, cs):
    """J_H (4K x n_hand, columns spec.dofs): each contact frame's axes times mj_jac at the contact point on the hand
    body (mjx.jac; needs kinematics and com_pos of d). The torsion row is n . jac_rot."""
    jacp, jacr = jax.vmap(lambda p, b: _mjx.jac(m, d, p, b))(cs.pos, cs.hand_body)  # (K, nv, 3) each
    dofs = jnp.asarray(spec.dofs, dtype=int)
    jacp, jacr = jacp[:, dofs, :], jacr[:, dofs, :]
    lin = jnp.einsum("kij,kdi->kjd", cs.frame, jacp)                  # (K, 3, n_hand): a_j . jacp
    rot = jnp.einsum("ki,kdi->kd", cs.frame[:, :, 0], jacr)[:, None]  # (K, 1, n_hand): n . jacr
    rows = jnp.concatenate([lin, rot], axis=1) * row_mask(cs)[:, :, None]
    return rows.reshape(-1, dofs.shape[0])


# Small dense linear algebra in plain JAX operations. XLA's CPU backend runs jnp.linalg's LAPACK kernels (eigh, LU)
# batched on its intra-op thread pool and waits on the same pool; inside a vmapped, jitted function two such kernels
# can occupy every pool thread and wait forever (seen with jax 0.10.2 on 2 cores: both workers parked in
# jax::EigenvalueDecompositionSymmetric -> ParallelBatchMap, gdb). These loops need no pool and run on any device.
_JACOBI_SWEEPS = 10  # cyclic Jacobi converges quadratically: 6 x 6 and 7 x 7 need 5-6 sweeps to round-off


def _jacobi_eigh(S):
    """Eigenvalues (unsorted) and eigenvectors (columns) of a small symmetric S by cyclic Jacobi rotations."""
    n = S.shape[0]
    pairs = [(p, q) for p in range(n) for q in range(p + 1, n)]
    tiny = jnp.finfo(S.dtype).tiny

    def sweep(_, AV):
        A, V = AV
        for p, q in pairs:
            apq = A[p, q]
            rotate = jnp.abs(apq) > tiny
            theta = (A[q, q] - A[p, p]) / (2.0 * jnp.where(rotate, apq, 1.0))
            t = jnp.where(rotate, jnp.sign(theta + (theta == 0)) / (jnp.abs(theta) + jnp.sqrt(theta * theta + 1.0)),
                          0.0)
            c = 1.0 / jnp.sqrt(t * t + 1.0)
            sn = t * c
            R = jnp.eye(n, dtype=S.dtype).at[p, p].set(c).at[q, q].set(c).at[p, q].set(sn).at[q, p].set(-sn)
            A = R.T @ A @ R
            V = V @ R
        return A, V

    A, V = jax.lax.fori_loop(0, _JACOBI_SWEEPS, sweep, (S, jnp.eye(n, dtype=S.dtype)))
    return jnp.diag(A), V


@jax.custom_jvp
def eigvalsh(S):
    """Ascending eigenvalues of a small symmetric matrix (Jacobi; derivative v_i^T dS v_i)."""
    w, _ = _jacobi_eigh(S)
    return jnp.sort(w)


@eigvalsh.defjvp
def _eigvalsh_jvp(primals, tangents):
    (S,), (dS,) = primals, tangents
    w, V = _jacobi_eigh(S)
    order = jnp.argsort(w)
    w, V = w[order], V[:, order]
    return w, jnp.einsum("ji,jk,ki->i", V, dS, V)


def _cholesky_solve(M, b):
    """M^-1 b for a symmetric positive definite M (Cholesky, forward and back substitution in fori_loops)."""
    n = M.shape[0]
    rows = jnp.arange(n)
    tiny = jnp.finfo(M.dtype).tiny

    def column(j, L):
        v = M[:, j] - L @ L[j, :]
        return L.at[:, j].set(jnp.where(rows >= j, v / jnp.sqrt(jnp.maximum(v[j], tiny)), 0.0))

    L = jax.lax.fori_loop(0, n, column, jnp.zeros_like(M))
    y = jax.lax.fori_loop(0, n, lambda i, y: y.at[i].set((b[i] - L[i] @ y) / L[i, i]), jnp.zeros_like(b))
    return jax.lax.fori_loop(0, n, lambda k, x: x.at[n - 1 - k].set((y[n - 1 - k] - L[:, n - 1 - k] @ x) /
                                                                    L[n - 1 - k, n - 1 - k]), jnp.zeros_like(b))


def _tolerances(dtype):
    """(sigma_min cut-off relative to sigma_max, feasibility of the margin's constraints, its convergence): the C++
    values in float64; in float32 scaled to its precision (eigenvalues of G G^T carry ~eps sigma_max^2)."""
    if jnp.dtype(dtype) == jnp.float64:
        return 1e-7, 1e-9, 1e-8
    eps = float(jnp.finfo(dtype).eps)
    return 10 * eps ** 0.5, 1e3 * eps, 1e3 * eps


def singular_values(G, mask):
    """(sigma_min, sigma_max, isotropy) of G from the eigenvalues of G G^T, with grasp_sigma_min's rule: sigma_min is
    0 below 1e-7 sigma_max (float64; float32: _tolerances) or with fewer than 6 rows in use."""
    lam = eigvalsh(G @ G.T)
    tiny = jnp.finfo(G.dtype).tiny
    sig = jnp.sqrt(jnp.maximum(lam, tiny))  # tiny: a finite derivative at a zero eigenvalue
    smax = jnp.where(lam[5] > 0, sig[5], 0.0)
    smin = jnp.where((sig[0] > _tolerances(G.dtype)[0] * smax) & (jnp.sum(mask) >= 6), sig[0], 0.0)
    return smin, smax, jnp.where(smax > 0, smin / jnp.where(smax > 0, smax, 1.0), 0.0)


def _slacks(x, cs, free, smoothing):
    """Each contact's friction-set slacks (friction_cone_margin's three terms, rounded by ``smoothing``), which are in
    use, and their derivatives in the contact's own four variables (f_n, f_t, f_o, m_n): (K, 3), (K, 3), (K, 3, 4),
    (K, 3, 4, 4)."""
    f = x.reshape(-1, 4)
    mut = jnp.where(free[:, 3], cs.mu_torsion, 1.0)
    r = jnp.sqrt(f[:, 1] ** 2 + f[:, 2] ** 2 + smoothing ** 2)
    rho = jnp.sqrt(f[:, 3] ** 2 + (smoothing * mut) ** 2)
    s = jnp.stack([f[:, 0], cs.mu * f[:, 0] - r, f[:, 0] - rho / mut], axis=1)
    use = jnp.stack([free[:, 0], free[:, 1], free[:, 3]], axis=1)
    zero, one = jnp.zeros_like(r), jnp.ones_like(r)
    grad = jnp.stack([jnp.stack([one, zero, zero, zero], axis=1),
                      jnp.stack([cs.mu, -f[:, 1] / r, -f[:, 2] / r, zero], axis=1),
                      jnp.stack([one, zero, zero, -f[:, 3] / (mut * rho)], axis=1)], axis=1)
    hess = jnp.zeros(s.shape + (4, 4), x.dtype)
    tt = jnp.stack([jnp.stack([f[:, 2] ** 2 + smoothing ** 2, -f[:, 1] * f[:, 2]], axis=1),
                    jnp.stack([-f[:, 1] * f[:, 2], f[:, 1] ** 2 + smoothing ** 2], axis=1)], axis=1)
    hess = hess.at[:, 1, 1:3, 1:3].set(-tt / r[:, None, None] ** 3)
    hess = hess.at[:, 2, 3, 3].set(-(smoothing * mut) ** 2 / (mut * rho ** 3))
    return s, use, grad, hess


def _softmin(x, cs, free, smoothing):
    s, use, _, _ = _slacks(x, cs, free, smoothing)
    return -smoothing * jax.nn.logsumexp(-s / smoothing, b=use.astype(s.dtype))


def _softmin_derivatives(x, cs, free, smoothing):
    """phi, its gradient g and the per-contact 4 x 4 blocks W_k of its negated Hessian without the rank-one term:
    with weights p_j = softmax(-s_j / tau) over the terms in use, g = sum p_j a_j and
    -Hess = blockdiag(W_k) - g g^T / tau, W_k = sum_(j of k) p_j (a_j a_j^T / tau - B_j) (a_j, B_j: each term's
    derivatives in its contact's variables)."""
    s, use, a, B = _slacks(x, cs, free, smoothing)
    z = jnp.where(use, -s / smoothing, -jnp.inf)
    phi = -smoothing * jax.nn.logsumexp(z)
    p = jnp.where(use, jnp.exp(z - jnp.max(z)), 0.0)
    p = p / jnp.maximum(jnp.sum(p), jnp.finfo(x.dtype).tiny)  # no term in use (no contact): p = 0, not NaN
    g = jnp.einsum("kj,kjd->kd", p, a)
    W = jnp.einsum("kj,kjde->kde", p, jnp.einsum("kjd,kje->kjde", a, a) / smoothing - B)
    return phi, g, W


def force_closure_margin(G, cs, smoothing=SMOOTHING, iterations=MARGIN_ITERATIONS):
    """Smooth force-closure margin and whether its iterations converged.

    The exact margin m is the best friction slack an internal force can reach: the largest min over contacts of
    (f_n, mu f_n - |(f_t, f_o)|, f_n - |m_n| / mu_torsion) -- friction_cone_margin's terms, exact cones -- over forces
    lambda with G lambda = 0 and a total normal force sum f_n = 1. With rank G = 6 (sigma_min > 0), m > 0 is force
    closure (Murray, Li & Sastry, prop 5.2: an internal force strictly inside every friction cone). The smooth margin
    replaces the min by a softmin and |.| by sqrt(. ^ 2 + s^2), s = ``smoothing``, both from below: it lies in
    [m - s (1 + log terms), m], so a positive smooth margin certifies m > 0. The maximisation (concave, over an affine
    set) is solved by damped Newton steps; its derivative is the envelope theorem's, exact at the optimum. A grasp
    where no internal force presses the object (no contact, one contact, parallel normals) gets INFEASIBLE_MARGIN and
    feasible = False. Returns (margin, converged, feasible)."""
    mask = row_mask(cs)
    free = mask.at[:, 3].set(mask[:, 3] & (cs.mu_torsion > 0))  # no torsional friction: m_n must be 0
    dmask = free.reshape(-1).astype(G.dtype)
    e_n = (jnp.zeros_like(free, dtype=G.dtype).at[:, 0].set(1.0)).reshape(-1)
    A = jnp.concatenate([G, e_n[None, :]], axis=0) * dmask[None, :]  # (7, 4K)
    b = jnp.zeros(7, G.dtype).at[6].set(1.0)
    A0 = jax.lax.stop_gradient(A)
    w, V = _jacobi_eigh(A0 @ A0.T)
    winv = jnp.where(w > 1e-12 * jnp.max(w), 1.0 / jnp.where(w > 0, w, 1.0), 0.0)
    AAinv = (V * winv) @ V.T
    x0 = A0.T @ (AAinv @ b)
    _, feasible_tol, converged_tol = _tolerances(G.dtype)
    feasible = jnp.max(jnp.abs(A0 @ x0 - b)) <= feasible_tol
    k = free.shape[0]
    P = jnp.diag(dmask) - A0.T @ AAinv @ A0  # projector onto the feasible directions
    eye = jnp.eye(4 * k, dtype=G.dtype)
    cs0 = jax.tree_util.tree_map(jax.lax.stop_gradient, cs)
    phi = lambda x: _softmin(x, cs0, free, smoothing)  # noqa: E731
    steps = 0.5 ** jnp.arange(13, dtype=G.dtype)

    def newton(carry):
        # Newton on the feasible directions (P: the projector onto {A dx = 0, fixed rows 0}), damped by |P g|
        # (Levenberg-Marquardt): the softmin is nearly flat along directions that move only slack terms far above the
        # minimum, where a pure Newton step would be huge.
        it, x, _ = carry
        value, g, W = _softmin_derivatives(x, cs0, free, smoothing)
        g = jnp.where(free, g, 0.0).reshape(-1)
        negH = jnp.zeros((k, 4, k, 4), G.dtype).at[jnp.arange(k), :, jnp.arange(k), :].set(W).reshape(4 * k, 4 * k)
        negH = negH - jnp.outer(g, g) / smoothing
        Pg = P @ g
        mu = jnp.linalg.norm(Pg)
        M = P @ (negH + mu * eye) @ P + (eye - P) + 1e-12 * eye
        dx = P @ _cholesky_solve(M, Pg)
        vals = jax.vmap(lambda a: phi(x + a * dx))(steps)
        best = jnp.argmax(vals)
        return it + 1, x + jnp.where(vals[best] >= value, steps[best], 0.0) * dx, mu

    _, x, _ = jax.lax.while_loop(lambda c: (c[0] < iterations) & (c[2] > 1e-10), newton,
                                 (0, x0, jnp.asarray(jnp.inf, G.dtype)))
    x = jax.lax.stop_gradient(jnp.where(feasible, x, 0.0))  # infeasible: x is meaningless (maybe NaN); no gradient
    value, grad, _ = _softmin_derivatives(x, cs0, free, smoothing)
    grad = jnp.where(free, grad, 0.0).reshape(-1)
    nu = jax.lax.stop_gradient(AAinv @ (A0 @ grad))
    # Envelope theorem: d/dtheta max {phi(x) : A(theta) x = b} = -nu^T dA/dtheta x at the optimum.
    value = value - nu @ (A @ x - b)
    converged = feasible & (jnp.linalg.norm(P @ grad) <= converged_tol)
    return jnp.where(feasible, value, INFEASIBLE_MARGIN), converged | ~feasible, feasible


class Analysis(NamedTuple):
    """Everything of one state: the contacts, G, J_H and the scalar metrics."""
    contacts: Contacts
    reference: jax.Array  # (3,) the object's centre of mass: G's moment reference
    G: jax.Array          # (6, 4K)
    J_H: jax.Array        # (4K, n_hand)
    metrics: GraspMetrics


def analyze(spec, m, d, smoothing=SMOOTHING, iterations=MARGIN_ITERATIONS):
    """The grasp of one mjx.Data (``jax.vmap(analyze, in_axes=(None, None, 0))`` for a batch): Analysis."""
    cs = contacts(spec, d)
    reference = d.xipos[spec.object_body]
    G = grasp_matrix(cs, reference)
    J_H = hand_jacobian(spec, m, d, cs)
    smin, smax, iso = singular_values(G, row_mask(cs))
    margin, converged, feasible = force_closure_margin(G, cs, smoothing, iterations)
    return Analysis(cs, reference, G, J_H,
                    GraspMetrics(jnp.minimum(cs.found, spec.max_contacts), cs.overflow, smin, smax, iso, margin,
                                 converged, feasible))


def grasp_metrics(spec, m, d, smoothing=SMOOTHING, iterations=MARGIN_ITERATIONS):
    """The scalar metrics of one mjx.Data: GraspMetrics."""
    return analyze(spec, m, d, smoothing, iterations).metrics


def bare_model(source):
    """A CPU MjModel without mjhand's (or any) engine plugins, for MJX, which runs none: ``source`` a path, MJCF text
    or an MjSpec (not modified). Plugin actuators and sensors are removed, everything else (bodies, joints, geoms,
    native actuators, keyframes) is kept, so the kinematics and contacts are the full model's."""
    import mujoco
    if isinstance(source, mujoco.MjSpec):
        spec = source.copy()
    elif isinstance(source, str) and source.lstrip().startswith("<"):
        spec = mujoco.MjSpec.from_string(source)
    else:
        spec = mujoco.MjSpec.from_file(str(source))
    for s in list(spec.sensors):
        if s.type == mujoco.mjtSensor.mjSENS_PLUGIN:
            spec.delete(s)
    for a in list(spec.actuators):
        if a.plugin.active or a.plugin.plugin_name:
            spec.delete(a)
    for p in list(spec.plugins):
        spec.delete(p)
    return spec.compile()


def object_collisions_only(model, object):
    """A copy of the CPU MjModel ``model`` where only the object's geoms collide (with everything else: hand, table,
    floor), not the hand with itself or the world. MJX evaluates every candidate geom pair in every state (no
    broad phase), so a hand's self-collision pairs (476 box-box pairs in the Allegro scene) cost most of its time
    and memory; MuJoCo Playground's hand models switch them off the same way. Explicit <pair> contacts are kept."""
    import copy
    obj = _body_id(model, object, "object")
    out = copy.copy(model)
    on_object = np.asarray(model.geom_bodyid) == obj
    collides = (np.asarray(model.geom_contype) | np.asarray(model.geom_conaffinity)) != 0  # visual geoms stay off
    out.geom_contype[:] = np.where(on_object & collides, 1, 0)
    out.geom_conaffinity[:] = np.where(collides, 1, 0)
    return out


def positions(m, d, qpos):
    """``d`` at ``qpos``: kinematics, centres of mass and collision (what the metrics read), differentiable in qpos."""
    d = d.replace(qpos=qpos)
    return _mjx.collision(m, _mjx.com_pos(m, _mjx.kinematics(m, d)))


def metrics_from_qpos(spec, m, d, qpos, smoothing=SMOOTHING, iterations=MARGIN_ITERATIONS):
    """grasp_metrics of ``d`` moved to ``qpos`` (positions): ``jax.grad`` of a metric w.r.t. qpos goes through MJX's
    kinematics and collision. A template d from ``mjx.make_data(m)`` or ``mjx.put_data(model, data)``."""
    return grasp_metrics(spec, m, positions(m, d, qpos), smoothing, iterations)


def compact(spec, analysis):
    """The C++ layout of one (unbatched) analysis as numpy arrays: G (6 x rows), J_H (rows x n_hand), with only the
    rows in use, contact by contact, as ``mjhand.grasp(...).G`` and ``.J_H``."""
    keep = np.asarray(row_mask(analysis.contacts)).reshape(-1)
    return np.asarray(analysis.G)[:, keep], np.asarray(analysis.J_H)[keep, :]
