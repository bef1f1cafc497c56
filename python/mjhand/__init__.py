"""mjhand for Python: grasp analysis, finger kinematics and hand/scene builders over MuJoCo's own model and data, and
mjhand's native plugins registered with the process's MuJoCo.

``import mjhand`` loads MuJoCo's bindings first, then mjhand's extension, which calls into the same libmujoco file
(the mujoco-core wheel it was built against, checked here) and registers the ``mjhand.*`` plugins with it, so
``mujoco.MjModel.from_xml_path`` accepts models that declare them with no further step. Units are SI, angles in
radians; arrays are float64, and every array argument also takes what numpy.asarray takes (lists, tuples). Names
follow the C++ API (docs/python.md).
"""
import importlib.util as _importlib_util
import os as _os
import threading as _threading

import numpy as _np

from . import _engine

_engine.check_installed()  # ImportError naming the installed and supported MuJoCo and the fix, before anything loads
_mujoco, _LIBMUJOCO = _engine.load_mujoco()  # first: the extension binds to the libmujoco this import loaded

from . import _core  # noqa: E402

_engine.check_one_libmujoco(_core._libmujoco_path(), _LIBMUJOCO)

PLUGIN_TYPES = _core._attach(_mujoco)  # ImportError naming the problem: version, a second libmujoco, a second copy

from ._core import (  # noqa: E402  (the C++ API, same names)
    Campaign, load_campaign, plan_campaign, run_campaign, run_rollout, write_rollout, write_summary,
    Chain, ConfigError, Contact, ContactModel, CouplingFit, EGraspFinger, EpsilonResult, EpsilonStatus, FitError,
    ForceClosureLP, ForceClosureResult, ForceDistribution, ForceStatus, GraspAnalysis, GraspError, GraspQuality, Hand, HandObjectMobility, IkResult,
    IkStatus, MinNormForces, ModelRejectedError, ParallelError, ParallelView, SingularityMeasures,
    SpecError, WrenchNorm, analytic_contact, balanced_wrench, collect_contacts, contact_frame_from_normal,
    LINF_MAX_POINTS, LINF_TIME_LIMIT, controllable_internal_force_basis, egrasp_chain, egrasp_ik_position, ferrari_canny, fit_coupling_csv,
    fit_polynomial, friction_cone_margin, grasp_matrix, grasp_quality, grasp_sigma_min, grasp_singular_values,
    hand_jacobian, hand_object_mobility, internal_force_basis, is_force_closure, joint_torques, min_norm_forces,
    model_chains, mujoco_contact_forces, object_center, object_twist, optimal_forces, parallel_view, pseudo_inverse,
    selection_matrix, singularity_measures, twist_to_joint_rates,
    Synergies, SynergyClosure, SynergyFit, close_hand_with_synergies, fit_synergies, read_synergies, write_synergies,
    Ellipsoid, ManipulabilityEllipsoid, PgrResult, QuasistaticMaps, QuasistaticSolution, RigidBodyMotions, VcostOptimum,
    contact_compliance, contact_margins, contact_stiffness, in_friction_cones, synergy_stiffness,
    controllable_internal_forces, equivalent_contact_stiffness, force_closure_cost, grubler_kutzbach,
    quasistatic_internal_force_basis,
    force_manipulability, grasp_stiffness, joint_stiffness, kinematic_manipulability, minimize_force_closure_cost,
    potential_contact_robustness, potential_grasp_robustness, quasistatic_maps, quasistatic_solution,
    rigid_body_motions, sliding_contacts, stiffness_weighted_pseudo_inverse, synergy_rigid_body_motions,
    ActuatorStatics, EqualityRows, HandActuation, actuator_statics, actuator_transmission, describe_hand_structure,
    equality_jacobian, hand_actuation, infer_hand_structure, plan_grasps,
    ChainTip, TreeChain, default_fingertip, finger_branch_body, finger_chains, identify_dh,
    model_finger_chains, serial_obstruction, tree_chain,
    SlideSolution, compliant_force_manipulability, pgr_h1_combinations, pgr_h2_combinations, pgr_h3_combinations,
    pgr_h4_combinations, pgr_over_combinations, slide_displacements, synergy_matrix_on_dofs, wrist_jacobian,
    wrist_quasistatic_maps, wrist_stiffness,
)


from .builders import build_hand_xml, build_scene_xml, load_hand, load_scene  # noqa: E402
from .grasp import Grasp, body_id, grasp, hand  # noqa: E402
from . import controllers  # noqa: E402  (mjhand.controllers.Pid, ...)
from .state import get_state, set_state  # noqa: E402  (picklable simulation state)
try:  # extra mjhand[gym]: gym.make("mjhand/GraspLift-...-v0")
    _have_gym = _importlib_util.find_spec("gymnasium") is not None
except (ImportError, ValueError):  # ValueError: sys.modules["gymnasium"] is None (blocked)
    _have_gym = False
if _have_gym:
    try:
        from . import envs  # noqa: E402,F401  (registers the environments)
    except ImportError as _e:  # a broken gymnasium must not break `import mjhand`; mjhand.envs says why when imported
        import warnings as _warnings
        _warnings.warn(f"mjhand: the Gymnasium environments are not registered: {_e}", ImportWarning, stacklevel=2)

__version__ = "0.1.0"
#: The running MuJoCo's version (any 4.0.x), and the one whose headers this mjhand was compiled with.
MUJOCO_VERSION = _core.mujoco_version()
MUJOCO_BUILT_WITH = _core.mujoco_built_with

#: mjhand's native plugins as one shared library, for programs that do not import mjhand: MuJoCo's `simulate`, a C
#: or C++ program (mj_loadPluginLibrary), MuJoCo's plugin folder. In this process they are registered already.
PLUGIN_LIBRARY = _os.path.join(_os.path.dirname(__file__), "plugin", "libmjhand_plugins.so")
if not _os.path.exists(PLUGIN_LIBRARY):
    PLUGIN_LIBRARY = None  # a build without it (cmake -DMJHAND_BUILD_PYTHON=ON by hand)

#: The models shipped with the package (a copy of the repository's models/ folder).
MODELS_DIR = _os.path.join(_os.path.dirname(__file__), "models")
_core._set_models_dir(MODELS_DIR)  # `python -m mjhand analyze grasp_sensor_scene.xml` finds the packaged model


def model_path(name):
    """Path of a model shipped with mjhand, e.g. ``model_path("grasp_sensor_scene.xml")``."""
    path = _os.path.join(MODELS_DIR, name)
    if not _os.path.exists(path):
        raise FileNotFoundError(f"mjhand ships no model '{name}' (see {MODELS_DIR})")
    return path


_cli_lock = _threading.Lock()


def cli(*args):
    """Runs ``mjhand ARGS...`` (the C++ CLI) in this process and returns its exit code. One at a time: the CLI's
    signal handling (batch's clean stop on SIGINT) is process-wide."""
    args = [str(a) for a in args]
    if args[:1] == ["batch"] and any(a == "--ray" or a.startswith("--ray=") for a in args):
        from .ray_batch import main
        return main(args[1:])
    with _cli_lock:
        return _core.cli(args)


def _repr(self):
    fields = [k for k in dir(type(self)) if not k.startswith("_") and not callable(getattr(self, k, None))]
    body = ", ".join(f"{k}={getattr(self, k)!r}" for k in fields if not isinstance(getattr(self, k), _np.ndarray)
                     or getattr(self, k).size <= 6)
    return f"<mjhand.{type(self).__name__} {body}>"


for _cls in (EpsilonResult, ForceDistribution, GraspQuality, HandObjectMobility, IkResult, MinNormForces,
             ParallelView, SingularityMeasures, CouplingFit, Hand, EGraspFinger, ActuatorStatics):
    _cls.__repr__ = _repr
del _cls


from . import _signatures  # noqa: E402

_signatures.expose(globals(), [n for n in list(globals()) if not n.startswith("_")])
