#include <mjhand/computed_torque/computed_torque.h>
#include <mjhand/io/mj_stack.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>

#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>

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

bool finite_all(const double* x, int n) {
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return false;
  }
  return true;
}

}  // namespace

// Entry (i, j) of MuJoCo's sparse joint-space inertia d->M (CSR lower triangle: row i holds M(i, ancestor) for the
// dofs on i's parent chain, column indices ascending, the diagonal last).
double sparse_inertia(const mjModel* m, const mjtNum* M, int i, int j) {
  if (i < j) std::swap(i, j);
  const int begin = m->M_rowadr[i], end = begin + m->M_rownnz[i];
  for (int adr = begin; adr < end; ++adr) {
    if (m->M_colind[adr] == j) return M[adr];
  }
  return 0.0;
}

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
    for (int b = 0; b < n; ++b) M[a * n + b] = sparse_inertia(m, d->M, dof_adr_[a], dof_adr_[b]);
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
    for (int b = 0; b < n; ++b) M[a * n + b] = sparse_inertia(m, d->M, dof_adr_[a], dof_adr_[b]);
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

}  // namespace mjhand
