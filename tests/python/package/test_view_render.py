"""python -m mjhand.view's offscreen pictures (--screenshot, --video), mjhand.render's grasp picture with contact
forces, real-time pacing, and the messages that name a missing extra."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE

SCENE = os.path.join(SOURCE, "models", "grasp_sensor_scene.xml")
EGL = {**os.environ, "MUJOCO_GL": os.environ.get("MUJOCO_GL", "egl")}


def view(*args, env=EGL, timeout=300):
    return subprocess.run([sys.executable, "-m", "mjhand.view", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_screenshot_and_videos(tmp_path):
    from PIL import Image
    png, mp4, gif = tmp_path / "g.png", tmp_path / "g.mp4", tmp_path / "g.gif"
    r = view(SCENE, "--duration", "1.5", "--screenshot", str(png), "--target", "ball", "--width", "320",
             "--height", "240")
    assert r.returncode == 0, r.stderr
    assert "320 x 240 at t = 1.500 s" in r.stdout
    img = Image.open(png)
    assert img.size == (320, 240) and img.getextrema()[0][1] > img.getextrema()[0][0]
    r = view(SCENE, "--duration", "1", "--video", str(gif), "--fps", "10", "--width", "160", "--height", "120")
    assert r.returncode == 0, r.stderr
    assert Image.open(gif).n_frames == 10  # t = 0, 0.1, ..., 0.9: 1 s at 10 frames per second
    r = view(SCENE, "--duration", "0.5", "--video", str(mp4), "--width", "160", "--height", "120")
    assert r.returncode == 0, r.stderr
    assert "15 frames, 0.500 s simulated" in r.stdout and mp4.stat().st_size > 1000
    with open(mp4, "rb") as f:
        assert f.read(12)[4:8] == b"ftyp"  # an MP4 container
    for bad, msg in ((["--video", str(tmp_path / "x.avi")], "must end in .mp4 or .gif"),
                     (["--fps", "0", "--video", str(gif)], "--fps must be"),
                     (["--duration", "nan", "--screenshot", str(png)], "--duration must be"),
                     (["--screenshot", str(png), "--camera", "nope"], "no camera 'nope'"),
                     (["--screenshot", str(png), "--target", "nope"], "no body 'nope'")):
        r = view(SCENE, *bad)
        assert r.returncode == 2 and msg in r.stderr, (bad, r.stderr)


def test_grasp_image_draws_the_contact_forces():
    code = f"""
import mujoco, numpy as np, mjhand, mjhand.render as R
m = mujoco.MjModel.from_xml_path({SCENE!r}); d = mujoco.MjData(m)
for _ in range(750): mujoco.mj_step(m, d)
assert d.ncon >= 4
with_f = R.grasp_image(m, d, 200, 150, target="ball", distance=0.2)
without = R.grasp_image(m, d, 200, 150, target="ball", distance=0.2, contact_forces=False)
force = m.vis.map.force
assert with_f.shape == (150, 200, 3) and with_f.dtype == np.uint8
changed = np.any(with_f != without, axis=2).mean()
assert 0.005 < changed < 0.5, changed  # the arrows (and points) cover part of the picture
assert m.vis.map.force == force  # the model is left as it was
print("changed", changed)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=EGL)
    assert r.returncode == 0 and "changed" in r.stdout, r.stdout + r.stderr


def test_help_is_plain_text():
    r = view("--help")
    assert r.returncode == 0 and "``" not in r.stdout and "--screenshot" in r.stdout and "mjhand[viewer]" in r.stdout


BLOCK = "import sys\nfor name in {names!r}: sys.modules[name] = None\n"


def blocked(names, code):
    return subprocess.run([sys.executable, "-c", BLOCK.format(names=names) + code], capture_output=True, text=True,
                          timeout=300, env=EGL)


def test_missing_extras_are_named():
    r = blocked(["glfw", "mujoco.viewer"], f"from mjhand import view\nsys.exit(view.main([{SCENE!r}, '--duration', '0.1']))")
    assert r.returncode == 2 and 'pip install "mjhand[viewer]"' in r.stderr, r.stderr
    r = blocked(["PIL", "PIL.Image"], f"from mjhand import view\nsys.exit(view.main([{SCENE!r}, '--screenshot', '/tmp/x.png']))")
    assert r.returncode == 2 and 'saving a PNG needs PIL' in r.stderr and "mjhand[viewer]" in r.stderr, r.stderr
    campaign = os.path.join(SOURCE, "models", "campaigns", sorted(os.listdir(os.path.join(SOURCE, "models", "campaigns")))[0])
    r = blocked(["ray"], f"from mjhand.ray_batch import main\nsys.exit(main([{campaign!r}, '--ray', 'local']))")
    assert r.returncode == 2 and 'pip install "mjhand[ray]"' in r.stderr, r.stderr
    r = blocked(["gymnasium"], "import mjhand\nassert not hasattr(mjhand, 'envs') or 'mjhand.envs' not in sys.modules\n"
                               "try:\n    import mjhand.envs\nexcept ImportError as e:\n    print(e)\n")
    assert r.returncode == 0 and 'mjhand.envs needs gymnasium' in r.stdout and 'pip install "mjhand[gym]"' in r.stdout, \
        r.stdout + r.stderr


@pytest.mark.skipif(not __import__("shutil").which("xvfb-run"), reason="needs xvfb-run (Debian xvfb)")
def test_passive_viewer_runs_in_real_time():
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", sys.executable, "-m", "mjhand.view", SCENE,
                        "--duration", "1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    wall = float(r.stdout.split(" in ")[1].split(" s wall")[0])
    assert wall >= 0.95  # paced: 1 s simulated takes at least 1 s (unpaced it takes ~0.2 s here)
