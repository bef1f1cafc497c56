"""Gymnasium environments: grasp and lift an object with an mjhand hand, rewarded by mjhand's grasp metrics.

Registered when ``import mjhand`` finds gymnasium (extra ``mjhand[gym]``): ``gym.make("mjhand/GraspLift-Gripper-v0")``
(the four-finger gripper mjhand generates from models/gripper4x3.yaml) and ``gym.make("mjhand/GraspLift-Allegro-v0")``
(models/real/allegro_hand.xml, its maker-style gains); ``gym.make("mjhand:mjhand/GraspLift-Allegro-v0")`` imports
mjhand itself. docs/python.md ("Gymnasium environments") describes the task, the observation and the reward.

The scene is built with ``mujoco.MjSpec`` from the hand's own MJCF: the hand's root body gets a vertical slide joint
``lift`` (a position servo, the last action) and gravity compensation, the object rests on a support under the open
hand, where the hand's closing motion meets it. Actions are in [-1, 1], mapped onto each actuator's ctrlrange.
"""
from __future__ import annotations

import dataclasses
import os

import mujoco
import numpy as np

from . import _core
from ._extras import require

gym = require("gymnasium", "gym", "mjhand.envs")
from .grasp import hand as _hand

__all__ = ["GraspLiftEnv", "HandTask", "TASKS", "register"]


@dataclasses.dataclass(frozen=True)
class HandTask:
    """One hand's grasp-and-lift scene (lengths in m, masses in kg)."""

    hand_xml: str                 # the hand's MJCF, relative to mjhand's models folder
    root: str                     # the hand's root body: it gets the lift joint
    object_pos: tuple             # the object's centre at rest, world frame
    object_radius: float          # a sphere
    object_mass: float
    support: str                  # "table": a box top under the object; "post": a thin cylinder under it
    closed_ctrl: tuple            # finger ctrl that closes the hand on the object (the scripted demo's target)
    object_friction: tuple = (1.0, 0.005, 0.0001)
    lift_kp: float = 400.0        # lift servo [N/m]; the hand is gravity-compensated
    lift_kv: float = 60.0         # [N s/m]
    lift_range: float = 0.12      # [m]
    root_pos: tuple | None = None   # where to put the hand's root body (default: where its MJCF puts it)
    root_quat: tuple | None = None


TASKS = {
    # The four-finger gripper mjhand generates from models/gripper4x3.yaml (SynGrasp-Simscape's Fig. 5, position
    # servos kp 4), turned palm down 0.2 m above the floor; a 30 mm-radius ball on a post between its fingers.
    "Gripper": HandTask("gripper4x3.xml", "palm", (0.0, 0.0, 0.12), 0.03, 0.05, "post", (1.0,) * 12,
                        root_pos=(0, 0, 0.2), root_quat=(0, 1, 0, 0)),
    # The Allegro-style hand, palm down as in models/real/allegro_scene.xml, its own gains: the ball where that scene's
    # keyframe "grasp" holds it, on a post; closed_ctrl is the keyframe's ctrl, fingers x 1.2 and thumb x 1.3 so that
    # the weak servos squeeze (measured: the keyframe's own ctrl drops the ball when lifted).
    "Allegro": HandTask("real/allegro_hand.xml", "base_link", (0.026, 0.0185, 0.2338), 0.035, 0.05, "post",
                        tuple([0, 0.72, 1.08, 0.864] * 3 + [1, 0.52, 1.04, 1.04])),
}


def _models_dir():
    from . import MODELS_DIR
    return MODELS_DIR


def build_scene(task: HandTask) -> mujoco.MjSpec:
    """The task's MjSpec: hand + lift joint and servo + support + free object named 'object'."""
    spec = mujoco.MjSpec.from_file(os.path.join(_models_dir(), task.hand_xml))
    root = spec.body(task.root)
    if root is None:
        raise ValueError(f"{task.hand_xml} has no body {task.root!r}")
    if task.root_pos is not None:
        root.pos = list(task.root_pos)
    if task.root_quat is not None:
        root.quat = list(task.root_quat)
    # The lift moves along the world's z: the joint axis is given in the root's frame (a child of the world).
    conj = np.array(root.quat, dtype=float) * [1, -1, -1, -1]
    axis = np.zeros(3)
    mujoco.mju_rotVecQuat(axis, np.array([0.0, 0.0, 1.0]), conj / np.linalg.norm(conj))
    lift = root.add_joint(name="lift", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=axis)
    lift.range = [0, task.lift_range]
    lift.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    for b in spec.bodies:
        if b.name != "world":
            b.gravcomp = 1.0  # the lift servo only accelerates the hand; the fingers' own servos see no change
    act = spec.add_actuator(name="lift", target="lift", trntype=mujoco.mjtTrn.mjTRN_JOINT)
    act.set_to_position(kp=task.lift_kp, kv=task.lift_kv)
    act.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    act.ctrlrange = [0, task.lift_range]
    x, y, z = task.object_pos
    top = z - task.object_radius
    world = spec.worldbody
    world.add_light(pos=[0.3, -0.6, 1.5], dir=[-0.2, 0.4, -1])
    floor = world.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1, 1, 0.05])
    floor.rgba = [0.2, 0.25, 0.3, 1]
    if task.support == "table":
        table = world.add_geom(name="support", type=mujoco.mjtGeom.mjGEOM_BOX, pos=[x, y, top / 2],
                               size=[0.12, 0.12, top / 2])
    else:
        table = world.add_geom(name="support", type=mujoco.mjtGeom.mjGEOM_CYLINDER, pos=[x, y, top / 2],
                               size=[0.4 * task.object_radius, top / 2, 0])
    table.rgba = [0.55, 0.42, 0.3, 1]
    obj = world.add_body(name="object", pos=[x, y, z])
    obj.add_freejoint(name="object_free")
    g = obj.add_geom(name="object", type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[task.object_radius, 0, 0],
                     mass=task.object_mass, condim=4)
    g.friction = list(task.object_friction)
    g.rgba = [0.2, 0.5, 0.8, 1]
    cam = world.add_camera(name="side", pos=[x + 0.45, y - 0.45, z + 0.25])
    cam.mode = mujoco.mjtCamLight.mjCAMLIGHT_TARGETBODY
    cam.targetbody = "object"
    return spec


class GraspLiftEnv(gym.Env):
    """Grasp the object and lift it ``lift_goal`` metres.

    Observation (float64): the hand's joint positions and velocities (lift joint included), the object's position,
    quaternion and 6-D velocity, and five grasp features from mjhand: contacts with the hand, the fraction of fingers
    touching, sigma_min(G), force closure (0/1) and reach (the mean over fingers of exp(-gap / 2 cm), gap = distance of
    the finger's last body from the object's surface). Reward per step (each term in [0, 1], weights ``weights``):
    reach + fingers touching + sigma_min(G) / ``sigma_scale`` (capped at 1) + force closure + height gained /
    ``lift_goal`` (only while force closure holds, capped at 1). Terminates when the object falls off (below its support's top);
    truncates after ``max_episode_steps``. ``reset(seed=...)`` moves the object by up to ``object_jitter`` metres in
    x and y and scales its mass by up to ``mass_jitter``; the same seed gives the same episode.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50}  # per instance: 1 / (timestep x frame_skip)

    def __init__(self, hand: str = "Gripper", render_mode: str | None = None, frame_skip: int = 10,
                 max_episode_steps: int = 150, lift_goal: float = 0.05, object_jitter: float = 0.004,
                 mass_jitter: float = 0.2, sigma_scale: float = 0.3, weights=(0.1, 0.25, 0.25, 0.25, 1.0),
                 width: int = 320, height: int = 240):
        if hand not in TASKS:
            raise ValueError(f"hand must be one of {sorted(TASKS)}, got {hand!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if frame_skip < 1 or max_episode_steps < 1:
            raise ValueError("frame_skip and max_episode_steps must be >= 1")
        self.task = TASKS[hand]
        self.hand_name = hand
        self.model = build_scene(self.task).compile()
        self.data = mujoco.MjData(self.model)
        self.metadata = {**self.metadata, "render_fps": int(round(1.0 / (self.model.opt.timestep * frame_skip)))}
        self.render_mode = render_mode
        self.frame_skip, self.max_episode_steps = frame_skip, max_episode_steps
        self.lift_goal, self.object_jitter, self.mass_jitter = lift_goal, object_jitter, mass_jitter
        self.sigma_scale, self.weights = sigma_scale, tuple(weights)
        self.width, self.height = width, height
        m = self.model
        self.object = m.body("object").id
        self.hand = _hand(m, "object")
        self.analysis = _core.GraspAnalysis(m, self.hand, 64, "eq2")
        self._closure = _core.ForceClosureLP(64, 8)
        self._obj_qpos = m.jnt_qposadr[m.joint("object_free").id]
        self._obj_dof = m.jnt_dofadr[m.joint("object_free").id]
        hand_joints = [j for j in range(m.njnt) if j != m.joint("object_free").id]
        self._qpos_idx = np.array([m.jnt_qposadr[j] for j in hand_joints])
        self._dof_idx = np.array([m.jnt_dofadr[j] for j in hand_joints])
        self._lo, self._hi = m.actuator_ctrlrange[:, 0].copy(), m.actuator_ctrlrange[:, 1].copy()
        if not np.all(m.actuator_ctrllimited) or np.any(self._hi <= self._lo):
            raise ValueError(f"{self.task.hand_xml}: every actuator needs a ctrlrange (actions are scaled onto it)")
        self._base_mass = float(m.body_mass[self.object])
        self._base_inertia = m.body_inertia[self.object].copy()
        self._base_pos = np.array(self.task.object_pos)
        self._support_top = self.task.object_pos[2] - self.task.object_radius
        self.action_space = gym.spaces.Box(-1.0, 1.0, (m.nu,), np.float32)
        self._tips = [self.hand.finger_bodies(i)[-1] for i in range(len(self.hand.finger_roots))]
        n_obs = len(self._qpos_idx) + len(self._dof_idx) + 13 + 5
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, (n_obs,), np.float64)
        self._renderer = None
        self._steps = 0
        self._z0 = float(self._base_pos[2])

    # The action that closes the hand on the object and then lifts: a scripted demonstration (docs, tests, BENCHMARKS).
    def demo_action(self, step: int) -> np.ndarray:
        """Fingers to the task's closed_ctrl from the start; from step 40 the lift target rises 1.5 mm per step."""
        ctrl = np.array(list(self.task.closed_ctrl) + [min(max(step - 40, 0) * 0.0015, self.task.lift_range)])
        ctrl = np.clip(ctrl, self._lo, self._hi)
        return (2 * (ctrl - self._lo) / (self._hi - self._lo) - 1).astype(np.float32)

    def ctrl_of(self, action) -> np.ndarray:
        """The actuator controls an action in [-1, 1] stands for (each actuator's ctrlrange; clipped to it)."""
        a = np.clip(np.asarray(action, dtype=np.float64), -1.0, 1.0)
        return self._lo + (a + 1) * 0.5 * (self._hi - self._lo)

    def _features(self):
        self.analysis.compute(self.data)
        contacts = self.analysis.contacts
        fingers = {c.finger for c in contacts if c.finger >= 0}
        n_fingers = max(len(self.hand.finger_roots), 1)
        sigma = float(self.analysis.sigma_min) if contacts else 0.0
        # The sensor's hull-free LP (microseconds; is_force_closure builds the L1 hull: 30 ms at 9 soft contacts).
        closure = bool(contacts) and self._closure.evaluate(contacts, self.analysis.reference) == \
            _core.ForceClosureResult.CLOSURE
        # Reach: how close each finger's last body is to the object's surface, 1 when touching, e^-1 at 2 cm.
        centre = self.data.xpos[self.object]
        gaps = [max(np.linalg.norm(self.data.xpos[b] - centre) - self.task.object_radius, 0.0) for b in self._tips]
        reach = float(np.mean(np.exp(-np.array(gaps) / 0.02))) if gaps else 0.0
        return np.array([len(contacts), len(fingers) / n_fingers, sigma, float(closure), reach])

    def _obs(self, features):
        d, q, v = self.data, self._obj_qpos, self._obj_dof
        return np.concatenate([d.qpos[self._qpos_idx], d.qvel[self._dof_idx], d.qpos[q:q + 7], d.qvel[v:v + 6],
                               features])

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        m, d = self.model, self.data
        mujoco.mj_resetData(m, d)
        dx, dy = self.np_random.uniform(-self.object_jitter, self.object_jitter, 2)
        scale = 1 + self.np_random.uniform(-self.mass_jitter, self.mass_jitter)
        m.body_mass[self.object] = self._base_mass * scale  # the same density: inertia scales with the mass
        m.body_inertia[self.object] = self._base_inertia * scale
        mujoco.mj_setConst(m, d)  # the constants derived from masses (invweight0, subtree masses)
        d.qpos[self._obj_qpos:self._obj_qpos + 3] = self._base_pos + [dx, dy, 0]
        mujoco.mj_forward(m, d)
        self._steps = 0
        self._z0 = float(d.xpos[self.object][2])
        features = self._features()
        return self._obs(features), {"object_offset": np.array([dx, dy]), "object_mass": float(m.body_mass[self.object])}

    def step(self, action):
        a = np.asarray(action, dtype=np.float64)
        if a.shape != (self.model.nu,):
            raise ValueError(f"action must have shape ({self.model.nu},), got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError("action has a non-finite entry")
        self.data.ctrl[:] = self.ctrl_of(a)
        for _ in range(self.frame_skip):
            mujoco.mj_step(self.model, self.data)
        self._steps += 1
        f = self._features()
        height = float(self.data.xpos[self.object][2]) - self._z0
        w = self.weights
        lifted = min(max(height / self.lift_goal, 0.0), 1.0) if f[3] > 0 else 0.0
        reward = (w[0] * f[4] + w[1] * f[1] + w[2] * min(f[2] / self.sigma_scale, 1.0) + w[3] * f[3] +
                  w[4] * lifted)
        fell = float(self.data.xpos[self.object][2]) < self._support_top - 0.02
        # Made by gym.make, the TimeLimit wrapper truncates (at the registered or the given max_episode_steps);
        # constructed directly, the environment counts itself.
        truncated = self.spec is None and self._steps >= self.max_episode_steps and not fell
        info = {"reach": float(f[4]), "contacts": int(f[0]), "fingers_touching": float(f[1]), "sigma_min": float(f[2]),
                "force_closure": bool(f[3]), "height": height, "success": bool(f[3] > 0 and height >= self.lift_goal)}
        return self._obs(f), float(reward), bool(fell), bool(truncated), info

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        if self._renderer is None:
            self._renderer = mujoco.Renderer(self.model, self.height, self.width)
        self._renderer.update_scene(self.data, camera="side")
        return self._renderer.render()

    def close(self):
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None


def register():
    """Registers mjhand/GraspLift-<Hand>-v0 for every hand of TASKS (idempotent)."""
    for name in TASKS:
        env_id = f"mjhand/GraspLift-{name}-v0"
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="mjhand.envs:GraspLiftEnv", kwargs={"hand": name},
                         max_episode_steps=150)


register()
