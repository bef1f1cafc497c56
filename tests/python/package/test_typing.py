"""Docstrings, signatures and type stubs of the installed package: every public name documented, every function and
constructible class with an inspect.signature, the shipped stubs (_core.pyi, py.typed) type-checking the examples with
mypy and catching a wrong call."""
import inspect
import os
import subprocess
import sys
import types

import mjhand
from conftest import SOURCE

SUBMODULES = ("controllers", "envs", "render", "grasp", "builders", "view", "ray_batch")


def public(module):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for name in names:
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType) or not (callable(obj) or isinstance(obj, type)):
            continue
        if getattr(obj, "__module__", "").split(".")[0] not in ("mjhand",):
            continue  # re-exported third-party names (numpy, mujoco)
        yield name, obj


def constructible(cls):
    try:
        cls()
    except TypeError as e:  # nanobind: "no constructor defined" for result types
        return "no constructor" not in str(e)
    except Exception:
        return True
    return True


def test_every_public_name_has_a_docstring_and_a_signature():
    import importlib
    modules = [mjhand] + [importlib.import_module(f"mjhand.{m}") for m in SUBMODULES]
    undocumented, unsigned, checked = [], [], 0
    for module in modules:
        for name, obj in public(module):
            checked += 1
            if not (getattr(obj, "__doc__", None) or "").strip():
                undocumented.append(f"{module.__name__}.{name}")
            if isinstance(obj, type) and (issubclass(obj, BaseException) or not constructible(obj)):
                continue  # exceptions (as Python's own) and result types returned by functions have no constructor
            try:
                inspect.signature(obj)
            except (TypeError, ValueError):
                unsigned.append(f"{module.__name__}.{name}")
    assert checked > 150
    assert not undocumented, undocumented
    assert not unsigned, unsigned
    sig = inspect.signature(mjhand.ferrari_canny)
    assert sig.parameters["time_limit"].default == mjhand.LINF_TIME_LIMIT
    assert sig.parameters["norm"].default == mjhand.WrenchNorm.L1
    assert list(inspect.signature(mjhand.Chain).parameters)[:2] == ["dh", "convention"]
    assert "Borras & Dollar" in mjhand.grasp_matrix.__doc__


def test_stubs_are_shipped_and_type_check_the_examples(tmp_path):
    pkg = os.path.dirname(mjhand.__file__)
    assert os.path.exists(os.path.join(pkg, "_core.pyi")) and os.path.exists(os.path.join(pkg, "py.typed"))
    config = os.path.join(SOURCE, "pyproject.toml")
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(tmp_path / "cache"),
                        os.path.join(SOURCE, "examples", "python")], capture_output=True, text=True, timeout=600,
                       cwd=tmp_path)
    assert r.returncode == 0 and "Success" in r.stdout, r.stdout + r.stderr
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nimport mjhand\n"
                   "r = mjhand.ferrari_canny([], np.zeros(3), norm='L1')\n"
                   "e: str = r.epsilon\n")
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(tmp_path / "cache"),
                        str(bad)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    assert 'Argument "norm" to "ferrari_canny" has incompatible type "str"; expected "WrenchNorm"' in r.stdout
    assert 'expression has type "float", variable has type "str"' in r.stdout
