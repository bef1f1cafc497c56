"""A simulation's state as a plain array, for pickling, multiprocessing and checkpoints.

Pickling a ``mujoco.MjData`` of a model with plugins (every mjhand model has them) crashes the interpreter at exit in
MuJoCo 4.0.1 ("double free or corruption", upstream; MuJoCo's own pid plugin does the same): the unpickled copy and
the original both free the plugins' data. Pickle the state instead: ``get_state`` is MuJoCo's integration state
(``mj_getState`` with ``mjSTATE_INTEGRATION``: time, qpos, qvel, act, warm start, ctrl, applied forces, mocap, user
data and the plugins' state), ``set_state`` puts it into any MjData of the same model and recomputes the rest
(``mj_forward``), so the run continues bit for bit. Within one process ``mujoco.mj_copyData`` or ``copy.copy(data)``
copy an MjData safely.
"""
import mujoco
import numpy as np

__all__ = ["get_state", "set_state", "STATE_SPEC"]

#: What get_state saves: everything mj_step integrates from (mjSTATE_INTEGRATION), plugin state included.
STATE_SPEC = int(mujoco.mjtState.mjSTATE_INTEGRATION)


def get_state(model, data) -> np.ndarray:
    """The integration state of data (a float64 array of mj_stateSize(model, STATE_SPEC) values): picklable."""
    state = np.empty(mujoco.mj_stateSize(model, STATE_SPEC))
    mujoco.mj_getState(model, data, state, STATE_SPEC)
    return state


def set_state(model, data, state) -> None:
    """Puts a get_state array into data (an MjData of the same model) and runs mj_forward."""
    state = np.ascontiguousarray(state, dtype=np.float64)
    size = mujoco.mj_stateSize(model, STATE_SPEC)
    if state.shape != (size,):
        raise ValueError(f"state has shape {state.shape}, but this model's integration state has {size} values "
                         "(a state of another model?)")
    if not np.all(np.isfinite(state)):
        raise ValueError("state has non-finite values")
    mujoco.mj_setState(model, data, state, STATE_SPEC)
    mujoco.mj_forward(model, data)
