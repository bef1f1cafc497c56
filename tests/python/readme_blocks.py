"""The README's and docs' code blocks, so tests run what users copy (shared by tests/python and tests/python/package)."""
import os
import re

SOURCE = os.environ.get("MJHAND_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def readme_python_block(heading, document="README.md"):
    """The first ```python block after the heading `heading` (e.g. "### From Python") of `document` (a path from the
    repository root: README.md, docs/python.md)."""
    with open(os.path.join(SOURCE, document)) as f:
        text = f.read()
    match = re.search(re.escape(heading) + r".*?```python\n(.*?)```", text, re.S)
    assert match, f"{document} has no '{heading}' section with a python block"
    return match.group(1)
