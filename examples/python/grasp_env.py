"""A small Gymnasium environment on an mjhand scene: the ball and the mjhand.grasp_analysis sensor of
models/grasp_sensor_scene.xml with the e_GRASP hand of models/egrasp_hand.xml (MuJoCo position actuators, so the
action is the 12 joint targets [rad]); the reward is the grasp quality the sensor plugin reports live (sigma_min of G
while in force closure, else 0), the episode ends when the ball leaves the table. Observation: qpos, qvel, sensor.

Usage: python examples/python/grasp_env.py [--episodes 1] [--steps 200]   (random actions; plug in any agent)
"""
import argparse

import gymnasium as gym
import mujoco
import numpy as np

import mjhand


class GraspEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, frame_skip=10):
        with open(mjhand.model_path("grasp_sensor_scene.xml")) as f:
            xml = f.read().replace('file="egrasp_hand_servo.xml"', f'file="{mjhand.model_path("egrasp_hand.xml")}"')
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.data = mujoco.MjData(self.model)
        self.frame_skip = frame_skip
        self.ball = self.model.body("ball").id
        lo, hi = self.model.actuator_ctrlrange.T
        self.action_space = gym.spaces.Box(lo.astype(np.float32), hi.astype(np.float32))
        n = self.model.nq + self.model.nv + self.model.sensor("grasp").dim[0]
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, (n,), np.float64)

    def _obs(self):
        return np.concatenate([self.data.qpos, self.data.qvel, self.data.sensor("grasp").data])

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        mujoco.mj_resetData(self.model, self.data)
        mujoco.mj_forward(self.model, self.data)
        return self._obs(), {}

    def step(self, action):
        action = np.clip(np.asarray(action, dtype=float), self.action_space.low, self.action_space.high)
        self.data.ctrl[:] = action  # joint position targets of the hand's <position> actuators
        for _ in range(self.frame_skip):
            mujoco.mj_step(self.model, self.data)
        g = self.data.sensor("grasp").data  # contacts, sigma_min, isotropy, closure, ... (docs/grasp-sensor.md)
        reward = float(g[1]) if g[3] > 0 else 0.0
        fell = self.data.xpos[self.ball][2] < 0.39  # below the table top (z = 0.4 m)
        return self._obs(), reward, bool(fell), False, {"contacts": int(g[0]), "force_closure": bool(g[3])}


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--episodes", type=int, default=1)
    p.add_argument("--steps", type=int, default=200)
    a = p.parse_args()
    env = GraspEnv()
    for ep in range(a.episodes):
        obs, _ = env.reset(seed=ep)
        total = 0.0
        for t in range(a.steps):
            obs, r, term, trunc, info = env.step(env.action_space.sample())
            total += r
            if term or trunc:
                break
        print(f"episode {ep}: {t + 1} steps, return {total:.3f}, last contacts {info['contacts']}")
