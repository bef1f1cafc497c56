// Postural synergies for Python (docs/synergies.md): the synergy file, PCA of postures, q = q0 + S z and its inverse,
// and closing a hand in MuJoCo along a synergy direction.
#include <string>
#include <vector>

#include <mjhand/hand/synergies.h>
#include <mjhand/synergy/synergy_closure.h>

#include "bind.h"

namespace mjhand::py {

namespace {

// A value per synergy joint: a scalar repeated n times, or n values (ValueError naming `what` otherwise).
Eigen::VectorXd per_joint(nb::handle v, int n, const char* what) {
  const Eigen::MatrixXd a = as_matrix(v, what);
  if (a.size() == 1) return Eigen::VectorXd::Constant(n, a(0, 0));
  if (a.size() != n) {
    throw nb::value_error((std::string(what) + ": one value or one per synergy joint (" + std::to_string(n) +
                           "), got " + std::to_string(a.size())).c_str());
  }
  return Eigen::Map<const Eigen::VectorXd>(a.data(), n);
}

}  // namespace

void bind_synergies(nb::module_& m) {
  nb::class_<Synergies>(m, "Synergies",
                        "Postural synergies: joint names, reference posture q0 [rad] and the n x k matrix S; the "
                        "posture of amplitudes z is q0 + S z (SynGrasp SGdefineSynergies).")
      .def("__init__",
           [](Synergies* self, const std::vector<std::string>& joints, nb::handle q0, nb::handle S) {
             Synergies s;
             s.joints = joints;
             const Eigen::MatrixXd q = as_matrix(q0, "q0");
             s.q0 = Eigen::Map<const Eigen::VectorXd>(q.data(), q.size());
             s.S = as_matrix(S, "S");
             check_synergies(s, "Synergies");
             new (self) Synergies(std::move(s));
           },
           nb::arg("joints"), nb::arg("q0"), nb::arg("S"))
      .def_ro("joints", &Synergies::joints)
      .def_ro("q0", &Synergies::q0)
      .def_ro("S", &Synergies::S)
      .def_prop_ro("k", [](const Synergies& s) { return synergy_count(s); }, "number of synergies")
      .def("posture", [](const Synergies& s, nb::handle z) {
             const Eigen::MatrixXd a = as_matrix(z, "z");
             return synergy_posture(s, Eigen::Map<const Eigen::VectorXd>(a.data(), a.size()));
           }, nb::arg("z"), "q0 + S z [rad] (SynGrasp SGactivateSynergies' reference posture)")
      .def("amplitudes", [](const Synergies& s, nb::handle q) {
             const Eigen::MatrixXd a = as_matrix(q, "q");
             return synergy_amplitudes(s, Eigen::Map<const Eigen::VectorXd>(a.data(), a.size()));
           }, nb::arg("q"), "least-squares z = S^+ (q - q0)")
      .def("__repr__", [](const Synergies& s) {
        return "<mjhand.Synergies " + std::to_string(s.joints.size()) + " joints, k = " +
               std::to_string(synergy_count(s)) + ">";
      });

  nb::class_<SynergyFit>(m, "SynergyFit", "PCA of postures: the synergies and the variance they explain.")
      .def_ro("synergies", &SynergyFit::synergies)
      .def_ro("variance", &SynergyFit::variance, "variance along every principal direction, largest first")
      .def_ro("explained", &SynergyFit::explained, "cumulative fraction of the variance of the first 1, 2, ... directions");

  m.def("read_synergies", &read_synergies, nb::arg("path"),
        "Reads a synergy CSV file (docs/synergies.md); errors cite FILE:LINE.");
  m.def("write_synergies", &write_synergies, nb::arg("path"), nb::arg("synergies"), nb::arg("comment") = "",
        "Writes a synergy CSV file atomically; numbers read back bit-identical.");
  m.def("fit_synergies",
        [](const std::vector<std::string>& joints, nb::handle postures, int k) {
          return fit_synergies(joints, as_matrix(postures, "postures", true), k);
        },
        nb::arg("joints"), nb::arg("postures"), nb::arg("k"),
        "PCA of postures (samples x n [rad]): q0 = mean, S = first k principal directions (Santello et al. 1998's "
        "method).");

  nb::class_<SynergyClosureResult>(m, "SynergyClosure", "Where closing along a synergy direction stopped.")
      .def_ro("z", &SynergyClosureResult::z)
      .def_ro("travel", &SynergyClosureResult::travel)
      .def_ro("stopped_by_contact", &SynergyClosureResult::stopped_by_contact)
      .def_ro("fingers", &SynergyClosureResult::fingers, "fingers touching the object at the end")
      .def_ro("steps", &SynergyClosureResult::steps)
      .def_ro("deepest", &SynergyClosureResult::deepest, "largest finger-object penetration [m]");
  m.def("close_hand_with_synergies",
        [](nb::handle model, nb::handle data, const Synergies& s, nb::handle direction, nb::handle kq, nb::handle kd,
           nb::handle z_start, double speed, double travel, int stop_fingers, double threshold, int samples,
           double settle, bool from_current) {
          const mjModel* mm = model_of(model);
          mjData* dd = data_of(data, mm);
          const int n = static_cast<int>(s.joints.size()), k = synergy_count(s);
          SynergyClosureOptions o;
          o.direction = per_joint(direction, k, "direction");
          o.z_start = z_start.is_none() ? Eigen::VectorXd::Zero(k) : per_joint(z_start, k, "z_start");
          o.kq = per_joint(kq, n, "kq");
          o.kd = per_joint(kd, n, "kd");
          o.speed = speed;
          o.travel = travel;
          o.stop_fingers = stop_fingers;
          o.threshold = threshold;
          o.samples = samples;
          o.settle = settle;
          o.reference = from_current ? SynergyClosureOptions::Reference::kFromCurrent
                                     : SynergyClosureOptions::Reference::kSynergyPosture;
          return close_hand_with_synergies(mm, dd, s, o);
        },
        nb::arg("model"), nb::arg("data"), nb::arg("synergies"), nb::arg("direction"), nb::arg("kq"), nb::arg("kd"),
        nb::arg("z_start") = nb::none(), nb::arg("speed") = 1.0, nb::arg("travel") = 10.0,
        nb::arg("stop_fingers") = 1, nb::arg("threshold") = 0.01, nb::arg("samples") = 10, nb::arg("settle") = 0.1,
        nb::arg("from_current") = true,
        "Steps a mujoco.MjData, ramping z along `direction` under the soft-synergy torque K_q (q_r - q) - D qdot "
        "(written to qfrc_applied) until `stop_fingers` fingers touch (SynGrasp SGcloseHandWithSynergies).");
  m.def("synergy_matrix_on_dofs",
        [](nb::handle model, const Synergies& s, const std::vector<int>& dofs) {
          const mjModel* mm = model_of(model);
          for (size_t i = 0; i < dofs.size(); ++i) {
            if (dofs[i] < 0 || dofs[i] >= mm->nv) {
              throw nb::value_error(("dofs[" + std::to_string(i) + "] = " + std::to_string(dofs[i]) +
                                     " is no dof of the model (nv = " + std::to_string(mm->nv) + ")").c_str());
            }
          }
          return synergy_matrix_on_dofs(s, resolve_synergy_joints(mm, s, "synergy_matrix_on_dofs"), dofs);
        },
        nb::arg("model"), nb::arg("synergies"), nb::arg("dofs"),
        "S on the given dofs (e.g. Hand.dofs, J_H's columns): the row of each synergy joint, zero for other joints "
        "(held fixed); the S of kinematic_manipulability(G, J_H, S) for a model's synergies.");
}

}  // namespace mjhand::py
