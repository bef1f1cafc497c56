#include <mjhand/coupling/coupling_law.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace mjhand {

double CouplingLaw::value(double x) const {
  double v = 0.0;
  for (int k = kMaxCouplingOrder; k >= 0; --k) v = v * x + c[k];
  return v;
}

double CouplingLaw::slope(double x) const {
  double v = 0.0;
  for (int k = kMaxCouplingOrder; k >= 1; --k) v = v * x + k * c[k];
  return v;
}

CouplingLaw coupling_law(const std::vector<double>& coef) {
  if (coef.empty() || coef.size() > kMaxCouplingOrder + 1) {
    throw std::invalid_argument("a coupling law needs 1 to 5 coefficients (order 0..4), got " +
                                std::to_string(coef.size()));
  }
  CouplingLaw law;
  for (std::size_t k = 0; k < coef.size(); ++k) law.c[k] = coef[k];
  return law;
}

namespace {
// Coefficients of p(u + s) in powers of u: a_k = sum_{j >= k} c_j C(j, k) s^(j - k).
std::array<double, kMaxCouplingOrder + 1> shifted(const CouplingLaw& law, double s) {
  std::array<double, kMaxCouplingOrder + 1> a{};
  for (int j = 0; j <= kMaxCouplingOrder; ++j) {
    double binom = 1.0;  // C(j, k), built up from k = j downwards
    double spow = 1.0;   // s^(j - k)
    for (int k = j; k >= 0; --k) {
      a[k] += law.c[j] * binom * spow;
      binom = binom * k / (j - k + 1);
      spow *= s;
    }
  }
  return a;
}
}  // namespace

CouplingLaw law_in_joint_angles(const CouplingLaw& law, double x_offset, double y_offset) {
  CouplingLaw q;
  q.c = shifted(law, x_offset);
  q.c[0] -= y_offset;
  return q;
}

std::array<double, kMaxCouplingOrder + 1> mujoco_polycoef(const CouplingLaw& law, double x_qpos0, double y_qpos0,
                                                          double x_offset, double y_offset) {
  std::array<double, kMaxCouplingOrder + 1> a = shifted(law, x_qpos0 + x_offset);
  a[0] -= y_qpos0 + y_offset;
  return a;
}

RangeViolation check_coupling_range(const CouplingLaw& law, double x_lo, double x_hi, double y_lo, double y_hi) {
  RangeViolation r;
  const bool constant = law.c[1] == 0 && law.c[2] == 0 && law.c[3] == 0 && law.c[4] == 0;
  const auto excess = [&](double y) { return std::max(y_lo - y, y - y_hi); };  // > 0: outside
  if (!std::isfinite(x_lo) || !std::isfinite(x_hi)) {
    if (!std::isfinite(y_lo) && !std::isfinite(y_hi)) return r;
    if (!constant) {
      r.violated = true;
      r.driver = std::isfinite(x_lo) ? std::numeric_limits<double>::infinity()
                                     : -std::numeric_limits<double>::infinity();
      r.value = law.value(r.driver);
      return r;
    }
    x_lo = x_hi = 0.0;  // a constant law: one evaluation decides
  }
  // Candidates: both ends and every sign change of the slope on a fine grid, refined by bisection.
  std::vector<double> xs = {x_lo, x_hi};
  constexpr int kGrid = 512;
  double prev_x = x_lo, prev_s = law.slope(x_lo);
  for (int i = 1; i <= kGrid; ++i) {
    const double x = x_lo + (x_hi - x_lo) * i / kGrid;
    const double s = law.slope(x);
    if ((prev_s < 0) != (s < 0)) {
      double a = prev_x, b = x, sa = prev_s;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (a + b), sm = law.slope(mid);
        if ((sa < 0) == (sm < 0)) {
          a = mid;
          sa = sm;
        } else {
          b = mid;
        }
      }
      xs.push_back(0.5 * (a + b));
    }
    prev_x = x;
    prev_s = s;
  }
  double worst = 0.0;
  for (double x : xs) {
    const double y = law.value(x);
    const double e = excess(y);
    if (e > worst || (!r.violated && e > 0)) {
      worst = e;
      r.violated = true;
      r.driver = x;
      r.value = y;
    }
  }
  return r;
}

std::string format_law(const CouplingLaw& law, const std::string& x, const std::string& y) {
  std::ostringstream s;
  s.precision(6);
  s << y << " = " << law.c[0];
  for (int k = 1; k <= kMaxCouplingOrder; ++k) {
    if (law.c[k] == 0) continue;
    s << (law.c[k] < 0 ? " - " : " + ") << std::fabs(law.c[k]) << " " << x;
    if (k > 1) s << "^" << k;
  }
  return s.str();
}

}  // namespace mjhand
