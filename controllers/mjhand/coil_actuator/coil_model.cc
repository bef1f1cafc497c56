#include <mjhand/coil_actuator/coil_model.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <mjhand/io/labels.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

namespace {
constexpr double kHalfPi = kPi / 2;

double horner(const std::array<double, 5>& c, double x) {
  return (((c[4] * x + c[3]) * x + c[2]) * x + c[1]) * x + c[0];
}
}  // namespace

TorqueConstant TorqueConstant::sin2(double kt_max) {
  if (!std::isfinite(kt_max) || kt_max <= 0) {
    throw std::invalid_argument("K_Tmax = " + format_value(kt_max) + " N m/A must be a positive number");
  }
  TorqueConstant k;
  k.model_ = KtModel::kSin2;
  k.kt_max_ = kt_max;
  k.peak_ = kt_max;
  return k;
}

TorqueConstant TorqueConstant::polynomial(const std::array<double, 5>& c) {
  for (double x : c) {
    if (!std::isfinite(x)) throw std::invalid_argument("K_T polynomial coefficient is not finite");
  }
  TorqueConstant k;
  k.model_ = KtModel::kPoly;
  k.poly_ = c;
  // A quartic has at most 3 extrema: 1000 samples on [0, 90 deg] find its range to well below the data's precision.
  double lo = std::numeric_limits<double>::infinity(), lo_phi = 0.0, hi = 0.0;
  for (int i = 0; i <= 1000; ++i) {
    const double phi = kHalfPi * i / 1000.0;
    const double v = horner(c, phi);
    if (v < lo) {
      lo = v;
      lo_phi = phi;
    }
    hi = std::max(hi, std::abs(v));
  }
  if (lo <= 0) {
    throw std::invalid_argument("the K_T polynomial is " + format_value(lo) + " N m/A at phi = " +
                                format_value(lo_phi * 180 / kPi) +
                                " deg: it must be positive on the measured range 0..90 deg");
  }
  k.peak_ = hi;
  k.kt_max_ = horner(c, kPi / 4);
  return k;
}

double TorqueConstant::operator()(double phi) const {
  if (model_ == KtModel::kSin2) {
    const double s = std::sin(phi + kPi / 4);
    return kt_max_ * s * s;
  }
  return horner(poly_, std::clamp(phi, 0.0, kHalfPi));
}

void CoilParams::current_range(double phi, double phidot, double dT, double* lo, double* hi) const {
  *lo = -I_max;
  *hi = I_max;
  const double R = resistance(dT);
  if (V_max > 0 && R > 0) {
    const double e = back_emf(phi, phidot);
    // Clamping both ends into [-I_max, I_max] keeps lo <= hi even when the back-EMF alone exceeds V_max.
    *lo = std::clamp((-V_max - e) / R, -I_max, I_max);
    *hi = std::clamp((V_max - e) / R, -I_max, I_max);
  }
}

CoilCurrent CoilParams::apply(double command, double phi, double phidot, double dT) const {
  if (!std::isfinite(command)) return {0.0, kCoilBadCommand};
  double lo, hi;
  current_range(phi, phidot, dT, &lo, &hi);
  if (command > hi) return {hi, kCoilClipped};
  if (command < lo) return {lo, kCoilClipped};
  return {command, kCoilNotClipped};
}

double CoilParams::electrical_power(double current, double phi, double phidot, double dT) const {
  return current * (current * resistance(dT) + back_emf(phi, phidot));
}

double CoilParams::heating_rate(double current, double dT) const {
  if (!thermal) return 0.0;
  return (current * current * resistance(dT) - dT / R_th) / C;
}

double CoilParams::steady_rise(double current) const {
  const double p0 = current * current * R0 * R_th;  // K: rise if R stayed R0
  const double denom = 1.0 - p0 * alpha_R;
  return denom > 0 ? p0 / denom : std::numeric_limits<double>::infinity();
}

CurrentForTorque CoilParams::current_for_torque(double tau, double phi, double phidot, double dT) const {
  CurrentForTorque r;
  if (!std::isfinite(tau) || !std::isfinite(phi) || !std::isfinite(phidot) || !std::isfinite(dT)) {
    r.status = CurrentForTorque::kBadInput;
    return r;
  }
  r.kt = kt(phi);
  if (std::abs(r.kt) <= kSingularFraction * kt.peak()) {
    r.status = CurrentForTorque::kSingular;
    return r;
  }
  double lo, hi;
  current_range(phi, phidot, dT, &lo, &hi);
  const double want = tau / r.kt;
  r.current = std::clamp(want, lo, hi);
  r.status = r.current == want ? CurrentForTorque::kOk : CurrentForTorque::kLimited;
  return r;
}

void check_thermal_params(double C, double R_th) {
  if (!std::isfinite(C) || C <= 0) {
    throw std::invalid_argument("heat capacity C = " + format_value(C) +
                                " J/K is not physical (must be a finite number > 0)");
  }
  if (!std::isfinite(R_th) || R_th <= 0) {
    throw std::invalid_argument("thermal resistance R_th = " + format_value(R_th) +
                                " K/W is not physical (must be a finite number > 0)");
  }
}

}  // namespace mjhand
