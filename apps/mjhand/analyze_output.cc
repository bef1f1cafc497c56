// `mjhand analyze` output: the readable report and the JSON document (schema in docs/analyze.md).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "analyze_report.h"
#include "json_writer.h"

namespace mjhand::cli {

namespace {

constexpr int kSchemaVersion = 2;  // 2: ellipsoid_volume_HO without the pi^3/6 factor

// Stable identifiers for JSON (the library's to_string texts are sentences).
const char* model_id(ContactModel m) {
  switch (m) {
    case ContactModel::kFrictionlessPoint: return "frictionless_point";
    case ContactModel::kHardFinger: return "hard_finger";
    case ContactModel::kSoftFinger: return "soft_finger";
    case ContactModel::kCompleteConstraint: return "complete_constraint";
  }
  return "?";
}

const char* epsilon_id(EpsilonStatus s) {
  switch (s) {
    case EpsilonStatus::kForceClosure: return "force_closure";
    case EpsilonStatus::kNotForceClosure: return "not_force_closure";
    case EpsilonStatus::kNoContacts: return "no_contacts";
    case EpsilonStatus::kRankDeficient: return "rank_deficient";
    case EpsilonStatus::kTooManyPoints: return "too_many_points";
    case EpsilonStatus::kHullFailed: return "hull_failed";
    case EpsilonStatus::kTimeLimit: return "time_limit";
    case EpsilonStatus::kInvalidInput: return "invalid_input";
  }
  return "?";
}

const char* force_id(ForceStatus s) {
  switch (s) {
    case ForceStatus::kOptimal: return "optimal";
    case ForceStatus::kInfeasible: return "infeasible";
    case ForceStatus::kUnbounded: return "unbounded";
    case ForceStatus::kInvalidInput: return "invalid_input";
    case ForceStatus::kSolverError: return "solver_error";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------------------------
// Text

// Formats numbers for the text report; a non-finite value prints as "n/a" and is explained in the notes.
class Text {
 public:
  std::string num(double v, const std::string& what) {
    if (std::isfinite(v)) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.6g", v == 0 ? 0.0 : v);
      return buf;
    }
    non_finite.push_back(what);
    return "n/a";
  }
  std::string vec(const Eigen::Ref<const Eigen::VectorXd>& v, const std::string& what) {
    std::string s = "(";
    for (Eigen::Index i = 0; i < v.size(); ++i) s += (i ? ", " : "") + num(v(i), what + "[" + std::to_string(i) + "]");
    return s + ")";
  }
  void matrix(std::ostringstream& out, const Eigen::Ref<const Eigen::MatrixXd>& m, const std::string& what) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      out << "   ";
      for (Eigen::Index c = 0; c < m.cols(); ++c) {
        char buf[32];
        const double v = m(r, c);
        if (std::isfinite(v)) {
          std::snprintf(buf, sizeof(buf), " %10.4g", v == 0 ? 0.0 : v);
        } else {
          std::snprintf(buf, sizeof(buf), " %10s", "n/a");
          non_finite.push_back(what + "[" + std::to_string(r) + "][" + std::to_string(c) + "]");
        }
        out << buf;
      }
      out << "\n";
    }
  }
  std::vector<std::string> non_finite;
};

std::string yes_no(bool b) { return b ? "yes" : "no"; }

void epsilon_json(JsonWriter& j, const std::string& key, const EpsilonResult& e) {
  j.key(key);
  j.begin_object();
  j.field("status", epsilon_id(e.status));
  j.field("force_closure", e.force_closure());
  j.field("epsilon", e.epsilon);
  j.field("signed_margin", e.signed_margin);
  j.field("torque_length_m", e.torque_length);
  j.field("cone_edges", WrenchSpaceOptions{}.cone_edges);
  j.field("points", e.points);
  j.field("facets", e.facets);
  j.field("message", e.message);
  j.end_object();
}

// One report, two forms. walk_report visits the report's sections in their one order, and each form renders every
// section its own way: the text and the JSON cannot disagree on what they contain or in which order.
class ReportForm {
 public:
  virtual ~ReportForm() = default;
  virtual void begin(const AnalyzeReport& r) = 0;  // the heading
  virtual void state(const AnalyzeReport& r) = 0;  // the state analysed: keyframe, qpos or qpos0, settling, ctrl
  virtual void object(const AnalyzeReport& r) = 0;  // the grasped object
  virtual void hand(const AnalyzeReport& r) = 0;  // fingers, palm, wrist
  virtual void actuation(const AnalyzeReport& r) = 0;  // the transmission A and the equality constraints on the hand
  virtual void contacts(const AnalyzeReport& r) = 0;  // the contacts kept and ignored
  virtual void matrices(const AnalyzeReport& r) = 0;  // G and J_H
  virtual void quality(const AnalyzeReport& r) = 0;  // the singular-value quality measures
  virtual void ellipsoids(const AnalyzeReport& r) = 0;  // the manipulability ellipsoids (when asked)
  virtual void mobility(const AnalyzeReport& r) = 0;  // the hand-object mobility
  virtual void closure(const AnalyzeReport& r) = 0;  // force closure and the epsilons
  virtual void forces(const AnalyzeReport& r) = 0;  // contact forces for the object's weight
  virtual void robustness(const AnalyzeReport& r) = 0;  // Vcost and PCR
  virtual void parallel(const AnalyzeReport& r) = 0;  // the grasp as a parallel manipulator
  virtual void stiffness(const AnalyzeReport& r) = 0;  // the grasp stiffness (when asked)
  virtual void not_analysed(const AnalyzeReport& r) = 0;  // in place of the analysis when there is none
  virtual void load(const AnalyzeReport& r) = 0;  // the load check and the warnings
  virtual void end(const AnalyzeReport& r) = 0;  // the notes
};

void walk_report(const AnalyzeReport& r, ReportForm& form) {
  form.begin(r);
  form.state(r);
  form.object(r);
  form.hand(r);
  form.actuation(r);
  form.contacts(r);
  form.matrices(r);
  if (r.analysed) {
    form.quality(r);
    form.ellipsoids(r);
    form.mobility(r);
    form.closure(r);
    form.forces(r);
    form.robustness(r);
    form.parallel(r);
    form.stiffness(r);
  } else {
    form.not_analysed(r);
  }
  form.load(r);
  form.end(r);
}

// The readable report.
class TextForm : public ReportForm {
 public:
  void begin(const AnalyzeReport& r) override {
    o << "mjhand analyze " << r.model_path << "\n";
  }
  void state(const AnalyzeReport& r) override {
    o << "state: ";
    if (r.state_source == "keyframe") {
      o << "keyframe '" << r.keyframe_name << "' (#" << r.keyframe_index << ")";
    } else if (r.state_source == "qpos") {
      o << "qpos from --qpos";
    } else {
      o << "the model's qpos0";
    }
    if (r.settle_steps > 0) o << ", settled " << t.num(r.settle_s, "settle") << " s (" << r.settle_steps << " steps)";
    o << ", t = " << t.num(r.time, "time") << " s; ctrl from " << r.ctrl_source << " " << t.vec(
        Eigen::Map<const Eigen::VectorXd>(r.ctrl.data(), static_cast<Eigen::Index>(r.ctrl.size())), "ctrl") << "\n";
  }
  void object(const AnalyzeReport& r) override {
    o << "object: '" << r.object_name << "' (body " << r.object << ", " << (r.object_free ? "free joint" : "no free joint")
      << ", mass " << t.num(r.object_mass, "mass") << " kg, centre " << t.vec(r.object_center, "centre") << " m; "
      << r.object_source << ")\n";
  }
  void hand(const AnalyzeReport& r) override {
    o << "hand: " << r.finger_names.size() << " finger(s), " << r.dof_names.size() << " dofs, " << r.actuated
      << " actuated joint(s); " << r.hand_source << "\n";
    for (size_t f = 0; f < r.finger_names.size(); ++f) {
      o << "  finger " << r.finger_names[f] << ":";
      for (const std::string& l : r.finger_links[f]) o << " " << l;
      if (!r.finger_tips[f].empty()) o << " (tip " << r.finger_tips[f] << ")";
      o << "\n";
    }
    if (!r.palm.empty()) {
      o << "  palm:";
      for (const std::string& l : r.palm_links) o << " " << l;
      o << "\n";
    }
    if (!r.wrist_dofs.empty()) {
      o << "  wrist/arm dofs" << (r.wrist_in_JH ? " (in J_H, --with-wrist):" : " (held fixed, not in J_H):");
      for (const std::string& w : r.wrist_dofs) o << " " << w;
      o << "\n";
    }
  }
  void actuation(const AnalyzeReport& r) override {
    {
      const HandActuation& a = r.actuation;
      o << "actuation: " << a.output_names.size() << " actuator force output(s), " << a.outputs.size()
        << " acting on the hand's dofs:";
      for (int k : a.outputs) o << " " << a.output_names[k];
      o << "\n  transmission A (" << a.A.rows() << " x " << a.outputs.size()
        << ", hand dofs x actuators on them; qfrc_actuator = A actuator_force):\n";
      Eigen::MatrixXd used(a.A.rows(), static_cast<Eigen::Index>(a.outputs.size()));
      for (size_t k = 0; k < a.outputs.size(); ++k) used.col(static_cast<Eigen::Index>(k)) = a.A.col(a.outputs[k]);
      t.matrix(o, used, "A");
      o << "  equality constraints on the hand: " << a.Jeq.rows() << " row(s) (";
      for (size_t k = 0; k < r.eq_row_names.size(); ++k) o << (k ? " " : "") << r.eq_row_names[k];
      o << "), rank " << a.rank_Jeq << "; joint mobility " << a.joint_mobility << ", actuated " << a.actuated << "\n";
      if (a.Jeq.rows() > 0) t.matrix(o, a.Jeq, "J_eq");
    }
  }
  void contacts(const AnalyzeReport& r) override {
    o << "\ncontacts: " << r.contacts.size() << " between the object and the hand";
    if (!r.ignored.empty()) o << " (+ " << r.ignored.size() << " ignored)";
    o << "\n";
    for (size_t i = 0; i < r.contacts.size(); ++i) {
      const ReportContact& rc = r.contacts[i];
      const Contact& c = rc.contact;
      const std::string id = "contact " + std::to_string(i);
      o << "  [" << i << "] d->contact[" << c.mj_contact << "] finger " << rc.finger << ", link " << rc.link << ", geoms "
        << rc.hand_geom << " / " << rc.object_geom << ", " << to_string(c.model) << ", mu " << t.num(c.mu, id)
        << ", mu_torsion " << t.num(c.mu_torsion, id) << " m, depth " << t.num(c.depth, id) << " m\n";
      o << "      point " << t.vec(c.pos, id + " point") << " m\n";
      o << "      n " << t.vec(c.frame.col(0), id + " n") << "  t " << t.vec(c.frame.col(1), id + " t") << "  o "
        << t.vec(c.frame.col(2), id + " o") << "\n";
      o << "      MuJoCo force (f_n, f_t, f_o" << (rc.force_mujoco.size() == 4 ? ", m_n" : "") << ") = "
        << t.vec(rc.force_mujoco, id + " force") << "\n";
    }
    for (const IgnoredContact& ig : r.ignored) {
      o << "  ignored d->contact[" << ig.index << "] " << ig.object_geom << " / " << ig.other_geom << ": " << ig.reason
        << "\n";
    }
  }
  void matrices(const AnalyzeReport& r) override {
    if (!r.analysed) return;  // the text shows G and J_H with the analysis
    o << "\ngrasp matrix G (6 x " << r.G.cols() << ") about the object centre " << t.vec(r.reference, "reference")
      << " m; rows (f, m), columns lambda in contact frames:\n";
    t.matrix(o, r.G, "G");
    o << "hand Jacobian J_H (" << r.JH.rows() << " x " << r.JH.cols() << "), columns:";
    for (const std::string& n : r.dof_names) o << " " << n;
    o << "\n";
    t.matrix(o, r.JH, "J_H");
  }
  void quality(const AnalyzeReport& r) override {
    const GraspQuality& q = r.quality;
    o << "\nquality" << (q.valid ? "" : " (" + q.message + ")") << ":\n";
    o << "  rank G " << q.rank_G << ", sigma_min(G) " << t.num(q.sigma_min_G, "sigma_min_G") << ", sigma_max(G) "
      << t.num(q.sigma_max_G, "sigma_max_G") << ", isotropy " << t.num(q.isotropy_G, "isotropy_G") << "\n";
    o << "  H_O = (G^T)^+ J_H: sigma_min " << t.num(q.sigma_min_HO, "sigma_min_HO") << ", sigma_max "
      << t.num(q.sigma_max_HO, "sigma_max_HO") << ", ellipsoid volume " << t.num(q.ellipsoid_volume_HO, "volume_HO")
      << ", uniformity " << t.num(q.uniformity_HO, "uniformity_HO (H_O is singular)") << "\n";
    o << "  manipulability J_H " << t.num(q.manipulability_JH, "manipulability_JH") << ", J_H^+ G^T "
      << t.num(q.manipulability_JHpGT, "manipulability_JHpGT") << "\n";
  }
  void ellipsoids(const AnalyzeReport& r) override {
    if (r.ellipsoids) {
      // Unbounded semi-axes print as "unbounded" (the hand structure holds those wrenches with no joint torque).
      const auto axes = [&](const Ellipsoid& e) {
        std::string s = "(";
        for (Eigen::Index i = 0; i < e.semi_axes.size(); ++i) {
          s += std::string(i ? ", " : "") + (std::isinf(e.semi_axes(i)) ? std::string("unbounded") : t.num(e.semi_axes(i), "semi-axis"));
        }
        return s + ")";
      };
      const ManipulabilityEllipsoid& k = r.kin_ellipsoid;
      const ManipulabilityEllipsoid& f = r.force_ellipsoid;
      o << "manipulability ellipsoids (joint inputs, rigid contacts; semi-axes per unit joint speed / torque):\n";
      o << "  kinematic: translation " << axes(k.linear) << " m/s, rotation " << axes(k.angular)
        << " rad/s; compatible joint motions " << k.compatible_inputs << ", free object motions " << k.indeterminate
        << "\n";
      o << "  force: force " << axes(f.linear) << " N, moment " << axes(f.angular) << " N m\n";
    }
  }
  void mobility(const AnalyzeReport& r) override {
    const HandObjectMobility& mo = r.mobility;
    o << "mobility: Grubler " << mo.grubler << ", instantaneous " << mo.instantaneous << ", actuated " << mo.actuated
      << ", actuation redundancy " << mo.actuation_redundancy << "; internal forces dim " << mo.internal_forces
      << ", unresisted object motions " << mo.indeterminate << ", redundant finger motions " << mo.redundant_motions
      << "; loop/coupling rows " << mo.constraint_rows << ", joint mobility " << mo.joint_mobility << "\n";
  }
  void closure(const AnalyzeReport& r) override {
    o << "force closure (linearised cones, " << WrenchSpaceOptions{}.cone_edges << " edges): " << yes_no(r.eps_l1.force_closure()) << "\n";
    for (const auto& [name, e] : {std::pair<const char*, const EpsilonResult*>{"L1", &r.eps_l1}, {"L-inf", &r.eps_linf}}) {
      o << "  epsilon " << name << " = " << t.num(e->epsilon, std::string("epsilon ") + name) << " (" << e->message;
      if (e->points > 0) {
        o << "; signed margin " << t.num(e->signed_margin, "signed margin") << ", " << e->points << " points, "
          << e->facets << " facets, torque length " << t.num(e->torque_length, "torque length") << " m";
      }
      o << ")\n";
    }
  }
  void forces(const AnalyzeReport& r) override {
    o << "\nforces for the object's weight, W = " << t.vec(r.gravity, "W") << " (N, N m):\n";
    o << "  MuJoCo's contact forces: -G lambda = " << t.vec(r.mujoco_wrench, "-G lambda_mujoco") << ", |G lambda + W| = "
      << t.num((r.gravity - r.mujoco_wrench).norm(), "balance residual") << " (nonzero while ignored contacts also push or the object accelerates)\n";
    o << "  min-norm lambda = -G^+ W: " << t.vec(r.min_norm.lambda, "lambda_min_norm") << "\n";
    o << "    |G lambda + W| = " << t.num(r.min_norm.wrench_residual, "residual") << ", balances "
      << yes_no(r.min_norm.balances) << ", inside the friction cones " << yes_no(r.min_norm.in_cones) << "\n";
    const ForceDistribution& f = r.optimal;
    o << "  optimal (GLPK, minimum sum of normal forces): " << (f.ok() ? "optimal" : f.message) << "\n";
    if (f.ok()) {
      o << "    lambda = " << t.vec(f.lambda, "lambda_optimal") << "\n";
      o << "    sum f_n = " << t.num(f.total_normal_force, "total normal force") << " N, |G lambda + W| = "
        << t.num(f.wrench_residual, "residual") << ", min cone margin " << t.num(f.min_cone_margin, "margin") << " N\n";
      o << "    joint torques J_H^T lambda = " << t.vec(r.tau_optimal, "tau") << "\n";
      o << "    actuator forces f (A f = J_H^T lambda - J_eq^T mu) = " << t.vec(r.actuator_optimal.f, "f") << "\n";
      o << "    |unresisted torque| = " << t.num(r.actuator_optimal.residual_norm, "unresisted torque")
        << (r.actuator_optimal.resisted ? " (held)" : " (not held by the actuators and constraints)") << "\n";
    }
  }
  void robustness(const AnalyzeReport& r) override {
    const RobustnessSection& rb = r.robustness;
    o << "\nrobustness (Vcost: Gabiccini et al. 2011; PCR: Pozzi et al. 2017): " << rb.note << "\n";
    if (rb.computed) {
      o << "  fmin " << t.num(rb.params.fmin, "fmin") << " N, fmax " << t.num(rb.params.fmax, "fmax") << " N, k "
        << t.num(rb.params.k, "k") << " N; controllable internal forces: " << rb.internal_dims << "\n";
      o << "  min Vcost for the weight = " << t.num(rb.vcost, "Vcost") << " (below 3/k^2 = "
        << t.num(vcost_feasible_threshold(rb.params), "Vcost threshold") << ": every constraint holds "
        << yes_no(rb.vcost < vcost_feasible_threshold(rb.params)) << "), max constraint "
        << t.num(rb.vcost_max_sigma, "max sigma") << " N\n";
      o << "  PCR = " << t.num(rb.pcr, "PCR") << "\n";
    }
  }
  void parallel(const AnalyzeReport& r) override {
    const ParallelSection& p = r.parallel;
    o << "\nparallel manipulator (Borras & Dollar Table 1 column 2): " << p.source << "\n";
    o << "  J_p (" << p.Jp.rows() << " x " << p.Jp.cols() << "):\n";
    t.matrix(o, p.Jp, "J_p");
    o << "  J_Theta (" << p.JTheta.rows() << " x " << p.JTheta.cols() << "):\n";
    t.matrix(o, p.JTheta, "J_Theta");
    o << "  J_p moment reference: " << t.vec(p.jp_reference, "J_p reference") << " m (world)\n";
    o << "  equivalence residual |J_Theta^+ J_p S - J_H^+ G^T| = "
      << t.num(p.equivalence_residual, "equivalence residual") << " (relative "
      << t.num(p.relative_residual, "relative residual") << "); |J_Theta - J_H| = "
      << t.num(p.jtheta_vs_jh, "J_Theta vs J_H") << ", |J_p S - G^T| = " << t.num(p.jp_vs_gt, "J_p vs G^T") << "\n";
    if (!p.note.empty()) o << "  " << p.note << "\n";
  }
  void stiffness(const AnalyzeReport& r) override {
    if (r.stiffness_requested && r.KO.size() != 0) {
      o << "\ngrasp stiffness K_O = G K G^T (docs/stiffness.md): contacts " << t.vec(r.contact_stiffness, "k_c")
        << " (normal, tangential N/m; moment rows N m/rad; 0 = rigid), joints " << t.num(r.joint_stiffness, "k_q")
        << " (0 = rigid)\n";
      if (r.wrist_stiffness(0) > 0) {
        o << "  wrist: " << t.vec(r.wrist_stiffness, "k_w") << " (N/m, N m/rad) holding '" << r.wrist_body
          << "' about " << t.vec(r.wrist_point, "wrist point") << " m\n";
      }
      o << "  eigenvalues: " << t.vec(r.KO_eigenvalues, "K_O eigenvalues") << "\n";
      t.matrix(o, r.KO, "K_O");
    }
  }
  void not_analysed(const AnalyzeReport&) override {}
  void load(const AnalyzeReport& r) override {
    o << "\nload: contact normal forces " << t.num(r.contact_normal_force, "contact normal force") << " N = "
      << t.num(r.weight > 0 ? r.contact_normal_force / r.weight : 0.0, "force ratio") << " x the weight "
      << t.num(r.weight, "weight") << " N (warning above " << t.num(r.force_warning_factor, "factor") << " x)\n";
    for (const std::string& w : r.warnings) o << "WARNING: " << w << "\n";
  }
  void end(const AnalyzeReport& r) override {
    std::vector<std::string> notes = r.notes;
    for (const std::string& w : t.non_finite) notes.push_back(w + " is not finite: printed as n/a");
    if (!notes.empty()) {
      o << "\nnotes:\n";
      for (const std::string& n : notes) o << "  - " << n << "\n";
    }
  }

  Text t;
  std::ostringstream o;
};

// The JSON document (schema in docs/analyze.md).
class JsonForm : public ReportForm {
 public:
  void begin(const AnalyzeReport& r) override {
    j.begin_object();
    j.field("schema_version", kSchemaVersion);
    j.field("model", r.model_path);
  }
  void state(const AnalyzeReport& r) override {
    j.key("state");
    j.begin_object();
    j.field("source", r.state_source);
    j.key("keyframe");
    r.state_source == "keyframe" ? j.value(r.keyframe_name) : j.null();
    j.key("keyframe_index");
    r.state_source == "keyframe" ? j.value(r.keyframe_index) : j.null();
    j.field("settle_s", r.settle_s);
    j.field("settle_steps", static_cast<int>(r.settle_steps));
    j.field("time_s", r.time);
    j.field("ctrl_source", r.ctrl_source);
    j.vector("ctrl", Eigen::Map<const Eigen::VectorXd>(r.ctrl.data(), static_cast<Eigen::Index>(r.ctrl.size())));
    j.strings("ctrl_readers", r.ctrl_readers);
    j.end_object();
  }
  void object(const AnalyzeReport& r) override {
    j.key("object");
    j.begin_object();
    j.field("body", r.object_name);
    j.field("id", r.object);
    j.field("source", r.object_source);
    j.field("free_joint", r.object_free);
    j.field("mass_kg", r.object_mass);
    j.vector("center_m", r.object_center);
    j.end_object();
  }
  void hand(const AnalyzeReport& r) override {
    j.key("hand");
    j.begin_object();
    j.field("source", r.hand_source);
    j.key("fingers");
    j.begin_array();
    for (size_t f = 0; f < r.finger_names.size(); ++f) {
      j.begin_object();
      j.field("name", r.finger_names[f]);
      j.strings("links", r.finger_links[f]);
      j.key("tip");
      r.finger_tips[f].empty() ? j.null() : j.value(r.finger_tips[f]);
      j.end_object();
    }
    j.end_array();
    j.strings("dofs", r.dof_names);
    j.field("actuated", r.actuated);
    j.key("palm");
    r.palm.empty() ? j.null() : j.value(r.palm);
    j.strings("palm_links", r.palm_links);
    j.strings("wrist_dofs", r.wrist_dofs);
    j.field("wrist_in_JH", r.wrist_in_JH);
    j.end_object();
  }
  void actuation(const AnalyzeReport& r) override {
    {
      const HandActuation& a = r.actuation;
      j.key("actuation");
      j.begin_object();
      j.strings("actuators", a.output_names);
      std::vector<std::string> on_hand;
      for (int k : a.outputs) on_hand.push_back(a.output_names[k]);
      j.strings("actuators_on_hand", on_hand);
      j.matrix("A", a.A);
      j.matrix("Jeq", a.Jeq);
      j.strings("Jeq_equalities", r.eq_row_names);
      j.field("constraint_rows", a.constraint_rows);
      j.field("rank_Jeq", a.rank_Jeq);
      j.field("joint_mobility", a.joint_mobility);
      j.field("actuated", a.actuated);
      j.end_object();
    }
  }
  void contacts(const AnalyzeReport& r) override {
    j.vector("reference_m", r.reference);
    j.key("contacts");
    j.begin_array();
    for (const ReportContact& rc : r.contacts) {
      const Contact& c = rc.contact;
      j.begin_object();
      j.field("mj_index", c.mj_contact);
      j.field("finger", rc.finger);
      j.field("link", rc.link);
      j.field("hand_geom", rc.hand_geom);
      j.field("object_geom", rc.object_geom);
      j.field("model", model_id(c.model));
      j.field("rows", contact_rows(c.model));
      j.field("mu", c.mu);
      j.field("mu_torsion_m", c.mu_torsion);
      j.field("depth_m", c.depth);
      j.vector("point_m", c.pos);
      j.vector("n", c.frame.col(0));
      j.vector("t", c.frame.col(1));
      j.vector("o", c.frame.col(2));
      j.vector("force_mujoco", rc.force_mujoco);
      j.end_object();
    }
    j.end_array();
    j.key("ignored_contacts");
    j.begin_array();
    for (const IgnoredContact& ig : r.ignored) {
      j.begin_object();
      j.field("mj_index", ig.index);
      j.field("object_geom", ig.object_geom);
      j.field("other_geom", ig.other_geom);
      j.field("other_body", ig.other_body);
      j.field("reason", ig.reason);
      j.end_object();
    }
    j.end_array();
  }
  void matrices(const AnalyzeReport& r) override {
    j.matrix("G", r.G);
    j.matrix("JH", r.JH);
    j.field("analysed", r.analysed);
  }
  void quality(const AnalyzeReport& r) override {
    const GraspQuality& q = r.quality;
    j.key("quality");
    j.begin_object();
    j.field("valid", q.valid);
    j.field("rank_G", q.rank_G);
    j.field("sigma_min_G", q.sigma_min_G);
    j.field("sigma_max_G", q.sigma_max_G);
    j.field("isotropy_G", q.isotropy_G);
    j.field("sigma_min_HO", q.sigma_min_HO);
    j.field("sigma_max_HO", q.sigma_max_HO);
    j.field("ellipsoid_volume_HO", q.ellipsoid_volume_HO);
    j.field("uniformity_HO", q.uniformity_HO);
    j.field("manipulability_JH", q.manipulability_JH);
    j.field("manipulability_JHpGT", q.manipulability_JHpGT);
    j.field("message", q.message);
    j.end_object();
  }
  void ellipsoids(const AnalyzeReport& r) override {
    if (r.ellipsoids) {
      const auto ellipsoid_json = [&](const char* name, const ManipulabilityEllipsoid& e) {
        j.key(name);
        j.begin_object();
        j.vector("semi_axes", e.full.semi_axes);
        j.matrix("directions", e.full.directions);
        j.vector("linear_semi_axes", e.linear.semi_axes);
        j.matrix("linear_directions", e.linear.directions);
        j.vector("angular_semi_axes", e.angular.semi_axes);
        j.matrix("angular_directions", e.angular.directions);
        j.field("compatible_inputs", e.compatible_inputs);
        j.field("indeterminate", e.indeterminate);
        j.end_object();
      };
      j.key("manipulability");
      j.begin_object();
      ellipsoid_json("kinematic", r.kin_ellipsoid);
      ellipsoid_json("force", r.force_ellipsoid);
      j.end_object();
    } else {
      j.key("manipulability");
      j.null();
    }
  }
  void mobility(const AnalyzeReport& r) override {
    const HandObjectMobility& mo = r.mobility;
    j.key("mobility");
    j.begin_object();
    j.field("grubler", mo.grubler);
    j.field("instantaneous", mo.instantaneous);
    j.field("actuated", mo.actuated);
    j.field("actuation_redundancy", mo.actuation_redundancy);
    j.field("rank_G", mo.rank_G);
    j.field("internal_forces", mo.internal_forces);
    j.field("indeterminate", mo.indeterminate);
    j.field("redundant_motions", mo.redundant_motions);
    j.field("constraint_rows", mo.constraint_rows);
    j.field("joint_mobility", mo.joint_mobility);
    j.end_object();
  }
  void closure(const AnalyzeReport& r) override {
    j.field("force_closure", r.eps_l1.force_closure());
    j.key("epsilon");
    j.begin_object();
    epsilon_json(j, "L1", r.eps_l1);
    epsilon_json(j, "Linf", r.eps_linf);
    j.end_object();
  }
  void forces(const AnalyzeReport& r) override {
    j.vector("gravity_wrench", r.gravity);
    j.key("mujoco_forces");
    j.begin_object();
    j.vector("wrench", r.mujoco_wrench);
    j.field("balance_residual", (r.gravity - r.mujoco_wrench).norm());
    j.end_object();

    j.key("min_norm_forces");
    j.begin_object();
    j.vector("lambda", r.min_norm.lambda);
    j.field("wrench_residual", r.min_norm.wrench_residual);
    j.field("balances", r.min_norm.balances);
    j.field("in_cones", r.min_norm.in_cones);
    j.end_object();

    const ForceDistribution& f = r.optimal;
    j.key("optimal_forces");
    j.begin_object();
    j.field("status", force_id(f.status));
    j.vector("lambda", f.lambda);
    j.field("total_normal_force_N", f.total_normal_force);
    j.field("wrench_residual", f.wrench_residual);
    j.field("min_cone_margin_N", f.min_cone_margin);
    j.vector("joint_torques", r.tau_optimal);
    j.vector("actuator_forces", r.actuator_optimal.f);
    j.vector("constraint_forces", r.actuator_optimal.mu);
    j.vector("unresisted_torque", r.actuator_optimal.residual);
    j.field("actuators_hold", r.actuator_optimal.resisted);
    j.field("message", f.message);
    j.end_object();
  }
  void robustness(const AnalyzeReport& r) override {
    const RobustnessSection& rb = r.robustness;
    j.key("robustness");
    j.begin_object();
    j.field("computed", rb.computed);
    j.field("note", rb.note);
    j.field("fmin_N", rb.params.fmin);
    j.field("fmax_N", rb.params.fmax);
    j.field("k_N", rb.params.k);
    j.field("internal_dims", rb.internal_dims);
    j.field("vcost", rb.vcost);
    j.field("vcost_threshold", vcost_feasible_threshold(rb.params));
    j.field("vcost_max_sigma_N", rb.vcost_max_sigma);
    j.vector("vcost_lambda", rb.vcost_lambda);
    j.field("pcr", rb.pcr);
    j.end_object();
  }
  void parallel(const AnalyzeReport& r) override {
    const ParallelSection& p = r.parallel;
    j.key("parallel");
    j.begin_object();
    j.field("source", p.source);
    j.matrix("Jp", p.Jp);
    j.matrix("JTheta", p.JTheta);
    j.vector("jp_reference_m", p.jp_reference);
    j.field("equivalence_residual", p.equivalence_residual);
    j.field("relative_residual", p.relative_residual);
    j.field("jtheta_vs_jh", p.jtheta_vs_jh);
    j.field("jp_vs_gt", p.jp_vs_gt);
    j.field("note", p.note);
    j.end_object();
  }
  void stiffness(const AnalyzeReport& r) override {
    j.key("grasp_stiffness");
    if (r.stiffness_requested) {
      j.begin_object();
      j.vector("contact_stiffness", r.contact_stiffness);
      j.field("joint_stiffness", r.joint_stiffness);
      j.key("wrist_stiffness");
      if (r.wrist_stiffness(0) > 0) {
        j.begin_object();
        j.vector("k", r.wrist_stiffness);
        j.field("body", r.wrist_body);
        j.vector("point_m", r.wrist_point);
        j.end_object();
      } else {
        j.null();
      }
      j.matrix("KO", r.KO);
      j.vector("eigenvalues", r.KO_eigenvalues);
      j.field("message", r.stiffness_message);
      j.end_object();
    } else {
      j.null();
    }
  }
  void not_analysed(const AnalyzeReport&) override {
    for (const char* k : {"quality", "manipulability", "mobility", "force_closure", "epsilon", "gravity_wrench",
                          "mujoco_forces", "min_norm_forces", "optimal_forces", "robustness", "parallel",
                          "grasp_stiffness"}) {
      j.key(k);
      j.null();
    }
  }
  void load(const AnalyzeReport& r) override {
    j.key("load");
    j.begin_object();
    j.field("contact_normal_force_N", r.contact_normal_force);
    j.field("weight_N", r.weight);
    j.field("ratio", r.weight > 0 ? r.contact_normal_force / r.weight : 0.0);
    j.field("warning_factor", r.force_warning_factor);
    j.end_object();
    j.strings("warnings", r.warnings);
  }
  void end(const AnalyzeReport& r) override {
    std::vector<std::string> notes = r.notes;
    int unbounded_axes = 0;  // expected values, one note for all of them
    for (const std::string& p : j.non_finite_paths()) {
      if (p.rfind("manipulability.", 0) == 0) {
        ++unbounded_axes;
      } else {
        notes.push_back(p + " is not finite: written as null");
      }
    }
    if (unbounded_axes > 0) {
      notes.push_back("manipulability: " + std::to_string(unbounded_axes) +
                      " unbounded semi-axes written as null (rigid model: wrenches the hand holds with no joint torque)");
    }
    j.strings("notes", notes);
    j.end_object();
  }

  JsonWriter j;
};

}  // namespace

std::string format_report_text(const AnalyzeReport& r) {
  TextForm form;
  walk_report(r, form);
  return form.o.str();
}

std::string format_report_json(const AnalyzeReport& r) {
  JsonForm form;
  walk_report(r, form);
  return form.j.str();
}

}  // namespace mjhand::cli
