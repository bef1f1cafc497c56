#include <mjhand/computed_torque/computed_torque_plugin.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>

#include <mjhand/computed_torque/computed_torque.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/hand/tree_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/host/controller_plugin.h>
#include <mjhand/util/explicit_system.h>

namespace mjhand {

// ---- plugin -----------------------------------------------------------------------------------------------------

namespace {

// Rejects reference positions outside a limited joint's range: the limit constraint would break the tracking.
void check_in_range(const mjModel* m, const Config& cfg, const std::string& key, const std::vector<int>& joints,
                    const std::vector<double>& q) {
  for (size_t i = 0; i < joints.size(); ++i) {
    const int j = joints[i];
    if (!m->jnt_limited[j]) continue;
    const double lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
    if (q[i] < lo - 1e-12 || q[i] > hi + 1e-12) {
      cfg.fail(key, "the reference reaches " + std::to_string(q[i]) + " rad on joint " +
                        object_label(m, mjOBJ_JOINT, j) + ", outside its range [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "]");
    }
  }
}

std::shared_ptr<const JointTrajectory> make_trajectory(const mjModel* m, const Config& cfg, const std::string& kind,
                                                       const std::vector<int>& joints, const SerialChain* finger) {
  const size_t n = joints.size();
  const double start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
  std::vector<double> qpos0(n);
  for (size_t i = 0; i < n; ++i) qpos0[i] = m->qpos0[m->jnt_qposadr[joints[i]]];
  if (kind == "quintic") {
    const std::vector<double> q0 = cfg.get_per_joint_or("q0", n, qpos0, -1e3, 1e3);
    const std::vector<double> q1 = cfg.get_per_joint("q1", n, -1e3, 1e3);
    const double T = cfg.get_double("T", 1e-6, 1e6);
    check_in_range(m, cfg, "q0", joints, q0);
    check_in_range(m, cfg, "q1", joints, q1);
    return std::make_shared<QuinticTrajectory>(q0, q1, T, start);
  }
  if (kind == "cosine") {
    const double deg = M_PI / 180.0;
    std::vector<double> amp = cfg.get_per_joint_or("amplitude_deg", n, {85.0}, -3600, 3600);
    std::vector<double> off = cfg.get_per_joint_or("offset_deg", n, {2.5}, -3600, 3600);
    const double rate = cfg.get_double_or("rate_deg", 540.0, 1e-6, 1e6);
    std::vector<double> lo(n), hi(n);
    for (size_t i = 0; i < n; ++i) {
      amp[i] *= deg;
      off[i] *= deg;
      lo[i] = off[i] + std::min(0.0, amp[i]);
      hi[i] = off[i] + std::max(0.0, amp[i]);
    }
    check_in_range(m, cfg, "amplitude_deg", joints, lo);
    check_in_range(m, cfg, "amplitude_deg", joints, hi);
    return std::make_shared<CosineTrajectory>(amp, off, rate * deg, start);
  }
  // via: fingertip path through points given in the world frame, converted with the finger's serial chain (world
  // base): an embedded DH chain or a chain read from the kinematic tree.
  const std::vector<double> q0 = cfg.get_per_joint_or("q0", n, qpos0, -1e3, 1e3);
  check_in_range(m, cfg, "q0", joints, q0);
  const std::vector<double> pts = cfg.get_doubles("points");
  if (pts.empty() || pts.size() % 3 != 0) {
    cfg.fail("points", "needs x,y,z triples (world frame, metres), got " + std::to_string(pts.size()) + " numbers");
  }
  const size_t nseg = pts.size() / 3;
  std::vector<double> dur = cfg.get_per_joint("durations", nseg, 1e-6, 1e6);
  const double blend = cfg.get_double_or("blend", 0.25 * *std::min_element(dur.begin(), dur.end()), 1e-9, 1e6);
  ViaRedundancy redundancy;
  if (cfg.has("posture_gain") && finger->dof() <= 3) {
    cfg.fail("posture_gain", "only for fingers of 4 or more joints (this one has " + std::to_string(finger->dof()) +
                                 ": no redundancy to resolve)");
  }
  redundancy.posture_gain = cfg.get_double_or("posture_gain", redundancy.posture_gain, 0.0, 1e6);
  std::vector<Eigen::Vector3d> w;
  for (size_t k = 0; k < nseg; ++k) w.emplace_back(pts[3 * k], pts[3 * k + 1], pts[3 * k + 2]);
  try {
    ViaPointPath path = via_path_from_tip(*finger, q0, w, dur, blend, start);
    return std::make_shared<ViaJointTrajectory>(*finger, std::move(path), q0, 1e-3, redundancy);
  } catch (const std::invalid_argument& e) {
    // The trajectory numbers the chain's joints from 0: name them (MuJoCo keeps only the first ~1000 characters of a
    // load error, so the names go where the number is, not in a list at the end).
    std::string text = e.what();
    for (size_t i = 0; i < n; ++i) {
      const std::string num = "joint " + std::to_string(i) + " to ";
      const size_t at = text.find(num);
      if (at != std::string::npos) {
        text.replace(at, num.size(), "joint " + object_label(m, mjOBJ_JOINT, joints[i]) + " to ");
      }
    }
    cfg.fail("points", text);
  }
}

// The finger of trajectory=via: `finger` names a generated hand's embedded DH chain (kept as it was), else a site or
// a body that ends a chain read from the kinematic tree (a site: at the site; a body: at its origin), rooted at
// `root` (default: the nearest body above it where fingers branch, finger_branch_body).
SerialChain via_finger(const mjModel* m, const Config& cfg, std::vector<int>* joints) {
  const std::string name = cfg.get_string("finger");
  const int root = cfg.has("root") ? cfg.get_object("root", mjOBJ_BODY) : -1;
  std::vector<TreeChain> chains;
  try {
    chains = read_model_chains(m);
  } catch (const std::exception& e) {
    cfg.fail("finger", std::string("the model's embedded DH chains are unusable: ") + e.what());
  }
  // A generated hand's finger named by its chain (root -1 or its palm): its embedded DH table, as the fingertip
  // sensor reads it, on a palm that must not move.
  for (const TreeChain& c : chains) {
    if (c.dh.name != name || (root >= 0 && root != c.root_body)) continue;
    if (!body_is_fixed(m, c.root_body)) cfg.fail("finger", "the palm moves; via paths need a fixed palm");
    TreeChain dh = c;
    dh.chain.base = fixed_body_pose(m, dh.root_body) * dh.base_in_root;
    *joints = dh.joint_ids;
    dh.chain.name = name;
    return dh.chain;
  }
  // Any other name: the chain read from the kinematic tree to that site, else to that body's origin.
  ChainTip tip;
  tip.site = mj_name2id(m, mjOBJ_SITE, name.c_str());
  if (tip.site < 0) tip.body = mj_name2id(m, mjOBJ_BODY, name.c_str());
  if (tip.site < 0 && tip.body < 0) {
    cfg.fail("finger", "no embedded DH chain, site or body '" + name + "' (the fingertip: a site, or a body whose "
                       "origin is the tip)");
  }
  const int tip_body = tip.site >= 0 ? m->site_bodyid[tip.site] : tip.body;
  TreeChain tc;
  try {
    tc = tree_chain(m, root >= 0 ? root : finger_branch_body(m, tip_body), tip);
  } catch (const std::exception& e) {
    cfg.fail(root >= 0 ? "root" : "finger", std::string("no finger chain to '") + name + "': " + e.what());
  }
  // Loops and couplings (a 4-bar's connect, a joint or tendon equality): the open chain's FK would not be the
  // finger's motion, and computed torque on each joint would fight the constraint.
  const std::string obstruction = serial_obstruction(m, tc);
  if (!obstruction.empty()) {
    cfg.fail("finger", "the finger '" + name + "' is not a free serial chain, so a via path cannot be given to its "
                       "joints one by one: " + obstruction);
  }
  if (!body_is_fixed(m, tc.root_body)) {
    cfg.fail("root", "the finger's root body " + object_label(m, mjOBJ_BODY, tc.root_body) +
                         " moves; via paths (world-frame points) need a fixed root (name a fixed body with root=)");
  }
  tc.chain.base = fixed_body_pose(m, tc.root_body) * tc.base_in_root;
  *joints = tc.joint_ids;
  tc.chain.name = name;
  return tc.chain;
}

}  // namespace

std::unique_ptr<Plugin> make_computed_torque_plugin(const mjModel* m, const Config& cfg) {
  ComputedTorqueController::Options o;
  const std::string kind = cfg.get_choice("trajectory", {"quintic", "cosine", "via"});
  SerialChain finger_chain;
  const SerialChain* finger = nullptr;
  if (kind == "via") {
    finger_chain = via_finger(m, cfg, &o.joints);
    finger = &finger_chain;
    if (cfg.has("joints") && cfg.get_objects("joints", mjOBJ_JOINT) != o.joints) {
      cfg.fail("joints", "with trajectory=via the joints are the finger's own (omit the key)");
    }
  } else {
    o.joints = cfg.get_objects("joints", mjOBJ_JOINT, /*allow_all=*/true);
  }
  const size_t n = o.joints.size();
  if (n == 0) cfg.fail("joints", "no joints to control");
  if (n > static_cast<size_t>(ComputedTorqueController::kMaxJoints)) cfg.fail("joints", "at most 32 joints");
  for (int j : o.joints) {
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
      cfg.fail("joints", "joint " + object_label(m, mjOBJ_JOINT, j) + " is not a hinge or slide joint");
    }
    int found = -1;
    for (int a = 0; a < m->nu; ++a) {
      if (m->actuator_trntype[a] != mjTRN_JOINT || m->actuator_trnid[2 * a] != j) continue;
      if (found >= 0) {
        cfg.fail("joints", "joint " + object_label(m, mjOBJ_JOINT, j) + " is driven by two actuators (" +
                               object_label(m, mjOBJ_ACTUATOR, found) + ", " + object_label(m, mjOBJ_ACTUATOR, a) +
                               "); computed torque needs its motor alone");
      }
      found = a;
    }
    if (found < 0) {
      // A joint moved only through a tendon actuator (the Shadow hand's J1 + J2) shares its actuator with others.
      for (int a = 0; a < m->nu && found < 0; ++a) {
        if (m->actuator_trntype[a] != mjTRN_TENDON) continue;
        const int t = m->actuator_trnid[2 * a];
        for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; ++w) {
          if (m->wrap_type[w] == mjWRAP_JOINT && m->wrap_objid[w] == j) {
            cfg.fail("joints", "joint " + object_label(m, mjOBJ_JOINT, j) + " is driven only through tendon " +
                                   object_label(m, mjOBJ_TENDON, t) + " by actuator " +
                                   object_label(m, mjOBJ_ACTUATOR, a) +
                                   ", which couples it to other joints; computed torque needs a motor on each joint");
          }
        }
      }
      cfg.fail("joints", "joint " + object_label(m, mjOBJ_JOINT, j) + " has no motor actuator");
    }
    const bool motor = m->actuator_dyntype[found] == mjDYN_NONE && m->actuator_gaintype[found] == mjGAIN_FIXED &&
                       m->actuator_biastype[found] == mjBIAS_NONE &&
                       m->actuator_gainprm[mjNGAIN * found] * m->actuator_gear[6 * found] != 0;
    if (!motor) {
      cfg.fail("joints", "actuator " + object_label(m, mjOBJ_ACTUATOR, found) + " on joint " +
                             object_label(m, mjOBJ_JOINT, j) + " is not a motor (fixed gain, no bias, no dynamics)");
    }
    o.actuators.push_back(found);
  }
  o.law = cfg.get_choice_or("law", "computed_torque", {"computed_torque", "feedforward"}) == "feedforward"
              ? ComputedTorqueController::Law::kFeedForward
              : ComputedTorqueController::Law::kComputedTorque;
  // Feed-forward servo gains act on torque, not acceleration: by default scale the paper's k_p = 1000 1/s^2 by the
  // joint's inertia M_ii at qpos0, which gives the computed-torque loop's bandwidth there (see docs: the print's
  // K_v <= 2 min sqrt(M K_p) is inverted).
  std::vector<double> inertia(n, 1.0);
  if (o.law == ComputedTorqueController::Law::kFeedForward) {
    mjData* scratch = mj_makeData(m);
    mj_kinematics(m, scratch);
    mj_comPos(m, scratch);
    mj_makeM(m, scratch);
    for (size_t i = 0; i < n; ++i) {
      const int dof = m->jnt_dofadr[o.joints[i]];
      inertia[i] = sparse_inertia(m, scratch->M, dof, dof);
    }
    mj_deleteData(scratch);
  }
  std::vector<double> kp_default(n), kv_default(n);
  for (size_t i = 0; i < n; ++i) kp_default[i] = 1000.0 * inertia[i];
  o.kp = cfg.get_per_joint_or("kp", n, kp_default, 0.0, 1e12);
  for (size_t i = 0; i < n; ++i) kv_default[i] = 2.0 * std::sqrt(o.kp[i] * inertia[i]);
  o.kv = cfg.get_per_joint_or("kv", n, kv_default, 0.0, 1e12);
  // Explicit gains on light links (core/mjhand/util/explicit_system.h). feedforward: kp, kv are torques on the joints,
  // checked on the whole model. computed_torque: they are accelerations, the loop is e'' = -kp e - kv e' whatever
  // the inertia (exact model), so the rule is scale-free (unit inertia).
  if (!cfg.sizing() && cfg.native()) {
    const double h = m->opt.timestep;
    std::vector<ExplicitPd> loops;
    for (size_t i = 0; i < n; ++i) {
      const int j = o.joints[i];
      if (o.law == ComputedTorqueController::Law::kFeedForward) {
        loops.push_back(joint_pd(m, j, o.kp[i], o.kv[i], "feedforward joint " + object_label(m, mjOBJ_JOINT, j)));
      } else {
        // The closed loop e'' = -kp e - kv e' whatever the inertia: unit inertia, the model's damping cancelled by
        // the law's own passive-force term (or not part of e's dynamics).
        ExplicitLoop loop;
        loop.h = h;
        loop.kp = o.kp[i];
        loop.kd = o.kv[i];
        loop.inertia = 1;
        loop.scheme = damping_filing(m).scheme;
        if (explicit_loop_diverges(loop)) {
          ExplicitLoop stiff = loop;
          stiff.kd = 0;
          cfg.fail(explicit_loop_diverges(stiff) ? "kp" : "kv", "joint " + object_label(m, mjOBJ_JOINT, j) + ": computed-torque gains kp " +
                             format_value(o.kp[i]) + " 1/s^2, kv " + format_value(o.kv[i]) + " 1/s diverge at timestep " +
                             format_value(h) + " s whatever the link's inertia (one step multiplies the error by " +
                             format_value(step_amplification(loop)) + "; with this kv, kp below " +
                             format_value(max_stable_kp(loop)) + " is stable); lower the gains or shorten the timestep");
        }
      }
    }
    const std::string problem = explicit_loops_problem(m, loops, ForceTiming::kEveryEvaluation, "N m/rad", "N m s/rad",
                                                       "add armature or joint damping, or shorten the timestep");
    if (!problem.empty()) cfg.fail(blamed_gain(m, loops, ForceTiming::kEveryEvaluation, "kp", "kv"), problem);
  }
  o.compensate_passive = cfg.get_bool_or("compensate_passive", true);
  const std::string model = cfg.get_string("model", "mujoco");
  if (model != "mujoco") {
    DynamicModelFactory factory = find_dynamic_model(model);
    if (!factory) cfg.fail("model", "no dynamic model '" + model + "' is registered (built in: mujoco)");
    try {
      o.model = factory(m, o.joints);
    } catch (const std::invalid_argument& e) {
      cfg.fail("model", e.what());
    }
    if (!o.model || o.model->dof() != static_cast<int>(n)) {
      cfg.fail("model", "model '" + model + "' does not describe the " + std::to_string(n) + " controlled joints");
    }
  }
  o.trajectory = make_trajectory(m, cfg, kind, o.joints, finger);

  ModelErrorLevels lv;
  lv.torque = cfg.get_double_or("e_tau", 0.0, 0.0, 10.0);
  lv.acceleration = cfg.get_double_or("e_a", 0.0, 0.0, 10.0);
  lv.velocity = cfg.get_double_or("e_v", 0.0, 0.0, 10.0);
  lv.position = cfg.get_double_or("e_p", 0.0, 0.0, 10.0);
  lv.position_scale = cfg.get_double_or("e_p_scale", M_PI / 2, 0.0, 1e3);
  const int seed = cfg.get_int_or("seed", 0, 0, INT_MAX);
  const double period = cfg.get_double_or("error_period", m->opt.timestep, 1e-9, 1e6);
  const ErrorHold hold =
      cfg.get_choice_or("error_hold", "sample", {"sample", "run"}) == "run" ? ErrorHold::kRun : ErrorHold::kSample;
  o.errors = ModelErrors(lv, static_cast<std::uint64_t>(seed), cfg.instance(), period, hold);
  try {
    return std::make_unique<ControllerPlugin<ComputedTorqueController>>(m, std::move(o));
  } catch (const std::invalid_argument& e) {
    cfg.fail(e.what());
  }
}

PluginType computed_torque_plugin_type() {
  PluginType type;
  type.name = "computed_torque";
  type.summary = "computed-torque / feed-forward joint control on quintic, cosine or via-point paths";
  type.factory = make_computed_torque_plugin;
  type.keys = {"joints", "actuators", "finger", "law", "model", "trajectory", "start", "q0", "q1", "T", "durations",
               "points", "blend", "root", "posture_gain", "amplitude_deg", "offset_deg", "rate_deg", "kp", "kv",
               "compensate_passive", "e_p", "e_v", "e_a", "e_tau", "e_p_scale", "error_period", "error_hold", "seed"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
