#include <mjhand/hand_object/object_trajectory.h>

#include <cmath>
#include <stdexcept>

namespace mjhand {

namespace {

// f(tau) = A (sin(w tau + phi) - sin phi) and its first two derivatives (sin phi passed in, computed once).
void sine(double A, double w, double phi, double sin_phi, double tau, double* f) {
  const double s = std::sin(w * tau + phi), c = std::cos(w * tau + phi);
  f[0] = A * (s - sin_phi);
  f[1] = A * w * c;
  f[2] = -A * w * w * s;
}

// Product with the ramp envelope e (value, first, second derivative): (e f)'' = e'' f + 2 e' f' + e f''.
void envelope(const double* e, const double* f, double* out) {
  out[0] = e[0] * f[0];
  out[1] = e[1] * f[0] + e[0] * f[1];
  out[2] = e[2] * f[0] + 2 * e[1] * f[1] + e[0] * f[2];
}

bool finite3(const Eigen::Vector3d& v) { return v.allFinite(); }

}  // namespace

ObjectTrajectory::ObjectTrajectory(const SinusoidMotion& m) : hold_(false), motion_(m) {
  if (!finite3(m.amplitude) || !finite3(m.phase) || !finite3(m.rot_axis) || !std::isfinite(m.frequency) ||
      !std::isfinite(m.rot_amplitude) || !std::isfinite(m.rot_phase) || !std::isfinite(m.start) ||
      !std::isfinite(m.ramp)) {
    throw std::invalid_argument("sinusoid: every parameter must be finite");
  }
  if (m.frequency < 0 || m.start < 0 || m.ramp < 0) {
    throw std::invalid_argument("sinusoid: frequency, start and ramp must be >= 0");
  }
  const bool moves = m.amplitude.norm() > 0 || m.rot_amplitude != 0;
  if (moves && m.frequency == 0) throw std::invalid_argument("sinusoid: a non-zero amplitude needs a frequency > 0");
  if (m.rot_amplitude != 0 && m.rot_axis.norm() < 1e-12) {
    throw std::invalid_argument("sinusoid: the rotation axis must not be zero");
  }
  if (m.rot_axis.norm() >= 1e-12) motion_.rot_axis.normalize();
  sin_phase_ = m.phase.array().sin();
  sin_rot_phase_ = std::sin(m.rot_phase);
}

void ObjectTrajectory::evaluate(double t, const Eigen::Vector3d& p0, const Eigen::Quaterniond& q0,
                                ObjectReference* out) const {
  out->p = p0;
  out->q = q0;
  out->v.setZero();
  out->a.setZero();
  out->w.setZero();
  out->dw.setZero();
  const double tau = t - motion_.start;
  if (hold_ || !(tau > 0)) return;
  // Quintic smoothstep 10u^3 - 15u^4 + 6u^5: starts and ends with zero slope and curvature.
  double e[3] = {1.0, 0.0, 0.0};
  if (motion_.ramp > 0 && tau < motion_.ramp) {
    const double u = tau / motion_.ramp, T = motion_.ramp;
    e[0] = u * u * u * (10 - 15 * u + 6 * u * u);
    e[1] = 30 * u * u * (1 - u) * (1 - u) / T;
    e[2] = 60 * u * (1 - u) * (1 - 2 * u) / (T * T);
  }
  const double w = 2 * M_PI * motion_.frequency;
  double f[3], g[3];
  for (int k = 0; k < 3; ++k) {
    sine(motion_.amplitude(k), w, motion_.phase(k), sin_phase_(k), tau, f);
    envelope(e, f, g);
    out->p(k) += g[0];
    out->v(k) = g[1];
    out->a(k) = g[2];
  }
  if (motion_.rot_amplitude != 0) {
    sine(motion_.rot_amplitude, w, motion_.rot_phase, sin_rot_phase_, tau, f);
    envelope(e, f, g);
    // A rotation about a fixed axis: angular velocity and acceleration are the axis times theta' and theta''.
    out->q = Eigen::Quaterniond(Eigen::AngleAxisd(g[0], motion_.rot_axis)) * q0;
    out->w = motion_.rot_axis * g[1];
    out->dw = motion_.rot_axis * g[2];
  }
}

Eigen::Vector3d orientation_error(const Eigen::Quaterniond& q_target, const Eigen::Quaterniond& q) {
  Eigen::Quaterniond e = q_target * q.conjugate();
  const double n = e.norm();
  if (n > 0 && std::isfinite(n)) e.coeffs() /= n;  // inputs need not be exactly unit
  if (e.w() < 0) e.coeffs() = -e.coeffs();  // the shorter way round
  const Eigen::Vector3d v = e.vec();
  const double s = v.norm();
  if (s < 1e-12) return 2.0 * v;  // angle ~ 2 s
  return (2.0 * std::atan2(s, e.w()) / s) * v;
}

}  // namespace mjhand
