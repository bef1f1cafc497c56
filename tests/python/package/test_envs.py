"""mjhand.envs: the Gymnasium grasp-and-lift environments (registered on import), checked with Gymnasium's own
env_checker, for seeding, truncation, the shaped reward (a scripted grasp earns it, lifts the object, and random
actions still get a signal) and rgb_array rendering."""
import os
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mjhand
from conftest import SOURCE

IDS = ["mjhand/GraspLift-Gripper-v0", "mjhand/GraspLift-Allegro-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_registered_and_check_env_passes(env_id):
    assert env_id in gym.registry
    env = gym.make(env_id)
    assert env.spec.max_episode_steps == 150
    check_env(env.unwrapped, skip_render_check=True)  # raises on any failed check
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_scripted_grasp_lifts_and_earns_more_than_random(env_id):
    env = gym.make(env_id)
    u = env.unwrapped
    obs, info = env.reset(seed=3)
    demo_return, success = 0.0, False
    for t in range(150):
        obs, r, term, trunc, info = env.step(u.demo_action(t))
        demo_return += r
        success = success or info["success"]
        assert not term, f"the scripted grasp dropped the object at step {t}"
        if trunc:
            break
    assert trunc and t == 149  # the registered TimeLimit
    assert success and info["force_closure"] and info["height"] >= u.lift_goal
    random_returns = []
    for episode in range(5):
        env.reset(seed=100 + episode)
        env.action_space.seed(episode)
        total = 0.0
        for t in range(150):
            _, r, term, trunc, info = env.step(env.action_space.sample())
            total += r
            if term or trunc:
                break
        random_returns.append(total)
    assert all(r > 0 for r in random_returns)  # the reach term: a signal without a grasp
    # random actions now and then cage the ball in the gripper's fingers and lift it: compare with their mean
    assert demo_return > 2 * np.mean(random_returns) and demo_return >= max(random_returns)
    env.close()


def test_seeded_reset_randomises_the_object_reproducibly():
    env = gym.make(IDS[0])
    o1, i1 = env.reset(seed=7)
    o2, i2 = env.reset(seed=7)
    o3, i3 = env.reset(seed=8)
    np.testing.assert_array_equal(o1, o2)
    assert i1["object_offset"].tolist() == i2["object_offset"].tolist() and i1["object_mass"] == i2["object_mass"]
    assert i1["object_offset"].tolist() != i3["object_offset"].tolist()
    assert np.max(np.abs(i3["object_offset"])) <= env.unwrapped.object_jitter
    with pytest.raises(ValueError, match="action must have shape"):
        env.step(np.zeros(3))
    with pytest.raises(ValueError, match="hand must be one of"):
        mjhand.envs.GraspLiftEnv("Nope")
    # gym.make's max_episode_steps is the episode length (the environment's own counter follows it), in both ways
    for limit in (20, 200):
        env = gym.make(IDS[0], max_episode_steps=limit)
        env.reset(seed=0)
        for t in range(limit):
            _, _, term, trunc, _ = env.step(env.unwrapped.demo_action(t))
            if term or trunc:
                break
        assert trunc and not term and t == limit - 1
    assert env.unwrapped.metadata["render_fps"] == 50  # 1 / (2 ms x 10)
    direct = mjhand.envs.GraspLiftEnv("Gripper", max_episode_steps=5)  # no gym.make: it counts itself
    direct.reset(seed=0)
    assert [direct.step(direct.demo_action(t))[3] for t in range(5)] == [False] * 4 + [True]


def test_rgb_array_rendering_headless():
    """In a process of its own: MUJOCO_GL is read when mujoco is imported (EGL here, no display)."""
    code = ("import gymnasium as gym, numpy as np, mjhand\n"
            "env = gym.make('mjhand/GraspLift-Gripper-v0', render_mode='rgb_array')\n"
            "env.reset(seed=0)\n"
            "for t in range(30): env.step(env.unwrapped.demo_action(t))\n"
            "img = env.render()\n"
            "assert img.shape == (240, 320, 3) and img.dtype == np.uint8, img.shape\n"
            "assert img.std() > 10, img.std()\n"
            "from gymnasium.utils.env_checker import check_env\n"
            "check_env(gym.make('mjhand/GraspLift-Allegro-v0', render_mode='rgb_array').unwrapped)\n"
            "print('ok', img.mean())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl")})
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


def test_vector_example_runs():
    """examples/python/grasp_lift_vec.py: the vector API (gym.make_vec), a few steps."""
    r = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "python", "grasp_lift_vec.py"), "--envs", "2",
                        "--steps", "20"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "steps/s" in r.stdout
