"""Optional dependencies: an ImportError that names the extra to install."""
import importlib


def require(module: str, extra: str, what: str):
    """Imports `module`, or raises ImportError: '<what> needs <module>: pip install "mjhand[<extra>]"'."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        raise ImportError(f'{what} needs {top}, which is not installed: pip install "mjhand[{extra}]"') from e
