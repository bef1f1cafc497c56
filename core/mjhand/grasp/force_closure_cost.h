// The force-closure cost V of Gabiccini, Bicchi, Prattichizzo & Malvezzi, "On the role of hand synergies in the
// optimal choice of grasping forces", Autonomous Robots 31:235-252, 2011 (SynGrasp 2.2 SGVcost), and the synergy
// activation / internal-force coefficients y that minimise it for lambda = -G^# w + E y.
#pragma once

#include <Eigen/Core>
#include <vector>

#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/util/nelder_mead.h>

namespace mjhand {

// Parameters of V (SGVcost's arguments besides the contacts; each contact's own mu is used).
struct VcostParams {
  double fmin = 1.0;   // minimum normal force [N]: constraint sigma_1 = fmin - f_n < 0
  double fmax = 30.0;  // maximum force MAGNITUDE [N] (SynGrasp bounds |lambda_i|, not f_n): sigma_2 = |lambda_i| - fmax
  double k = 0.01;     // barrier switch point [N] (SynGrasp suggests 0.01), > 0
};

// The barrier of one constraint value sigma (Gabiccini et al. 2011, SGVcost): 1 / (2 sigma^2) for sigma < -k, else
// the quadratic a sigma^2 + b sigma + c with a = 3/(2k^4), b = 4/k^3, c = 3/k^2 that continues it with matching value
// and slope at -k. Positive, increasing and convex in sigma; equals c = 3/k^2 at sigma = 0.
double vcost_barrier(double sigma, double k);

// Force-closure cost V = sum over contacts i and constraints j of vcost_barrier(sigma_ij), with (f_n, |lambda_i|)
// of contact i's force components: sigma_i1 = fmin - f_n, sigma_i2 = |lambda_i| - fmax,
// sigma_i3 = |lambda_i| / sqrt(1 + mu_i^2) - f_n (outside the Coulomb cone when > 0). Contacts must be hard finger or
// frictionless point (SGVcost: "suitable only for Hard Finger Contact model"); a frictionless point has sigma_i1 and
// sigma_i2 only (no tangential force; SGVcost_PGR's sliding contact). Other models, a lambda of the wrong length,
// non-finite input or k <= 0 throw std::invalid_argument naming what is wrong.
// Threshold: V < vcost_feasible_threshold(params) = 3/k^2 implies every sigma_ij < 0, i.e. every contact force is
// strictly inside its friction cone with fmin < f_n and |lambda_i| < fmax (each term is positive and increasing).
double force_closure_cost(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                          const VcostParams& params);

// 3 / k^2: below it V certifies that every constraint holds strictly (see force_closure_cost).
inline double vcost_feasible_threshold(const VcostParams& params) { return 3.0 / (params.k * params.k); }

// Largest constraint value max_ij sigma_ij (< 0: every constraint satisfied), same rules as force_closure_cost.
double max_vcost_constraint(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                            const VcostParams& params);

// The contact forces of SGVcost: lambda = -Gp w + E y (Gp: m x 6 right inverse of G, e.g. pseudo_inverse(G) or the
// stiffness-weighted K G^T (G K G^T)^-1; E: m x n_e controllable internal-force basis; y: n_e coefficients).
Eigen::VectorXd vcost_forces(const Eigen::Ref<const Eigen::MatrixXd>& Gp, const Wrench& w,
                             const Eigen::Ref<const Eigen::MatrixXd>& E, const Eigen::Ref<const Eigen::VectorXd>& y);

// K-weighted right inverse of G: Gp = K G^T (G K G^T)^-1 (Prattichizzo, Malvezzi & Bicchi RSS 2010; SynGrasp
// SGquasistaticMaps' pinvGk). K symmetric positive definite m x m. Throws std::invalid_argument for mismatched sizes
// and std::runtime_error when G K G^T is singular (rank G < 6: the contacts do not constrain the object).
Eigen::MatrixXd stiffness_weighted_pseudo_inverse(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                                  const Eigen::Ref<const Eigen::MatrixXd>& K);

struct VcostOptimum {
  Eigen::VectorXd y;        // minimising coefficients
  Eigen::VectorXd lambda;   // -Gp w + E y
  double cost = 0.0;        // V at y
  double max_sigma = 0.0;   // max_ij sigma_ij at y (< 0: all constraints hold)
  int evaluations = 0;      // cost evaluations used
  bool converged = false;   // Nelder-Mead met its tolerances (else the evaluation cap stopped it)
};

// min over y of V(-Gp w + E y) by Nelder-Mead from y0 (SynGrasp: fminsearch(@(y) SGVcost(...), y0)). V is convex in
// y (a non-decreasing convex barrier of convex sigma_ij, themselves of an affine lambda), so a local minimum is
// global. y0 empty: zeros. E with no columns: V at y = [] is returned without optimising. Sizes checked
// (std::invalid_argument): Gp m x 6 with m = total_rows(contacts), E m x n_e, y0 n_e.
VcostOptimum minimize_force_closure_cost(const std::vector<Contact>& contacts,
                                         const Eigen::Ref<const Eigen::MatrixXd>& Gp, const Wrench& w,
                                         const Eigen::Ref<const Eigen::MatrixXd>& E, const VcostParams& params,
                                         const Eigen::VectorXd& y0 = Eigen::VectorXd(),
                                         const NelderMeadOptions& options = {});

}  // namespace mjhand
