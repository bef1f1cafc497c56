"""``python -m mjhand COMMAND ...``: the mjhand CLI (make-hand, run, analyze, batch, ...), run in this process."""
import sys

from . import _core

if __name__ == "__main__":
    sys.exit(_core.cli(sys.argv[1:]))
