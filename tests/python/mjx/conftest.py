"""The mjx tier (scripts/test-mjx.sh): mjhand.mjx against the C++ analysis, in float64 on JAX's CPU backend."""
import os
import sys

import mjhand.mjx  # noqa: F401  (first: fails the tier when the extra is missing, instead of skipping)
import jax
import mujoco
import numpy as np

jax.config.update("jax_enable_x64", True)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "python"))

import mjhand  # noqa: E402

# The shipped scenes and two models/real/ hands: (scene, object). Scenes with mjhand's plugins go to MJX without them
# (mjhand.mjx.bare_model); their grasp states come from the full model, controllers and all.
SCENES = [
    ("egrasp_scene.xml", "ball"),
    ("scenarios/precision_sphere.xml", "object"),
    ("scenarios/power_sphere.xml", "ball"),
    ("scenarios/precision_box.xml", "object"),
    ("real/allegro_scene.xml", "ball"),
    ("real/robotiq_2f85_scene.xml", "box"),
]


def grasp_states(scene, obj, times=(0.6, 1.0, 1.5)):
    """qpos of the full scene at `times` [s] after its first keyframe (or its initial state), simulated on the CPU
    with its controllers; only states where the object touches the hand."""
    m = mujoco.MjModel.from_xml_path(mjhand.model_path(scene))
    d = mujoco.MjData(m)
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    out = []
    for t in times:
        while d.time < t:
            mujoco.mj_step(m, d)
        mujoco.mj_forward(m, d)
        try:
            mjhand.grasp(m, d, obj)
        except mjhand.GraspError:
            continue
        out.append(d.qpos.copy())
    return out


def bare_state(scene, qpos):
    """The bare model (no plugins) and its CPU data at qpos after mj_forward."""
    m = mjhand.mjx.bare_model(mjhand.model_path(scene))
    d = mujoco.MjData(m)
    d.qpos[:] = qpos
    mujoco.mj_forward(m, d)
    return m, d


def stack(datas):
    """A batch (leading axis) of mjx.Data."""
    return jax.tree_util.tree_map(lambda *x: np.stack(x), *datas)
