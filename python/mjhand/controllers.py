"""mjhand's controllers as Python objects, stepped with a mujoco.MjModel/MjData: the same C++ control laws, built from
the same keys, as the plugins an MJCF declares (docs/controllers.md lists each type's keys).

A plugin controller's actuators are its own ``<actuator><plugin instance=...>``; a Python controller writes the ctrl of
ordinary actuators instead. For the types whose plugin actuator exerts the controller's output as a force (pid,
torque_control, computed_torque, hand_object; posture, hand_closure and synergy as servos), give those actuators the
form ``<motor>`` (the same joint, gear and ctrlrange): then the simulation is the plugin's, step for step
(tests/python/package/test_controllers.py). A pid may also write a dc_motor's voltage, as the plugin does.

Call ``compute(data)`` where MuJoCo computes actuation: between ``mujoco.mj_step1`` and ``mujoco.mj_step2`` (Euler and
the implicit integrators), or from ``mujoco.set_mjcb_control(controller)`` (every integrator, RK4's stages too: a
controller is callable as ``controller(model, data)``). A controller resets by itself on its first step and whenever
data's time goes back (``mujoco.mj_resetData``); to continue from a saved state, save ``.state`` with it and call
``restore(data, saved)``. One controller per MjData: its state is one simulation's.

Unlike the plugins, pid, the servos and computed_torque are not checked for stability at creation: their actuators may
be motors, a dc_motor's voltage or anything else, and the check needs the force law (synergy and coupling are).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _core

__all__ = ["Controller", "Pid", "Posture", "HandClosure", "Synergy", "ComputedTorque", "HandObject", "TorqueControl",
           "Coupling", "control_callback", "types"]


def _value(key: str, v: Any) -> str:
    """A Python value as the plugin's configuration text: lists comma-separated, booleans true/false."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, (Sequence, np.ndarray)):
        items = [_value(key, x) for x in (v.ravel() if isinstance(v, np.ndarray) else v)]
        if not items:
            raise ValueError(f"controller key {key!r}: an empty list")
        return ",".join(items)
    raise TypeError(f"controller key {key!r}: a {type(v).__name__} is not a number, a name or a list of them")


class Controller:
    """An mjhand controller of plugin type ``type`` for ``model``, configured by the plugin's keys as keyword
    arguments (numbers, names, or lists of them; ``name`` is used in messages). ``ValueError`` (``mjhand.ConfigError``)
    names the key that is wrong, as for an MJCF instance."""

    TYPE: str | None = None

    def __init__(self, model, type: str | None = None, *, name: str | None = None, **config: Any) -> None:
        if type is None:
            type = self.TYPE
        if type is None:
            raise TypeError("Controller(model, type, **config): give the plugin type, e.g. 'pid'")
        if self.TYPE is not None and type != self.TYPE:
            raise TypeError(f"{self.__class__.__name__} is type {self.TYPE!r}, not {type!r}")
        items = [(k, _value(k, v)) for k, v in config.items()]
        self._c = _core.Controller(model, type, items, name if name is not None else type)

    def reset(self, data) -> None:
        """Zeroes the state and initialises it from data. Done by itself on the first compute and whenever data's
        time goes back (mujoco.mj_resetData, an earlier state set), as the plugin resets with mj_resetData."""
        self._c.reset(data)

    def restore(self, data, state) -> None:
        """Puts back a copy of ``.state`` saved together with the MuJoCo state now in data (``mjhand.get_state`` /
        ``set_state``), so that a restored run continues as the original: the plugin's state is in data, this one
        is not."""
        self._c.restore(data, state)

    def compute(self, data) -> None:
        """Writes the ctrl of the controlled actuators for data's state (resets first when never reset)."""
        self._c.compute(data)

    def passive(self, data) -> None:
        """Adds the forces of a passive type (coupling) into data.qfrc_passive."""
        self._c.passive(data)

    def advance(self, data) -> None:
        """End-of-step update (MuJoCo's plugin advance); no mjhand controller type needs one today."""
        self._c.advance(data)

    def __call__(self, model, data) -> None:
        """compute(data) or passive(data): the signature of mujoco.set_mjcb_control / set_mjcb_passive."""
        if model is not self._c.model and getattr(model, "_address", None) != self._c.model._address:
            raise ValueError(f"controller {self.name!r} was built for another mujoco.MjModel")
        if self._c.writes_ctrl:
            self._c.compute(data)
        else:
            self._c.passive(data)

    @property
    def state(self) -> np.ndarray:
        """The controller's state, the plugin's plugin_state slice (a writable view)."""
        return self._c.state

    @property
    def actuators(self) -> list[int]:
        """Ids of the actuators whose ctrl it writes."""
        return self._c.actuators

    @property
    def type(self) -> str:
        """Its plugin type."""
        return self._c.type

    @property
    def name(self) -> str:
        """Its name in messages."""
        return self._c.name

    def __repr__(self) -> str:
        return f"<mjhand.controllers.{self.__class__.__name__} {self.name!r} ({self.type}), actuators {self.actuators}>"


def _typed(type_name: str, class_name: str, what: str) -> type:
    summary, keys = _core.plugin_type_keys(type_name)
    doc = (f"{what}\n\nPlugin type ``{type_name}``: {summary}. Keys (docs/controllers.md): "
           f"{', '.join(keys)}.")

    def __init__(self, model, *, name: str | None = None, **config: Any) -> None:
        Controller.__init__(self, model, type_name, name=name, **config)

    __init__.__doc__ = f"{class_name}(model, *, name=None, **keys): keys {', '.join(keys)}."
    return type(class_name, (Controller,), {"TYPE": type_name, "__doc__": doc, "__init__": __init__,
                                             "__module__": __name__, "KEYS": tuple(keys)})


Pid = _typed("pid", "Pid", "Digital PID per joint (e_GRASP eqs 24-25): sample period, hold, anti-windup, D/A, encoder.")
Posture = _typed("posture", "Posture", "Setpoints moving to a target posture, exerted by a servo (kp, kv).")
HandClosure = _typed("hand_closure", "HandClosure", "Closes each finger until its phalanges touch (a detector).")
Synergy = _typed("synergy", "Synergy", "Soft postural synergies: k inputs drive n joints.")
ComputedTorque = _typed("computed_torque", "ComputedTorque", "Computed-torque / feed-forward joint control on a path.")
HandObject = _typed("hand_object", "HandObject", "Grasped-object pose control: Cartesian PID, G^+ W + squeeze.")
TorqueControl = _typed("torque_control", "TorqueControl", "Joint torque control with a compliant torque sensor.")
Coupling = _typed("coupling", "Coupling", "Underactuated linkage as a stiff passive spring-damper (call passive).")


def types() -> list[str]:
    """The plugin types a Python controller can be."""
    return list(_core.controller_types())


def control_callback(*controllers: Controller):
    """One function for mujoco.set_mjcb_control that computes every controller in turn."""
    for c in controllers:
        if not isinstance(c, Controller):
            raise TypeError(f"control_callback takes mjhand controllers, got {type(c).__name__}")

    def callback(model, data) -> None:
        for c in controllers:
            c(model, data)

    return callback
