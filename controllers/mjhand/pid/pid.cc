#include <mjhand/pid/pid.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <mjhand/util/implicit_pd.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

namespace {

// Offsets inside one joint's slice of the state.
enum : int { kSet = 0, kIc = 1, kDc = 2, kXc = 3, kI = 4, kD = 5, kX = 6, kU = 7 };

// Sample instants are matched with this slack: d->time is a running sum of timesteps, so a sample instant and
// the step time that should hit it differ by rounding; RK4 stage times (t + h/2) stay far outside it.
double time_slack(const mjModel* m) { return 1e-3 * m->opt.timestep; }

bool finite(double x) { return std::isfinite(x); }
}  // namespace

PidController::PidController(Options o) : opt_(std::move(o)) {
  const size_t n = opt_.joints.size();
  if (n == 0 || opt_.actuators.size() != n) throw std::invalid_argument("pid: one actuator per joint");
  auto sized = [n](const std::vector<double>& v) { return v.size() == n; };
  if (!sized(opt_.setpoint) || !sized(opt_.kp) || !sized(opt_.ki) || !sized(opt_.kd)) {
    throw std::invalid_argument("pid: setpoint and gains need one value per joint");
  }
  if (opt_.u_min.empty()) opt_.u_min.assign(n, -kInf);
  if (opt_.u_max.empty()) opt_.u_max.assign(n, kInf);
  if (!sized(opt_.u_min) || !sized(opt_.u_max)) throw std::invalid_argument("pid: u_min/u_max need one per joint");
  for (size_t j = 0; j < n; ++j) {
    if (!(opt_.kp[j] >= 0 && opt_.ki[j] >= 0 && opt_.kd[j] >= 0)) throw std::invalid_argument("pid: gains >= 0");
    if (!(opt_.u_min[j] < opt_.u_max[j])) throw std::invalid_argument("pid: u_min must be below u_max");
    if (opt_.dac_bits > 0 && !(finite(opt_.u_min[j]) && finite(opt_.u_max[j]))) {
      throw std::invalid_argument("pid: the D/A needs a finite output range");
    }
  }
  if (!opt_.tendons.empty() && opt_.tendons.size() != n) throw std::invalid_argument("pid: tendons: one per joint");
  for (size_t j = 0; j < n; ++j) {
    const bool tendon = !opt_.tendons.empty() && opt_.tendons[j] >= 0;
    if (!tendon && opt_.joints[j] < 0) throw std::invalid_argument("pid: entry " + std::to_string(j) +
                                                                   " measures neither a joint nor a tendon");
  }
  if (!(opt_.period > 0)) throw std::invalid_argument("pid: period must be positive");
  if (!(opt_.tf >= 0)) throw std::invalid_argument("pid: tf must be >= 0");
  if (opt_.implicit && opt_.tf != 0) throw std::invalid_argument("pid: implicit needs tf = 0");
  if (opt_.dac_bits < 0 || opt_.dac_bits > 32) throw std::invalid_argument("pid: dac_bits in [0, 32]");
  if (!(opt_.encoder_cpr >= 0)) throw std::invalid_argument("pid: encoder_cpr must be >= 0");
}

void PidController::reset(const mjModel*, const mjData* d, mjtNum* s) const {
  s[0] = d->time;  // last sample instant (meaningless until s[2] is set)
  s[1] = d->time;  // first sample is due at once
  s[2] = 0;
  s[3] = kOk;
  for (size_t j = 0; j < opt_.joints.size(); ++j) {
    mjtNum* js = s + kHeader + kPerJoint * j;
    for (int k = 0; k < kPerJoint; ++k) js[k] = 0;
    js[kSet] = opt_.setpoint[j];
    js[kU] = condition_output(static_cast<int>(j), 0.0);
  }
}

void PidController::clear_fault(const mjModel* m, const mjData* d, mjtNum* s) const {
  std::vector<double> sp(opt_.joints.size());
  for (size_t j = 0; j < sp.size(); ++j) sp[j] = s[kHeader + kPerJoint * j + kSet];
  reset(m, d, s);
  for (size_t j = 0; j < sp.size(); ++j) s[kHeader + kPerJoint * j + kSet] = sp[j];
}

double PidController::measure(const mjModel* m, const mjData* d, int j) const {
  const bool tendon = !opt_.tendons.empty() && opt_.tendons[j] >= 0;
  const double q = tendon ? d->ten_length[opt_.tendons[j]] : d->qpos[m->jnt_qposadr[opt_.joints[j]]];
  if (opt_.encoder_cpr <= 0) return q;
  // Revolutions for a hinge, metres for a slide, counts per unit of length for a tendon.
  const double unit = (!tendon && m->jnt_type[opt_.joints[j]] == mjJNT_HINGE) ? 2 * mjPI : 1.0;
  const double step = unit / opt_.encoder_cpr;
  return step * std::round(q / step);
}

double PidController::condition_output(int j, double u) const {
  const double lo = opt_.u_min[j], hi = opt_.u_max[j];
  u = std::clamp(u, lo, hi);
  if (opt_.dac_bits > 0) {
    const double levels = std::ldexp(1.0, opt_.dac_bits) - 1;  // 2^n codes span [lo, hi]
    const double lsb = (hi - lo) / levels;
    u = lo + lsb * std::round((u - lo) / lsb);
  }
  return u;
}

void PidController::sample(const mjModel* m, mjData* d, mjtNum* s) const {
  const double T = opt_.period;
  const bool first = s[2] < 2;  // s[2]: samples taken, capped at 2; committed values exist from the second on
  for (size_t jj = 0; jj < opt_.joints.size(); ++jj) {
    const int j = static_cast<int>(jj);
    mjtNum* js = s + kHeader + kPerJoint * j;
    const double r = js[kSet];
    const double y = measure(m, d, j);
    if (!finite(r)) { s[3] = kBadSetpoint; return; }
    if (!finite(y)) { s[3] = kBadMeasurement; return; }
    if (!finite(js[kIc]) || !finite(js[kDc]) || !finite(js[kXc])) { s[3] = kBadState; return; }
    const double e = r - y;
    const double x = opt_.derivative == Derivative::kError ? e : -y;
    const double x_prev = first ? x : js[kXc];  // no derivative kick on the very first sample
    // Backward-Euler discretisation of kd s / (tf s + 1); tf = 0 gives eq 25's Kd (1 - z^-1) with Kd = kd / T.
    double D = (opt_.tf * js[kDc] + opt_.kd[j] * (x - x_prev)) / (opt_.tf + T);
    if (opt_.implicit) {  // P and D backward Euler on the measured coordinate (tf = 0): pd = kp e + D below
      const int tendon = opt_.tendons.empty() ? -1 : opt_.tendons[j];
      const double w = actuator_inverse_inertia(m, d, opt_.actuators[j], tendon >= 0 ? -1 : opt_.joints[j], tendon);
      D = implicit_pd_force(opt_.kp[j], opt_.kd[j], T, w, -e, -(x - x_prev) / T) - opt_.kp[j] * e;
    }
    // Eq 25's Ki / (1 - z^-1) with Ki = ki T: the integral includes the current error.
    double I = js[kIc] + opt_.ki[j] * T * e;
    double u = opt_.kp[j] * e + I + D;
    // Anti-windup by clamping: an error that pushes the output into saturation is integrated only up to the
    // limit (so the output does reach it) and never beyond the previous integral (so nothing winds up).
    const double pd = opt_.kp[j] * e + D;
    if (u > opt_.u_max[j] && e > 0) {
      I = std::min(I, std::max(js[kIc], opt_.u_max[j] - pd));
      u = pd + I;
    } else if (u < opt_.u_min[j] && e < 0) {
      I = std::max(I, std::min(js[kIc], opt_.u_min[j] - pd));
      u = pd + I;
    }
    u = condition_output(j, u);
    if (!finite(u) || !finite(I) || !finite(D)) { s[3] = kBadState; return; }
    js[kI] = I;
    js[kD] = D;
    js[kX] = x;
    js[kU] = u;
  }
}

void PidController::compute(const mjModel* m, mjData* d, mjtNum* s) const {
  const double t = d->time;
  const double eps = time_slack(m);
  if (s[3] == kOk) {
    if (!finite(s[0]) || !finite(s[1])) {
      s[3] = kBadState;
    } else if (s[2] != 0 && std::abs(t - s[0]) <= eps) {
      sample(m, d, s);  // same instant again (RK4 stage at t+h, then the step at t+h; mj_forward): recompute
    } else if (s[2] != 0 && t < s[0] - eps) {
      s[1] = t;  // time went backwards without a reset: restart the schedule from here
      s[0] = t;
      commit_and_sample(m, d, s, t);
    } else if (t >= s[1] - eps) {
      // Keep the schedule on the grid t0 + kT (no drift); skip instants a large time jump passed over.
      double instant = s[1];
      if (t - instant > opt_.period) instant += opt_.period * std::floor((t + eps - instant) / opt_.period);
      commit_and_sample(m, d, s, instant);
    }
  }
  for (size_t j = 0; j < opt_.actuators.size(); ++j) {
    const double u = s[kHeader + kPerJoint * j + kU];
    const bool ok = s[3] == kOk && finite(u);
    if (!ok && s[3] == kOk) s[3] = kBadState;
    d->ctrl[opt_.actuators[j]] = ok ? u : opt_.fault_ctrl;
  }
  if (s[3] != kOk) {
    for (int a : opt_.actuators) d->ctrl[a] = opt_.fault_ctrl;
  }
}

void PidController::commit_and_sample(const mjModel* m, mjData* d, mjtNum* s, double instant) const {
  if (s[2] > 0) {
    for (size_t j = 0; j < opt_.joints.size(); ++j) {
      mjtNum* js = s + kHeader + kPerJoint * j;
      js[kIc] = js[kI];
      js[kDc] = js[kD];
      js[kXc] = js[kX];
    }
  }
  s[0] = instant;
  s[1] = instant + opt_.period;
  s[2] = std::min<double>(s[2] + 1, 2);
  sample(m, d, s);
}

}  // namespace mjhand
