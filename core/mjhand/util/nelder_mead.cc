#include <mjhand/util/nelder_mead.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <mjhand/util/numbers.h>

namespace mjhand {

namespace {

double finite_or_inf(double v) { return std::isfinite(v) ? v : kInf; }

}  // namespace

NelderMeadResult nelder_mead(const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x0,
                             const NelderMeadOptions& o) {
  const int n = static_cast<int>(x0.size());
  if (n < 1) throw std::invalid_argument("nelder_mead: x0 is empty (need at least one variable)");
  if (!x0.allFinite()) throw std::invalid_argument("nelder_mead: x0 has NaN/inf entries");
  const int cap = o.max_evaluations > 0 ? o.max_evaluations : 400 * n;
  NelderMeadResult res;
  res.x = x0;
  res.f = finite_or_inf(f(x0));
  res.evaluations = 1;
  auto eval = [&](const Eigen::VectorXd& x) {
    ++res.evaluations;
    return finite_or_inf(f(x));
  };

  std::vector<Eigen::VectorXd> v(n + 1);
  std::vector<double> fv(n + 1);
  std::vector<int> order(n + 1);
  for (int attempt = 0; attempt <= std::max(o.restarts, 0); ++attempt) {
    const double start_f = res.f;
    // Simplex around the best point so far: fminsearch's 5 % rule, initial_step for zero components.
    v[0] = res.x;
    fv[0] = res.f;
    for (int i = 0; i < n; ++i) {
      v[i + 1] = res.x;
      v[i + 1](i) += res.x(i) != 0.0 ? 0.05 * res.x(i) : o.initial_step;
      fv[i + 1] = eval(v[i + 1]);
    }
    bool converged = false;
    while (res.evaluations < cap) {
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](int a, int b) { return fv[a] < fv[b]; });
      const int best = order[0], worst = order[n], second = order[n - 1];
      double spread_x = 0, spread_f = 0;
      for (int i = 0; i <= n; ++i) {
        spread_x = std::max(spread_x, (v[i] - v[best]).cwiseAbs().maxCoeff());
        spread_f = std::max(spread_f, std::abs(fv[i] - fv[best]));
      }
      if (spread_x <= o.x_tol && spread_f <= o.f_tol * std::max(1.0, std::abs(fv[best]))) {
        converged = true;
        break;
      }
      Eigen::VectorXd centroid = Eigen::VectorXd::Zero(n);
      for (int i = 0; i <= n; ++i) {
        if (i != worst) centroid += v[i];
      }
      centroid /= n;
      const Eigen::VectorXd xr = centroid + (centroid - v[worst]);
      const double fr = eval(xr);
      if (fr < fv[best]) {
        const Eigen::VectorXd xe = centroid + 2.0 * (centroid - v[worst]);
        const double fe = eval(xe);
        if (fe < fr) {
          v[worst] = xe;
          fv[worst] = fe;
        } else {
          v[worst] = xr;
          fv[worst] = fr;
        }
        continue;
      }
      if (fr < fv[second]) {
        v[worst] = xr;
        fv[worst] = fr;
        continue;
      }
      // Contraction: outside when the reflection beat the worst vertex, inside otherwise.
      const bool outside = fr < fv[worst];
      const Eigen::VectorXd xc = outside ? Eigen::VectorXd(centroid + 0.5 * (xr - centroid))
                                         : Eigen::VectorXd(centroid + 0.5 * (v[worst] - centroid));
      const double fc = eval(xc);
      if (fc < (outside ? fr : fv[worst])) {
        v[worst] = xc;
        fv[worst] = fc;
        continue;
      }
      for (int i = 0; i <= n; ++i) {  // shrink toward the best vertex
        if (i == best) continue;
        v[i] = v[best] + 0.5 * (v[i] - v[best]);
        fv[i] = eval(v[i]);
      }
    }
    const int best = static_cast<int>(std::min_element(fv.begin(), fv.end()) - fv.begin());
    if (fv[best] < res.f) {
      res.x = v[best];
      res.f = fv[best];
    }
    res.converged = converged;
    if (!converged) break;  // evaluation cap
    if (!(res.f < start_f - o.f_tol * std::max(1.0, std::abs(start_f))) && attempt > 0) break;  // restart gained nothing
  }
  return res;
}

}  // namespace mjhand
