"""The Playground-style example environment (examples/python/mjx_grasp_env.py) and docs/python.md's MJX block."""
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np

import mjhand.mjx as mh

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from readme_blocks import readme_python_block  # noqa: E402

import mjx_grasp_env  # noqa: E402  (examples/python, on sys.path by conftest)


def test_environment_reward_is_the_grasp_margin_of_its_state():
    env = mjx_grasp_env.AllegroHold()
    reset = jax.jit(jax.vmap(env.reset))
    step = jax.jit(jax.vmap(env.step))
    state = reset(jax.random.split(jax.random.PRNGKey(3), 3))
    for i in range(3):
        state = step(state, 0.2 * jax.random.normal(jax.random.PRNGKey(i), (3, env.action_size)))
    again = jax.jit(jax.vmap(lambda d: mh.grasp_metrics(env.spec, env.mjx_model, d)))(state.data)
    expected = np.where(np.asarray(state.done) > 0, -1.0, np.asarray(again.margin + 0.5 * again.sigma_min))
    assert np.allclose(np.asarray(state.reward), expected, rtol=1e-12, atol=1e-12)
    assert np.all(np.asarray(state.done) == 0), "small actions keep the ball"
    assert np.all(np.asarray(state.metrics["contacts"]) >= 3) and np.all(np.asarray(again.margin) > 0)
    assert np.all(np.isfinite(np.asarray(state.obs))) and state.obs.shape == (3, 35)
    # the servo targets moved the fingers: the states differ from each other
    assert float(jnp.max(jnp.abs(state.data.qpos[0, :16] - state.data.qpos[1, :16]))) > 1e-4


def test_docs_block_runs_and_agrees_with_the_cpp_analysis():
    r = subprocess.run([sys.executable, "-c", readme_python_block("## Grasp metrics on MJX", "docs/python.md")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("4 contacts, sigma_min 0.03493, margin 0.1174"), lines
    assert lines[1] == "C++ sigma_min 0.03493", lines
    assert lines[2].startswith("batch: margin ") and "per rad" in lines[2], lines


def test_every_public_name_is_documented_with_a_signature():
    import inspect
    names = [n for n in dir(mh) if not n.startswith("_")]
    own = [getattr(mh, n) for n in names if getattr(getattr(mh, n), "__module__", "") == "mjhand.mjx"]
    assert len(own) >= 15
    for obj in own:
        assert (obj.__doc__ or "").strip(), obj
        if callable(obj):
            inspect.signature(obj)
