"""``python -m mjhand.view MODEL.xml``: MuJoCo's own viewer (mujoco.viewer) on a model with mjhand's plugins live.

Options: ``--keyframe K`` (name or index) starts from a keyframe; ``--duration S`` steps S seconds in a passive
viewer and exits (for scripts and tests; without it the interactive viewer runs until closed).
"""
import argparse
import sys
import threading

import mujoco
import mujoco.viewer

import mjhand  # noqa: F401  (registers the plugins)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m mjhand.view", description=__doc__.splitlines()[0])
    p.add_argument("model", help="MJCF file")
    p.add_argument("--keyframe", help="start from this keyframe (name or index)")
    p.add_argument("--duration", type=float, help="simulate this many seconds in a passive viewer, then exit")
    a = p.parse_args(argv)
    try:
        m = mujoco.MjModel.from_xml_path(a.model)
    except ValueError as e:
        print(f"mjhand.view: {a.model}: {e}", file=sys.stderr)
        return 1
    d = mujoco.MjData(m)
    if a.keyframe is not None:
        k = int(a.keyframe) if a.keyframe.isdigit() else mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, a.keyframe)
        if not 0 <= k < m.nkey:
            print(f"mjhand.view: {a.model}: no keyframe '{a.keyframe}' ({m.nkey} keyframes)", file=sys.stderr)
            return 2
        mujoco.mj_resetDataKeyframe(m, d, k)
    mujoco.mj_forward(m, d)
    if a.duration is None:
        mujoco.viewer.launch(m, d)
        return 0
    before = set(threading.enumerate())
    with mujoco.viewer.launch_passive(m, d) as v:
        end = d.time + a.duration
        step = 0
        while d.time < end and v.is_running():
            mujoco.mj_step(m, d)
            step += 1
            if step % 20 == 0:
                v.sync()
        v.sync()
        running = v.is_running()
    # close() only asks the viewer's (daemon) render thread to stop; leaving before it has stopped tears the window
    # down under it at interpreter exit (a crash in the GL driver, seen with mesa under Xvfb), so wait for it.
    for t in set(threading.enumerate()) - before:
        t.join(timeout=10)
    print(f"mjhand.view: {a.model}: simulated {d.time:.3f} s with {m.nplugin} plugin instances"
          f"{'' if running else ' (viewer closed)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
