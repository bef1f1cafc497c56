// Grasp analysis in Python: contacts, G, J_H, quality, epsilon, closure, force distribution, mobility, statics, the
// parallel-manipulator view, and GraspAnalysis (the preallocated per-step path). Names follow the C++ API
// (docs/python.md); every array is float64, every length SI.
#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>
#include <utility>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/force_closure_lp.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/mobility.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/parallel/grasp_equivalence.h>
#include <mjhand/parallel/parallel_jacobians.h>
#include <mjhand/parallel/screws.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>

#include "bind.h"

namespace mjhand::py {
namespace {

using Contacts = std::vector<Contact>;

int rows_of(const Contacts& c) { return total_rows(c); }

void check_finite(const Eigen::MatrixXd& A, const char* what) {
  if (!A.allFinite()) throw nb::value_error((std::string(what) + " has a NaN or infinite entry").c_str());
}

// A Hand must describe the model it is used with: its tables are indexed by the model's body and dof ids.
void check_hand(const mjModel* m, const HandModel& h) {
  if (h.object_body == -1 && static_cast<int>(h.finger_of_body.size()) == m->nbody) {
    throw nb::value_error("hand has no object (infer_hand_structure without object=): name the grasped body");
  }
  bool ok = static_cast<int>(h.finger_of_body.size()) == m->nbody && h.object_body > 0 && h.object_body < m->nbody &&
            h.object_dof < m->nv;
  for (int v : h.dofs) ok = ok && v >= 0 && v < m->nv;
  if (!ok) throw nb::value_error("hand was made for another model (its body or dof ids do not fit this one)");
}

// A contact's numbers must be usable: finite point, a rotation as frame, friction >= 0; with a model, its ids must
// be ids of that model (hand_body required where J_H needs it).
void check_contact(const Contact& c, size_t i, const mjModel* m = nullptr, bool need_body = false) {
  const std::string at = "contacts[" + std::to_string(i) + "]";
  if (!c.pos.allFinite()) throw nb::value_error((at + ".pos is not finite").c_str());
  if (!c.frame.allFinite() || (c.frame.transpose() * c.frame - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-9 ||
      c.frame.determinant() < 0) {
    throw nb::value_error((at + ".frame is not a rotation (columns n, t, o orthonormal, right-handed)").c_str());
  }
  if (!(c.mu >= 0) || !std::isfinite(c.mu) || !(c.mu_torsion >= 0) || !std::isfinite(c.mu_torsion)) {
    throw nb::value_error((at + ": mu and mu_torsion must be finite and >= 0").c_str());
  }
  if (m) {
    if (c.hand_body < -1 || c.hand_body >= m->nbody || (need_body && c.hand_body < 0)) {
      throw nb::value_error((at + ".hand_body " + std::to_string(c.hand_body) + " is not a body of this model").c_str());
    }
    if (c.hand_geom < -1 || c.hand_geom >= m->ngeom || c.object_geom < -1 || c.object_geom >= m->ngeom) {
      throw nb::value_error((at + " names geoms this model does not have (contacts of another model?)").c_str());
    }
  }
}

void check_contacts(const Contacts& cs, const mjModel* m = nullptr, bool need_body = false) {
  for (size_t i = 0; i < cs.size(); ++i) check_contact(cs[i], i, m, need_body);
}

double check_tol(double tol) {
  if (std::isnan(tol)) throw nb::value_error("tol is NaN (use a negative tol for the default rule)");
  return tol;
}

std::string shape(const Eigen::MatrixXd& A) {
  return "(" + std::to_string(A.rows()) + ", " + std::to_string(A.cols()) + ")";
}

// G must be 6 x rows(contacts) (rows = sum of each contact model's force components).
void check_G(const Eigen::MatrixXd& G, const Contacts& contacts) {
  if (G.rows() != 6 || G.cols() != rows_of(contacts)) {
    throw nb::value_error(("G must have shape (6, " + std::to_string(rows_of(contacts)) + ") for these " +
                           std::to_string(contacts.size()) + " contacts, got " + shape(G)).c_str());
  }
  check_finite(G, "G");
}

void check_GJ(const Eigen::MatrixXd& G, const Eigen::MatrixXd& JH) {
  if (G.rows() != 6) throw nb::value_error(("G must have 6 rows, got shape " + shape(G)).c_str());
  if (JH.rows() != G.cols()) {
    throw nb::value_error(("J_H must have as many rows as G has columns (" + std::to_string(G.cols()) +
                           "), got shape " + shape(JH)).c_str());
  }
  check_finite(G, "G");
  check_finite(JH, "J_H");
}

Wrench to_wrench(const Eigen::VectorXd& W) {
  if (W.size() != 6) throw nb::value_error(("W must have 6 entries (f, m), got " + std::to_string(W.size())).c_str());
  if (!W.allFinite()) throw nb::value_error("W is not finite");
  return W;
}

int body_id(const mjModel* m, int id, const char* what) {
  if (id < 0 || id >= m->nbody) {
    throw nb::value_error((std::string(what) + ": body id " + std::to_string(id) + " is not in 0.." +
                           std::to_string(m->nbody - 1)).c_str());
  }
  return id;
}

// A contact model given as an mjhand.ContactModel or by name: the CLI's --palm-contact names (pwof, hf, sf) or the
// enum's (hard_finger, ...), any case. isinstance, not try_cast: a plain int must not pass for a model.
ContactModel contact_model_arg(nb::handle value, const char* what) {
  ContactModel out;
  if (nb::isinstance<ContactModel>(value) && nb::try_cast<ContactModel>(value, out)) return out;
  if (nb::isinstance<nb::str>(value)) {
    std::string s = nb::cast<std::string>(value);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == "pwof" || s == "frictionless_point") return ContactModel::kFrictionlessPoint;
    if (s == "hf" || s == "hard_finger") return ContactModel::kHardFinger;
    if (s == "sf" || s == "soft_finger") return ContactModel::kSoftFinger;
    throw nb::value_error((std::string(what) + ": unknown contact model '" + nb::cast<std::string>(value) +
                           "'; give 'pwof', 'hf' or 'sf' (as mjhand analyze --palm-contact), an mjhand.ContactModel, "
                           "or None (from each contact's condim)").c_str());
  }
  throw nb::type_error((std::string(what) + " must be an mjhand.ContactModel, 'pwof', 'hf' or 'sf', or None (from "
                        "each contact's condim)").c_str());
}

ContactOptions contact_options(const std::string& tangent, nb::handle model, bool include_margin,
                               nb::handle palm_model = nb::none()) {
  ContactOptions o;
  if (tangent == "eq2") o.tangent = ContactOptions::Tangent::kEq2;
  else if (tangent == "mujoco") o.tangent = ContactOptions::Tangent::kMuJoCo;
  else throw nb::value_error(("tangent must be 'eq2' or 'mujoco', got '" + tangent + "'").c_str());
  if (!model.is_none()) {
    o.force_model = true;
    o.model = contact_model_arg(model, "contact_model");
  }
  o.include_margin_contacts = include_margin;
  if (!palm_model.is_none()) {
    o.force_palm_model = true;
    o.palm_model = contact_model_arg(palm_model, "palm_contact_model");
  }
  return o;
}

// The per-step path: GraspData preallocated once per (model, hand); compute() fills contacts, G and J_H without
// allocating, and G/J_H are views of its storage (valid until the next compute).
class GraspAnalysis {
 public:
  GraspAnalysis(nb::object model, const HandModel& hand, int max_contacts, const std::string& tangent)
      : model_obj_(std::move(model)), m_(model_of(model_obj_)), hand_((check_hand(m_, hand), hand)),
        data_(m_, hand_, check_max(max_contacts)), max_contacts_(max_contacts) {
    options_.contacts = contact_options(tangent, nb::none(), false);
  }
  static int check_max(int n) {
    if (n < 1 || n > 100000) throw nb::value_error(("max_contacts must be in 1..100000, got " + std::to_string(n)).c_str());
    return n;
  }
  int compute(nb::handle data) {
    const mjData* d = data_of(data, m_);
    compute_grasp(m_, d, hand_, data_, options_);
    if (data_.scan.capacity_dropped > 0) {
      const int n = data_.scan.capacity_dropped + static_cast<int>(data_.contacts.size());
      data_.contacts.clear();
      data_.rows = 0;  // no partial grasp is presented as a result
      throw GraspError(std::to_string(n) + " hand-object contacts do not fit max_contacts=" +
                       std::to_string(max_contacts_) + ": make the GraspAnalysis with a larger max_contacts");
    }
    return static_cast<int>(data_.contacts.size());
  }
  // compute + sigma_min(G) on an mjData already checked: the C++ side of the Python-overhead benchmark.
  double compute_sigma_min(const mjData* d) {
    compute_grasp(m_, d, hand_, data_, options_);
    return grasp_sigma_min(data_.G());
  }
  // Positions, contacts and the singular-value metrics of many qpos rows in one C++ loop, d used as scratch: per
  // state (contacts, sigma_min, sigma_max, isotropy), as mjhand.mjx's GraspMetrics (the benchmark's C++ side).
  nb::ndarray<nb::numpy, double, nb::ndim<2>> metrics_of_states(
      nb::handle data, nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu> qpos) {
    mjData* d = data_of(data, m_);
    if (static_cast<int>(qpos.shape(1)) != m_->nq) {
      throw nb::value_error(("qpos must have model.nq = " + std::to_string(m_->nq) + " columns, got " +
                             std::to_string(qpos.shape(1))).c_str());
    }
    const size_t n = qpos.shape(0);
    std::unique_ptr<double[]> buffer(new double[4 * n]);
    nb::capsule owner(buffer.get(), [](void* p) noexcept { delete[] static_cast<double*>(p); });
    double* out = buffer.release();  // the capsule owns it from here, also when the loop throws
    for (size_t i = 0; i < n; ++i) {
      std::copy_n(qpos.data() + i * m_->nq, m_->nq, d->qpos);
      mj_kinematics(m_, d);
      mj_comPos(m_, d);
      mj_collision(m_, d);
      compute_grasp(m_, d, hand_, data_, options_);
      if (data_.scan.capacity_dropped > 0) {
        data_.contacts.clear();
        data_.rows = 0;  // no partial grasp is left behind, as compute()
        throw GraspError("state " + std::to_string(i) + ": more hand-object contacts than max_contacts=" +
                         std::to_string(max_contacts_));
      }
      const Eigen::Matrix<double, 6, 1> s = grasp_singular_values(data_.G());
      const double smin = grasp_sigma_min(data_.G());
      out[4 * i] = static_cast<double>(data_.contacts.size());
      out[4 * i + 1] = smin;
      out[4 * i + 2] = s(0);
      out[4 * i + 3] = s(0) > 0 ? smin / s(0) : 0.0;
    }
    size_t shape[2] = {n, 4};
    return nb::ndarray<nb::numpy, double, nb::ndim<2>>(out, 2, shape, owner);
  }
  const mjModel* model() const { return m_; }
  const HandModel& hand() const { return hand_; }
  const GraspData& data() const { return data_; }
  GraspData& data() { return data_; }

 private:
  nb::object model_obj_;  // keeps the MjModel alive while this object reads it
  const mjModel* m_;
  HandModel hand_;
  GraspData data_;
  int max_contacts_;
  GraspOptions options_;
};

// A read-only float64 view (rows x cols, column-major like Eigen) of memory `owner` keeps alive.
nb::ndarray<nb::numpy, const double, nb::ndim<2>> view(const double* p, int rows, int cols, int ld, nb::handle owner) {
  size_t shape[2] = {static_cast<size_t>(rows), static_cast<size_t>(cols)};
  int64_t strides[2] = {1, ld};
  return nb::ndarray<nb::numpy, const double, nb::ndim<2>>(p, 2, shape, owner, strides);
}

// Contacts and hands: the exceptions, contact models, Contact, Hand, collecting contacts from MuJoCo.
void bind_contacts(nb::module_& m) {
  nb::exception<GraspError>(m, "GraspError", PyExc_ValueError)
      .doc() = "A grasp that cannot be analysed (no finger contacts, a hand structure that cannot be inferred, ...).";
  nb::exception<ParallelError>(m, "ParallelError", PyExc_ValueError)
      .doc() = "A grasp whose parallel-manipulator view cannot be formed (e.g. a leg without joints).";

  nb::enum_<ContactModel>(m, "ContactModel", "Which force components a contact transmits (rows of H_i).")
      .value("FRICTIONLESS_POINT", ContactModel::kFrictionlessPoint, "normal force only (1 row)")
      .value("HARD_FINGER", ContactModel::kHardFinger, "point contact with friction (3 rows)")
      .value("SOFT_FINGER", ContactModel::kSoftFinger, "hard finger + torsion about the normal (4 rows)")
      .value("COMPLETE_CONSTRAINT", ContactModel::kCompleteConstraint,
             "force and full moment, moments without friction limit (6 rows; SynGrasp type 3)");

  nb::class_<Contact>(m, "Contact",
                      "One hand-object contact: point c_i [m, world], frame R_i = [n t o] (columns, world; n points "
                      "into the object), contact model, friction. lambda_i is the force the hand applies, in R_i.")
      .def(nb::init<>())
      .def_prop_rw(
          "pos", [](const Contact& c) { return c.pos; },
          [](Contact& c, nb::handle v) {
            const Eigen::MatrixXd a = as_matrix(v, "pos");
            c.pos = to_vec3(Eigen::Map<const Eigen::VectorXd>(a.data(), a.size()), "pos");
          },
          "contact point c_i [m, world], shape (3,)")
      .def_prop_rw(
          "frame", [](const Contact& c) { return c.frame; },
          [](Contact& c, nb::handle value) {
            const Eigen::MatrixXd a = as_matrix(value, "frame");
            if (a.rows() != 3 || a.cols() != 3) throw nb::value_error("frame must be a 3 x 3 matrix");
            const Eigen::Matrix3d R = a;
            Contact t = c;
            t.frame = R;
            check_contact(t, 0);
            c.frame = R;
          },
          "R_i = [n t o], shape (3, 3), contact -> world (a rotation: checked when set)")
      .def_rw("model", &Contact::model, "the contact model (ContactModel)")
      .def_prop_rw(
          "mu", [](const Contact& c) { return c.mu; },
          [](Contact& c, double mu) {
            if (!(mu >= 0) || !std::isfinite(mu)) throw nb::value_error("mu must be finite and >= 0");
            c.mu = mu;
          },
          "Coulomb coefficient: |(f_t, f_o)| <= mu f_n")
      .def_prop_rw(
          "mu_torsion", [](const Contact& c) { return c.mu_torsion; },
          [](Contact& c, double mu) {
            if (!(mu >= 0) || !std::isfinite(mu)) throw nb::value_error("mu_torsion must be finite and >= 0");
            c.mu_torsion = mu;
          },
          "torsional coefficient [m]: |m_n| <= mu_torsion f_n")
      .def_ro("mj_contact", &Contact::mj_contact, "index into data.contact (-1: analytic)")
      .def_ro("hand_geom", &Contact::hand_geom, "geom id on the hand side (-1: analytic)")
      .def_ro("object_geom", &Contact::object_geom, "geom id on the object side (-1: analytic)")
      .def_rw("hand_body", &Contact::hand_body, "hand link carrying the point (J_H needs it)")
      .def_ro("finger", &Contact::finger, "finger index in the Hand (-1: analytic)")
      .def_ro("depth", &Contact::depth, "MuJoCo penetration -dist [m]")
      .def_prop_ro("normal", [](const Contact& c) { return Eigen::Vector3d(c.normal()); }, "n, shape (3,)")
      .def_prop_ro("rows", [](const Contact& c) { return contact_rows(c.model); }, "force components: 1, 3 or 4")
      .def("__repr__", [](const Contact& c) {
        return "<mjhand.Contact " + std::string(to_string(c.model)) + " at (" + std::to_string(c.pos.x()) + ", " +
               std::to_string(c.pos.y()) + ", " + std::to_string(c.pos.z()) + ") mu=" + std::to_string(c.mu) + ">";
      });

  m.def("contact_frame_from_normal",
        [](nb::handle n) { return Eigen::Matrix3d(contact_frame_from_normal(to_vec3(as_vector(n, "n"), "n"))); },
        nb::arg("n"), "Borras & Dollar eq 2: R = [n t o] for a normal n into the object, t horizontal. (3, 3).");
  m.def("analytic_contact",
        [](nb::handle c_arg, nb::handle n_arg, ContactModel model, double mu, double mu_torsion) {
          const Eigen::VectorXd c = as_vector(c_arg, "c");
          const Eigen::VectorXd n = as_vector(n_arg, "n");
          if (!(mu >= 0) || !(mu_torsion >= 0)) throw nb::value_error("mu and mu_torsion must be >= 0");
          return analytic_contact(to_vec3(c, "c"), to_vec3(n, "n"), model, mu, mu_torsion);
        },
        nb::arg("c"), nb::arg("n"), nb::arg("model") = ContactModel::kHardFinger, nb::arg("mu") = 0.5,
        nb::arg("mu_torsion") = 0.0, "A contact at point c [m] with normal n into the object (eq 2 frame).");

  nb::class_<HandModel>(m, "Hand", "Which bodies are the object and the fingers, and the hand's dofs (J_H columns).")
      .def_ro("object_body", &HandModel::object_body, "body id of the grasped object")
      .def_ro("finger_names", &HandModel::finger_names, "one name per finger (its root body)")
      .def_ro("dofs", &HandModel::dofs, "ascending MuJoCo dof indices of the hand")
      .def_ro("object_dof", &HandModel::object_dof, "dof address of the object's free joint, -1 without one")
      .def_ro("finger_of_body", &HandModel::finger_of_body, "finger index per body, -1 for no finger")
      .def_prop_ro("num_fingers", &HandModel::num_fingers, "number of fingers")
      .def_prop_ro("num_hand_dofs", &HandModel::num_hand_dofs, "n_hand: hand dofs, the columns of J_H")
      .def_ro("palm_body", &HandModel::palm_body, "the body where the fingers branch (-1: none or not inferred)")
      .def_prop_ro("palm_bodies", [](const HandModel& h) {
        std::vector<int> out;
        for (size_t b = 0; b < h.palm_of_body.size(); ++b) if (h.palm_of_body[b]) out.push_back(static_cast<int>(b));
        return out;
      }, "the palm and the bodies fixed to it outside the fingers (their contacts are palm contacts)")
      .def_ro("wrist_dofs", &HandModel::wrist_dofs, "dofs from the base to the palm (in dofs only with_wrist)")
      .def_ro("finger_roots", &HandModel::finger_roots, "root bodies per finger (several when a loop merges subtrees)")
      .def_ro("finger_tips", &HandModel::finger_tip, "per finger: the tip body given, -1 for none")
      .def("finger_bodies", [](const HandModel& h, int finger) {
        if (finger < 0 || finger >= h.num_fingers()) {
          throw nb::index_error(("finger " + std::to_string(finger) + " is not in 0.." +
                                 std::to_string(h.num_fingers() - 1)).c_str());
        }
        std::vector<int> out;
        for (size_t b = 0; b < h.finger_of_body.size(); ++b) if (h.finger_of_body[b] == finger) out.push_back(static_cast<int>(b));
        return out;
      }, nb::arg("finger"), "body ids of finger `finger`, ascending")
      .def("is_palm", &HandModel::is_palm, nb::arg("body"), "body is the palm or fixed to it");

  m.def("collect_contacts",
        [](nb::handle model, nb::handle data, const HandModel& hand, const std::string& tangent,
           nb::handle contact_model, bool include_margin, nb::handle palm_contact_model) {
          const mjModel* mm = model_of(model);
          const mjData* d = data_of(data, mm);
          check_hand(mm, hand);
          Contacts out;
          out.reserve(std::max(d->ncon, 1));
          collect_contacts(mm, d, hand, out, contact_options(tangent, contact_model, include_margin, palm_contact_model));
          return out;
        },
        nb::arg("model"), nb::arg("data"), nb::arg("hand"), nb::arg("tangent") = "eq2",
        nb::arg("contact_model") = nb::none(), nb::arg("include_margin") = false,
        nb::arg("palm_contact_model") = nb::none(),
        "The contacts between hand.object_body and the fingers in data (after mj_forward/mj_step), n into the object. "
        "tangent='eq2' (eq 2's horizontal t) or 'mujoco' (MuJoCo's own tangent axes); contact_model forces one "
        "model (default: from each contact's condim). A Hand from infer_hand_structure also yields the palm's contacts "
        "(finger -1), of palm_contact_model if given (mjhand analyze --palm-contact).");
  m.def("mujoco_contact_forces",
        [](nb::handle model, nb::handle data, const Contacts& contacts) {
          const mjModel* mm = model_of(model);
          const mjData* d = data_of(data, mm);
          check_contacts(contacts, mm);
          Eigen::VectorXd lambda(rows_of(contacts));
          mujoco_contact_forces(mm, d, contacts, lambda);
          return lambda;
        },
        nb::arg("model"), nb::arg("data"), nb::arg("contacts"),
        "lambda [N] (and torsion [N m]) the hand applies to the object, from mj_contactForce, in each contact's frame.");
  m.def("object_center",
        [](nb::handle model, nb::handle data, const HandModel& hand) {
          const mjModel* mm = model_of(model);
          check_hand(mm, hand);
          return Eigen::Vector3d(object_center(data_of(data, mm), hand));
        },
        nb::arg("model"), nb::arg("data"), nb::arg("hand"), "The object's centre of mass [m, world] (G's default reference).");
}

// G, J_H, the selection matrix, object twists and the singular-value quality measures.
void bind_grasp_matrices(nb::module_& m) {
  m.def("grasp_matrix",
        [](const Contacts& contacts, nb::handle reference_arg) {
          const Eigen::VectorXd reference = as_vector(reference_arg, "reference");
          check_contacts(contacts);
          return grasp_matrix(contacts, to_vec3(reference, "reference"));
        },
        nb::arg("contacts"), nb::arg("reference"),
        "G (6 x m): contact forces (contact frames) -> object wrench (f, m) about reference [m] (Borras & Dollar Table 1).");
  m.def("hand_jacobian",
        [](nb::handle model, nb::handle data, const HandModel& hand, const Contacts& contacts) {
          const mjModel* mm = model_of(model);
          check_hand(mm, hand);
          check_contacts(contacts, mm, true);
          return hand_jacobian(mm, data_of(data, mm), hand, contacts);
        },
        nb::arg("model"), nb::arg("data"), nb::arg("hand"), nb::arg("contacts"),
        "J_H (m x n_hand): contact-frame velocities per hand joint velocity (columns hand.dofs), from mj_jac.");
  m.def("selection_matrix", [](const Contacts& contacts) { check_contacts(contacts); return selection_matrix(contacts); }, nb::arg("contacts"),
        "H = diag(H_1..H_k) (m x 6k).");
  m.def("object_twist",
        [](nb::handle model, nb::handle data, const HandModel& hand, nb::handle reference_arg) {
          const Eigen::VectorXd reference = as_vector(reference_arg, "reference");
          const mjModel* mm = model_of(model);
          check_hand(mm, hand);
          return Eigen::VectorXd(object_twist(mm, data_of(data, mm), hand, to_vec3(reference, "reference")));
        },
        nb::arg("model"), nb::arg("data"), nb::arg("hand"), nb::arg("reference"),
        "Object twist (v of reference [m/s], w [rad/s]) in world coordinates from its free joint.");

  nb::class_<GraspQuality>(m, "GraspQuality", "SynGrasp's singular-value quality measures of G and J_H.")
      .def_ro("rows", &GraspQuality::rows, "m: contact force components (length of lambda, columns of G)")
      .def_ro("hand_dofs", &GraspQuality::hand_dofs, "n_hand: columns of J_H")
      .def_ro("rank_G", &GraspQuality::rank_G, "numerical rank of G")
      .def_ro("sigma_min_G", &GraspQuality::sigma_min_G, "SGminSVG")
      .def_ro("sigma_max_G", &GraspQuality::sigma_max_G, "largest singular value of G")
      .def_ro("isotropy_G", &GraspQuality::isotropy_G, "SGgraspIsotropyIndex")
      .def_ro("sigma_min_HO", &GraspQuality::sigma_min_HO, "SGdistSingularConfiguration")
      .def_ro("sigma_max_HO", &GraspQuality::sigma_max_HO, "largest singular value of H_O")
      .def_ro("ellipsoid_volume_HO", &GraspQuality::ellipsoid_volume_HO, "SGmanipEllipsoidVolume: sqrt(det(H_O H_O^T)); 0 when rank < 6")
      .def_ro("uniformity_HO", &GraspQuality::uniformity_HO, "SGunifTransf")
      .def_ro("manipulability_JH", &GraspQuality::manipulability_JH, "sqrt(det(J_H J_H^T)) as the product of min(m, n) singular values")
      .def_ro("manipulability_JHpGT", &GraspQuality::manipulability_JHpGT, "the same for J_H^+ G^T (joint velocities per object twist)")
      .def_ro("valid", &GraspQuality::valid, "False for no contacts or non-finite input (every number then 0)")
      .def_ro("message", &GraspQuality::message, "why not valid, or """);
  m.def("grasp_quality",
        [](nb::handle G_arg, nb::handle JH_arg) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::MatrixXd JH = as_matrix(JH_arg, "J_H");
          check_GJ(G, JH);
          return grasp_quality(G, JH);
        },
        nb::arg("G"), nb::arg("J_H"), "Every singular-value measure of a grasp (never NaN; valid=False says why).");
  m.def("grasp_singular_values",
        [](nb::handle G_arg) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          if (G.rows() != 6) throw nb::value_error(("G must have 6 rows, got shape " + shape(G)).c_str());
          check_finite(G, "G");
          return Eigen::VectorXd(grasp_singular_values(G));
        },
        nb::arg("G"), "Singular values of G, descending, zero-padded to 6.");
  m.def("grasp_sigma_min",
        [](nb::handle G_arg) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          if (G.rows() != 6) throw nb::value_error(("G must have 6 rows, got shape " + shape(G)).c_str());
          check_finite(G, "G");
          return grasp_sigma_min(G);
        },
        nb::arg("G"), "sigma_min(G) (SGminSVG); 0 for fewer than 6 independent columns.");
}

// The grasp wrench space: Ferrari-Canny epsilon and force closure.
void bind_wrench_space(nb::module_& m) {
  nb::enum_<WrenchNorm>(m, "WrenchNorm", "Which bound on the contact forces defines the grasp wrench space (Ferrari-Canny).")
      .value("L1", WrenchNorm::kL1, "sum of normal forces <= 1")
      .value("LINF", WrenchNorm::kLinf, "every normal force <= 1");
  nb::enum_<EpsilonStatus>(m, "EpsilonStatus", "Why a Ferrari-Canny epsilon is what it is (EpsilonResult.status).")
      .value("FORCE_CLOSURE", EpsilonStatus::kForceClosure)
      .value("NOT_FORCE_CLOSURE", EpsilonStatus::kNotForceClosure)
      .value("NO_CONTACTS", EpsilonStatus::kNoContacts)
      .value("RANK_DEFICIENT", EpsilonStatus::kRankDeficient)
      .value("TOO_MANY_POINTS", EpsilonStatus::kTooManyPoints)
      .value("HULL_FAILED", EpsilonStatus::kHullFailed)
      .value("TIME_LIMIT", EpsilonStatus::kTimeLimit)
      .value("INVALID_INPUT", EpsilonStatus::kInvalidInput);
  nb::class_<EpsilonResult>(m, "EpsilonResult", "Ferrari-Canny epsilon of a grasp wrench space.")
      .def_ro("status", &EpsilonResult::status, "EpsilonStatus: why epsilon is what it is")
      .def_ro("epsilon", &EpsilonResult::epsilon, "largest origin-centred ball in the GWS (scaled units)")
      .def_ro("signed_margin", &EpsilonResult::signed_margin, "min distance of the hull facets from the origin (scaled units), < 0 outside")
      .def_ro("volume", &EpsilonResult::volume, "GWS volume in scaled units (volume=True only)")
      .def_ro("torque_length", &EpsilonResult::torque_length, "L [m] moments were divided by")
      .def_ro("points", &EpsilonResult::points, "wrenches given to the hull")
      .def_ro("facets", &EpsilonResult::facets, "hull facets")
      .def_ro("message", &EpsilonResult::message, "human-readable status")
      .def_prop_ro("force_closure", &EpsilonResult::force_closure, "status == FORCE_CLOSURE");
  m.def("ferrari_canny",
        [](const Contacts& contacts, nb::handle reference_arg, WrenchNorm norm, int cone_edges,
           double torque_length, bool volume, int max_points, bool qhull, double time_limit) {
          const Eigen::VectorXd reference = as_vector(reference_arg, "reference");
          check_contacts(contacts);
          if (max_points < 1) throw nb::value_error("max_points must be >= 1");
          if (!(time_limit >= 0) || std::isinf(time_limit)) {
            throw nb::value_error(("time_limit must be a finite number of seconds >= 0 (0: no limit), got " +
                                   std::to_string(time_limit)).c_str());
          }
          WrenchSpaceOptions o;
          o.norm = norm;
          o.cone_edges = require_cone_edges(cone_edges);
          o.torque_length = torque_length;
          o.compute_volume = volume;
          o.max_points = max_points;
          o.time_limit = time_limit;
          o.hull = qhull ? WrenchHullMethod::kQhull : WrenchHullMethod::kFast;
          const Eigen::Vector3d p = to_vec3(reference, "reference");
          nb::gil_scoped_release unlocked;  // seconds of qhull: let other Python threads run
          return ferrari_canny(contacts, p, o);
        },
        nb::arg("contacts"), nb::arg("reference"), nb::arg("norm") = WrenchNorm::kL1, nb::arg("cone_edges") = 8,
        nb::arg("torque_length") = 0.0, nb::arg("volume") = false, nb::arg("max_points") = kLinfMaxPoints,
        nb::arg("qhull") = false, nb::arg("time_limit") = kLinfTimeLimit,
        "Ferrari-Canny epsilon (L1 or L-inf) with cones linearised by cone_edges edges; torque_length <= 0 uses the "
        "grasp radius. L-inf is refused above max_points Minkowski-sum points (TOO_MANY_POINTS) and stopped after "
        "time_limit seconds of hull building (TIME_LIMIT; 0: no limit). Never NaN: see status.");
  nb::enum_<ForceClosureLP::Result>(m, "ForceClosureResult", "Verdict of ForceClosureLP.evaluate.")
      .value("CLOSURE", ForceClosureLP::Result::kClosure, "the primitive wrenches positively span R^6")
      .value("NOT_CLOSURE", ForceClosureLP::Result::kNotClosure, "they do not")
      .value("NO_CONTACTS", ForceClosureLP::Result::kNoContacts, "no contacts")
      .value("RANK_DEFICIENT", ForceClosureLP::Result::kRankDeficient, "they span fewer than 6 dimensions")
      .value("SOLVER_LIMIT", ForceClosureLP::Result::kSolverLimit, "the simplex hit its pivot limit: undecided")
      .value("TOO_MANY_CONTACTS", ForceClosureLP::Result::kTooManyContacts, "more contacts than max_contacts");
  nb::class_<ForceClosureLP>(m, "ForceClosureLP",
                             "Force closure without a hull: one small LP (positive spanning of the primitive wrenches, "
                             "docs/grasp-analysis.md), what the grasp_analysis sensor evaluates every step; "
                             "preallocated, microseconds where is_force_closure builds the L1 hull (milliseconds).")
      .def(nb::init<int, int>(), nb::arg("max_contacts") = 64, nb::arg("cone_edges") = 8)
      .def("evaluate",
           [](ForceClosureLP& lp, const Contacts& contacts, nb::handle reference_arg) {
             const Eigen::VectorXd reference = as_vector(reference_arg, "reference");
             check_contacts(contacts);
             return lp.evaluate(contacts.data(), static_cast<int>(contacts.size()), to_vec3(reference, "reference"));
           },
           nb::arg("contacts"), nb::arg("reference"), "Decides force closure of contacts about reference.")
      .def_prop_ro("cone_edges", &ForceClosureLP::cone_edges, "edges of each linearised friction cone");
  m.def("is_force_closure",
        [](const Contacts& contacts, nb::handle reference_arg, int cone_edges, double tol) {
          const Eigen::VectorXd reference = as_vector(reference_arg, "reference");
          check_contacts(contacts);
          return is_force_closure(contacts, to_vec3(reference, "reference"), cone_edges, check_tol(tol));
        },
        nb::arg("contacts"), nb::arg("reference"), nb::arg("cone_edges") = 8, nb::arg("tol") = 1e-9,
        "Force closure with linearised cones (the L1 GWS contains a ball of radius > tol about the origin).");
}

// Contact forces: optimal (GLPK) and minimum-norm distributions, joint torques, internal forces, mobility.
void bind_forces(nb::module_& m) {
  nb::enum_<ForceStatus>(m, "ForceStatus", "Outcome of the optimal contact-force LP (ForceDistribution.status).")
      .value("OPTIMAL", ForceStatus::kOptimal)
      .value("INFEASIBLE", ForceStatus::kInfeasible)
      .value("UNBOUNDED", ForceStatus::kUnbounded)
      .value("INVALID_INPUT", ForceStatus::kInvalidInput)
      .value("SOLVER_ERROR", ForceStatus::kSolverError);
  nb::class_<ForceDistribution>(m, "ForceDistribution", "Optimal contact forces (GLPK linear program).")
      .def_ro("status", &ForceDistribution::status, "ForceStatus")
      .def_ro("lambda_", &ForceDistribution::lambda, "contact forces in the contact frames [N]")
      .def_ro("total_normal_force", &ForceDistribution::total_normal_force, "objective: sum of f_n [N]")
      .def_ro("wrench_residual", &ForceDistribution::wrench_residual, "|G lambda + W| of the result [N, N m]")
      .def_ro("min_cone_margin", &ForceDistribution::min_cone_margin, "smallest slack in the exact friction cones [N]")
      .def_ro("message", &ForceDistribution::message, """ when optimal, else why not")
      .def_prop_ro("ok", &ForceDistribution::ok, "status == OPTIMAL");
  m.def("optimal_forces",
        [](const Contacts& contacts, nb::handle G_arg, nb::handle W_arg, int cone_edges,
           double min_normal_force, double max_normal_force) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::VectorXd W = as_vector(W_arg, "W");
          check_G(G, contacts);
          check_contacts(contacts);
          ForceOptimizationOptions o;
          o.cone_edges = require_cone_edges(cone_edges);
          o.min_normal_force = min_normal_force;
          o.max_normal_force = max_normal_force;
          return optimal_forces(contacts, G, to_wrench(W), o);
        },
        nb::arg("contacts"), nb::arg("G"), nb::arg("W"), nb::arg("cone_edges") = 8,
        nb::arg("min_normal_force") = 0.0, nb::arg("max_normal_force") = std::numeric_limits<double>::infinity(),
        "Smallest sum of normal forces balancing the external wrench W (G lambda + W = 0) inside the friction cones.");
  nb::class_<MinNormForces>(m, "MinNormForces", "Least-norm contact forces -G^+ W balancing a wrench W (Mattar eq 40), with their residual.")
      .def_ro("lambda_", &MinNormForces::lambda, "-G^+ W, shape (m,) [N]")
      .def_ro("wrench_residual", &MinNormForces::wrench_residual, "|G lambda + W|")
      .def_ro("balances", &MinNormForces::balances, "the wrench is balanced (residual <= 1e-9 (1 + |W|))")
      .def_ro("in_cones", &MinNormForces::in_cones, "every contact force inside its exact friction set");
  m.def("min_norm_forces",
        [](const Contacts& contacts, nb::handle G_arg, nb::handle W_arg) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::VectorXd W = as_vector(W_arg, "W");
          check_G(G, contacts);
          check_contacts(contacts);
          return min_norm_forces(contacts, G, to_wrench(W));
        },
        nb::arg("contacts"), nb::arg("G"), nb::arg("W"), "Mattar eq 40 without internal forces: lambda = -G^+ W.");
  m.def("joint_torques",
        [](nb::handle JH_arg, nb::handle lambda_arg) {
          const Eigen::MatrixXd JH = as_matrix(JH_arg, "J_H");
          const Eigen::VectorXd lambda = as_vector(lambda_arg, "lambda_");
          if (JH.rows() != lambda.size()) {
            throw nb::value_error(("lambda must have " + std::to_string(JH.rows()) + " entries (rows of J_H), got " +
                                   std::to_string(lambda.size())).c_str());
          }
          check_finite(JH, "J_H");
          check_finite(lambda, "lambda_");
          Eigen::VectorXd tau(JH.cols());
          joint_torques(JH, lambda, tau);
          return tau;
        },
        nb::arg("J_H"), nb::arg("lambda_"), "tau = J_H^T lambda [N m].");
  m.def("balanced_wrench",
        [](nb::handle G_arg, nb::handle lambda_arg) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::VectorXd lambda = as_vector(lambda_arg, "lambda_");
          if (G.rows() != 6 || G.cols() != lambda.size()) {
            throw nb::value_error(("G " + shape(G) + " and lambda (" + std::to_string(lambda.size()) +
                                   ") do not fit").c_str());
          }
          check_finite(G, "G");
          check_finite(lambda, "lambda_");
          return Eigen::VectorXd(balanced_wrench(G, lambda));
        },
        nb::arg("G"), nb::arg("lambda_"), "The external wrench lambda balances: W = -G lambda.");
  m.def("internal_force_basis",
        [](nb::handle G_arg, double tol) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          if (G.rows() != 6) throw nb::value_error(("G must have 6 rows, got shape " + shape(G)).c_str());
          check_finite(G, "G");
          return internal_force_basis(G, check_tol(tol));
        },
        nb::arg("G"), nb::arg("tol") = -1.0, "Orthonormal basis of null(G) (m x (m - rank G)).");
  m.def("controllable_internal_force_basis",
        [](nb::handle G_arg, nb::handle JH_arg, double tol) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::MatrixXd JH = as_matrix(JH_arg, "J_H");
          check_GJ(G, JH);
          return controllable_internal_force_basis(G, JH, check_tol(tol));
        },
        nb::arg("G"), nb::arg("J_H"), nb::arg("tol") = -1.0, "Orthonormal basis of range(P_N J_H) (SynGrasp's E).");
  m.def("pseudo_inverse",
        [](nb::handle A_arg, double tol) {
          const Eigen::MatrixXd A = as_matrix(A_arg, "A");
          check_finite(A, "A");
          return pseudo_inverse(A, check_tol(tol));
        },
        nb::arg("A"), nb::arg("tol") = -1.0,
        "Moore-Penrose pseudo-inverse by SVD; singular values below tol * sigma_max are zero (tol < 0: max(rows, "
        "cols) * eps).");

  nb::class_<HandObjectMobility>(m, "HandObjectMobility", "Grubler count and Jacobian ranks of hand + object.")
      .def_ro("grubler", &HandObjectMobility::grubler, "6 + n_hand - sum of contact rows")
      .def_ro("instantaneous", &HandObjectMobility::instantaneous, "6 + n_hand - rank([G^T -J_H])")
      .def_ro("actuated", &HandObjectMobility::actuated, "actuated joints (given)")
      .def_ro("actuation_redundancy", &HandObjectMobility::actuation_redundancy, "actuated - grubler")
      .def_ro("rank_G", &HandObjectMobility::rank_G, "rank of G")
      .def_ro("internal_forces", &HandObjectMobility::internal_forces, "dim null(G) = m - rank G")
      .def_ro("indeterminate", &HandObjectMobility::indeterminate, "dim null(G^T) = 6 - rank G")
      .def_ro("redundant_motions", &HandObjectMobility::redundant_motions, "dim null(J_H)")
      .def_ro("constraint_rows", &HandObjectMobility::constraint_rows,
              "loop/coupling equality rows on the hand joints counted in grubler (0: none given)")
      .def_ro("joint_mobility", &HandObjectMobility::joint_mobility,
              "n_hand - rank J_eq: joint motions the equality constraints allow");
  m.def("grubler_kutzbach",
        [](int links, const std::vector<int>& joint_freedoms, int space_dim) {
          if (links < 1) throw nb::value_error("links_including_ground must be >= 1");
          if (space_dim != 3 && space_dim != 6) throw nb::value_error("space_dim must be 3 (planar) or 6 (spatial)");
          for (int f : joint_freedoms) {
            if (f < 0 || f > space_dim) throw nb::value_error("each joint's freedoms must be in 0..space_dim");
          }
          return grubler_kutzbach(links, joint_freedoms, space_dim);
        },
        nb::arg("links_including_ground"), nb::arg("joint_freedoms"), nb::arg("space_dim") = 6,
        "Mobility M = d (N - 1 - J) + sum f_j of N links (ground included) and J joints of f_j freedoms.");
  m.def("hand_object_mobility",
        [](const Contacts& contacts, nb::handle G_arg, nb::handle JH_arg, int actuated) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::MatrixXd JH = as_matrix(JH_arg, "J_H");
          check_G(G, contacts);
          check_GJ(G, JH);
          if (actuated < 0) throw nb::value_error("actuated must be >= 0");
          return hand_object_mobility(contacts, G, JH, actuated);
        },
        nb::arg("contacts"), nb::arg("G"), nb::arg("J_H"), nb::arg("actuated"),
        "Grubler-Kutzbach count (6 + n_hand - sum of contact rows) and the instantaneous mobility and redundancies from "
        "the ranks of G and J_H; actuated = the number of actuated joints.");
  m.def("in_friction_cones",
        [](const Contacts& contacts, nb::handle lambda_arg, double tol) {
          const Eigen::VectorXd lambda = as_vector(lambda_arg, "lambda_");
          check_contacts(contacts);
          check_finite(lambda, "lambda_");
          if (lambda.size() != total_rows(contacts)) {
            throw nb::value_error(("lambda_ must have " + std::to_string(total_rows(contacts)) +
                                   " entries (the contacts' rows), got " + std::to_string(lambda.size())).c_str());
          }
          if (!(tol >= 0) || !std::isfinite(tol)) throw nb::value_error("tol must be a finite number >= 0 [N]");
          return in_friction_cones(contacts, lambda, tol);
        },
        nb::arg("contacts"), nb::arg("lambda_"), nb::arg("tol") = 1e-9,
        "True when every contact force lies in its friction set with slack tol [N] (SGcheckFriction).");
  m.def("friction_cone_margin",
        [](const Contact& c, nb::handle lambda_i_arg) {
          const Eigen::VectorXd lambda_i = as_vector(lambda_i_arg, "lambda_i");
          check_contact(c, 0);
          check_finite(lambda_i, "lambda_i");
          if (lambda_i.size() != contact_rows(c.model)) {
            throw nb::value_error(("lambda_i must have " + std::to_string(contact_rows(c.model)) + " entries").c_str());
          }
          return friction_cone_margin(c, lambda_i.data());
        },
        nb::arg("contact"), nb::arg("lambda_i"), "Slack [N] of one contact force in its exact friction set (>= 0 inside).");
}

// The grasp as a parallel manipulator (Borras & Dollar).
void bind_parallel_view(nb::module_& m) {
  nb::class_<ParallelView>(m, "ParallelView", "The grasp as a parallel manipulator (Borras & Dollar section 2.3).")
      .def_ro("J_p", &ParallelView::Jp, "J_p, shape (m, 6): rows are the contacts' transmitted wrenches (f, m about jp_reference)")
      .def_ro("J_Theta", &ParallelView::JTheta, "J_Theta, shape (m, n_hand): reciprocal products with the joint twists")
      .def_ro("jp_reference", &ParallelView::jp_reference, "J_p's moment reference [m, world]")
      .def_ro("residual", &ParallelView::residual, "|J_Theta^+ J_p S - J_H^+ G^T| (Frobenius)")
      .def_ro("relative_residual", &ParallelView::relative_residual, "residual / |J_H^+ G^T|")
      .def_ro("jtheta_vs_jh", &ParallelView::jtheta_vs_jh, "|J_Theta - J_H|")
      .def_ro("jp_vs_gt", &ParallelView::jp_vs_gt, "|J_p S - G^T|");
  m.def("parallel_view",
        [](nb::handle model, nb::handle data, const HandModel& hand, const Contacts& contacts, nb::handle G_arg,
           nb::handle G_reference_arg, nb::handle JH_arg, nb::handle jp_reference_arg) {
          const Eigen::MatrixXd G = as_matrix(G_arg, "G");
          const Eigen::VectorXd G_reference = as_vector(G_reference_arg, "G_reference");
          const Eigen::MatrixXd JH = as_matrix(JH_arg, "J_H");
          const Eigen::VectorXd jp_reference = as_vector(jp_reference_arg, "jp_reference");
          const mjModel* mm = model_of(model);
          check_hand(mm, hand);
          check_contacts(contacts, mm, true);
          check_G(G, contacts);
          check_GJ(G, JH);
          return parallel_view(mm, data_of(data, mm), hand, contacts, G, to_vec3(G_reference, "G_reference"), JH,
                               to_vec3(jp_reference, "jp_reference"));
        },
        nb::arg("model"), nb::arg("data"), nb::arg("hand"), nb::arg("contacts"), nb::arg("G"), nb::arg("G_reference"),
        nb::arg("J_H"), nb::arg("jp_reference") = Eigen::VectorXd::Zero(3),
        "J_p and J_Theta with reciprocal screws along n, t, o (choice (b)); joint twists from mj_jac.");
  m.def("twist_to_joint_rates",
        [](nb::handle Jp_arg, nb::handle JTheta_arg) {
          const Eigen::MatrixXd Jp = as_matrix(Jp_arg, "J_p");
          const Eigen::MatrixXd JTheta = as_matrix(JTheta_arg, "J_Theta");
          check_finite(Jp, "J_p");
          check_finite(JTheta, "J_Theta");
          if (Jp.cols() != 6 || Jp.rows() != JTheta.rows()) {
            throw nb::value_error(("J_p must be r x 6 and J_Theta r x n, got " + shape(Jp) + " and " + shape(JTheta)).c_str());
          }
          return twist_to_joint_rates(Jp, JTheta);
        },
        nb::arg("J_p"), nb::arg("J_Theta"), "J_Theta^+ J_p: platform twist -> actuated joint rates.");
}

// GraspAnalysis: the per-step analysis object.
void bind_grasp_analysis(nb::module_& m) {
  nb::class_<GraspAnalysis>(m, "GraspAnalysis",
                            "The per-step grasp analysis of one (model, hand), preallocated: compute(data) collects the "
                            "contacts and fills G (6 x m, about the object's centre of mass) and J_H (m x n_hand) "
                            "without allocating; G and J_H are read-only views valid until the next compute.")
      .def(nb::init<nb::object, const HandModel&, int, const std::string&>(), nb::arg("model"), nb::arg("hand"),
           nb::arg("max_contacts") = 32, nb::arg("tangent") = "eq2")
      .def("compute", &GraspAnalysis::compute, nb::arg("data"),
           "Analyses data's contacts (after mj_forward/mj_step); returns their number. GraspError when more contacts "
           "than max_contacts touch the object (nothing partial is kept).")
      .def_prop_ro("G", [](nb::handle self) {
        const GraspData& g = nb::cast<GraspAnalysis&>(self).data();
        return view(g.G_storage.data(), 6, g.rows, static_cast<int>(g.G_storage.rows()), self);
      }, "G of the last compute, shape (6, m), about .reference; a read-only view of the analysis' storage (an array "
         "taken earlier keeps its shape: read .G again after compute)")
      .def_prop_ro("J_H", [](nb::handle self) {
        const GraspData& g = nb::cast<GraspAnalysis&>(self).data();
        return view(g.JH_storage.data(), g.rows, static_cast<int>(g.JH_storage.cols()),
                    static_cast<int>(g.JH_storage.rows()), self);
      }, "J_H of the last compute, shape (m, n_hand), columns hand.dofs; a read-only view like G")
      .def_prop_ro("sigma_min", [](const GraspAnalysis& a) { return grasp_sigma_min(a.data().G()); },
                   "sigma_min(G) of the last compute (no allocation)")
      .def("metrics_of_states", &GraspAnalysis::metrics_of_states, nb::arg("data"), nb::arg("qpos"),
           "Per row of qpos (n x nq): kinematics, centres of mass and collision into data (its scratch), then the "
           "analysis; returns (n, 4): contacts, sigma_min(G), sigma_max(G), isotropy -- mjhand.mjx's metrics of the "
           "same states, in one C++ loop. GraspError naming the state when max_contacts is exceeded.")
      .def_prop_ro("contacts", [](const GraspAnalysis& a) { return a.data().contacts; })
      .def_prop_ro("reference", [](const GraspAnalysis& a) { return a.data().reference; })
      .def_prop_ro("hand", &GraspAnalysis::hand, "the Hand analysed")
      .def_prop_ro("ignored_object_contacts", [](const GraspAnalysis& a) { return a.data().scan.object_other; },
                   "contacts of the object with something that is no finger (palm, table)")
      .def("_time_cpp",
           [](GraspAnalysis& a, nb::handle data, int n) {
             // The C++ baseline of the Python-overhead benchmark: the same compute + sigma_min, n times, timed here.
             const mjData* d = data_of(data, a.model());
             double sink = 0;
             const auto t0 = std::chrono::steady_clock::now();
             for (int i = 0; i < n; ++i) sink += a.compute_sigma_min(d);
             const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
             return std::make_pair(s, sink);
           });
}

}  // namespace

void bind_grasp(nb::module_& m) {
  m.attr("LINF_TIME_LIMIT") = kLinfTimeLimit;  // [s] the hull's default wall-clock limit, as `mjhand analyze`
  m.attr("LINF_MAX_POINTS") = kLinfMaxPoints;  // L-infinity epsilon's default point budget, as `mjhand analyze`
  bind_contacts(m);
  bind_grasp_matrices(m);
  bind_wrench_space(m);
  bind_forces(m);
  bind_parallel_view(m);
  bind_grasp_analysis(m);
}

}  // namespace mjhand::py
