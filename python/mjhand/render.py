"""Pictures and videos of a grasp, offscreen on ``mujoco.Renderer``: contact points and contact forces drawn by MuJoCo's
own visualiser, frames saved as PNG, GIF or MP4 (extra ``mjhand[viewer]``: Pillow, imageio with imageio-ffmpeg).

An OpenGL context is needed: a display, or ``MUJOCO_GL=egl`` (set before ``import mujoco``) on a headless machine.
"""
from __future__ import annotations

import os

import mujoco
import numpy as np

from ._extras import require

__all__ = ["grasp_image", "Recorder", "save_png", "save_video"]


def _scene_option(contact_forces: bool) -> mujoco.MjvOption:
    opt = mujoco.MjvOption()
    opt.flags[mujoco.mjtVisFlag.mjVIS_CONTACTPOINT] = contact_forces
    opt.flags[mujoco.mjtVisFlag.mjVIS_CONTACTFORCE] = contact_forces
    return opt


def _camera_id(model, camera) -> int:
    if camera is None or camera == -1:
        return -1
    if isinstance(camera, str):
        cam = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera)
        if cam < 0:
            names = [model.camera(i).name for i in range(model.ncam)]
            raise ValueError(f"no camera {camera!r}; the model's cameras: {names or 'none'} (or None: the free camera)")
        return cam
    if not 0 <= int(camera) < model.ncam:
        raise ValueError(f"camera index {camera} out of range (the model has {model.ncam} cameras)")
    return int(camera)


class Recorder:
    """An offscreen renderer for one model: ``frame(data)`` returns an RGB image (height x width x 3, uint8) with the
    contact points and forces drawn (``contact_forces``), from ``camera`` (a name, an index or None: the free camera,
    looking at the whole model, or at body ``target`` from ``distance`` metres, default 0.3). ``force_scale`` [m/N] is the length
    of the force arrows per newton (MuJoCo's ``vis.map.force`` / mean mass; the model is left unchanged)."""

    def __init__(self, model, width: int = 640, height: int = 480, camera=None, contact_forces: bool = True,
                 target=None, distance: float | None = None, force_scale: float | None = None):
        if width < 1 or height < 1:
            raise ValueError(f"width and height must be >= 1, got {width} x {height}")
        if width > model.vis.global_.offwidth or height > model.vis.global_.offheight:
            raise ValueError(f"{width} x {height} exceeds the model's offscreen buffer "
                             f"({model.vis.global_.offwidth} x {model.vis.global_.offheight}): raise <visual><global "
                             "offwidth offheight> in the MJCF")
        self.model = model
        self.camera = _camera_id(model, camera)
        self.target = None
        if target is not None:
            self.target = target if not isinstance(target, str) else mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY,
                                                                                         target)
            if not 0 <= self.target < model.nbody:
                raise ValueError(f"no body {target!r} to look at")
            if self.camera != -1:
                raise ValueError("give a camera or a target body, not both")
        self.distance = distance
        self.force_scale = force_scale
        if force_scale is not None and not force_scale > 0:
            raise ValueError(f"force_scale must be > 0 m/N, got {force_scale}")
        self.option = _scene_option(contact_forces)
        try:
            self.renderer = mujoco.Renderer(model, height, width)
        except Exception as e:  # no display and no MUJOCO_GL=egl: say so
            raise RuntimeError(f"no OpenGL context for offscreen rendering ({e}); on a machine without a display set "
                               "MUJOCO_GL=egl before importing mujoco") from e

    def frame(self, data) -> np.ndarray:
        camera = self.camera
        if self.target is not None:
            camera = mujoco.MjvCamera()
            mujoco.mjv_defaultFreeCamera(self.model, camera)
            camera.lookat[:] = data.xpos[self.target]
            camera.distance = self.distance or 0.3
        saved = self.model.vis.map.force
        if self.force_scale is not None:  # MuJoCo draws force * map.force / meanmass
            self.model.vis.map.force = self.force_scale * self.model.stat.meanmass
        try:
            self.renderer.update_scene(data, camera=camera, scene_option=self.option)
        finally:
            self.model.vis.map.force = saved
        return self.renderer.render()

    def close(self) -> None:
        self.renderer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def grasp_image(model, data, width: int = 640, height: int = 480, camera=None, contact_forces: bool = True,
                target=None, distance: float | None = None, force_scale: float | None = 0.02):
    """One picture of data's state with its contact points and forces (MuJoCo's arrows, 2 cm per newton by default),
    from ``camera`` or looking at body ``target`` (e.g. the grasped object)."""
    with Recorder(model, width, height, camera, contact_forces, target, distance, force_scale) as r:
        return r.frame(data)


def save_png(image, path: str) -> None:
    """Saves an RGB image (H x W x 3 uint8) as a PNG (Pillow)."""
    Image = require("PIL.Image", "viewer", "saving a PNG")
    Image.fromarray(np.asarray(image, dtype=np.uint8)).save(path, format="PNG")


def save_video(frames, path: str, fps: float = 30.0) -> None:
    """Saves RGB frames as .mp4 (imageio with imageio-ffmpeg's ffmpeg) or .gif (Pillow)."""
    frames = [np.asarray(f, dtype=np.uint8) for f in frames]
    if not frames:
        raise ValueError("no frames to save")
    ext = os.path.splitext(path)[1].lower()
    if ext == ".gif":
        Image = require("PIL.Image", "viewer", "saving a GIF")
        images = [Image.fromarray(f) for f in frames]
        images[0].save(path, save_all=True, append_images=images[1:], duration=int(round(1000 / fps)), loop=0)
    elif ext == ".mp4":
        iio = require("imageio.v2", "viewer", "saving an MP4")
        require("imageio_ffmpeg", "viewer", "saving an MP4")
        with iio.get_writer(path, fps=fps, codec="libx264", quality=8, macro_block_size=1) as w:
            for f in frames:
                w.append_data(f)
    else:
        raise ValueError(f"video file must end in .mp4 or .gif, got {path!r}")
