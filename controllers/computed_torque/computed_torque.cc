#include "computed_torque/computed_torque.h"
#include "io/mj_stack.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>

#include "hand/model_chains.h"
#include "kinematics/forward_kinematics.h"
#include "host/controller_plugin.h"

namespace mjhand {

// ---- user dynamic models ----------------------------------------------------------------------------------------

namespace {
// The pipeline stages that M (mj_makeM) and the bias forces (mj_rne, which needs cvel) depend on.
void rerun_mass_and_bias_stages(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_makeM(m, d);  // crb and M
  mj_comVel(m, d);
}

// Every mjData array those four stages write (MuJoCo 4.0 engine_core_smooth.c), as (array, length) pairs.
// Saving them and copying them back is ~3x cheaper than rerunning the stages on the restored state, and exact.
// (Found by diffing every MJDATA_POINTERS array around the four calls; flex and mocap models would add more.)
inline constexpr int kStageArrays = 21;
struct StageArray {
  mjtNum* data;
  mjtSize size;
};
int stage_outputs(const mjModel* m, mjData* d, StageArray* out) {
  const int nb = m->nbody;
  const StageArray a[] = {
      {d->xpos, 3 * nb},           {d->xquat, 4 * nb},           {d->xmat, 9 * nb},
      {d->xipos, 3 * nb},          {d->xiquat, 4 * nb},          {d->ximat, 9 * nb},
      {d->xanchor, 3 * m->njnt},   {d->xaxis, 3 * m->njnt},      {d->geom_xpos, 3 * m->ngeom},
      {d->geom_xquat, 4 * m->ngeom}, {d->geom_xmat, 9 * m->ngeom}, {d->site_xpos, 3 * m->nsite},
      {d->site_xquat, 4 * m->nsite}, {d->site_xmat, 9 * m->nsite}, {d->subtree_com, 3 * nb},
      {d->cinert, 10 * nb},        {d->cdof, 6 * m->nv},         {d->crb, 10 * nb},
      {d->M, m->nC},               {d->cvel, 6 * nb},            {d->cdof_dot, 6 * m->nv}};
  static_assert(std::size(a) == kStageArrays, "kStageArrays counts the arrays listed");
  std::copy(std::begin(a), std::end(a), out);
  return static_cast<int>(std::size(a));
}

std::mutex& model_mutex() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, DynamicModelFactory>& model_table() {
  static std::map<std::string, DynamicModelFactory> table;
  return table;
}

// Entry (i, j) of MuJoCo's sparse joint-space inertia d->M (CSR lower triangle: row i holds M(i, ancestor) for the
// dofs on i's parent chain, column indices ascending, the diagonal last).
double sparse_M(const mjModel* m, const mjtNum* M, int i, int j) {
  if (i < j) std::swap(i, j);
  const int begin = m->M_rowadr[i], end = begin + m->M_rownnz[i];
  for (int adr = begin; adr < end; ++adr) {
    if (m->M_colind[adr] == j) return M[adr];
  }
  return 0.0;
}

bool finite_all(const double* x, int n) {
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return false;
  }
  return true;
}

}  // namespace

void register_dynamic_model(const std::string& name, DynamicModelFactory factory) {
  if (name.empty() || name == "mujoco") throw std::invalid_argument("dynamic model name must not be empty or 'mujoco'");
  std::lock_guard<std::mutex> lock(model_mutex());
  if (!model_table().emplace(name, std::move(factory)).second) {
    throw std::invalid_argument("dynamic model '" + name + "' is already registered");
  }
}

DynamicModelFactory find_dynamic_model(const std::string& name) {
  std::lock_guard<std::mutex> lock(model_mutex());
  auto it = model_table().find(name);
  return it == model_table().end() ? DynamicModelFactory() : it->second;
}

// ---- controller -------------------------------------------------------------------------------------------------

ComputedTorqueController::ComputedTorqueController(const mjModel* m, Options options) : opt_(std::move(options)) {
  const size_t n = opt_.joints.size();
  if (n == 0 || n > static_cast<size_t>(kMaxJoints)) throw std::invalid_argument("computed_torque: 1..32 joints");
  if (opt_.actuators.size() != n || opt_.kp.size() != n || opt_.kv.size() != n) {
    throw std::invalid_argument("computed_torque: one actuator, kp and kv per joint");
  }
  if (!opt_.trajectory || opt_.trajectory->dof() != static_cast<int>(n)) {
    throw std::invalid_argument("computed_torque: the trajectory must drive exactly the controlled joints");
  }
  if (m->nflex > 0) {  // mj_kinematics also writes flex vertex arrays, which stage_outputs does not save
    throw std::invalid_argument("computed_torque: models with flex objects are not supported");
  }
  if (opt_.model && opt_.model->dof() != static_cast<int>(n)) {
    throw std::invalid_argument("computed_torque: the dynamic model must describe exactly the controlled joints");
  }
  for (size_t i = 0; i < n; ++i) {
    const int j = opt_.joints[i], a = opt_.actuators[i];
    if (j < 0 || j >= m->njnt || (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE)) {
      throw std::invalid_argument("computed_torque: joints must be hinge or slide joints");
    }
    if (a < 0 || a >= m->nu || m->actuator_trntype[a] != mjTRN_JOINT || m->actuator_trnid[2 * a] != j ||
        m->actuator_dyntype[a] != mjDYN_NONE || m->actuator_gaintype[a] != mjGAIN_FIXED ||
        m->actuator_biastype[a] != mjBIAS_NONE) {
      throw std::invalid_argument("computed_torque: each joint needs a motor actuator (fixed gain, no bias/dynamics)");
    }
    const double scale = m->actuator_gainprm[mjNGAIN * a] * m->actuator_gear[6 * a];
    if (!(std::isfinite(scale) && scale != 0)) throw std::invalid_argument("computed_torque: actuator gain * gear is 0");
    if (!(std::isfinite(opt_.kp[i]) && opt_.kp[i] >= 0 && std::isfinite(opt_.kv[i]) && opt_.kv[i] >= 0)) {
      throw std::invalid_argument("computed_torque: gains must be finite and >= 0");
    }
    qpos_adr_.push_back(m->jnt_qposadr[j]);
    dof_adr_.push_back(m->jnt_dofadr[j]);
    ctrl_scale_.push_back(scale);
  }
  // mj_Euler solves (M + h B) qacc_new = M qacc whenever damping and its implicit Euler treatment are on and any dof
  // has damping.
  if (m->opt.integrator == mjINT_EULER && !(m->opt.disableflags & (mjDSBL_DAMPER | mjDSBL_EULERDAMP))) {
    for (int i = 0; i < m->nv; ++i) implicit_damping_ = implicit_damping_ || m->dof_damping[i] > 0;
  }
}

void ComputedTorqueController::reset(const mjModel*, const mjData*, mjtNum* state) const {
  std::fill(state, state + nstate(), 0.0);
}

void ComputedTorqueController::mujoco_terms(const mjModel* m, const mjData* d, double* M, double* h) const {
  const int n = static_cast<int>(dof_adr_.size());
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) M[a * n + b] = sparse_M(m, d->M, dof_adr_[a], dof_adr_[b]);
    h[a] = d->qfrc_bias[dof_adr_[a]];
  }
}

void ComputedTorqueController::mujoco_terms_at(const mjModel* m, mjData* d, const double* q, const double* qd,
                                               double* M, double* h) const {
  const int n = static_cast<int>(dof_adr_.size());
  // Only the stages M and bias depend on are rerun, after saving what they overwrite on the mjData stack; the
  // stages not rerun (tendons, transmission, contacts) are never touched. All of qpos is saved because 2.2.2's
  // mj_kinematics normalises every free/ball quaternion in qpos in place (renormalising is not bitwise idempotent).
  mark_stack(d);
  StageArray arrays[kStageArrays + 1];
  int count = stage_outputs(m, d, arrays);
  arrays[count++] = {d->qpos, m->nq};
  mjtNum* saved[kStageArrays + 1];
  for (int k = 0; k < count; ++k) {
    saved[k] = mj_stackAllocNum(d, arrays[k].size);
    std::copy(arrays[k].data, arrays[k].data + arrays[k].size, saved[k]);
  }
  double saved_v[kMaxJoints];
  for (int i = 0; i < n; ++i) {
    saved_v[i] = d->qvel[dof_adr_[i]];
    d->qpos[qpos_adr_[i]] = q[i];
    d->qvel[dof_adr_[i]] = qd[i];
  }
  rerun_mass_and_bias_stages(m, d);
  mjtNum* bias = mj_stackAllocNum(d, m->nv);
  mj_rne(m, d, 0, bias);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) M[a * n + b] = sparse_M(m, d->M, dof_adr_[a], dof_adr_[b]);
    h[a] = bias[dof_adr_[a]];
  }
  for (int k = 0; k < count; ++k) std::copy(saved[k], saved[k] + arrays[k].size, arrays[k].data);
  for (int i = 0; i < n; ++i) d->qvel[dof_adr_[i]] = saved_v[i];
  free_stack(d);
}

bool ComputedTorqueController::law(const mjModel* m, mjData* d, const double* u, double* tau, int* why) const {
  const int n = static_cast<int>(dof_adr_.size());
  const ModelErrorLevels& lv = opt_.errors.levels();
  double qr[kMaxJoints], vr[kMaxJoints], ar[kMaxJoints];  // reference
  double qm[kMaxJoints], vm[kMaxJoints];                  // measured (with e_p, e_v)
  double acc[kMaxJoints], M[kMaxJoints * kMaxJoints], h[kMaxJoints];
  opt_.trajectory->evaluate(d->time, qr, vr, ar);
  if (!finite_all(qr, n) || !finite_all(vr, n) || !finite_all(ar, n)) {
    *why = kCtBadSetpoint;
    return false;
  }
  for (int i = 0; i < n; ++i) {
    qm[i] = d->qpos[qpos_adr_[i]];
    vm[i] = d->qvel[dof_adr_[i]];
  }
  if (!finite_all(qm, n) || !finite_all(vm, n)) {
    *why = kCtBadState;
    return false;
  }
  const bool measured_differs = u && (lv.position > 0 || lv.velocity > 0);
  if (u) {
    for (int i = 0; i < n; ++i) {
      qm[i] += lv.position * lv.position_scale * u[4 * i + kErrPosition];
      vm[i] *= 1.0 + lv.velocity * u[4 * i + kErrVelocity];
    }
  }
  if (opt_.law == Law::kComputedTorque) {
    // tau = M(theta) thetadd* + V(theta, thetad) + G(theta), thetadd* = thetadd_d + K_v e_dot + K_p e.
    for (int i = 0; i < n; ++i) {
      acc[i] = ar[i] + opt_.kv[i] * (vr[i] - vm[i]) + opt_.kp[i] * (qr[i] - qm[i]);
      if (u) acc[i] *= 1.0 + lv.acceleration * u[4 * i + kErrAcceleration];
    }
    if (opt_.model) {
      opt_.model->evaluate(qm, vm, M, h);
    } else if (measured_differs) {
      mujoco_terms_at(m, d, qm, vm, M, h);
    } else {
      mujoco_terms(m, d, M, h);
    }
    for (int a = 0; a < n; ++a) {
      double s = h[a];
      for (int b = 0; b < n; ++b) s += M[a * n + b] * acc[b];
      tau[a] = s;
    }
  } else {
    // tau = M(theta_d) thetadd_d + V(theta_d, thetad_d) + G(theta_d) + K_v e_dot + K_p e (see docs: the print has
    // M(theta) thetadd with the actual state, which is not a feed-forward term).
    for (int i = 0; i < n; ++i) acc[i] = ar[i] * (u ? 1.0 + lv.acceleration * u[4 * i + kErrAcceleration] : 1.0);
    if (opt_.model) {
      opt_.model->evaluate(qr, vr, M, h);
    } else {
      mujoco_terms_at(m, d, qr, vr, M, h);
    }
    for (int a = 0; a < n; ++a) {
      double s = h[a] + opt_.kv[a] * (vr[a] - vm[a]) + opt_.kp[a] * (qr[a] - qm[a]);
      for (int b = 0; b < n; ++b) s += M[a * n + b] * acc[b];
      tau[a] = s;
    }
  }
  for (int a = 0; a < n; ++a) {
    const int dof = dof_adr_[a];
    if (implicit_damping_) tau[a] += m->opt.timestep * m->dof_damping[dof] * acc[a];
    if (opt_.compensate_passive) tau[a] -= d->qfrc_passive[dof];
    if (u) tau[a] *= 1.0 + lv.torque * u[4 * a + kErrTorque];
  }
  if (!finite_all(tau, n)) {
    *why = kCtBadOutput;
    return false;
  }
  return true;
}

void ComputedTorqueController::ideal_torque(const mjModel* m, mjData* d, double* tau) const {
  int why = 0;
  if (!law(m, d, nullptr, tau, &why)) std::fill(tau, tau + opt_.joints.size(), std::nan(""));
}

void ComputedTorqueController::compute(const mjModel* m, mjData* d, mjtNum* state) const {
  const int n = static_cast<int>(opt_.joints.size());
  double tau[kMaxJoints];
  const double* u = nullptr;
  if (state[0] == kCtOk && opt_.errors.active()) {
    // Time-triggered: a new draw only when d->time enters a new sample, however often MuJoCo calls us.
    const std::int64_t k = opt_.errors.sample_index(d->time);
    if (state[3] == 0 || static_cast<double>(k) != state[2]) {
      opt_.errors.draw(k, n, state + 4);
      state[2] = static_cast<double>(k);
      state[3] += 1;
    }
    u = state + 4;
  }
  int why = kCtOk;
  if (state[0] == kCtOk && !law(m, d, u, tau, &why)) {
    state[0] = why;
    state[1] = d->time;
    static const char* const kWhat[] = {"", "non-finite setpoint", "non-finite joint state", "non-finite torque"};
    std::fprintf(stderr, "mjhand computed_torque: %s at t = %g s; torques held at 0 until mj_resetData\n", kWhat[why],
                 d->time);
  }
  for (int i = 0; i < n; ++i) {
    const int a = opt_.actuators[i];
    double c = state[0] == kCtOk ? tau[i] / ctrl_scale_[i] : 0.0;
    if (m->actuator_ctrllimited[a]) {
      c = std::clamp(c, m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
    }
    d->ctrl[a] = c;
  }
}

// ---- plugin -----------------------------------------------------------------------------------------------------

namespace {

// 1 or n values of `key` (or `fallback` when absent), each in [lo, hi].
std::vector<double> per_joint(const Config& cfg, const std::string& key, size_t n, std::vector<double> fallback,
                              double lo, double hi) {
  std::vector<double> v = cfg.has(key) ? cfg.get_doubles(key) : std::move(fallback);
  if (v.size() == 1) v.assign(n, v[0]);
  if (v.size() != n) {
    cfg.fail(key, "needs 1 or " + std::to_string(n) + " values (one per joint), got " + std::to_string(v.size()));
  }
  for (double x : v) {
    if (x < lo || x > hi) cfg.fail(key, "value " + std::to_string(x) + " must lie in [" + std::to_string(lo) + ", " +
                                            std::to_string(hi) + "]");
  }
  return v;
}

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
                                                       const std::vector<int>& joints, const ModelChain* finger) {
  const size_t n = joints.size();
  const double start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
  std::vector<double> qpos0(n);
  for (size_t i = 0; i < n; ++i) qpos0[i] = m->qpos0[m->jnt_qposadr[joints[i]]];
  if (kind == "quintic") {
    const std::vector<double> q0 = per_joint(cfg, "q0", n, qpos0, -1e3, 1e3);
    const std::vector<double> q1 = per_joint(cfg, "q1", n, cfg.get_doubles("q1"), -1e3, 1e3);
    const double T = cfg.get_double("T", 1e-6, 1e6);
    check_in_range(m, cfg, "q0", joints, q0);
    check_in_range(m, cfg, "q1", joints, q1);
    return std::make_shared<QuinticTrajectory>(q0, q1, T, start);
  }
  if (kind == "cosine") {
    const double deg = M_PI / 180.0;
    std::vector<double> amp = per_joint(cfg, "amplitude_deg", n, {85.0}, -3600, 3600);
    std::vector<double> off = per_joint(cfg, "offset_deg", n, {2.5}, -3600, 3600);
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
  // via: fingertip path through points given in the world frame, converted with the finger's embedded DH chain.
  const std::vector<double> q0 = per_joint(cfg, "q0", n, qpos0, -1e3, 1e3);
  check_in_range(m, cfg, "q0", joints, q0);
  const std::vector<double> pts = cfg.get_doubles("points");
  if (pts.empty() || pts.size() % 3 != 0) {
    cfg.fail("points", "needs x,y,z triples (world frame, metres), got " + std::to_string(pts.size()) + " numbers");
  }
  const size_t nseg = pts.size() / 3;
  std::vector<double> dur = per_joint(cfg, "durations", nseg, cfg.get_doubles("durations"), 1e-6, 1e6);
  const double blend = cfg.get_double_or("blend", 0.25 * *std::min_element(dur.begin(), dur.end()), 1e-9, 1e6);
  std::vector<Eigen::Vector3d> w;
  w.push_back(tip_pose_and_jacobian(finger->chain, q0.data()).translation());
  for (size_t k = 0; k < nseg; ++k) w.emplace_back(pts[3 * k], pts[3 * k + 1], pts[3 * k + 2]);
  try {
    ViaPointPath path(w, dur, blend, start);
    return std::make_shared<ViaJointTrajectory>(finger->chain, std::move(path), q0);
  } catch (const std::invalid_argument& e) {
    cfg.fail("points", e.what());
  }
}

}  // namespace

std::unique_ptr<Plugin> make_computed_torque_plugin(const mjModel* m, const Config& cfg) {
  ComputedTorqueController::Options o;
  const std::string kind = cfg.get_choice("trajectory", {"quintic", "cosine", "via"});
  std::vector<ModelChain> chains;
  const ModelChain* finger = nullptr;
  if (kind == "via") {
    const std::string name = cfg.get_string("finger");
    try {
      chains = read_model_chains(m);
    } catch (const std::exception& e) {
      cfg.fail("finger", std::string("the model's embedded DH chains are unusable: ") + e.what());
    }
    for (auto& c : chains) {
      if (c.chain.name == name) finger = &c;
    }
    if (!finger) cfg.fail("finger", "no embedded DH chain '" + name + "' (generate the model with mjhand make-hand)");
    if (!body_is_fixed(m, finger->palm_body)) cfg.fail("finger", "the palm moves; via paths need a fixed palm");
    set_world_bases(m, nullptr, chains);
    o.joints = finger->joint_ids;
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
    if (found < 0) cfg.fail("joints", "joint " + object_label(m, mjOBJ_JOINT, j) + " has no motor actuator");
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
      inertia[i] = sparse_M(m, scratch->M, dof, dof);
    }
    mj_deleteData(scratch);
  }
  std::vector<double> kp_default(n), kv_default(n);
  for (size_t i = 0; i < n; ++i) kp_default[i] = 1000.0 * inertia[i];
  o.kp = per_joint(cfg, "kp", n, kp_default, 0.0, 1e12);
  for (size_t i = 0; i < n; ++i) kv_default[i] = 2.0 * std::sqrt(o.kp[i] * inertia[i]);
  o.kv = per_joint(cfg, "kv", n, kv_default, 0.0, 1e12);
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

}  // namespace mjhand
