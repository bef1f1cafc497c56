// Derivative-free minimisation by the Nelder-Mead simplex method (Lagarias, Reeds, Wright & Wright, "Convergence
// properties of the Nelder-Mead simplex method in low dimensions", SIAM J. Optim. 9(1), 1998 -- the variant MATLAB's
// fminsearch implements, which SynGrasp uses for SGVcost), with a fixed evaluation cap and restarts.
#pragma once

#include <Eigen/Core>
#include <functional>

namespace mjhand {

struct NelderMeadOptions {
  int max_evaluations = 0;      // cap on f evaluations over all restarts; <= 0 selects 400 * n (fminsearch: 200 n)
  double x_tol = 1e-8;          // converged when every vertex is within x_tol of the best (max-norm, absolute) ...
  double f_tol = 1e-12;         // ... and every value within f_tol * max(1, |f_best|) of the best
  double initial_step = 1.0;    // edge of the first simplex along axis i: 5 % of |x0_i|, or this when x0_i = 0
  int restarts = 3;             // after convergence, rebuild the simplex around the best point up to this many times
                                // while that still improves f (guards against a collapsed simplex)
};

struct NelderMeadResult {
  Eigen::VectorXd x;      // best point found
  double f = 0.0;         // f(x)
  int evaluations = 0;
  bool converged = false; // the tolerances were met (else the evaluation cap stopped it)
};

// Minimises f from x0 (n >= 1). Coefficients: reflection 1, expansion 2, contraction 1/2, shrink 1/2. Non-finite
// f values are treated as +infinity (the simplex moves away from them). Throws std::invalid_argument for an empty or
// non-finite x0.
NelderMeadResult nelder_mead(const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x0,
                             const NelderMeadOptions& options = {});

}  // namespace mjhand
