"""The Gymnasium grasp-and-lift environment of mjhand (mjhand.envs; docs/python.md, "Gymnasium environments"): a few
episodes with random actions and one with the scripted grasp, and an rgb_array frame saved as a PNG.

Usage: python examples/python/grasp_env.py [--hand Gripper|Allegro] [--episodes 3] [--png frame.png]
       (rendering needs an OpenGL context: MUJOCO_GL=egl headless, or a display)
"""
import argparse

import gymnasium as gym

import mjhand  # noqa: F401  (registers mjhand/GraspLift-*-v0)


def run(env, policy, seed):
    obs, info = env.reset(seed=seed)
    total, t = 0.0, 0
    while True:
        action = env.unwrapped.demo_action(t) if policy == "scripted" else env.action_space.sample()
        obs, reward, terminated, truncated, info = env.step(action)
        total, t = total + reward, t + 1
        if terminated or truncated:
            break
    print(f"{policy:8s} seed {seed}: {t} steps, return {total:7.2f}, {'dropped' if terminated else 'time limit'}, "
          f"height {info['height'] * 1000:5.1f} mm, force closure {info['force_closure']}, success {info['success']}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hand", default="Gripper", choices=sorted(mjhand.envs.TASKS))
    p.add_argument("--episodes", type=int, default=3)
    p.add_argument("--png", help="save the scripted episode's last frame here")
    a = p.parse_args()
    env = gym.make(f"mjhand/GraspLift-{a.hand}-v0", render_mode="rgb_array" if a.png else None)
    env.action_space.seed(0)
    for episode in range(a.episodes):
        run(env, "random", episode)
    run(env, "scripted", 0)
    if a.png:
        from PIL import Image  # matplotlib's dependency (extra [examples])
        Image.fromarray(env.render()).save(a.png)
        print("wrote", a.png)
    env.close()


if __name__ == "__main__":
    main()
