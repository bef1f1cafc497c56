"""python -m mjhand.view MODEL.xml: MuJoCo's own viewer (mujoco.viewer) on a model with mjhand's plugins live,
or, with --screenshot/--video, pictures of the simulation rendered offscreen (no window).

Without --duration the interactive viewer runs until closed. With --duration S a passive viewer steps S seconds in
real time (--fast: as fast as it can) and exits. --screenshot FILE.png saves the state after --duration (default 0)
seconds; --video FILE.mp4|.gif records --duration (default 2) seconds at --fps frames per second. Contact points
and forces are drawn in both (--no-contacts: not). Headless machines: MUJOCO_GL=egl python -m mjhand.view ...
"""
import argparse
import os
import sys
import threading
import time

import mujoco

import mjhand  # noqa: F401  (registers the plugins)

__all__ = ["main", "parse", "load", "record", "view"]

from ._extras import require

USAGE_EPILOG = ("examples:\n"
                "  python -m mjhand.view models/grasp_sensor_scene.xml\n"
                "  python -m mjhand.view models/real/allegro_scene.xml --keyframe grasp --duration 2\n"
                "  MUJOCO_GL=egl python -m mjhand.view models/grasp_sensor_scene.xml --duration 1.5 --screenshot g.png\n"
                "  MUJOCO_GL=egl python -m mjhand.view models/grasp_sensor_scene.xml --video closing.mp4\n"
                "extras: pip install \"mjhand[viewer]\" (glfw and PyOpenGL for the window; Pillow, imageio for files)")


def parse(argv):
    """The command line (argparse exits with status 2 and a message on a bad one)."""
    p = argparse.ArgumentParser(prog="python -m mjhand.view", description=__doc__.split("\n\n")[0],
                                epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="MJCF file")
    p.add_argument("--keyframe", help="start from this keyframe (name or index)")
    p.add_argument("--duration", type=float, help="seconds to simulate (viewer: then exit; video: its length, default "
                   "2; screenshot: before it, default 0)")
    p.add_argument("--fast", action="store_true", help="passive viewer: do not pace the simulation to real time")
    p.add_argument("--screenshot", metavar="FILE.png", help="save one picture (offscreen, no window)")
    p.add_argument("--video", metavar="FILE.mp4|.gif", help="record a video (offscreen, no window)")
    p.add_argument("--fps", type=float, default=30.0, help="video frames per second of simulated time (default 30)")
    p.add_argument("--width", type=int, default=640, help="picture width (default 640)")
    p.add_argument("--height", type=int, default=480, help="picture height (default 480)")
    p.add_argument("--camera", help="camera name or index for pictures (default: the free camera)")
    p.add_argument("--target", metavar="BODY", help="pictures: the free camera looks at this body (e.g. the object)")
    p.add_argument("--distance", type=float, help="pictures: the camera's distance from --target [m] (default 0.3)")
    p.add_argument("--force-scale", type=float, help="pictures: force arrow length per newton [m/N] (default: the "
                   "model's vis.map.force)")
    p.add_argument("--no-contacts", action="store_true", help="pictures without contact points and forces")
    a = p.parse_args(argv)
    if a.duration is not None and not 0 <= a.duration < float("inf"):
        p.error(f"--duration must be a finite number >= 0, got {a.duration}")
    if not 0 < a.fps < float("inf"):
        p.error(f"--fps must be a finite number > 0, got {a.fps}")
    if a.video and os.path.splitext(a.video)[1].lower() not in (".mp4", ".gif"):
        p.error(f"--video: the file must end in .mp4 or .gif, got {a.video!r}")
    return a


def load(a):
    """The model and its data at the chosen keyframe (ValueError from MuJoCo, LookupError for a keyframe)."""
    m = mujoco.MjModel.from_xml_path(a.model)
    d = mujoco.MjData(m)
    if a.keyframe is not None:
        k = int(a.keyframe) if a.keyframe.isdigit() else mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, a.keyframe)
        if not 0 <= k < m.nkey:
            raise LookupError(f"no keyframe '{a.keyframe}' ({m.nkey} keyframes)")
        mujoco.mj_resetDataKeyframe(m, d, k)
    mujoco.mj_forward(m, d)
    return m, d


def record(a, m, d):
    """Offscreen: the screenshot after --duration, or a video of --duration seconds."""
    from . import render
    camera = None if a.camera is None else (int(a.camera) if a.camera.lstrip("-").isdigit() else a.camera)
    with render.Recorder(m, a.width, a.height, camera, contact_forces=not a.no_contacts, target=a.target,
                         distance=a.distance, force_scale=a.force_scale) as rec:
        # Counted in steps, not read off d.time (MuJoCo resets time when a simulation diverges): frame k shows
        # t0 + k / fps, to the nearest step; the video is duration x fps frames long, played at fps.
        h = m.opt.timestep
        if a.video:
            duration = 2.0 if a.duration is None else a.duration
            count = max(int(round(duration * a.fps)), 1)
            frames, step = [], 0
            for k in range(count):
                for _ in range(int(round(k / a.fps / h)) - step):
                    mujoco.mj_step(m, d)
                    step += 1
                frames.append(rec.frame(d))
            for _ in range(int(round(duration / h)) - step):
                mujoco.mj_step(m, d)
            render.save_video(frames, a.video, a.fps)
            print(f"mjhand.view: {a.video}: {len(frames)} frames, {d.time:.3f} s simulated")
        if a.screenshot:
            if not a.video:
                for _ in range(int(round((a.duration or 0.0) / h))):
                    mujoco.mj_step(m, d)
            render.save_png(rec.frame(d), a.screenshot)
            print(f"mjhand.view: {a.screenshot}: {a.width} x {a.height} at t = {d.time:.3f} s, {d.ncon} contacts")


def view(a, m, d):
    """MuJoCo's viewer: interactive, or passive for --duration seconds paced to real time."""
    require("glfw", "viewer", "the viewer window")
    viewer = require("mujoco.viewer", "viewer", "the viewer window")
    if a.duration is None:
        viewer.launch(m, d)
        return
    before = set(threading.enumerate())
    with viewer.launch_passive(m, d) as v:
        steps, t0_wall = int(round(a.duration / m.opt.timestep)), time.perf_counter()
        for step in range(1, steps + 1):
            if not v.is_running():
                break
            mujoco.mj_step(m, d)
            if step % 20 == 0:
                v.sync()
                if not a.fast:  # real time: wait until the wall clock catches up with the simulation
                    ahead = step * m.opt.timestep - (time.perf_counter() - t0_wall)
                    if ahead > 0:
                        time.sleep(ahead)
        v.sync()
        running = v.is_running()
    # close() only asks the viewer's (daemon) render thread to stop; leaving before it has stopped tears the window
    # down under it at interpreter exit (a crash in the GL driver, seen with mesa under Xvfb), so wait for it.
    for t in set(threading.enumerate()) - before:
        t.join(timeout=10)
    wall = time.perf_counter() - t0_wall
    print(f"mjhand.view: {a.model}: simulated {d.time:.3f} s in {wall:.2f} s wall clock"
          f"{' (fast)' if a.fast else ''} with {m.nplugin} plugin instances{'' if running else ' (viewer closed)'}")


def main(argv=None):
    """python -m mjhand.view ARGS; returns the exit status (0 ok, 1 model error, 2 usage or environment)."""
    a = parse(argv)
    try:
        m, d = load(a)
    except ValueError as e:
        print(f"mjhand.view: {a.model}: {e}", file=sys.stderr)
        return 1
    except LookupError as e:
        print(f"mjhand.view: {a.model}: {e}", file=sys.stderr)
        return 2
    try:
        if a.screenshot or a.video:
            record(a, m, d)
        else:
            view(a, m, d)
    except (ImportError, RuntimeError, ValueError) as e:
        print(f"mjhand.view: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
