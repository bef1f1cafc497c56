#include <mjhand/grasp/force_closure_cost.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

void check_params(const char* fn, const VcostParams& p) {
  if (!(p.k > 0) || !std::isfinite(p.k) || !std::isfinite(p.fmin) || !std::isfinite(p.fmax)) {
    throw std::invalid_argument(std::string(fn) + ": need a finite barrier k > 0 and finite fmin, fmax (got k = " +
                                std::to_string(p.k) + ", fmin = " + std::to_string(p.fmin) + ", fmax = " +
                                std::to_string(p.fmax) + ")");
  }
}

void check_contacts(const char* fn, const std::vector<Contact>& contacts) {
  for (size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (c.model != ContactModel::kHardFinger && c.model != ContactModel::kFrictionlessPoint) {
      throw std::invalid_argument(std::string(fn) + ": contact " + std::to_string(i) + " is a " + to_string(c.model) +
                                  " contact; the force-closure cost (Gabiccini et al. 2011, SGVcost) is defined for "
                                  "hard-finger (and frictionless point) contacts only");
    }
    if (!(c.mu >= 0) || !std::isfinite(c.mu)) {
      throw std::invalid_argument(std::string(fn) + ": contact " + std::to_string(i) + " has friction mu = " +
                                  std::to_string(c.mu) + " (need finite mu >= 0)");
    }
  }
}

// The constraint values of one contact force: 3 for a hard finger, 2 (fmin, fmax) for a frictionless point, which
// has no tangential force to bound (SynGrasp's SGVcost_PGR treats a sliding contact the same way). Returns the count.
int constraints(const Contact& c, const double* l, const VcostParams& p, double sigma[3]) {
  const double fn = l[0];
  const bool point = c.model == ContactModel::kFrictionlessPoint;
  const double mag = point ? std::abs(fn) : std::sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
  sigma[0] = p.fmin - fn;
  sigma[1] = mag - p.fmax;
  if (point) return 2;
  sigma[2] = mag / std::sqrt(1.0 + c.mu * c.mu) - fn;
  return 3;
}

}  // namespace

double vcost_barrier(double sigma, double k) {
  if (sigma < -k) return 1.0 / (2.0 * sigma * sigma);
  const double a = 3.0 / (2.0 * k * k * k * k), b = 4.0 / (k * k * k), c = 3.0 / (k * k);
  return (a * sigma + b) * sigma + c;
}

double force_closure_cost(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                          const VcostParams& params) {
  check_params("force_closure_cost", params);
  check_contacts("force_closure_cost", contacts);
  require_length("force_closure_cost", "lambda", lambda.size(), total_rows(contacts), "total_rows(contacts)");
  if (!lambda.allFinite()) throw std::invalid_argument("force_closure_cost: lambda has NaN/inf entries");
  double V = 0.0;
  int row = 0;
  for (const Contact& c : contacts) {
    double s[3];
    const int n = constraints(c, lambda.data() + row, params, s);
    for (int j = 0; j < n; ++j) V += vcost_barrier(s[j], params.k);
    row += contact_rows(c.model);
  }
  return V;
}

double max_vcost_constraint(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                            const VcostParams& params) {
  check_params("max_vcost_constraint", params);
  check_contacts("max_vcost_constraint", contacts);
  require_length("max_vcost_constraint", "lambda", lambda.size(), total_rows(contacts), "total_rows(contacts)");
  double worst = -std::numeric_limits<double>::infinity();
  int row = 0;
  for (const Contact& c : contacts) {
    double s[3];
    const int n = constraints(c, lambda.data() + row, params, s);
    for (int j = 0; j < n; ++j) worst = std::max(worst, s[j]);
    row += contact_rows(c.model);
  }
  return worst;
}

Eigen::VectorXd vcost_forces(const Eigen::Ref<const Eigen::MatrixXd>& Gp, const Wrench& w,
                             const Eigen::Ref<const Eigen::MatrixXd>& E, const Eigen::Ref<const Eigen::VectorXd>& y) {
  require_size("vcost_forces", "Gp", Gp, Gp.rows(), 6, "m x 6");
  require_size("vcost_forces", "E", E, Gp.rows(), E.cols(), "rows of Gp x n_e");
  require_length("vcost_forces", "y", y.size(), E.cols(), "columns of E");
  return E * y - Gp * w;
}

Eigen::MatrixXd stiffness_weighted_pseudo_inverse(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                                  const Eigen::Ref<const Eigen::MatrixXd>& K) {
  require_size("stiffness_weighted_pseudo_inverse", "G", G, 6, G.cols(), "6 x m");
  require_size("stiffness_weighted_pseudo_inverse", "K", K, G.cols(), G.cols(), "m x m, m = columns of G");
  const Eigen::MatrixXd KGt = K * G.transpose();
  const Eigen::Matrix<double, 6, 6> A = G * KGt;
  Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(A);
  lu.setThreshold(1e-12);
  if (lu.rank() < 6) {
    throw std::runtime_error("stiffness_weighted_pseudo_inverse: G K G^T has rank " + std::to_string(lu.rank()) +
                             " < 6: the contacts do not constrain every object motion");
  }
  return KGt * lu.inverse();
}

VcostOptimum minimize_force_closure_cost(const std::vector<Contact>& contacts,
                                         const Eigen::Ref<const Eigen::MatrixXd>& Gp, const Wrench& w,
                                         const Eigen::Ref<const Eigen::MatrixXd>& E, const VcostParams& params,
                                         const Eigen::VectorXd& y0, const NelderMeadOptions& options) {
  check_params("minimize_force_closure_cost", params);
  check_contacts("minimize_force_closure_cost", contacts);
  const int m = total_rows(contacts);
  require_size("minimize_force_closure_cost", "Gp", Gp, m, 6, "total_rows(contacts) x 6");
  require_size("minimize_force_closure_cost", "E", E, m, E.cols(), "total_rows(contacts) x n_e");
  if (!Gp.allFinite() || !E.allFinite() || !w.allFinite()) {
    throw std::invalid_argument("minimize_force_closure_cost: Gp, E or w has NaN/inf entries");
  }
  const Eigen::VectorXd start = y0.size() == 0 ? Eigen::VectorXd::Zero(E.cols()) : y0;
  require_length("minimize_force_closure_cost", "y0", start.size(), E.cols(), "columns of E");
  const Eigen::VectorXd base = -Gp * w;
  VcostOptimum out;
  if (E.cols() == 0) {
    out.lambda = base;
    out.evaluations = 1;
    out.converged = true;
  } else {
    Eigen::VectorXd lambda(m);
    auto f = [&](const Eigen::VectorXd& y) {
      lambda.noalias() = base + E * y;
      return force_closure_cost(contacts, lambda, params);
    };
    const NelderMeadResult r = nelder_mead(f, start, options);
    out.y = r.x;
    out.lambda = base + E * r.x;
    out.evaluations = r.evaluations;
    out.converged = r.converged;
  }
  out.cost = force_closure_cost(contacts, out.lambda, params);
  out.max_sigma = max_vcost_constraint(contacts, out.lambda, params);
  return out;
}

}  // namespace mjhand
