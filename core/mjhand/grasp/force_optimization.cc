#include <mjhand/grasp/force_optimization.h>

#include <glpk.h>

#include <cmath>
#include <algorithm>
#include <limits>
#include <memory>
#include <string>

namespace mjhand {

const char* to_string(ForceStatus s) {
  switch (s) {
    case ForceStatus::kOptimal: return "optimal";
    case ForceStatus::kInfeasible: return "infeasible: no contact forces inside the friction cones balance the wrench";
    case ForceStatus::kUnbounded: return "unbounded";
    case ForceStatus::kInvalidInput: return "invalid input";
    case ForceStatus::kSolverError: return "solver error";
  }
  return "?";
}

namespace {
struct LpDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

ForceDistribution fail(ForceStatus s, int m, const std::string& why) {
  ForceDistribution r;
  r.status = s;
  r.lambda = Eigen::VectorXd::Zero(m);
  r.message = why;
  return r;
}
}  // namespace

ForceDistribution optimal_forces(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::MatrixXd>& G,
                                 const Wrench& W, const ForceOptimizationOptions& opt) {
  const int m = total_rows(contacts);
  // GLPK aborts the process on bad input, so everything it could object to is checked here first.
  if (G.rows() != 6 || G.cols() != m) return fail(ForceStatus::kInvalidInput, m, "G must be 6 x total_rows(contacts)");
  if (!G.allFinite() || !W.allFinite()) return fail(ForceStatus::kInvalidInput, m, "G or W has NaN/inf entries");
  if (const std::string problem = cone_edges_problem(opt.cone_edges); !problem.empty()) {
    return fail(ForceStatus::kInvalidInput, m, problem);
  }
  if (!(opt.min_normal_force >= 0) || !std::isfinite(opt.min_normal_force) || !(opt.max_normal_force >= opt.min_normal_force)) {
    return fail(ForceStatus::kInvalidInput, m, "need 0 <= min_normal_force <= max_normal_force, finite minimum");
  }
  for (const Contact& c : contacts) {
    if (!(c.mu >= 0) || !(c.mu_torsion >= 0) || !std::isfinite(c.mu) || !std::isfinite(c.mu_torsion)) {
      return fail(ForceStatus::kInvalidInput, m, "friction coefficients must be finite and >= 0");
    }
  }
  if (m == 0) {
    if (W.norm() <= 1e-12) {
      ForceDistribution r;
      r.status = ForceStatus::kOptimal;
      return r;
    }
    return fail(ForceStatus::kInfeasible, 0, "no contacts, but a non-zero wrench must be balanced");
  }

  std::unique_ptr<glp_prob, LpDeleter> lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  glp_add_cols(lp.get(), m);
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  auto add = [&](int row, int col, double v) {
    if (v == 0.0) return;
    ia.push_back(row);
    ja.push_back(col + 1);
    ar.push_back(v);
  };
  // Rows 1-6: G lambda = -W. Round-off entries of G (~1e-18 where an exact 0 belongs, e.g. from rotating a
  // contact frame) are dropped: GLPK's automatic scaling equilibrates rows and columns by their extreme entries,
  // and such entries made it report force-closure grasps as infeasible or unbounded.
  const double drop = 1e-12 * G.cwiseAbs().maxCoeff();
  glp_add_rows(lp.get(), 6);
  for (int r = 0; r < 6; ++r) {
    glp_set_row_bnds(lp.get(), r + 1, GLP_FX, -W(r), -W(r));
    for (int c = 0; c < m; ++c) add(r + 1, c, std::abs(G(r, c)) > drop ? G(r, c) : 0.0);
  }
  const double cos_half = std::cos(M_PI / opt.cone_edges);
  int col = 0;
  for (const Contact& c : contacts) {
    const int n = col;
    if (std::isfinite(opt.max_normal_force)) {
      glp_set_col_bnds(lp.get(), n + 1, opt.max_normal_force > opt.min_normal_force ? GLP_DB : GLP_FX,
                       opt.min_normal_force, opt.max_normal_force);
    } else {
      glp_set_col_bnds(lp.get(), n + 1, GLP_LO, opt.min_normal_force, 0.0);
    }
    glp_set_obj_coef(lp.get(), n + 1, 1.0);
    const int rows = contact_rows(c.model);
    for (int k = 1; k < rows; ++k) glp_set_col_bnds(lp.get(), n + k + 1, GLP_FR, 0.0, 0.0);
    if (rows >= 3) {
      for (int k = 0; k < opt.cone_edges; ++k) {
        const double phi = (2 * k + 1) * M_PI / opt.cone_edges;
        const int row = glp_add_rows(lp.get(), 1);
        glp_set_row_bnds(lp.get(), row, GLP_UP, 0.0, 0.0);
        add(row, n, -c.mu * cos_half);
        add(row, n + 1, std::cos(phi));
        add(row, n + 2, std::sin(phi));
      }
    }
    // Complete constraint (6 rows): its three moments stay free variables, no friction limit (contact_model.h).
    if (c.model == ContactModel::kSoftFinger) {
      for (double s : {1.0, -1.0}) {
        const int row = glp_add_rows(lp.get(), 1);
        glp_set_row_bnds(lp.get(), row, GLP_UP, 0.0, 0.0);
        add(row, n, -c.mu_torsion);
        add(row, n + 3, s);
      }
    }
    col += rows;
  }
  glp_load_matrix(lp.get(), static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  // glp_scale_prob prints even with msg_lev off; silence the terminal only around it.
  const int term = glp_term_out(GLP_OFF);
  glp_scale_prob(lp.get(), GLP_SF_AUTO);
  glp_term_out(term);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;  // with presolve GLPK reports infeasibility as a failed call, without a status
  const int ret = glp_simplex(lp.get(), &parm);
  if (ret != 0) return fail(ForceStatus::kSolverError, m, "GLPK glp_simplex returned code " + std::to_string(ret));
  const int st = glp_get_status(lp.get());
  if (st == GLP_NOFEAS || st == GLP_INFEAS) {
    return fail(ForceStatus::kInfeasible, m, to_string(ForceStatus::kInfeasible));
  }
  if (st == GLP_UNBND) return fail(ForceStatus::kUnbounded, m, "GLPK reports an unbounded problem");
  if (st != GLP_OPT) return fail(ForceStatus::kSolverError, m, "GLPK ended without an optimal basis");

  ForceDistribution r;
  r.status = ForceStatus::kOptimal;
  r.lambda.resize(m);
  for (int c = 0; c < m; ++c) r.lambda(c) = glp_get_col_prim(lp.get(), c + 1);
  r.total_normal_force = glp_get_obj_val(lp.get());
  r.wrench_residual = (G * r.lambda + W).norm();
  r.min_cone_margin = std::numeric_limits<double>::infinity();
  int row = 0;
  for (const Contact& c : contacts) {
    r.min_cone_margin = std::min(r.min_cone_margin, friction_cone_margin(c, r.lambda.data() + row));
    row += contact_rows(c.model);
  }
  return r;
}

}  // namespace mjhand
