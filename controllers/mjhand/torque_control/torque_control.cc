#include <mjhand/torque_control/torque_control.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/pid/pid.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

double sensor_stiffness(double alpha, double beta, double chi) {
  const double gamma = 1.0 / (8.0 * std::sin(beta) * std::sin(alpha + beta));
  const double k = gamma * (std::cos(alpha) - std::sin(alpha) * std::sin(beta) * std::tan(alpha + beta)) * chi;
  return (std::isfinite(k) && k > 0) ? k : std::numeric_limits<double>::quiet_NaN();
}

TorqueController::TorqueController(Options o) : opt_(std::move(o)) {
  const size_t n = opt_.sensor_joints.size();
  if (n == 0 || opt_.actuators.size() != n || opt_.k_theta.size() != n || opt_.kps.size() != n ||
      opt_.torque_ref.size() != n) {
    throw std::invalid_argument("torque_control: one actuator, k_theta, kps and torque_ref per sensor joint");
  }
  if (opt_.u_min.empty()) opt_.u_min.assign(n, -kInf);
  if (opt_.u_max.empty()) opt_.u_max.assign(n, kInf);
  for (size_t j = 0; j < n; ++j) {
    if (!(opt_.k_theta[j] > 0) || !std::isfinite(opt_.k_theta[j])) throw std::invalid_argument("k_theta > 0");
    if (!(opt_.kps[j] >= 0)) throw std::invalid_argument("torque_control: kps >= 0");
    if (!(opt_.u_min[j] < opt_.u_max[j])) throw std::invalid_argument("torque_control: u_min < u_max");
  }
}

void TorqueController::reset(const mjModel*, const mjData*, mjtNum* s) const {
  s[0] = kOk;
  for (size_t j = 0; j < opt_.sensor_joints.size(); ++j) s[1 + j] = opt_.torque_ref[j];
}

double TorqueController::measured_torque(const mjModel* m, const mjData* d, int j) const {
  const int adr = m->jnt_qposadr[opt_.sensor_joints[j]];
  return -opt_.k_theta[j] * (d->qpos[adr] - m->qpos_spring[adr]);
}

void TorqueController::compute(const mjModel* m, mjData* d, mjtNum* s) const {
  const size_t n = opt_.sensor_joints.size();
  for (size_t j = 0; j < n && s[0] == kOk; ++j) {
    const double tau_r = s[1 + j];
    const double tau_f = measured_torque(m, d, static_cast<int>(j));
    if (!std::isfinite(tau_r)) s[0] = kBadReference;
    else if (!std::isfinite(tau_f)) s[0] = kBadMeasurement;
    else d->ctrl[opt_.actuators[j]] = std::clamp(opt_.kps[j] * (tau_r - tau_f), opt_.u_min[j], opt_.u_max[j]);
  }
  if (s[0] != kOk) {
    for (int a : opt_.actuators) d->ctrl[a] = opt_.fault_ctrl;
  }
}

}  // namespace mjhand
