#include "mjcf_problem.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <mjhand/grasp/hand_structure.h>
#include <mjhand/io/model_io.h>

namespace mjhand::planner {

namespace {

using ModelOwner = std::unique_ptr<mjModel, void (*)(mjModel*)>;
using DataOwner = std::unique_ptr<mjData, void (*)(mjData*)>;

std::string body_name(const mjModel* m, int b) {
  const char* n = mj_id2name(m, mjOBJ_BODY, b);
  return n && *n ? n : "#" + std::to_string(b);
}

bool position_like(const mjModel* m, int a) {
  return m->actuator_gaintype[a] == mjGAIN_FIXED && m->actuator_biastype[a] == mjBIAS_AFFINE &&
         m->actuator_gainprm[a * mjNGAIN] > 0 && m->actuator_biasprm[a * mjNBIAS + 1] == -m->actuator_gainprm[a * mjNGAIN];
}

}  // namespace

ActuatorProbe probe_actuators(const mjModel* m, const HandModel& hand, double duration) {
  // A copy without contacts and gravity: the probe sees the actuators and the hand's couplings (tendons, equality
  // loops, joint limits) only.
  ModelOwner mc(mj_copyModel(nullptr, m), mj_deleteModel);
  if (!mc) throw std::runtime_error("planner: out of memory copying the model for the actuator probe");
  mc->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_GRAVITY;
  const mjModel* p = mc.get();
  DataOwner d(mj_makeData(p), mj_deleteData);
  if (!d) throw std::runtime_error("planner: out of memory for the actuator probe's mjData");
  ActuatorProbe r;
  r.sign.assign(p->nu, 0.0);
  r.position.assign(p->nu, 0);
  r.closing_qpos.assign(p->nu, {});
  mj_resetData(p, d.get());
  mj_forward(p, d.get());  // qpos0: the hold values and the moments below
  for (int a = 0; a < p->nu; ++a) r.position[a] = position_like(p, a);
  std::vector<double> hold;
  closure_hold(p, d.get(), r.position, hold);
  // The finger joints' qpos addresses (the hand's dofs outside the wrist).
  std::vector<int> finger_qpos;
  for (int j = 0; j < p->njnt; ++j) {
    const int b = p->jnt_bodyid[j];
    const bool one_dof = p->jnt_type[j] == mjJNT_HINGE || p->jnt_type[j] == mjJNT_SLIDE;
    if (one_dof && b < static_cast<int>(hand.finger_of_body.size()) && hand.finger_of_body[b] >= 0) {
      finger_qpos.push_back(p->jnt_qposadr[j]);
    }
  }
  // Actuators whose moment reaches a finger joint at qpos0 (a wrist actuator's does not).
  std::vector<char> on_finger(p->nu, 0);
  for (int a = 0; a < p->nu; ++a) {
    for (int k = 0; k < d->moment_rownnz[a]; ++k) {
      const int adr = d->moment_rowadr[a] + k, b = p->dof_bodyid[d->moment_colind[adr]];
      if (d->actuator_moment[adr] != 0 && hand.finger_of_body[b] >= 0) on_finger[a] = 1;
    }
  }
  const long steps = std::max(1L, std::lround(duration / p->opt.timestep));
  for (int a = 0; a < p->nu; ++a) {
    // Closing = the side of the ctrl range with the larger share from the hold value: flexion ranges are far wider
    // than extension (Allegro [-0.2, 1.6] rad, Shadow [0, 1.57], a gripper's 0..255 from open); a range split
    // within 2:1 (abduction, thumb rotation) has no closing side.
    if (!p->actuator_ctrllimited[a]) continue;
    if (!on_finger[a]) continue;
    const double up = p->actuator_ctrlrange[2 * a + 1] - hold[a], down = hold[a] - p->actuator_ctrlrange[2 * a];
    if (!(std::max(up, down) > 0) || std::min(up, down) > 0.5 * std::max(up, down)) continue;
    const double dir = up >= down ? 1.0 : -1.0;
    // It must move a finger joint: driven to its closing end for `duration`, the rest holding.
    mj_resetData(p, d.get());
    for (long s = 0; s < steps; ++s) {
      std::copy(hold.begin(), hold.end(), d->ctrl);
      d->ctrl[a] = dir > 0 ? p->actuator_ctrlrange[2 * a + 1] : p->actuator_ctrlrange[2 * a];
      mj_step(p, d.get());
    }
    double moved = 0;
    for (int adr : finger_qpos) moved = std::max(moved, std::abs(d->qpos[adr] - p->qpos0[adr]));
    if (!(moved > 1e-3) || !std::isfinite(moved)) continue;
    r.sign[a] = dir;
    r.closing_qpos[a].assign(d->qpos, d->qpos + p->nq);
  }
  return r;
}

int mjcf_object(const mjModel* m, const std::string& name) {
  const auto free = [&](int b) { return m->body_jntnum[b] == 1 && m->jnt_type[m->body_jntadr[b]] == mjJNT_FREE; };
  if (!name.empty()) {
    const int b = mj_name2id(m, mjOBJ_BODY, name.c_str());
    if (b <= 0) throw std::invalid_argument("no body named '" + name + "' in the model");
    if (!free(b)) throw std::invalid_argument("the object '" + name + "' must have exactly one free joint");
    return b;
  }
  // Free bodies below which no actuator acts (any transmission: its moment at qpos0): a free-floating hand base is
  // not an object.
  DataOwner d(mj_makeData(m), mj_deleteData);
  if (!d) throw std::runtime_error("planner: out of memory for an mjData");
  mj_kinematics(m, d.get());
  mj_comPos(m, d.get());
  mj_tendon(m, d.get());
  mj_transmission(m, d.get());
  std::vector<char> actuated(m->nbody, 0);  // a body with an actuated dof, and its ancestors
  for (int a = 0; a < m->nu; ++a) {
    for (int k = 0; k < d->moment_rownnz[a]; ++k) {
      const int adr = d->moment_rowadr[a] + k;
      if (d->actuator_moment[adr] == 0) continue;
      for (int c = m->dof_bodyid[d->moment_colind[adr]]; c > 0; c = m->body_parentid[c]) actuated[c] = 1;
    }
  }
  std::vector<int> candidates;
  for (int b = 1; b < m->nbody; ++b) {
    if (free(b) && !actuated[b]) candidates.push_back(b);
  }
  if (candidates.size() == 1) {
    const char* n = mj_id2name(m, mjOBJ_BODY, candidates[0]);
    if (!n || !*n) throw std::invalid_argument("the object (body #" + std::to_string(candidates[0]) + ") has no name; name it");
    return candidates[0];
  }
  std::string names;
  for (int b : candidates) names += " '" + body_name(m, b) + "'";
  throw std::invalid_argument(candidates.empty() ? "the model has no free-jointed body to grasp"
                                                 : "several free-jointed bodies could be the object (" +
                                                       names.substr(1) + "): name one with --object");
}

PlanProblem mjcf_problem(const mjModel* m, int object) {
  // One control and one force per actuator (MuJoCo 4's multi-input actuators, e.g. <pid>, are not closed by ramps).
  if (const std::string problem = multi_io_actuator_problem(m); !problem.empty()) throw std::invalid_argument(problem);
  const std::string name = body_name(m, object);
  const HandModel hand = infer_hand_structure(m, object);  // the same as problem_box's
  const ActuatorProbe probe = probe_actuators(m, hand);
  if (std::none_of(probe.sign.begin(), probe.sign.end(), [](double s) { return s != 0; })) {
    throw std::invalid_argument("no actuator closes the hand around '" + name +
                                "': none has a ctrlrange with a wider closing side (2:1) that moves a finger joint");
  }
  bool joint_driven = false;
  for (int a = 0; a < m->nu; ++a) {
    const int t = m->actuator_trntype[a];
    joint_driven = joint_driven || (probe.sign[a] != 0 && (t == mjTRN_JOINT || t == mjTRN_JOINTINPARENT));
  }
  // The search box, the approach frame and closure_eigengrasps from the joints' closing directions (a ctrl direction
  // times the gear's sign: taken from the probed motion), the probed motion itself where no joint is driven.
  std::vector<double> joint_sign(m->nu, 0.0);
  for (int a = 0; a < m->nu; ++a) {
    const int t = m->actuator_trntype[a];
    if (probe.sign[a] == 0 || (t != mjTRN_JOINT && t != mjTRN_JOINTINPARENT)) continue;
    const int adr = m->jnt_qposadr[m->actuator_trnid[2 * a]];
    const double dq = probe.closing_qpos[a][adr] - m->qpos0[adr];
    joint_sign[a] = dq > 0 ? 1.0 : dq < 0 ? -1.0 : 0.0;
  }
  PlanProblem p = problem_box(m, name);
  p.frame = hand_approach_frame(m, p.hand, joint_sign);
  if (joint_driven) {
    p.eigengrasps = closure_eigengrasps(m, joint_sign);
  } else {
    // One "close" column: the probed closing motion (closing end minus qpos0) on the hand's hinge and slide joints.
    Eigengrasps e;
    std::vector<double> motion;
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) continue;
      if (std::find(hand.dofs.begin(), hand.dofs.end(), m->jnt_dofadr[j]) == hand.dofs.end()) continue;
      const int adr = m->jnt_qposadr[j];
      double dq = 0;
      for (int a = 0; a < m->nu; ++a) {
        if (!probe.closing_qpos[a].empty()) dq += probe.closing_qpos[a][adr] - m->qpos0[adr];
      }
      const char* jn = mj_id2name(m, mjOBJ_JOINT, j);
      if (dq == 0 || !jn) continue;
      e.joints.push_back(jn);
      motion.push_back(dq);
    }
    const int n = static_cast<int>(motion.size());
    double peak = 0;
    for (double v : motion) peak = std::max(peak, std::abs(v));
    if (n == 0 || !(peak > 0)) {
      throw std::invalid_argument("the closing actuators move no named hinge or slide joint of the hand");
    }
    e.q0.resize(n);
    e.S.resize(n, 1);
    for (int i = 0; i < n; ++i) {
      const int j = mj_name2id(m, mjOBJ_JOINT, e.joints[i].c_str());
      e.q0[i] = m->qpos0[m->jnt_qposadr[j]];
      e.S(i, 0) = motion[i] / peak;
    }
    e.z_min = Eigen::VectorXd::Constant(1, 0.0);
    e.z_max = Eigen::VectorXd::Constant(1, 0.6);
    e.names = {"close"};
    p.eigengrasps = e;
  }
  p.closure.sign = probe.sign;
  p.closure.position = probe.position;
  return p;
}

}  // namespace mjhand::planner
