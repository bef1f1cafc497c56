"""Which MuJoCo this process has, checked before mjhand's extension is loaded (docs/engine.md, "Which MuJoCo").

mjhand declares no hard requirement on MuJoCo (pyproject.toml says why): users install it with ``pip install mujoco``.
Here, before anything is loaded, the installed distributions are read and a missing or unsupported MuJoCo becomes an
ImportError naming what is installed, what mjhand supports and the command that fixes it. Then ``import mujoco``
loads libmujoco, and its symbols are made global so that mjhand's extension and plugin library (which carry no
link to one libmujoco file, so that one wheel serves every 4.0.x release) bind to that same copy.
"""
import ctypes
import importlib.metadata as _metadata
import os

#: The MuJoCo series mjhand supports: mujoco-core >= SUPPORTED[0], < SUPPORTED[1] (pyproject.toml's range).
SUPPORTED = ((4, 0, 0), (4, 1))
_FIX = "pip install \"mujoco>=4.0,<4.1\""
_REPAIR = "pip install --force-reinstall --no-deps mujoco==4.0.0 mujoco-core==4.0.0 mujoco-studio==4.0.0"


def _version(dist):
    try:
        return _metadata.version(dist)
    except _metadata.PackageNotFoundError:
        return None


def _parse(v):
    return tuple(int(p) for p in v.split(".")[:3] if p.isdigit())


def _installed():
    core, meta = _version("mujoco-core"), _version("mujoco")
    return core, meta, ", ".join(f"{d} {v}" for d, v in (("mujoco", meta), ("mujoco-core", core)) if v)


def check_installed():
    """Raises ImportError unless a supported mujoco-core is installed; returns its version."""
    core, meta, _ = _installed()
    if core is None:
        if meta is None:
            raise ImportError(f"mjhand needs MuJoCo 4.0 (mujoco-core 4.0.x), and none is installed: {_FIX}")
        if _parse(meta)[:1] >= (4,):  # the 4.x metapackage without its core: files removed by hand or by pip
            raise ImportError(f"this environment has the mujoco {meta} metapackage but no mujoco-core; repair it: "
                              f"pip install --force-reinstall --no-deps mujoco=={meta} mujoco-core=={meta}")
        raise ImportError(
            f"mjhand needs MuJoCo 4.0 (mujoco-core 4.0.x); this environment has mujoco {meta}, which mjhand does not "
            f"support. Upgrade: {_FIX}; if `import mujoco` fails after that (pip removed files of the old "
            f"monolithic package), repair it with: {_REPAIR}")
    low, below = SUPPORTED
    version = _parse(core)
    if not (low <= version and version[:2] < below):
        supported = f">={'.'.join(map(str, low))},<{'.'.join(map(str, below))}"
        raise ImportError(f"mjhand supports mujoco-core {supported}; this environment has mujoco-core {core}: {_FIX}")
    return core


def load_mujoco():
    """Imports mujoco and makes its libmujoco's symbols global; returns (module, path of the libmujoco)."""
    try:
        import mujoco
    except (ImportError, OSError) as e:  # e.g. a 3.x package with a 4.0 core unpacked over it: a mix of files
        raise ImportError(f"`import mujoco` fails in this environment ({_installed()[2]}): {e}. mjhand needs "
                          f"MuJoCo 4.0; repair the install with: {_REPAIR}") from e
    path = os.path.join(os.path.dirname(mujoco.__file__), "libmujoco.so." + mujoco.__version__)
    try:
        ctypes.CDLL(path, mode=os.RTLD_GLOBAL | os.RTLD_NOLOAD)  # RTLD_NOLOAD: only the copy mujoco already loaded
    except OSError as e:
        raise ImportError(f"the mujoco module {mujoco.__version__} did not load {path} ({e}): a broken MuJoCo "
                          f"install; repair it: pip install --force-reinstall --no-deps "
                          f"mujoco-core=={mujoco.__version__}") from e
    return mujoco, path


def check_one_libmujoco(extension_libmujoco, mujoco_libmujoco):
    """ImportError unless the extension calls into the very libmujoco file `import mujoco` loaded."""
    if os.path.realpath(extension_libmujoco) != os.path.realpath(mujoco_libmujoco):
        raise ImportError(f"mjhand's extension calls into {extension_libmujoco}, not {mujoco_libmujoco} which "
                          "`import mujoco` loaded: two MuJoCo libraries in one process (plugins would not be shared)")
