"""A grasp of a MuJoCo model in a few lines: ``g = mjhand.grasp(model, data, object="ball")`` collects the contacts
between the object and the fingers and gives G, J_H and every measure of mjhand's grasp analysis (docs/python.md)."""
import numpy as np

from . import _core


def body_id(model, body, what="body"):
    """Id of a body given by name or id; ValueError naming the body (and listing a few) when there is none."""
    return _core._body_id(model, body, what)


def hand(model, object, palm=None, fingers=None):
    """The hand of a grasp, inferred as ``mjhand analyze`` and the ``grasp_analysis`` sensor do
    (``infer_hand_structure``): the palm, its jointed branches as fingers (closed loops merged), a wrist above the palm
    left out; ``palm=BODY`` names the palm, ``fingers=[ROOT, ...]`` the finger roots. Palm contacts count
    (docs/grasp-analysis.md, "Hand structure")."""
    return _core.infer_hand_structure(model, object, palm=palm, fingers=fingers)


_hand = hand  # grasp()'s `hand` argument shadows the function


class Grasp:
    """The contacts of one state and their grasp matrix G (6 x m, about ``reference``, the object's centre of mass by
    default) and hand Jacobian J_H (m x n_hand, columns ``hand.dofs``); m = sum of contact rows (1, 3 or 4 each)."""

    def __init__(self, model, data, hand, contacts, reference):
        self.model, self.data, self.hand, self.contacts = model, data, hand, contacts
        self.reference = np.asarray(reference, dtype=float)
        self.G = _core.grasp_matrix(contacts, self.reference)
        self.J_H = _core.hand_jacobian(model, data, hand, contacts)

    positions = property(lambda self: np.array([c.pos for c in self.contacts]).reshape(-1, 3),
                         doc="contact points, (k, 3) [m, world]")
    normals = property(lambda self: np.array([c.normal for c in self.contacts]).reshape(-1, 3),
                       doc="unit normals into the object, (k, 3)")
    frames = property(lambda self: np.array([c.frame for c in self.contacts]).reshape(-1, 3, 3),
                      doc="contact frames R_i = [n t o], (k, 3, 3)")

    def quality(self):
        """SynGrasp's singular-value measures (GraspQuality)."""
        return _core.grasp_quality(self.G, self.J_H)

    def sigma_min(self):
        """sigma_min(G) (SGminSVG)."""
        return _core.grasp_sigma_min(self.G)

    def epsilon(self, norm="L1", cone_edges=8, torque_length=0.0, volume=False, max_points=None, time_limit=None):
        """Ferrari-Canny epsilon, norm 'L1' or 'Linf' (EpsilonResult). 'Linf' enumerates prod_i (K_i + 1)
        Minkowski-sum points; above max_points (default LINF_MAX_POINTS = 10000, as `mjhand analyze`) nothing is
        computed and the result's status is TOO_MANY_POINTS, because the hull's time grows with the points (4 soft
        contacts: 83521 points, ~30 s). The hull is also stopped after time_limit seconds (default LINF_TIME_LIMIT =
        10, as `mjhand analyze`; 0: no limit), with status TIME_LIMIT: within the budget it takes up to ~6 s on an
        idle 2-core machine, several times that under load."""
        norms = {"L1": _core.WrenchNorm.L1, "Linf": _core.WrenchNorm.LINF}
        if norm not in norms:
            raise ValueError(f"norm must be 'L1' or 'Linf', got {norm!r}")
        return _core.ferrari_canny(self.contacts, self.reference, norms[norm], cone_edges, torque_length, volume,
                                   _core.LINF_MAX_POINTS if max_points is None else int(max_points), False,
                                   _core.LINF_TIME_LIMIT if time_limit is None else float(time_limit))

    def force_closure(self, cone_edges=8):
        """Force closure with linearised friction cones."""
        return _core.is_force_closure(self.contacts, self.reference, cone_edges)

    def contact_forces(self):
        """The forces MuJoCo computed (mj_contactForce), in the contact frames: lambda, (m,) [N]."""
        return _core.mujoco_contact_forces(self.model, self.data, self.contacts)

    def optimal_forces(self, W, cone_edges=8, min_normal_force=0.0, max_normal_force=np.inf):
        """Smallest contact forces balancing the external wrench W (f [N], m [N m] about reference)."""
        return _core.optimal_forces(self.contacts, self.G, np.asarray(W, dtype=float), cone_edges,
                                    min_normal_force, max_normal_force)

    def mobility(self, actuated=None):
        """Grubler count and ranks (HandObjectMobility); actuated defaults to the model's actuators."""
        return _core.hand_object_mobility(self.contacts, self.G, self.J_H,
                                          self.model.nu if actuated is None else int(actuated))

    def internal_force_basis(self):
        """Orthonormal basis of null(G), (m, m - rank G)."""
        return _core.internal_force_basis(self.G)

    def parallel(self, jp_reference=(0.0, 0.0, 0.0)):
        """J_p and J_Theta of the grasp as a parallel manipulator (ParallelView)."""
        return _core.parallel_view(self.model, self.data, self.hand, self.contacts, self.G, self.reference, self.J_H,
                                   np.asarray(jp_reference, dtype=float))

    def __repr__(self):
        return (f"<mjhand.Grasp {len(self.contacts)} contacts, G {self.G.shape}, J_H {self.J_H.shape}, "
                f"fingers {', '.join(self.hand.finger_names)}>")


def grasp(model, data, object, palm=None, fingers=None, tangent="eq2", reference=None, hand=None,
          palm_contact_model=None):
    """The grasp of ``object`` in ``data`` (after mujoco.mj_forward or mj_step). GraspError when the object touches no
    finger (no contact in this state: step or settle first). The hand is ``hand(model, object, palm, fingers)``
    (``infer_hand_structure``, as ``mjhand analyze``: palm contacts join G, modelled as ``palm_contact_model`` if
    given, else by their condim), or ``hand``: a Hand made otherwise, e.g. with finger_tips= or with_wrist=."""
    if hand is not None and (palm is not None or fingers is not None):
        raise ValueError("give hand, or palm / fingers, not both")
    h = _hand(model, object, palm, fingers) if hand is None else hand
    if hand is not None and h.object_body != body_id(model, object, "object"):
        raise ValueError(f"hand: its object is body {h.object_body}, not '{object}' (infer_hand_structure(model, "
                         "object=...))")
    contacts = _core.collect_contacts(model, data, h, tangent, palm_contact_model=palm_contact_model)
    if not contacts:
        name = model.body(h.object_body).name
        raise _core.GraspError(f"no contact between the object '{name}' and a finger or the palm in this data (ncon = "
                               f"{data.ncon}): call mujoco.mj_forward after setting the state, or step until the "
                               "hand closes")
    ref = _core.object_center(model, data, h) if reference is None else np.asarray(reference, dtype=float)
    return Grasp(model, data, h, contacts, ref)
