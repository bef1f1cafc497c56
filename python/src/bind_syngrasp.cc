// SynGrasp's analysis beyond G and J_H, for Python (docs/stiffness.md, docs/grasp-analysis.md): stiffness and the
// quasi-static maps, manipulability ellipsoids, the force-closure cost V, PCR and PGR. Inputs are checked by the core
// functions (std::invalid_argument -> ValueError naming the function and argument).
#include <limits>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_robustness.h>
#include <mjhand/grasp/force_closure_cost.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/manipulability.h>
#include <mjhand/grasp/quasistatic.h>
#include <mjhand/grasp/stiffness.h>

#include "bind.h"

namespace mjhand::py {

namespace {

using Contacts = std::vector<Contact>;

// None -> the core's "rigid" / "no synergies" (an empty matrix), else the matrix.
Eigen::MatrixXd optional_matrix(nb::handle v, const char* what) {
  return v.is_none() ? Eigen::MatrixXd() : as_matrix(v, what);
}

// Contact states as Python ints: 0 sticking, 1 sliding, 2 detached.
std::vector<int> state_list(const std::vector<ContactState>& states) {
  std::vector<int> s;
  for (ContactState x : states) s.push_back(static_cast<int>(x));
  return s;
}

std::vector<std::vector<int>> state_lists(const StateCombinations& combinations) {
  std::vector<std::vector<int>> out;
  for (const auto& c : combinations) out.push_back(state_list(c));
  return out;
}

StateCombinations state_combinations(const std::vector<std::vector<int>>& lists) {
  StateCombinations out;
  for (size_t k = 0; k < lists.size(); ++k) {
    std::vector<ContactState> c;
    for (int x : lists[k]) {
      if (x < 0 || x > 2) {
        throw nb::value_error(("combinations[" + std::to_string(k) + "]: states are 0 (sticking), 1 (sliding) or 2 "
                               "(detached), got " + std::to_string(x)).c_str());
      }
      c.push_back(static_cast<ContactState>(x));
    }
    out.push_back(std::move(c));
  }
  return out;
}

Wrench as_wrench(nb::handle v, const char* what) {
  const Eigen::VectorXd w = as_vector(v, what);
  if (w.size() != 6) throw nb::value_error((std::string(what) + " must have 6 entries (f, m)").c_str());
  return w;
}

// The grasp PGR evaluates (stiffness None: rigid synergies / none, as the core's empty matrices).
QuasiStaticGrasp quasi_static_grasp(nb::handle G, nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S,
                                    nb::handle Kz) {
  QuasiStaticGrasp g;
  g.G = as_matrix(G, "G");
  g.J = as_matrix(JH, "J_H");
  g.Kc = as_matrix(Kc, "Kc");
  g.Kq = as_matrix(Kq, "Kq");
  g.S = optional_matrix(S, "S");
  g.Kz = optional_matrix(Kz, "Kz");
  return g;
}

VcostParams vcost_params(double fmin, double fmax, double k) {
  VcostParams p;
  p.fmin = fmin;
  p.fmax = fmax;
  p.k = k;
  return p;
}

// SynGrasp's stiffness functions.
void bind_stiffness(nb::module_& m) {
  m.def("contact_stiffness",
        [](const Contacts& contacts, nb::handle normal, double tangential, double torsional, double rolling) {
          if (!std::isnan(tangential) || !std::isnan(torsional) || !std::isnan(rolling)) {
            DirectionalStiffness k;
            k.normal = nb::cast<double>(normal);
            k.tangential = std::isnan(tangential) ? k.normal : tangential;
            k.torsional = std::isnan(torsional) ? 0.0 : torsional;
            k.rolling = std::isnan(rolling) ? 0.0 : rolling;
            return contact_stiffness(contacts, k);
          }
          const Eigen::VectorXd k = as_vector(normal, "k");
          return k.size() == 1 ? contact_stiffness(contacts, k[0]) : contact_stiffness(contacts, k);
        },
        nb::arg("contacts"), nb::arg("k"), nb::arg("tangential") = std::numeric_limits<double>::quiet_NaN(),
        nb::arg("torsional") = std::numeric_limits<double>::quiet_NaN(),
        nb::arg("rolling") = std::numeric_limits<double>::quiet_NaN(),
        "K_c (m x m, contact frames): k for every row, one k per contact, or k normal with tangential / torsional / "
        "rolling values (SGcontactStiffness).");
  m.def("joint_stiffness",
        [](nb::handle k, int n) {
          const Eigen::VectorXd v = as_vector(k, "k");
          return v.size() == 1 && n > 0 ? joint_stiffness(n, v[0]) : joint_stiffness(v);
        },
        nb::arg("k"), nb::arg("n") = 0, "K_q: diag(k), or k I_n (SGjointStiffness).");
  m.def("wrist_stiffness",
        [](nb::handle k, nb::handle k_rotation) {
          if (!k_rotation.is_none()) return wrist_stiffness(nb::cast<double>(k), nb::cast<double>(k_rotation));
          return wrist_stiffness(as_vector(k, "k"));
        },
        nb::arg("k"), nb::arg("k_rotation") = nb::none(),
        "K_w (6 x 6, SGwristStiffness): diag(k I_3, k_rotation I_3) [N/m, N m/rad], or diag(k) for 6 entries.");
  m.def("wrist_jacobian",
        [](const Contacts& c, nb::handle p) {
          const Eigen::VectorXd w = as_vector(p, "wrist_point");
          if (w.size() != 3) throw nb::value_error("wrist_point must have 3 entries [m, world]");
          return wrist_jacobian(c, Eigen::Vector3d(w));
        },
        nb::arg("contacts"), nb::arg("wrist_point"),
        "J_w (m x 6): contact-frame velocities for a rigid twist (v of wrist_point, w) of the hand's base = G(p_w)^T.");
  m.def("equivalent_contact_stiffness",
        [](nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S, nb::handle Kz) {
          return equivalent_contact_stiffness(as_matrix(JH, "J_H"), as_matrix(Kc, "Kc"), optional_matrix(Kq, "Kq"),
                                              optional_matrix(S, "S"), optional_matrix(Kz, "Kz"));
        },
        nb::arg("J_H"), nb::arg("Kc"), nb::arg("Kq") = nb::none(), nb::arg("S") = nb::none(), nb::arg("Kz") = nb::none(),
        "K = (Kc^-1 + J Kq^-1 J^T + J S Kz^-1 S^T J^T)^-1; None = rigid joints / no synergies / rigid synergies.");
  m.def("grasp_stiffness",
        [](nb::handle G, nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S, nb::handle Kz) {
          return grasp_stiffness(as_matrix(G, "G"), as_matrix(JH, "J_H"), as_matrix(Kc, "Kc"), optional_matrix(Kq, "Kq"),
                                 optional_matrix(S, "S"), optional_matrix(Kz, "Kz"));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("Kc"), nb::arg("Kq") = nb::none(), nb::arg("S") = nb::none(),
        nb::arg("Kz") = nb::none(), "K_O = G K G^T (SGgraspStiffness, without geometric terms).");
  m.def("quasistatic_internal_force_basis",
        [](nb::handle G, nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S, nb::handle Kz) {
          return quasistatic_internal_force_basis(quasi_static_grasp(G, JH, Kc, Kq, S, Kz));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("Kc"), nb::arg("Kq"), nb::arg("S") = nb::none(), nb::arg("Kz") = nb::none(),
        "E: a basis of the internal forces the joints (or synergies) can control in a compliant grasp (SGquasistaticMaps' "
        "P without the geometric terms; the E of SG_PCR/SG_PGR).");
  m.def("contact_compliance",
        [](nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S, nb::handle Kz) {
          return contact_compliance(as_matrix(JH, "J_H"), optional_matrix(Kc, "Kc"), optional_matrix(Kq, "Kq"),
                                    optional_matrix(S, "S"), optional_matrix(Kz, "Kz"));
        },
        nb::arg("J_H"), nb::arg("Kc") = nb::none(), nb::arg("Kq") = nb::none(), nb::arg("S") = nb::none(),
        nb::arg("Kz") = nb::none(),
        "C = Kc^-1 + J Kq^-1 J^T + J S Kz^-1 S^T J^T (m x m), the compliance seen at the contacts; None = rigid "
        "(contacts, joints, synergies) or no synergies. Its inverse is equivalent_contact_stiffness.");
  m.def("synergy_stiffness", &synergy_stiffness, nb::arg("nz"), nb::arg("k"), "K_z = k I_nz (SGsynergyStiffness with a scalar); k > 0.");
}

// SynGrasp's quasi-static maps, solutions and rigid-body motions.
void bind_quasistatics(nb::module_& m) {
  nb::class_<QuasistaticMaps>(m, "QuasistaticMaps", "Linear maps of the quasi-static grasp (docs/stiffness.md).")
      .def_ro("K", &QuasistaticMaps::K).def_ro("KO", &QuasistaticMaps::KO).def_ro("S", &QuasistaticMaps::S)
      .def_ro("V", &QuasistaticMaps::V, "du per dz_r").def_ro("P", &QuasistaticMaps::P, "dlambda per dz_r")
      .def_ro("Q", &QuasistaticMaps::Q, "dq per dz_r").def_ro("T", &QuasistaticMaps::T, "dtau per dz_r")
      .def_ro("Z", &QuasistaticMaps::Z, "dz per dz_r").def_ro("Vw", &QuasistaticMaps::Vw, "du per dw")
      .def_ro("Pw", &QuasistaticMaps::Pw, "dlambda per dw").def_ro("Qw", &QuasistaticMaps::Qw, "dq per dw")
      .def_ro("Tw", &QuasistaticMaps::Tw, "dtau per dw").def_ro("Zw", &QuasistaticMaps::Zw, "dz per dw");
  nb::class_<QuasistaticSolution>(m, "QuasistaticSolution", "Displacements and force changes of a quasi-static grasp under a wrench or synergy input (SGquasistatic).")
      .def_ro("du", &QuasistaticSolution::du).def_ro("dlambda", &QuasistaticSolution::dlambda)
      .def_ro("dq", &QuasistaticSolution::dq).def_ro("dz", &QuasistaticSolution::dz)
      .def_ro("dtau", &QuasistaticSolution::dtau);
  nb::class_<RigidBodyMotions>(m, "RigidBodyMotions", "Motions that deform no contact (columns).")
      .def_ro("dz", &RigidBodyMotions::dz).def_ro("dq", &RigidBodyMotions::dq).def_ro("du", &RigidBodyMotions::du);
  m.def("quasistatic_maps",
        [](nb::handle G, nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S, nb::handle Kz) {
          return quasistatic_maps(as_matrix(G, "G"), as_matrix(JH, "J_H"), as_matrix(Kc, "Kc"), optional_matrix(Kq, "Kq"),
                                  optional_matrix(S, "S"), optional_matrix(Kz, "Kz"));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("Kc"), nb::arg("Kq") = nb::none(), nb::arg("S") = nb::none(),
        nb::arg("Kz") = nb::none(), "SGquasistaticMaps: du, dlambda, dq, dtau, dz per reference change and per wrench.");
  m.def("quasistatic_solution",
        [](const QuasistaticMaps& maps, nb::handle dw, nb::handle dz_r) {
          const Eigen::VectorXd w = dw.is_none() ? Eigen::VectorXd::Zero(maps.Vw.cols()) : as_vector(dw, "dw");
          const Eigen::VectorXd z = dz_r.is_none() ? Eigen::VectorXd::Zero(maps.V.cols()) : as_vector(dz_r, "dz_r");
          return quasistatic_solution(maps, w, z);
        },
        nb::arg("maps"), nb::arg("dw") = nb::none(), nb::arg("dz_r") = nb::none(),
        "SGquasistatic for an external wrench change dw and a reference change dz_r (None: zero).");
  m.def("wrist_quasistatic_maps",
        [](nb::handle G, nb::handle JH, nb::handle Jw, nb::handle Kc, nb::handle Kq, nb::handle Kw, nb::handle S,
           nb::handle Kz) {
          return wrist_quasistatic_maps(as_matrix(G, "G"), as_matrix(JH, "J_H"), as_matrix(Jw, "J_w"),
                                        as_matrix(Kc, "Kc"), optional_matrix(Kq, "Kq"), optional_matrix(Kw, "Kw"),
                                        optional_matrix(S, "S"), optional_matrix(Kz, "Kz"));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("J_w"), nb::arg("Kc"), nb::arg("Kq") = nb::none(),
        nb::arg("Kw") = nb::none(), nb::arg("S") = nb::none(), nb::arg("Kz") = nb::none(),
        "SynGrasp's compliant wrist: the maps of J_ext = [J_H, J_w], K_q,ext = blkdiag(Kq, Kw); inputs (dz_r, dx_r); "
        "None = rigid.");
  nb::class_<SlideSolution>(m, "SlideSolution", "SGslide: the hand pressing on a fixed object.")
      .def_ro("dq", &SlideSolution::dq).def_ro("dx_w", &SlideSolution::dx_w)
      .def_ro("dcontact", &SlideSolution::dcontact).def_ro("dlambda", &SlideSolution::dlambda)
      .def_ro("dtau", &SlideSolution::dtau).def_ro("dwrench", &SlideSolution::dwrench);
  m.def("slide_displacements",
        [](nb::handle JH, nb::handle Jw, nb::handle Kc, nb::handle Kq, nb::handle Kw, nb::handle dq_r, nb::handle dx_r) {
          return slide_displacements(as_matrix(JH, "J_H"), as_matrix(Jw, "J_w"), optional_matrix(Kc, "Kc"),
                                     optional_matrix(Kq, "Kq"), optional_matrix(Kw, "Kw"),
                                     dq_r.is_none() ? Eigen::VectorXd() : as_vector(dq_r, "dq_r"),
                                     dx_r.is_none() ? Eigen::VectorXd() : as_vector(dx_r, "dx_r"));
        },
        nb::arg("J_H"), nb::arg("J_w"), nb::arg("Kc"), nb::arg("Kq"), nb::arg("Kw"), nb::arg("dq_r") = nb::none(),
        nb::arg("dx_r") = nb::none(),
        "SGslide: joint and wrist displacements and contact forces for reference changes dq_r, dx_r (None: zero; "
        "None stiffness: rigid).");
  m.def("contact_margins",
        [](const Contacts& c, nb::handle l0, nb::handle dl) {
          return contact_margins(c, as_vector(l0, "lambda0"), as_vector(dl, "dlambda"));
        },
        nb::arg("contacts"), nb::arg("lambda0"), nb::arg("dlambda"), "friction-cone margin of lambda0 + dlambda per contact [N]");
  m.def("sliding_contacts",
        [](const Contacts& c, nb::handle l0, nb::handle dl, double tol) {
          return sliding_contacts(c, as_vector(l0, "lambda0"), as_vector(dl, "dlambda"), tol);
        },
        nb::arg("contacts"), nb::arg("lambda0"), nb::arg("dlambda"), nb::arg("tol") = 1e-9,
        "indices of the contacts whose force leaves its friction cone");
  m.def("controllable_internal_forces", &controllable_internal_forces, nb::arg("maps"), nb::arg("tol") = -1.0,
        "orthonormal basis of range(P): internal forces the synergy references can set");
  m.def("synergy_rigid_body_motions", &synergy_rigid_body_motions, nb::arg("maps"), nb::arg("tol") = -1.0,
        "SGrbMotions with synergies");
  m.def("rigid_body_motions",
        [](nb::handle G, nb::handle JH, double tol) { return rigid_body_motions(as_matrix(G, "G"), as_matrix(JH, "J_H"), tol); },
        nb::arg("G"), nb::arg("J_H"), nb::arg("tol") = -1.0, "(du, dq) with J_H dq = G^T du");
}

// Manipulability ellipsoids.
void bind_manipulability(nb::module_& m) {
  nb::class_<Ellipsoid>(m, "Ellipsoid", "Semi-axes (descending; +inf unbounded, 0 degenerate) and their directions.")
      .def_ro("semi_axes", &Ellipsoid::semi_axes).def_ro("directions", &Ellipsoid::directions)
      .def_ro("finite_rank", &Ellipsoid::finite_rank).def_ro("unbounded", &Ellipsoid::unbounded);
  nb::class_<ManipulabilityEllipsoid>(m, "ManipulabilityEllipsoid", "Kinematic or force manipulability ellipsoid of a grasp: full, linear and angular blocks (SGkinManipulability).")
      .def_ro("full", &ManipulabilityEllipsoid::full).def_ro("linear", &ManipulabilityEllipsoid::linear)
      .def_ro("angular", &ManipulabilityEllipsoid::angular).def_ro("inputs", &ManipulabilityEllipsoid::inputs)
      .def_ro("compatible_inputs", &ManipulabilityEllipsoid::compatible_inputs)
      .def_ro("indeterminate", &ManipulabilityEllipsoid::indeterminate);
  m.def("kinematic_manipulability",
        [](nb::handle G, nb::handle JH, nb::handle S) {
          const Eigen::MatrixXd J = as_matrix(JH, "J_H");
          return kinematic_manipulability(as_matrix(G, "G"), J,
                                          S.is_none() ? Eigen::MatrixXd::Identity(J.cols(), J.cols()) : as_matrix(S, "S"));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("S") = nb::none(), "object twists for unit synergy inputs (S None: joints)");
  m.def("force_manipulability",
        [](nb::handle G, nb::handle JH, nb::handle S) {
          const Eigen::MatrixXd J = as_matrix(JH, "J_H");
          return force_manipulability(as_matrix(G, "G"), J,
                                      S.is_none() ? Eigen::MatrixXd::Identity(J.cols(), J.cols()) : as_matrix(S, "S"));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("S") = nb::none(), "object wrenches for unit synergy forces (rigid model)");
  m.def("compliant_force_manipulability", &compliant_force_manipulability, nb::arg("maps"),
        "SGforceManipulability over the compliant model's maps; equals force_manipulability for every stiffness");
}

// Vcost and the contact / grasp robustness measures.
void bind_force_closure_cost(nb::module_& m) {
  nb::class_<VcostOptimum>(m, "VcostOptimum", "The internal forces minimising the force-closure cost V (SGVcost).")
      .def_ro("y", &VcostOptimum::y).def_ro("lambda_", &VcostOptimum::lambda).def_ro("cost", &VcostOptimum::cost)
      .def_ro("max_sigma", &VcostOptimum::max_sigma).def_ro("evaluations", &VcostOptimum::evaluations)
      .def_ro("converged", &VcostOptimum::converged);
  m.def("force_closure_cost",
        [](const Contacts& c, nb::handle lambda, double fmin, double fmax, double k) {
          return force_closure_cost(c, as_vector(lambda, "lambda_"), vcost_params(fmin, fmax, k));
        },
        nb::arg("contacts"), nb::arg("lambda_"), nb::arg("fmin") = 1.0, nb::arg("fmax") = 30.0, nb::arg("k") = 0.01,
        "SGVcost's V of contact forces lambda (hard-finger / frictionless contacts)");
  m.def("stiffness_weighted_pseudo_inverse",
        [](nb::handle G, nb::handle K) { return stiffness_weighted_pseudo_inverse(as_matrix(G, "G"), as_matrix(K, "K")); },
        nb::arg("G"), nb::arg("K"), "K G^T (G K G^T)^-1");
  m.def("minimize_force_closure_cost",
        [](const Contacts& c, nb::handle Gp, nb::handle w, nb::handle E, double fmin, double fmax, double k) {
          return minimize_force_closure_cost(c, as_matrix(Gp, "Gp"), as_wrench(w, "w"), as_matrix(E, "E"),
                                             vcost_params(fmin, fmax, k));
        },
        nb::arg("contacts"), nb::arg("Gp"), nb::arg("w"), nb::arg("E"), nb::arg("fmin") = 1.0, nb::arg("fmax") = 30.0,
        nb::arg("k") = 0.01, "min_y V(-Gp w + E y) (SGVcost with fminsearch; Nelder-Mead, V convex in y)");
  m.def("potential_contact_robustness",
        [](const Contacts& c, nb::handle Gp, nb::handle E, nb::handle w, double fmin, double fmax, double k) {
          RobustnessOptions o;
          o.cost = vcost_params(fmin, fmax, k);
          if (!w.is_none()) o.w = as_wrench(w, "w");
          return potential_contact_robustness(c, as_matrix(Gp, "Gp"), as_matrix(E, "E"), o);
        },
        nb::arg("contacts"), nb::arg("Gp"), nb::arg("E"), nb::arg("w") = nb::none(), nb::arg("fmin") = 1.0,
        nb::arg("fmax") = 30.0, nb::arg("k") = 0.001, "PCR = n_c / min_y V (SG_PCR)");
  nb::class_<PgrResult>(m, "PgrResult", "Potential grasp robustness over contact-state combinations and the best one (SG_PGR*).")
      .def_ro("pgr", &PgrResult::pgr).def_ro("pcr", &PgrResult::pcr).def_ro("quality", &PgrResult::quality)
      .def_ro("feasible", &PgrResult::feasible)
      .def_prop_ro("best", [](const PgrResult& r) { return state_list(r.best); }, "best combination: 0 sticking, 1 sliding, 2 detached per contact");
  m.def("potential_grasp_robustness",
        [](const Contacts& c, nb::handle G, nb::handle JH, nb::handle Kc, nb::handle Kq, nb::handle S, nb::handle Kz,
           double fmin, double fmax, double k) {
          const QuasiStaticGrasp g = quasi_static_grasp(G, JH, Kc, Kq, S, Kz);
          RobustnessOptions o;
          o.cost = vcost_params(fmin, fmax, k);
          return potential_grasp_robustness(c, g, o);
        },
        nb::arg("contacts"), nb::arg("G"), nb::arg("J_H"), nb::arg("Kc"), nb::arg("Kq"), nb::arg("S") = nb::none(),
        nb::arg("Kz") = nb::none(), nb::arg("fmin") = 1.0, nb::arg("fmax") = 30.0, nb::arg("k") = 0.001,
        "PGR by brute force over sticking / sliding / detached contact states (SG_PGRbruteforce, <= 8 contacts)");
  m.def("pgr_h1_combinations",
        [](const Contacts& c, nb::handle lambda0, double eps) {
          return state_lists(pgr_h1_combinations(c, as_vector(lambda0, "lambda0"), eps));
        },
        nb::arg("contacts"), nb::arg("lambda0"), nb::arg("eps") = 0.017453292519943295,
        "SG_PGRh1: contacts near their normal or cone edge at the all-sticking optimum slide, the others take every state");
  m.def("pgr_h2_combinations", [](int nc, int sticking) { return state_lists(pgr_h2_combinations(nc, sticking)); },
        nb::arg("nc"), nb::arg("sticking"), "SG_PGRh2: exactly `sticking` contacts stick, the others detach");
  m.def("pgr_h3_combinations", [](int nc, int sticking) { return state_lists(pgr_h3_combinations(nc, sticking)); },
        nb::arg("nc"), nb::arg("sticking"), "SG_PGRh3: exactly `sticking` stick, each other one slides or detaches");
  m.def("pgr_h4_combinations", [](int nc) { return state_lists(pgr_h4_combinations(nc)); }, nb::arg("nc"),
        "SG_PGRh4: 2 stick, exactly 2 or 3 of the others slide, the rest detach");
  m.def("pgr_over_combinations",
        [](const Contacts& c, nb::handle G, nb::handle JH, nb::handle Kc, nb::handle Kq,
           const std::vector<std::vector<int>>& combinations, nb::handle S, nb::handle Kz, double fmin, double fmax,
           double k) {
          const QuasiStaticGrasp g = quasi_static_grasp(G, JH, Kc, Kq, S, Kz);
          RobustnessOptions o;
          o.cost = vcost_params(fmin, fmax, k);
          return pgr_over_combinations(c, g, state_combinations(combinations), o);
        },
        nb::arg("contacts"), nb::arg("G"), nb::arg("J_H"), nb::arg("Kc"), nb::arg("Kq"), nb::arg("combinations"),
        nb::arg("S") = nb::none(), nb::arg("Kz") = nb::none(), nb::arg("fmin") = 1.0, nb::arg("fmax") = 30.0,
        nb::arg("k") = 0.001, "PGR over the listed combinations only (the SG_PGRh* heuristics' lists)");
}

}  // namespace

void bind_syngrasp(nb::module_& m) {
  bind_stiffness(m);
  bind_quasistatics(m);
  bind_manipulability(m);
  bind_force_closure_cost(m);
}

}  // namespace mjhand::py
