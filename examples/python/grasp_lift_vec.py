"""Many grasp-and-lift environments at once through Gymnasium's vector API (mjhand.envs, docs/python.md): random
actions, or the scripted grasp with --demo; prints the environment steps per second (BENCHMARKS.md).

Usage: python examples/python/grasp_lift_vec.py [--hand Gripper|Allegro] [--envs 4] [--steps 300] [--mode sync|async]
       [--demo]
"""
import argparse
import time

import gymnasium as gym
import numpy as np

import mjhand  # noqa: F401  (registers mjhand/GraspLift-*-v0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hand", default="Gripper", choices=sorted(mjhand.envs.TASKS))
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--mode", default="sync", choices=["sync", "async"])
    p.add_argument("--demo", action="store_true", help="the scripted grasp instead of random actions")
    a = p.parse_args()
    envs = gym.make_vec(f"mjhand/GraspLift-{a.hand}-v0", num_envs=a.envs, vectorization_mode=a.mode)
    obs, _ = envs.reset(seed=0)
    envs.action_space.seed(0)
    demo = mjhand.envs.GraspLiftEnv(a.hand)  # only for its demo_action (the same for every copy)
    returns, finished = np.zeros(a.envs), []
    t = np.zeros(a.envs, dtype=int)
    start = time.perf_counter()
    for _ in range(a.steps):
        actions = np.stack([demo.demo_action(k) for k in t]) if a.demo else envs.action_space.sample()
        obs, r, term, trunc, info = envs.step(actions)
        returns += r
        t += 1
        for i in np.flatnonzero(term | trunc):  # autoreset: the next step resets these
            finished.append(returns[i])
            returns[i], t[i] = 0.0, -1
    elapsed = time.perf_counter() - start
    envs.close()
    # Baseline in this process: the same number of bare mujoco.mj_step calls on the scene, the hand closing as in the
    # scripted grasp (contacts included), so the ratio is what the environment adds (grasp metrics, Python, vector API).
    import mujoco
    demo.reset(seed=0)
    m, d = demo.model, demo.data
    d.ctrl[:] = demo.ctrl_of(demo.demo_action(60))
    n = a.steps * a.envs * demo.frame_skip
    base = time.perf_counter()
    for _ in range(n):
        mujoco.mj_step(m, d)
    baseline = time.perf_counter() - base
    print(f"{a.hand} x {a.envs} ({a.mode}): {a.steps * a.envs / elapsed:.0f} env steps/s "
          f"({n / elapsed:.0f} MuJoCo steps/s; bare mj_step {n / baseline:.0f}/s, ratio {elapsed / baseline:.2f}), "
          f"{len(finished)} episodes finished" + (f", mean return {np.mean(finished):.1f}" if finished else ""))


if __name__ == "__main__":
    main()
