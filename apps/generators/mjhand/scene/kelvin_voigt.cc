#include <mjhand/scene/kelvin_voigt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mjhand {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}
}  // namespace

MujocoContact kelvin_voigt_to_mujoco(const KelvinVoigt& kv, double mass) {
  require(std::isfinite(kv.stiffness) && kv.stiffness > 0, "contact stiffness must be a positive number [N/m]");
  require(std::isfinite(kv.damping) && kv.damping >= 0, "contact damping must be a non-negative number [N s/m]");
  require(std::isfinite(kv.transition_width) && kv.transition_width >= 0,
          "contact transition_width must be a non-negative number [m]");
  require(std::isfinite(kv.impedance) && kv.impedance >= 1e-4 && kv.impedance <= 0.9999,
          "contact impedance must lie in [0.0001, 0.9999] (MuJoCo's mjMINIMP, mjMAXIMP)");
  require(std::isfinite(mass) && mass > 0, "contact reference mass must be positive [kg]");
  const double d = kv.impedance;
  MujocoContact out;
  out.solref[0] = -(1 - d) * kv.stiffness / mass;
  // A zero damping would make solref[1] = 0, which MuJoCo reads as the standard (positive) format: keep it tiny.
  out.solref[1] = -std::max(std::sqrt(1 - d) * kv.damping / mass, 1e-12);
  // dmin = mjMINIMP: at zero indentation the contact carries (almost) no force, like the smoothed Simscape law.
  out.solimp[0] = kv.transition_width > 0 ? 1e-4 : d;
  out.solimp[1] = d;
  out.solimp[2] = kv.transition_width;
  out.time_scale = 1 / std::sqrt(1 - d);
  return out;
}

double kv_static_penetration(const KelvinVoigt& kv, double mass, double gravity) {
  return mass * gravity / kv.stiffness;
}

double kv_damping_ratio(const KelvinVoigt& kv, double mass) {
  return kv.damping / (2 * std::sqrt(kv.stiffness * mass));
}

double kv_restitution(const KelvinVoigt& kv, double mass) {
  const double z = kv_damping_ratio(kv, mass);
  if (z >= 1) return 0;
  return std::exp(-z * M_PI / std::sqrt(1 - z * z));
}

double kv_rebound_speed(const KelvinVoigt& kv, double mass, double gravity, double v0) {
  // State: indentation x >= 0 (into the surface) and its rate v; m x'' = m g - D v - K x while x > 0.
  const double k = kv.stiffness / mass, b = kv.damping / mass;
  const double omega = std::sqrt(k);
  const double h = 1e-4 / std::max(omega, b);
  auto acc = [&](double x, double v) { return gravity - b * v - k * x; };
  double x = 0, v = v0;
  // An underdamped impact ends within half a period; 50 periods (or 2e7 steps) without leaving means none.
  const long steps = std::min(20000000L, static_cast<long>(50 * 2 * M_PI / omega / h));
  for (long i = 0; i < steps; ++i) {
    const double k1x = v, k1v = acc(x, v);
    const double k2x = v + 0.5 * h * k1v, k2v = acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
    const double k3x = v + 0.5 * h * k2v, k3v = acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const double k4x = v + h * k3v, k4v = acc(x + h * k3x, v + h * k3v);
    const double xn = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    const double vn = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (xn <= 0 && vn < 0) {
      // Linear interpolation to the crossing: the speed changes by O(h) across one step.
      const double s = x / (x - xn);
      return -(v + s * (vn - v));
    }
    x = xn;
    v = vn;
  }
  return 0;
}

}  // namespace mjhand
