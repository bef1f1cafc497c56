#include <mjhand/grasp/actuation.h>

#include <algorithm>
#include <stdexcept>

#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

// Column of each MuJoCo dof among `dofs`, -1 when absent.
std::vector<int> dof_columns(const mjModel* m, const std::vector<int>& dofs, const char* where) {
  std::vector<int> col(m->nv, -1);
  for (size_t k = 0; k < dofs.size(); ++k) {
    if (dofs[k] < 0 || dofs[k] >= m->nv) {
      throw std::invalid_argument(std::string(where) + ": dof " + std::to_string(dofs[k]) + " (entry " +
                                  std::to_string(k) + ") is not a dof of the model (0.." + std::to_string(m->nv - 1) +
                                  ")");
    }
    col[dofs[k]] = static_cast<int>(k);
  }
  return col;
}

// Projector onto null(J) (n x n); the identity when J has no rows.
Eigen::MatrixXd null_projector(const Eigen::MatrixXd& J, int n) {
  if (J.rows() == 0) return Eigen::MatrixXd::Identity(n, n);
  return Eigen::MatrixXd::Identity(n, n) - pseudo_inverse(J) * J;
}

}  // namespace

Eigen::MatrixXd actuator_transmission(const mjModel* m, const mjData* d, const std::vector<int>& dofs) {
  const std::vector<int> col = dof_columns(m, dofs, "actuator_transmission");
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(dofs.size()), m->nout);
  for (int k = 0; k < m->nout; ++k) {
    const int adr = d->moment_rowadr[k];
    for (int i = 0; i < d->moment_rownnz[k]; ++i) {
      const int c = col[d->moment_colind[adr + i]];
      if (c >= 0) A(c, k) = d->actuator_moment[adr + i];
    }
  }
  return A;
}

EqualityRows equality_jacobian(const mjModel* m, const mjData* d, const std::vector<int>& dofs) {
  const std::vector<int> col = dof_columns(m, dofs, "equality_jacobian");
  const bool sparse = mj_isSparse(m);
  EqualityRows out;
  out.J.resize(0, static_cast<Eigen::Index>(dofs.size()));
  if (dofs.empty()) return out;  // no hand dofs: no row can act on them
  std::vector<Eigen::VectorXd> rows;
  Eigen::VectorXd row(dofs.size());
  for (int i = 0; i < d->nefc; ++i) {
    if (d->efc_type[i] != mjCNSTR_EQUALITY) continue;
    row.setZero();
    if (sparse) {
      const int adr = d->efc_J_rowadr[i];
      for (int k = 0; k < d->efc_J_rownnz[i]; ++k) {
        const int c = col[d->efc_J_colind[adr + k]];
        if (c >= 0) row(c) = d->efc_J[adr + k];
      }
    } else {
      for (int v = 0; v < m->nv; ++v) {
        if (col[v] >= 0) row(col[v]) = d->efc_J[static_cast<size_t>(i) * m->nv + v];
      }
    }
    if (row.cwiseAbs().maxCoeff() == 0.0) continue;  // an equality on other bodies (or dofs held fixed)
    rows.push_back(row);
    out.equality.push_back(d->efc_id[i]);
  }
  out.J.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(dofs.size()));
  for (size_t r = 0; r < rows.size(); ++r) out.J.row(static_cast<Eigen::Index>(r)) = rows[r].transpose();
  return out;
}

HandActuation hand_actuation(const mjModel* m, const mjData* d, const std::vector<int>& dofs) {
  HandActuation a;
  const int n = static_cast<int>(dofs.size());
  a.A = actuator_transmission(m, d, dofs);
  EqualityRows eq = equality_jacobian(m, d, dofs);
  a.Jeq = std::move(eq.J);
  a.eq_row_equality = std::move(eq.equality);
  for (int u = 0; u < m->nu; ++u) {
    const char* name = mj_id2name(m, mjOBJ_ACTUATOR, u);
    const std::string base = name && *name ? name : "#" + std::to_string(u);
    const int adr = m->actuator_outadr[u], num = m->actuator_outnum[u];
    for (int k = 0; k < num; ++k) {
      if (static_cast<int>(a.output_names.size()) <= adr + k) a.output_names.resize(adr + k + 1);
      a.output_names[adr + k] = num == 1 ? base : base + "[" + std::to_string(k) + "]";
    }
  }
  a.output_names.resize(m->nout);
  for (int k = 0; k < m->nout; ++k) {
    if (n > 0 && a.A.col(k).cwiseAbs().maxCoeff() > 0.0) a.outputs.push_back(k);
  }
  for (int i = 0; i < d->nefc; ++i) {
    const bool on_hand = std::find(a.eq_row_equality.begin(), a.eq_row_equality.end(), d->efc_id[i]) !=
                         a.eq_row_equality.end();
    if (d->efc_type[i] == mjCNSTR_EQUALITY && on_hand) ++a.constraint_rows;
  }
  a.rank_Jeq = numerical_rank(a.Jeq);
  a.joint_mobility = n - a.rank_Jeq;
  a.actuated = n > 0 ? numerical_rank(null_projector(a.Jeq, n) * a.A) : 0;
  return a;
}

ActuatorStatics actuator_statics(const HandActuation& act, const Eigen::Ref<const Eigen::VectorXd>& tau) {
  const Eigen::Index n = act.A.rows();
  require_length("actuator_statics", "tau", tau.size(), n, "rows of A (hand dofs)");
  ActuatorStatics s;
  const Eigen::MatrixXd P = null_projector(act.Jeq, static_cast<int>(n));
  const Eigen::MatrixXd PA = P * act.A;
  s.f = act.A.cols() ? Eigen::VectorXd(pseudo_inverse(PA) * (P * tau)) : Eigen::VectorXd::Zero(0);
  const Eigen::VectorXd rest = act.A.cols() ? Eigen::VectorXd(tau - act.A * s.f) : Eigen::VectorXd(tau);
  s.mu = act.Jeq.rows() ? Eigen::VectorXd(pseudo_inverse(act.Jeq.transpose()) * rest) : Eigen::VectorXd::Zero(0);
  s.residual = P * rest;
  s.residual_norm = s.residual.norm();
  s.resisted = s.residual_norm <= 1e-9 * (1.0 + tau.norm());
  return s;
}

}  // namespace mjhand
