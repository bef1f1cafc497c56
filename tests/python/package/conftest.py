"""pytest suite of the installed `mjhand` Python package (after `pip install .`; README "Python package").

Run from the checkout: `.venv/bin/python -m pytest tests/python/package` (scripts/test.sh does, after installing).
The package must come from site-packages, not from python/ in the checkout (that folder lacks the extension)."""
import os
import sys

import pytest

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture(scope="session")
def source():
    return SOURCE


def model(name):
    """A model of the checkout's models/ folder (the package ships the same files)."""
    return os.path.join(SOURCE, "models", name)


def run_python(code, timeout=300, env=None):
    """Runs `python -c code` in a fresh interpreter (plugin registration is per process); returns CompletedProcess."""
    import subprocess
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=SOURCE)
