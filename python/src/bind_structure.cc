// The structure and actuation of any MJCF hand for Python (docs/grasp-analysis.md, "Hand structure and actuation"):
// which bodies are the wrist, the palm and each finger (infer_hand_structure), and how the actuators and equality
// constraints act on the hand's dofs (actuator_transmission, equality_jacobian, hand_actuation, actuator_statics).
// Bodies are given by name or id, dofs as MuJoCo dof indices or a Hand (its dofs).
#include <string>
#include <vector>

#include <mjhand/grasp/actuation.h>
#include <mjhand/grasp/hand_structure.h>

#include "bind.h"

namespace mjhand::py {

namespace {

// Bodies by name or id from None (empty), one name/id, or a sequence of them.
std::vector<int> body_list(const mjModel* m, nb::handle bodies, const char* what) {
  std::vector<int> out;
  if (bodies.is_none()) return out;
  if (nb::isinstance<nb::str>(bodies) || PyIndex_Check(bodies.ptr())) return {body_arg(m, bodies, what)};
  size_t k = 0;
  for (nb::handle b : bodies) {
    out.push_back(body_arg(m, b, (std::string(what) + "[" + std::to_string(k++) + "]").c_str()));
  }
  return out;
}

// MuJoCo dof indices: None (all nv), a Hand (its dofs) or a sequence of ints (checked by the core functions).
std::vector<int> dof_list(const mjModel* m, nb::handle dofs) {
  if (dofs.is_none()) {
    std::vector<int> all(m->nv);
    for (int v = 0; v < m->nv; ++v) all[v] = v;
    return all;
  }
  if (nb::isinstance<HandModel>(dofs)) {
    const HandModel& h = nb::cast<const HandModel&>(dofs);
    if (static_cast<int>(h.finger_of_body.size()) != m->nbody) {
      throw nb::value_error("hand was made for another model (its body table does not fit this one)");
    }
    return h.dofs;
  }
  std::vector<int> out;
  if (!nb::try_cast(dofs, out)) {
    throw nb::type_error("dofs must be None (every dof), an mjhand.Hand or a sequence of dof indices");
  }
  return out;
}

}  // namespace

void bind_structure(nb::module_& m) {
  m.def("infer_hand_structure",
        [](nb::handle model, nb::handle object, nb::handle palm, nb::handle fingers, nb::handle finger_tips,
           bool with_wrist) {
          const mjModel* mm = model_of(model);
          const int obj = object.is_none() ? -1 : body_arg(mm, object, "object");
          if (obj == 0) throw nb::value_error("object: the world body (id 0) cannot be the grasped object");
          HandStructureOptions o;
          o.palm = palm.is_none() ? -1 : body_arg(mm, palm, "palm");
          o.fingers = body_list(mm, fingers, "fingers");
          o.finger_tips = body_list(mm, finger_tips, "finger_tips");
          o.include_wrist = with_wrist;
          return infer_hand_structure(mm, obj, o);
        },
        nb::arg("model"), nb::arg("object") = nb::none(), nb::arg("palm") = nb::none(),
        nb::arg("fingers") = nb::none(), nb::arg("finger_tips") = nb::none(), nb::arg("with_wrist") = false,
        "The Hand of any MJCF hand, as `mjhand analyze` infers it: the palm is the body where the fingers branch (the "
        "bodies above it are the wrist/arm), each branch below it a finger (subtrees joined by a connect/weld loop "
        "are one finger). palm, fingers (root bodies) and finger_tips (one tip body per finger) fix what they name; "
        "bodies by name or id. with_wrist: the wrist/arm dofs become columns of J_H too. object: the grasped body "
        "(None: no object; collect_contacts needs one). GraspError naming the body for an impossible choice.");
  m.def("_body_id",
        [](nb::handle model, nb::handle body, const std::string& what) {
          return body_arg(model_of(model), body, what.c_str());
        },
        nb::arg("model"), nb::arg("body"), nb::arg("what") = "body");
  m.def("describe_hand_structure",
        [](nb::handle model, const HandModel& hand) {
          const mjModel* mm = model_of(model);
          if (static_cast<int>(hand.finger_of_body.size()) != mm->nbody) {
            throw nb::value_error("hand was made for another model (its body table does not fit this one)");
          }
          return describe_hand_structure(mm, hand);
        },
        nb::arg("model"), nb::arg("hand"), "One line: palm, wrist dofs, fingers (what `mjhand analyze` prints).");

  nb::class_<EqualityRows>(m, "EqualityRows", "Rows of efc_J of the equality constraints acting on some dofs.")
      .def_ro("J", &EqualityRows::J, "rows x len(dofs)")
      .def_ro("equality", &EqualityRows::equality, "equality id (model.eq_*) per row");
  m.def("actuator_transmission",
        [](nb::handle model, nb::handle data, nb::handle dofs) {
          const mjModel* mm = model_of(model);
          return actuator_transmission(mm, data_of(data, mm), dof_list(mm, dofs));
        },
        nb::arg("model"), nb::arg("data"), nb::arg("dofs") = nb::none(),
        "A (len(dofs) x model.nout) from MuJoCo's actuator_moment: data.qfrc_actuator[dofs] = A @ "
        "data.actuator_force. dofs: None (all), a Hand or dof indices. Needs mj_forward (or mj_fwdPosition) state.");
  m.def("equality_jacobian",
        [](nb::handle model, nb::handle data, nb::handle dofs) {
          const mjModel* mm = model_of(model);
          return equality_jacobian(mm, data_of(data, mm), dof_list(mm, dofs));
        },
        nb::arg("model"), nb::arg("data"), nb::arg("dofs") = nb::none(),
        "The rows of data.efc_J of the active equality constraints that touch dofs, restricted to those columns "
        "(EqualityRows .J, .equality). Needs mj_forward state.");

  nb::class_<ActuatorStatics>(m, "ActuatorStatics", "Actuator and constraint forces that hold joint torques tau.")
      .def_ro("f", &ActuatorStatics::f, "actuator forces (model.nout, data.actuator_force's convention) [N or N m]")
      .def_ro("mu", &ActuatorStatics::mu, "constraint forces, one per Jeq row")
      .def_ro("residual", &ActuatorStatics::residual, "joint torques neither resists (n)")
      .def_ro("residual_norm", &ActuatorStatics::residual_norm)
      .def_ro("resisted", &ActuatorStatics::resisted, "residual_norm <= 1e-9 (1 + |tau|)");
  nb::class_<HandActuation>(m, "HandActuation", "How the actuators and equality constraints act on the hand's dofs.")
      .def_ro("A", &HandActuation::A, "n x nout transmission: qfrc_actuator[dofs] = A @ actuator_force")
      .def_ro("Jeq", &HandActuation::Jeq, "r x n equality rows on the hand")
      .def_ro("eq_row_equality", &HandActuation::eq_row_equality, "equality id per row of Jeq")
      .def_ro("outputs", &HandActuation::outputs, "force outputs that act on the hand (non-zero column of A)")
      .def_ro("output_names", &HandActuation::output_names, "name of every force output ('act' or 'act[k]')")
      .def_ro("constraint_rows", &HandActuation::constraint_rows, "MuJoCo's rows of the equalities on the hand")
      .def_ro("rank_Jeq", &HandActuation::rank_Jeq, "independent loop/coupling constraints")
      .def_ro("joint_mobility", &HandActuation::joint_mobility, "n - rank Jeq")
      .def_ro("actuated", &HandActuation::actuated, "rank of A projected onto null(Jeq): independent actuated motions")
      .def("statics",
           [](const HandActuation& a, nb::handle tau) { return actuator_statics(a, as_vector(tau, "tau")); },
           nb::arg("tau"), "actuator_statics(self, tau)")
      .def("__repr__", [](const HandActuation& a) {
        return "<mjhand.HandActuation " + std::to_string(a.A.rows()) + " dofs, " + std::to_string(a.outputs.size()) +
               " outputs on the hand, actuated " + std::to_string(a.actuated) + ", joint mobility " +
               std::to_string(a.joint_mobility) + ">";
      });
  m.def("hand_actuation",
        [](nb::handle model, nb::handle data, nb::handle dofs) {
          const mjModel* mm = model_of(model);
          return hand_actuation(mm, data_of(data, mm), dof_list(mm, dofs));
        },
        nb::arg("model"), nb::arg("data"), nb::arg("dofs"),
        "A, Jeq and the counts (actuated, joint mobility, constraint rows) on dofs (a Hand or dof indices) in data's "
        "state (after mj_forward): the actuation part of `mjhand analyze`.");
  m.def("actuator_statics",
        [](const HandActuation& a, nb::handle tau) { return actuator_statics(a, as_vector(tau, "tau")); },
        nb::arg("actuation"), nb::arg("tau"),
        "Actuator forces f and constraint forces mu with A f = tau - Jeq^T mu, f least-norm (e.g. tau = J_H^T "
        "lambda); residual: the torque neither resists.");
}

}  // namespace mjhand::py
