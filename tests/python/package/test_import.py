"""`import mjhand`: one libmujoco shared with `mujoco`, the plugins registered by the package, the README example,
the pins, and refusal of a second mjhand copy."""
import os
import re
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


def test_ranges_in_pyproject_pins_in_constraints():
    """pyproject.toml states compatible ranges (no exact pin, no hard MuJoCo requirement), constraints.txt the exact
    versions CI installs, each inside its range; the running MuJoCo is the pinned one and inside mjhand's series."""
    from packaging.requirements import Requirement
    with open(os.path.join(SOURCE, "pyproject.toml"), "rb") as f:
        p = tomllib.load(f)
    with open(os.path.join(SOURCE, "constraints.txt")) as f:
        pins = dict(l.split("#")[0].strip().split("==") for l in f if l.split("#")[0].strip())
    reqs = [Requirement(r) for r in p["build-system"]["requires"] + p["project"]["dependencies"]]
    reqs += [Requirement(r) for extra, rs in p["project"]["optional-dependencies"].items() if extra != "mujoco" for r in rs]
    for r in reqs:
        assert "==" not in str(r.specifier), f"exact pin in pyproject.toml: {r}"
        assert r.name in pins, f"{r.name} has no pin in constraints.txt"
        assert r.specifier.contains(pins[r.name]), f"constraints.txt's {r.name}=={pins[r.name]} is outside {r}"
    assert not any(Requirement(r).name.startswith("mujoco") for r in p["project"]["dependencies"])
    core = next(r for r in reqs if r.name == "mujoco-core")
    assert pins["mujoco-core"] == mujoco.__version__ and core.specifier.contains(mujoco.__version__)
    low, below = mjhand._engine.SUPPORTED
    assert str(core.specifier) in (f"<{below[0]}.{below[1]},>={'.'.join(map(str, low))}",
                                   f">={'.'.join(map(str, low))},<{below[0]}.{below[1]}")
    assert mjhand.MUJOCO_BUILT_WITH.rsplit(".", 1)[0] == mujoco.__version__.rsplit(".", 1)[0]


@pytest.mark.parametrize("installed, message", [
    ({}, "none is installed: pip install \"mujoco>=4.0,<4.1\""),
    ({"mujoco": "3.17.0"}, "this environment has mujoco 3.17.0, which mjhand does not support"),
    ({"mujoco": "4.1.0", "mujoco-core": "4.1.0"}, "this environment has mujoco-core 4.1.0"),
    ({"mujoco-core": "3.99.9"}, "this environment has mujoco-core 3.99.9"),
    ({"mujoco": "4.0.0"}, "the mujoco 4.0.0 metapackage but no mujoco-core; repair it: pip install --force-reinstall"),
])
def test_an_unsupported_mujoco_is_named_with_the_fix(monkeypatch, installed, message):
    def version(dist):
        if dist not in installed:
            raise mjhand._engine._metadata.PackageNotFoundError(dist)
        return installed[dist]
    monkeypatch.setattr(mjhand._engine._metadata, "version", version)
    with pytest.raises(ImportError, match=re.escape(message)):
        mjhand._engine.check_installed()
    installed_ok = {"mujoco-core": "4.0.0"}  # both 4.0 releases are accepted
    monkeypatch.setattr(mjhand._engine._metadata, "version", lambda d: installed_ok[d] if d in installed_ok else
                        (_ for _ in ()).throw(mjhand._engine._metadata.PackageNotFoundError(d)))
    assert mjhand._engine.check_installed() == "4.0.0"


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


def test_typed_package_with_stubs_for_every_extension_name():
    """py.typed and _core.pyi ship with the package; the stub parses and declares every public name of the extension."""
    import ast
    package = os.path.dirname(mjhand.__file__)
    assert os.path.exists(os.path.join(package, "py.typed"))
    with open(os.path.join(package, "_core.pyi")) as f:
        tree = ast.parse(f.read())
    declared = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    declared |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    declared |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    public = {n for n in dir(mjhand._core) if not n.startswith("_")}
    assert public - declared == set()
    assert "Grasp" not in public and {"GraspAnalysis", "TreeChain", "model_chains"} <= declared


def test_plugin_library_ships_with_the_package():
    assert mjhand.PLUGIN_LIBRARY and os.path.exists(mjhand.PLUGIN_LIBRARY)
    assert os.path.basename(mjhand.PLUGIN_LIBRARY) == "libmjhand_plugins.so"


def test_a_broken_mujoco_install_is_named_with_the_repair(monkeypatch):
    """A mix of MuJoCo files (e.g. a 4.0 core unpacked over a 3.x package) makes `import mujoco` fail: mjhand says so,
    with the installed versions and the repair command, instead of passing the loader's error on bare."""
    monkeypatch.setitem(sys.modules, "mujoco", None)  # `import mujoco` raises ImportError
    with pytest.raises(ImportError, match=r"`import mujoco` fails in this environment \(.*mujoco-core 4\.0\.\d.*"
                                          r"repair the install with: pip install --force-reinstall --no-deps"):
        mjhand._engine.load_mujoco()
    with pytest.raises(ImportError, match="two MuJoCo libraries in one process"):
        mjhand._engine.check_one_libmujoco("/elsewhere/libmujoco.so.4.0.1", mjhand._LIBMUJOCO)


def test_python_m_mjhand_finds_packaged_models_by_name(tmp_path):
    """`python -m mjhand analyze grasp_sensor_scene.xml` from any folder: the name resolves to the package's models."""
    r = subprocess.run([sys.executable, "-m", "mjhand", "analyze", "grasp_sensor_scene.xml"], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"mjhand analyze {mjhand.model_path('grasp_sensor_scene.xml')}" in r.stdout
    r = subprocess.run([sys.executable, "-m", "mjhand", "analyze", "nope.xml"], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 1 and "(the mjhand package's models)" in r.stderr, r.stderr


def test_python_m_mjhand_plans_a_grasp_of_a_packaged_mjcf_hand(tmp_path):
    """`python -m mjhand plan real/allegro_scene.xml` (issue 31): any MJCF hand with a free object, by name, from any
    folder; exit 0 means a force-closure grasp was found, and its keyframe loads in MuJoCo with mjhand's plugins."""
    r = subprocess.run([sys.executable, "-m", "mjhand", "plan", "real/allegro_scene.xml", "--samples", "16", "--chains",
                        "1", "--steps", "4", "--jobs", "1", "--quiet", "--out", str(tmp_path / "plan")],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "force closure yes" in r.stdout
    m = mujoco.MjModel.from_xml_path(str(tmp_path / "plan" / "scene.xml"))
    assert m.key("best").ctrl.shape == (m.nu,)
    assert [float(v) for v in (tmp_path / "plan" / "best_ctrl.txt").read_text().split(",")] == list(m.key("best").ctrl)


def test_plan_grasps_on_a_mujoco_model_matches_the_cli_and_leaves_the_model_alone(tmp_path):
    """mjhand.plan_grasps(MjModel): the planner of `mjhand plan MODEL.xml` from Python (issue 31), on the user's own
    mujoco.MjModel: the same ranking as the CLI for the same seed (its ranked.csv), force closure found, gravity of
    the caller's model unchanged, deterministic for any jobs."""
    m = mujoco.MjModel.from_xml_path(mjhand.model_path("real/allegro_scene.xml"))
    gravity = m.opt.gravity.copy()
    ranked = mjhand.plan_grasps(m, samples=12, chains=1, steps=3, seed=4, jobs=2)
    assert len(ranked) == 12 + 3
    assert (m.opt.gravity == gravity).all() and m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_GRAVITY == 0
    best = ranked[0]
    assert best["force_closure"] and best["epsilon"] > 0 and best["status"] == "ok"
    assert best["qpos"].shape == (m.nq,) and best["ctrl"].shape == (m.nu,)
    assert [g["score"] for g in ranked] == sorted((g["score"] for g in ranked), reverse=True)
    assert [g["id"] for g in mjhand.plan_grasps(m, samples=12, chains=1, steps=3, seed=4, jobs=1)] == \
        [g["id"] for g in ranked]
    r = subprocess.run([sys.executable, "-m", "mjhand", "plan", "real/allegro_scene.xml", "--samples", "12", "--chains",
                        "1", "--steps", "3", "--seed", "4", "--jobs", "1", "--quiet", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = (tmp_path / "ranked.csv").read_text().splitlines()[1:]
    assert [int(row.split(",")[1]) for row in rows] == [g["id"] for g in ranked]
    with pytest.raises(ValueError, match="must have exactly one free joint"):
        mjhand.plan_grasps(m, object="base_link")


def test_mjx_without_its_extra_names_the_install_command():
    """mjhand.mjx needs the extra mjhand[mjx]; without JAX the import says so (the default tier has no JAX)."""
    code = "import sys; sys.modules['jax'] = None\nimport mjhand.mjx"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "pip install 'mjhand[mjx]'" in r.stderr, r.stderr
