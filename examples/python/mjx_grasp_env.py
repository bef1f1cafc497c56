"""A MuJoCo Playground-style environment on MJX whose reward is mjhand.mjx's smooth force-closure margin: the Allegro
hand holds its ball (models/real/allegro_scene.xml, keyframe "grasp") and is rewarded for keeping a robust grasp.

The interface is Playground's MjxEnv (reset(rng) -> State, step(state, action) -> State, State with data, obs,
reward, done, metrics, info), written out here so that the example needs no package beyond mjhand[mjx]; both functions
are pure, so jax.jit(jax.vmap(env.step)) runs thousands of environments at once (docs/python.md, "Grasp metrics on
MJX"). Only the ball collides (mjhand.mjx.object_collisions_only): MJX evaluates every candidate pair every step.

Usage: python examples/python/mjx_grasp_env.py [--envs 64] [--steps 20] [--seed 0]
"""
import argparse
import time
from typing import Any, NamedTuple

import mjhand.mjx as mh
import jax
import jax.numpy as jnp
import mujoco
from mujoco import mjx

import mjhand


class State(NamedTuple):
    """Playground's State: the MJX data and what the learner sees."""
    data: Any
    obs: jax.Array
    reward: jax.Array
    done: jax.Array
    metrics: dict
    info: dict


class AllegroHold:
    """Hold the ball: actions move the 16 position-servo targets around the keyframe's (+-0.2 rad); the reward is the
    grasp's smooth force-closure margin (per unit of total grip force) plus 0.5 sigma_min(G), -1 once the ball has
    fallen 3 cm, which ends the episode."""

    n_substeps = 10  # 10 physics steps of 2 ms per control step
    action_scale = 0.2

    def __init__(self):
        m = mujoco.MjModel.from_xml_path(mjhand.model_path("real/allegro_scene.xml"))
        self.mj_model = mh.object_collisions_only(m, "ball")
        key = self.mj_model.key("grasp").id
        self.qpos0 = jnp.asarray(self.mj_model.key_qpos[key])
        self.ctrl0 = jnp.asarray(self.mj_model.key_ctrl[key])
        self.mjx_model = mjx.put_model(self.mj_model)
        self.spec = mh.grasp_spec(self.mj_model, "ball", max_contacts=8)
        self.ball = self.spec.object_body
        self.ball_z0 = float(self._settled_height())

    def _settled_height(self):
        d = mujoco.MjData(self.mj_model)
        mujoco.mj_resetDataKeyframe(self.mj_model, d, self.mj_model.key("grasp").id)
        mujoco.mj_forward(self.mj_model, d)
        return d.xipos[self.ball][2]

    @property
    def action_size(self):
        return self.mj_model.nu

    def _observe(self, d):
        return jnp.concatenate([d.qpos[:16], d.qvel[:16], d.xipos[self.ball] - jnp.array([0.06, 0.01, self.ball_z0])])

    def _reward(self, d):
        g = mh.grasp_metrics(self.spec, self.mjx_model, d)
        fallen = d.xipos[self.ball][2] < self.ball_z0 - 0.03
        return jnp.where(fallen, -1.0, g.margin + 0.5 * g.sigma_min), fallen, g

    def reset(self, rng):
        noise = jax.random.uniform(rng, (16,), minval=-0.01, maxval=0.01)
        d = mjx.make_data(self.mjx_model).replace(qpos=self.qpos0.at[:16].add(noise), ctrl=self.ctrl0)
        d = mjx.forward(self.mjx_model, d)
        reward, fallen, g = self._reward(d)
        return State(d, self._observe(d), reward, fallen.astype(float), {"margin": g.margin, "contacts": g.num_contacts},
                     {"rng": rng})

    def step(self, state, action):
        ctrl = self.ctrl0 + self.action_scale * jnp.clip(action, -1.0, 1.0)
        d = state.data.replace(ctrl=ctrl)
        d = jax.lax.fori_loop(0, self.n_substeps, lambda _, d: mjx.step(self.mjx_model, d), d)
        d = mjx.forward(self.mjx_model, d)  # contacts and positions of the new state, for the reward
        reward, fallen, g = self._reward(d)
        done = jnp.maximum(state.done, fallen.astype(float))
        return state._replace(data=d, obs=self._observe(d), reward=reward, done=done,
                              metrics={"margin": g.margin, "contacts": g.num_contacts})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    jax.config.update("jax_enable_x64", True)
    env = AllegroHold()
    reset = jax.jit(jax.vmap(env.reset))
    step = jax.jit(jax.vmap(env.step))
    rng = jax.random.split(jax.random.PRNGKey(a.seed), a.envs + 1)
    t = time.perf_counter()
    state = reset(rng[1:])
    total = jnp.zeros(a.envs)
    for i in range(a.steps):
        action = 0.1 * jax.random.normal(jax.random.fold_in(rng[0], i), (a.envs, env.action_size))
        state = step(state, action)
        total = total + state.reward * (1 - state.done)
    jax.block_until_ready(state)
    print(f"{a.envs} environments x {a.steps} steps in {time.perf_counter() - t:.1f} s (compile included): "
          f"return mean {float(total.mean()):.3f}, min {float(total.min()):.3f}; margin now mean "
          f"{float(state.metrics['margin'].mean()):.4f}; contacts mean {float(state.metrics['contacts'].mean()):.2f}; "
          f"dropped {int(state.done.sum())}")


if __name__ == "__main__":
    main()
