"""Batched grasp metrics on MJX against the C++ loop over the same states (BENCHMARKS.md, "Grasp metrics on MJX").

States: the Allegro hand's keyframe "grasp" (models/real/allegro_scene.xml) with every hand joint moved by a uniform
+-0.01 rad and the ball by +-0.5 mm (seeded), so that the four contacts persist. Per batch size it times, in this one
process (ratios, not absolute times: docs/reliability.md):
  cpp    GraspAnalysis.metrics_of_states: kinematics, centres of mass, collision, contacts, G, J_H and the singular
         values of G in one C++ loop over the states (MuJoCo's CPU pipeline);
  mjx    the same quantities in one jit-compiled, vmapped JAX function (MJX kinematics, com_pos, collision, then
         mjhand.mjx's contacts, G, J_H, sigma_min, isotropy);
  mjx+margin   the same with the smooth force-closure margin (no C++ counterpart: an inner Newton solve per state).
Each is the median of --repetitions runs after one warm-up call (the jit compile is reported apart). The GPU command:
  python bench_mjx.py --device gpu        (JAX with CUDA: pip install 'jax[cuda12]==<the pinned jax>')
"""
import argparse
import statistics
import sys
import time

import numpy as np


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, nargs="+", default=[1024, 4096], help="batch sizes")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    ap.add_argument("--max-contacts", type=int, default=8, help="the spec's K (the grasp has 4 contacts)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    import mjhand.mjx as mh
    import jax
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", a.device if a.device == "cpu" else "cuda")
    import jax.numpy as jnp
    import mujoco
    from mujoco import mjx
    import mjhand

    m = mh.object_collisions_only(mujoco.MjModel.from_xml_path(mjhand.model_path("real/allegro_scene.xml")), "ball")
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, m.key("grasp").id)
    q0 = d.qpos.copy()
    ball = m.jnt_qposadr[m.joint("ball_free").id]
    mx = mjx.put_model(m)
    dx = mjx.make_data(mx)
    spec = mh.grasp_spec(m, "ball", max_contacts=a.max_contacts)
    analysis = mjhand.GraspAnalysis(m, mjhand.hand(m, "ball"), max_contacts=a.max_contacts)

    def same_quantities(q):
        dq = mh.positions(mx, dx, q)
        cs = mh.contacts(spec, dq)
        G = mh.grasp_matrix(cs, dq.xipos[spec.object_body])
        J_H = mh.hand_jacobian(spec, mx, dq, cs)
        smin, smax, iso = mh.singular_values(G, mh.row_mask(cs))
        return jnp.stack([cs.found.astype(G.dtype), smin, smax, iso]), jnp.sum(J_H)

    with_margin = jax.jit(jax.vmap(lambda q: mh.metrics_from_qpos(spec, mx, dx, q)))
    same = jax.jit(jax.vmap(same_quantities))
    rng = np.random.default_rng(a.seed)
    print(f"device {jax.devices()[0].platform}, jax {jax.__version__}, mujoco {mujoco.__version__}, "
          f"K = {a.max_contacts}")
    for n in a.states:
        Q = np.tile(q0, (n, 1))
        Q[:, :ball] += rng.uniform(-0.01, 0.01, (n, ball))
        Q[:, ball:ball + 3] += rng.uniform(-5e-4, 5e-4, (n, 3))
        Qj = jnp.asarray(Q)
        t = time.perf_counter()
        jax.block_until_ready(same(Qj))
        compile_same = time.perf_counter() - t
        t = time.perf_counter()
        jax.block_until_ready(with_margin(Qj))
        compile_margin = time.perf_counter() - t
        times = {"cpp": [], "mjx": [], "mjx+margin": []}
        for _ in range(a.repetitions):
            t = time.perf_counter()
            cpp = analysis.metrics_of_states(d, Q)
            times["cpp"].append(time.perf_counter() - t)
            t = time.perf_counter()
            out = jax.block_until_ready(same(Qj))
            times["mjx"].append(time.perf_counter() - t)
            t = time.perf_counter()
            met = jax.block_until_ready(with_margin(Qj))
            times["mjx+margin"].append(time.perf_counter() - t)
        med = {k: statistics.median(v) for k, v in times.items()}
        mj = np.asarray(out[0])
        if not np.array_equal(mj[:, 0], cpp[:, 0]):
            print(f"  contact counts differ between MJX and MuJoCo's collision in {np.sum(mj[:, 0] != cpp[:, 0])} "
                  "states", file=sys.stderr)
        dev = np.max(np.abs(mj[:, 1] - cpp[:, 1]))
        print(f"{n} states: cpp {med['cpp'] * 1e3:.1f} ms, mjx {med['mjx'] * 1e3:.1f} ms "
              f"(ratio {med['mjx'] / med['cpp']:.2f}), mjx+margin {med['mjx+margin'] * 1e3:.1f} ms "
              f"(ratio {med['mjx+margin'] / med['cpp']:.2f}); per state cpp {med['cpp'] / n * 1e6:.1f} us, "
              f"mjx {med['mjx'] / n * 1e6:.1f} us; compile {compile_same:.1f} s / {compile_margin:.1f} s; "
              f"sigma_min MJX vs C++ (different collision code) max diff {dev:.1e}; margins converged "
              f"{int(np.sum(np.asarray(met.margin_converged)))}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
