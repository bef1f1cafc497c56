#include "analyze_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include <mjhand/grasp/contact_robustness.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/hand_jacobian.h>

namespace mjhand::cli {

std::string mj_name(const mjModel* m, mjtObj type, int id) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? std::string(n) : "#" + std::to_string(id);
}

namespace {

// "joint" or "joint[k]" for the k-th dof of a multi-dof joint.
std::string dof_name(const mjModel* m, int dof) {
  const int j = m->dof_jntid[dof];
  const std::string name = mj_name(m, mjOBJ_JOINT, j);
  const int ndof = m->jnt_type[j] == mjJNT_FREE ? 6 : m->jnt_type[j] == mjJNT_BALL ? 3 : 1;
  return ndof == 1 ? name : name + "[" + std::to_string(dof - m->jnt_dofadr[j]) + "]";
}

void describe_hand(const mjModel* m, const mjData* d, const HandModel& hand, AnalyzeReport& r) {
  r.finger_names = hand.finger_names;
  r.finger_links.assign(hand.num_fingers(), {});
  for (int b = 0; b < m->nbody; ++b) {
    const int f = hand.finger_of_body[b];
    if (f >= 0) r.finger_links[f].push_back(mj_name(m, mjOBJ_BODY, b));
  }
  r.dof_names.clear();
  for (int v : hand.dofs) r.dof_names.push_back(dof_name(m, v));
  r.finger_tips.assign(hand.num_fingers(), "");
  for (size_t k = 0; k < hand.finger_tip.size() && k < r.finger_tips.size(); ++k) {
    if (hand.finger_tip[k] >= 0) r.finger_tips[k] = mj_name(m, mjOBJ_BODY, hand.finger_tip[k]);
  }
  r.palm = hand.palm_body > 0 ? mj_name(m, mjOBJ_BODY, hand.palm_body) : "";
  r.palm_links.clear();
  for (int b = 0; b < m->nbody; ++b) {
    if (hand.is_palm(b)) r.palm_links.push_back(mj_name(m, mjOBJ_BODY, b));
  }
  r.wrist_dofs.clear();
  for (int v : hand.wrist_dofs) r.wrist_dofs.push_back(dof_name(m, v));
  r.wrist_in_JH = !hand.wrist_dofs.empty() &&
                  std::find(hand.dofs.begin(), hand.dofs.end(), hand.wrist_dofs[0]) != hand.dofs.end();
  // Every transmission (joint, tendon, site, ...) and the loop/coupling equalities (actuation.h).
  r.actuation = hand_actuation(m, d, hand.dofs);
  r.eq_row_names.clear();
  for (int e : r.actuation.eq_row_equality) r.eq_row_names.push_back(mj_name(m, mjOBJ_EQUALITY, e));
  r.actuated = r.actuation.actuated;
}

// Contacts on the object that collect_contacts leaves out, each with the reason.
void list_ignored(const mjModel* m, const mjData* d, const HandModel& hand, AnalyzeReport& r) {
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    const int b1 = m->geom_bodyid[c.geom[0]], b2 = m->geom_bodyid[c.geom[1]];
    if ((b1 == hand.object_body) == (b2 == hand.object_body)) continue;  // not on the object, or object on itself
    const bool obj1 = b1 == hand.object_body;
    const int other_geom = obj1 ? c.geom[1] : c.geom[0], other_body = obj1 ? b2 : b1;
    IgnoredContact ig;
    ig.index = i;
    ig.object_geom = mj_name(m, mjOBJ_GEOM, obj1 ? c.geom[0] : c.geom[1]);
    ig.other_geom = mj_name(m, mjOBJ_GEOM, other_geom);
    ig.other_body = mj_name(m, mjOBJ_BODY, other_body);
    if (!hand.in_hand(other_body) && !hand.is_palm(other_body)) {
      ig.reason = other_body == 0 || m->body_weldid[other_body] == 0
                      ? "body '" + ig.other_body + "' is static and belongs to no finger and not to the palm (table or world)"
                      : "body '" + ig.other_body + "' belongs to no finger";
    } else if (c.dist > 0) {
      ig.reason = "within the contact margin but not touching (dist > 0): carries no force";
    } else {
      continue;  // a grasp contact
    }
    r.ignored.push_back(ig);
  }
}

// The actuators whose force or activation rate changes when their ctrl does, asked of MuJoCo itself (mj_fwdActuation
// on a copy of the state, each ctrl moved in turn): a plugin actuator that writes its own ctrl (posture, pid, ...)
// does not read it, whatever its transmission; a <position> servo or a motor does. Bitwise comparison: a ctrl that
// does not enter the force leaves it bit for bit unchanged.
std::vector<std::string> actuators_reading_ctrl(const mjModel* m, const mjData* d) {
  std::vector<std::string> readers;
  if (m->nu == 0) return readers;
  mjData* base = mj_copyData(nullptr, m, d);
  mjData* moved = mj_makeData(m);
  if (!base || !moved) {
    mj_deleteData(base);
    mj_deleteData(moved);
    throw std::runtime_error("out of memory for a copy of the state (checking which actuators read ctrl)");
  }
  mj_fwdActuation(m, base);
  for (int a = 0; a < m->nu; ++a) {
    mj_copyData(moved, m, d);
    const mjtNum c = d->ctrl[a], lo = m->actuator_ctrlrange[2 * a], hi = m->actuator_ctrlrange[2 * a + 1];
    const bool limited = m->actuator_ctrllimited[a] && lo < hi;
    moved->ctrl[a] = limited ? (c - lo > hi - c ? lo : hi) : c + 1;  // a value as far as the range allows
    mj_fwdActuation(m, moved);
    bool reads = false;
    for (int k = 0; k < m->nu && !reads; ++k) reads = moved->actuator_force[k] != base->actuator_force[k];
    for (int k = 0; k < m->na && !reads; ++k) reads = moved->act_dot[k] != base->act_dot[k];
    if (reads) readers.push_back(mj_name(m, mjOBJ_ACTUATOR, a));
  }
  mj_deleteData(base);
  mj_deleteData(moved);
  return readers;
}

// Sum of MuJoCo's normal forces on the grasp against the object's weight: far above it means the actuators squeeze
// the object (servos blocked by it, or fighting a --qpos pose their ctrl does not hold).
void check_load(const std::vector<Contact>& contacts, const Eigen::VectorXd& lambda, AnalyzeReport& r) {
  r.contact_normal_force = 0;
  int row = 0;
  for (const Contact& c : contacts) {
    r.contact_normal_force += std::max(0.0, lambda(row));
    row += contact_rows(c.model);
  }
  if (r.weight > 0 && r.contact_normal_force > r.force_warning_factor * r.weight) {
    char msg[512];
    std::snprintf(msg, sizeof(msg),
                  "the contact normal forces sum to %.3g N, %.3g times the object's weight %.3g N (warning factor "
                  "%g): the actuators press far harder than holding the object needs%s",
                  r.contact_normal_force, r.contact_normal_force / r.weight, r.weight, r.force_warning_factor,
                  r.ctrl_source == "zero" && !r.ctrl_readers.empty()
                      ? "; ctrl is 0 (--qpos sets no ctrl) and actuators that read it pull against the given pose: "
                        "pass --ctrl or --ctrl-from-keyframe"
                      : " (servos blocked by the object push up to their force limit)");
    r.warnings.push_back(msg);
  }
}

}  // namespace

namespace {

// Vcost for the weight and PCR on the hard-finger rows (RobustnessSection).
void analyze_robustness(const std::vector<Contact>& contacts, AnalyzeReport& r) {
  RobustnessSection& s = r.robustness;
  std::vector<Contact> hard;
  std::vector<int> rows;
  int row = 0;
  bool dropped = false;
  for (const Contact& c : contacts) {
    if (c.model == ContactModel::kFrictionlessPoint) {
      s.note = "not computed: frictionless contacts (Vcost and PCR are defined for hard-finger contacts)";
      return;
    }
    Contact h = c;
    h.model = ContactModel::kHardFinger;
    hard.push_back(h);
    for (int k = 0; k < 3; ++k) rows.push_back(row + k);
    dropped = dropped || contact_rows(c.model) > 3;
    row += contact_rows(c.model);
  }
  Eigen::MatrixXd Gh(6, rows.size()), JHh(rows.size(), r.JH.cols());
  for (size_t a = 0; a < rows.size(); ++a) {
    Gh.col(a) = r.G.col(rows[a]);
    JHh.row(a) = r.JH.row(rows[a]);
  }
  try {
    const Eigen::MatrixXd E = controllable_internal_force_basis(Gh, JHh);
    const Eigen::MatrixXd Gp = pseudo_inverse(Gh);
    s.internal_dims = static_cast<int>(E.cols());
    const VcostOptimum v = minimize_force_closure_cost(hard, Gp, r.gravity, E, s.params);
    s.vcost = v.cost;
    s.vcost_max_sigma = v.max_sigma;
    s.vcost_lambda = v.lambda;
    RobustnessOptions o;
    o.cost = s.params;
    s.pcr = potential_contact_robustness(hard, Gp, E, o);
    s.computed = true;
    s.note = dropped ? "hard-finger rows (f_n, f_t, f_o) of every contact; torsion rows dropped" : "hard-finger contacts";
  } catch (const std::exception& e) {
    s.note = std::string("not computed: ") + e.what();
  }
}

}  // namespace

void analyze_grasp(const mjModel* m, const mjData* d, const HandModel& hand, AnalyzeReport& r) {
  const int obj = hand.object_body;
  r.object = obj;
  r.object_name = mj_name(m, mjOBJ_BODY, obj);
  r.object_free = hand.object_dof >= 0;
  r.object_mass = m->body_subtreemass[obj];
  r.object_center = object_center(d, hand);
  describe_hand(m, d, hand, r);
  r.ctrl.assign(d->ctrl, d->ctrl + m->nu);
  r.ctrl_readers = actuators_reading_ctrl(m, d);
  if (r.state_source == "qpos" && r.ctrl_source == "zero" && !r.ctrl_readers.empty()) {
    std::string names;
    for (size_t k = 0; k < r.ctrl_readers.size() && k < 4; ++k) names += (k ? ", '" : "'") + r.ctrl_readers[k] + "'";
    if (r.ctrl_readers.size() > 4) names += " and " + std::to_string(r.ctrl_readers.size() - 4) + " more";
    r.notes.push_back("ctrl is 0: --qpos sets no actuator controls, and the force of " +
                      std::to_string(r.ctrl_readers.size()) + " actuator(s) depends on ctrl (" + names +
                      "), so servos among them pull toward a zero target, not toward the given pose (pass --ctrl or "
                      "--ctrl-from-keyframe)");
  }
  if (!r.object_free) {
    r.notes.push_back("the object '" + r.object_name +
                      "' has no free joint (it is welded or jointed, so it does not move freely in the simulation); "
                      "G, J_H and the measures treat the contacts as if it were free, and the mobility count assumes "
                      "a free object");
  }

  // Contacts, grouped by finger so that J_H comes out block-diagonal.
  std::vector<Contact> contacts;
  contacts.reserve(std::max(d->ncon, 1));
  collect_contacts(m, d, hand, contacts, r.contact_options);
  // Palm contacts (finger -1) after the fingers'.
  auto order = [](const Contact& c) { return c.finger < 0 ? std::numeric_limits<int>::max() : c.finger; };
  std::stable_sort(contacts.begin(), contacts.end(),
                   [&](const Contact& a, const Contact& b) { return order(a) < order(b); });
  list_ignored(m, d, hand, r);
  if (!r.ignored.empty()) {
    r.notes.push_back(std::to_string(r.ignored.size()) +
                      " contact(s) on the object are not part of the grasp (see ignored_contacts): they come from "
                      "bodies of no finger or carry no force, so G and J_H leave them out");
  }
  for (const Contact& c : contacts) {
    ReportContact rc;
    rc.contact = c;
    rc.finger = c.finger >= 0 ? hand.finger_names[c.finger] : "palm";
    rc.link = mj_name(m, mjOBJ_BODY, c.hand_body);
    rc.hand_geom = mj_name(m, mjOBJ_GEOM, c.hand_geom);
    rc.object_geom = mj_name(m, mjOBJ_GEOM, c.object_geom);
    rc.force_mujoco.resize(contact_rows(c.model));
    mujoco_contact_force(m, d, c, rc.force_mujoco.data());
    r.contacts.push_back(rc);
  }

  r.reference = r.object_center;
  // Gravity on the object's subtree, moment about G's reference (the body's centre of mass).
  const Eigen::Vector3d g(m->opt.gravity[0], m->opt.gravity[1], m->opt.gravity[2]);
  const Eigen::Vector3d weight = r.object_mass * g;
  r.weight = weight.norm();  // reported with or without contacts
  const Eigen::Vector3d com(d->subtree_com[3 * obj], d->subtree_com[3 * obj + 1], d->subtree_com[3 * obj + 2]);
  r.gravity << weight, (com - r.reference).cross(weight);

  const int rows = total_rows(contacts);
  r.G = grasp_matrix(contacts, r.reference);
  r.JH = hand_jacobian(m, d, hand, contacts);
  if (contacts.empty()) {
    r.notes.push_back("no contact between the object '" + r.object_name +
                      "' and the hand: there is no grasp to analyse (G is 6 x 0; try --settle S or another state)");
    return;
  }
  r.analysed = true;
  r.quality = grasp_quality(r.G, r.JH);
  if (r.JH.cols() > 0 && r.G.allFinite() && r.JH.allFinite()) {
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(r.JH.cols(), r.JH.cols());
    r.kin_ellipsoid = kinematic_manipulability(r.G, r.JH, I);
    r.force_ellipsoid = force_manipulability(r.G, r.JH, I);
    r.ellipsoids = true;
  }
  r.mobility = hand_object_mobility(contacts, r.G, r.JH, r.actuation.Jeq, r.actuation.constraint_rows, r.actuated);
  if (r.mobility.rank_G < 6) {
    r.notes.push_back("rank G = " + std::to_string(r.mobility.rank_G) + " < 6: the " + std::to_string(contacts.size()) +
                      " contact(s) cannot resist every object wrench (" + std::to_string(6 - r.mobility.rank_G) +
                      " object motion direction(s) are unconstrained), so sigma_min(G), isotropy and epsilon are 0");
  }
  WrenchSpaceOptions ws;
  ws.norm = WrenchNorm::kL1;
  r.eps_l1 = ferrari_canny(contacts, r.reference, ws);
  ws.norm = WrenchNorm::kLinf;
  ws.max_points = r.linf_max_points;  // a 6-D hull of tens of thousands of Minkowski-sum points takes minutes
  ws.time_limit = r.linf_time_limit;
  r.eps_linf = ferrari_canny(contacts, r.reference, ws);
  if (r.eps_linf.status == EpsilonStatus::kTooManyPoints) {
    r.eps_linf.message += "; raise --linf-max-points to compute it (the hull time grows with the point count)";
  } else if (r.eps_linf.status == EpsilonStatus::kTimeLimit) {
    r.eps_linf.message += " (--linf-time-limit)";
  }

  Eigen::VectorXd lambda_mj(rows);
  mujoco_contact_forces(m, d, contacts, lambda_mj);
  check_load(contacts, lambda_mj, r);
  r.mujoco_wrench = balanced_wrench(r.G, lambda_mj);
  r.min_norm = min_norm_forces(contacts, r.G, r.gravity);
  r.optimal = optimal_forces(contacts, r.G, r.gravity);
  r.tau_optimal = Eigen::VectorXd::Zero(r.JH.cols());
  if (r.optimal.lambda.size() == rows) joint_torques(r.JH, r.optimal.lambda, r.tau_optimal);
  r.actuator_optimal = actuator_statics(r.actuation, r.tau_optimal);
  if (r.optimal.ok() && !r.actuator_optimal.resisted) {
    r.notes.push_back("the actuators and equality constraints cannot hold the optimal joint torques J_H^T lambda: "
                      "|unresisted torque| = " + std::to_string(r.actuator_optimal.residual_norm) +
                      " (underactuated directions; see actuation.unresisted_torque)");
  }
  if (!r.optimal.ok()) {
    r.notes.push_back(std::string("no admissible force distribution holds the object against gravity: ") +
                      (r.optimal.message.empty() ? to_string(r.optimal.status) : r.optimal.message));
  }
  analyze_robustness(contacts, r);
}

}  // namespace mjhand::cli
