"""``python -m mjhand COMMAND ...``: the mjhand CLI (make-hand, run, analyze, batch, ...), run in this process."""
import signal
import sys

from . import _core

if __name__ == "__main__":
    # The CLI runs in C++ with the GIL released: Python's own SIGINT handler would only set a flag nobody reads until
    # the command ends, so Ctrl-C gets the default action (batch installs its own clean-stop handler over it).
    args = sys.argv[1:]
    if args[:1] == ["batch"] and any(a == "--ray" or a.startswith("--ray=") for a in args):
        from .ray_batch import main  # the Ray path is Python (Ray's driver API); Ctrl-C stays Python's
        sys.exit(main(args[1:]))
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_core.cli(args))
