"""Hand and scene descriptions (YAML) -> MJCF text, validated by compiling them with mjhand's plugins, as
``mjhand make-hand`` / ``make-scene`` write them."""
import os

import mujoco

from . import _core


def build_hand_xml(yaml_text, source="<string>"):
    """MJCF text of a hand description given as YAML text (docs/hand-description.md). SpecError cites source:line."""
    return _core.build_hand_xml(yaml_text, source)


def build_scene_xml(yaml_text, source="<string>", base_dir=".", keep_placeholders=False):
    """MJCF text of a scene description given as YAML text (docs/scenes.md); base_dir resolves files it names."""
    return _core.build_scene_xml(yaml_text, source, base_dir, keep_placeholders)


def _read(path):
    with open(path) as f:
        return f.read()


def load_hand(path):
    """A hand description file compiled: (mujoco.MjModel, MJCF text)."""
    xml = build_hand_xml(_read(path), os.fspath(path))
    return mujoco.MjModel.from_xml_string(xml), xml


def load_scene(path):
    """A scene description file compiled: (mujoco.MjModel, MJCF text). Files it names resolve next to it."""
    path = os.fspath(path)
    xml = build_scene_xml(_read(path), path, os.path.dirname(os.path.abspath(path)))
    return mujoco.MjModel.from_xml_string(xml), xml
