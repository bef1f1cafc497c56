"""`import mjhand`: one libmujoco shared with `mujoco`, the plugins registered by the package, the README example,
the pins, and refusal of a second mjhand copy."""
import os
import subprocess
import sys
import tomllib

import mujoco
import numpy as np
import pytest

import mjhand
from conftest import SOURCE, model, run_python

sys.path.insert(0, os.path.join(SOURCE, "tests", "python"))  # the README block reader shared with tests/python
from readme_blocks import readme_python_block  # noqa: E402


def mapped_libmujoco():
    with open("/proc/self/maps") as f:
        return sorted({line.split()[-1] for line in f if "libmujoco.so" in line})


def test_one_libmujoco_shared_with_the_mujoco_module():
    files = mapped_libmujoco()
    assert len(files) == 1, files  # never a second copy
    wheel_lib = os.path.join(os.path.dirname(mujoco.__file__), f"libmujoco.so.{mujoco.__version__}")
    assert os.path.realpath(files[0]) == os.path.realpath(wheel_lib)
    assert os.path.realpath(mjhand._core._libmujoco_path()) == os.path.realpath(wheel_lib)
    assert mjhand.MUJOCO_VERSION == mujoco.__version__ == mujoco.mj_versionString()


def test_the_package_registered_the_plugins():
    assert mjhand.PLUGIN_TYPES >= 10
    assert os.path.realpath(mjhand._core._plugin_registrant()) == os.path.realpath(mjhand._core.__file__)
    # a model that declares mjhand plugins loads with no further step
    m = mujoco.MjModel.from_xml_path(model("pid_finger.xml"))
    assert m.nplugin >= 1


def test_readme_python_example_runs():
    r = run_python(readme_python_block("### Python package"))
    assert r.returncode == 0, r.stderr
    # the example prints the grasp's sigma_min(G), isotropy and epsilon: the hand holds the ball in force closure
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    assert any("force closure: True" in l for l in lines), r.stdout


def test_pins_one_mujoco_core_version():
    with open(os.path.join(SOURCE, "pyproject.toml"), "rb") as f:
        p = tomllib.load(f)
    build = [r for r in p["build-system"]["requires"] if r.startswith("mujoco-core")]
    run = [r for r in p["project"]["dependencies"] if r.startswith("mujoco-core")]
    assert build == run and len(run) == 1, (build, run)
    assert run[0] == f"mujoco-core=={mujoco.__version__}"
    for pin in p["build-system"]["requires"] + p["project"]["dependencies"]:
        assert "==" in pin, f"unpinned: {pin}"


def test_a_second_copy_of_the_plugins_is_refused_by_name():
    lib = os.environ.get("MJHAND_PLUGIN_LIBRARY", os.path.join(SOURCE, "build", "lib", "libmjhand_plugins.so"))
    if not os.path.exists(lib):
        pytest.fail(f"needs the build's plugin library {lib} (scripts/test.sh builds it first)")
    r = run_python(f"import mujoco; mujoco.mj_loadPluginLibrary({lib!r}); import mjhand")
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "already registered" in r.stderr and "libmjhand_plugins.so" in r.stderr, \
        r.stderr


def test_python_m_mjhand_is_the_cli(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mjhand", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "analyze" in r.stdout and "batch" in r.stdout, r.stdout + r.stderr
    out = tmp_path / "hand.xml"
    r = subprocess.run([sys.executable, "-m", "mjhand", "make-hand", model("egrasp_hand.yaml"), "-o", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=SOURCE)
    assert r.returncode == 0, r.stderr
    assert mujoco.MjModel.from_xml_path(str(out)).nu == mujoco.MjModel.from_xml_path(model("egrasp_hand.xml")).nu
    r = subprocess.run([sys.executable, "-m", "mjhand", "analyze", "/nonexistent.xml"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1 and "nonexistent.xml" in r.stderr


def test_models_shipped_with_the_package():
    assert os.path.exists(mjhand.model_path("grasp_sensor_scene.xml"))
    with pytest.raises(FileNotFoundError, match="no model 'nope.xml'"):
        mjhand.model_path("nope.xml")
