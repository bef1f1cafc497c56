"""MuJoCo's own viewer (mujoco.viewer of the mujoco-core wheel) opens an mjhand model with the plugins live.

Run by ctest under `xvfb-run -s "... -fbdir DIR"` (tests/CMakeLists.txt): Xvfb keeps its screen in DIR/Xvfb_screen0
(XWD format), which the test reads as the screenshot while the viewer shows the scene. Skipped (exit code 77 via
ctest's SKIP_REGULAR_EXPRESSION) only when MJHAND_FBDIR is not set, i.e. when run outside ctest.
"""
import os
import struct
import time
import zlib

import numpy as np
import pytest

import mujoco

SOURCE = os.environ.get("MJHAND_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FBDIR = os.environ.get("MJHAND_FBDIR")


def read_xwd(path):
    """The screen as an (h, w, 3) uint8 array from an XWD dump of a 24-bit TrueColor Xvfb screen."""
    with open(path, "rb") as f:
        data = f.read()
    fields = struct.unpack(">25I", data[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line, ncolors = fields[7], fields[11], fields[12], fields[19]
    assert bits_per_pixel == 32, bits_per_pixel
    start = header_size + 12 * ncolors
    raw = np.frombuffer(data[start:start + height * bytes_per_line], dtype=np.uint8).reshape(height, bytes_per_line)
    px = raw[:, :4 * width].reshape(height, width, 4)
    # LSBFirst (0): bytes are B, G, R, X.
    return px[:, :, [2, 1, 0]] if byte_order == 0 else px[:, :, [1, 2, 3]]


def write_png(path, rgb):
    h, w, _ = rgb.shape
    rows = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


@pytest.mark.skipif(not FBDIR, reason="needs ctest's xvfb-run -fbdir (MJHAND_FBDIR)")
def test_viewer_shows_the_grasp_scene_with_plugins_live():
    import mujoco.viewer

    mujoco.mj_loadPluginLibrary(os.environ["MJHAND_PLUGIN_LIBRARY"])
    m = mujoco.MjModel.from_xml_path(os.path.join(SOURCE, "models", "grasp_sensor_scene.xml"))
    d = mujoco.MjData(m)
    blank = None
    with mujoco.viewer.launch_passive(m, d, show_left_ui=False, show_right_ui=False) as viewer:
        viewer.cam.lookat[:] = [0.02, -0.022, 0.43]
        viewer.cam.distance, viewer.cam.azimuth, viewer.cam.elevation = 0.35, 120, -25
        for step in range(1000):  # 2 s: the hand closes on the ball
            mujoco.mj_step(m, d)
            if step % 10 == 0:
                viewer.sync()
        viewer.sync()
        time.sleep(1.0)  # the viewer renders on its own thread
        assert viewer.is_running()
        shot = read_xwd(os.path.join(FBDIR, "Xvfb_screen0"))
    grasp = d.sensor("grasp").data
    assert grasp[0] == 4 and grasp[3] == 1  # plugins live: the posture servos closed, the grasp sensor reports
    out = os.environ.get("MJHAND_SCREENSHOT", "")
    if out:  # the viewer's window only: the bounding box of the non-black pixels
        rows, cols = np.nonzero(shot.max(axis=2))
        write_png(out, np.ascontiguousarray(shot[rows.min():rows.max() + 1, cols.min():cols.max() + 1]))
    # A rendered scene, not an empty window: many colours, and the centre is not one flat colour.
    colours = np.unique(shot.reshape(-1, 3), axis=0)
    assert len(colours) > 200, len(colours)
    centre = shot[shot.shape[0] // 3: 2 * shot.shape[0] // 3, shot.shape[1] // 3: 2 * shot.shape[1] // 3]
    assert centre.reshape(-1, 3).std(axis=0).max() > 10
