"""``python -m mjhand COMMAND ...``: the mjhand CLI (make-hand, run, analyze, batch, ...), run in this process."""
import signal
import sys

from . import _core

if __name__ == "__main__":
    # The CLI runs in C++ with the GIL released: Python's own SIGINT handler would only set a flag nobody reads until
    # the command ends, so Ctrl-C gets the default action (batch installs its own clean-stop handler over it).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_core.cli(sys.argv[1:]))
