#include <mjhand/grasp/quasistatic.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include <mjhand/util/size_check.h>

namespace mjhand {

namespace {

// Right singular vectors of A: the first `rank` span the row space, the rest the null space. Rank by
// sigma > tol * max(1, |A|) (tol < 0: 1e-10), the rule of controllable_internal_force_basis.
int svd_rank(const Eigen::JacobiSVD<Eigen::MatrixXd>& svd, double scale, double tol) {
  const double rel = tol < 0 ? 1e-10 : tol;
  int r = 0;
  for (Eigen::Index k = 0; k < svd.singularValues().size(); ++k) r += svd.singularValues()(k) > rel * scale ? 1 : 0;
  return r;
}

}  // namespace

QuasistaticMaps quasistatic_maps(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                 const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                 const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::MatrixXd>& Kz) {
  const char* fn = "quasistatic_maps";
  const Eigen::Index m = JH.rows(), n = JH.cols(), d = G.rows();
  require_size(fn, "G", G, d, m, "d x m with m = rows of JH");
  if (d == 0 || m == 0) throw std::invalid_argument("quasistatic_maps: G and JH must not be empty (no contacts)");
  if (!G.allFinite()) throw std::invalid_argument("quasistatic_maps: G has non-finite entries");
  QuasistaticMaps o;
  o.K = equivalent_contact_stiffness(JH, Kc, Kq, S, Kz);  // checks JH, Kc, Kq, S, Kz
  o.S = S.size() != 0 ? Eigen::MatrixXd(S) : Eigen::MatrixXd::Identity(n, n);
  const Eigen::Index nz = o.S.cols();
  o.KO = G * o.K * G.transpose();
  o.KO = 0.5 * (o.KO + o.KO.transpose());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(o.KO, Eigen::EigenvaluesOnly);
  const double lo = eig.eigenvalues()(0), hi = eig.eigenvalues()(d - 1);
  if (!(hi > 0 && lo > 1e-12 * hi)) {
    std::ostringstream s;
    s << "quasistatic_maps: the grasp stiffness G K G^T is singular (eigenvalues from " << lo << " to " << hi
      << "): the contacts do not restrain every object motion in G's " << d << " rows";
    throw std::invalid_argument(s.str());
  }
  const Eigen::LLT<Eigen::MatrixXd> KO_llt(o.KO);
  const Eigen::MatrixXd JS = JH * o.S;
  const Eigen::MatrixXd KGt = o.K * G.transpose();  // m x d

  // Object: du = K_O^-1 (dw + G K J S dz_r).
  o.Vw = KO_llt.solve(Eigen::MatrixXd::Identity(d, d));
  o.V = KO_llt.solve(KGt.transpose() * JS);
  // Contacts: dlambda = K (J S dz_r - G^T du).
  o.P = o.K * JS - KGt * o.V;
  o.Pw = -KGt * o.Vw;
  // Torques and synergies: dtau = J^T dlambda; dz = dz_r - K_z^-1 S^T dtau (dz = dz_r for rigid synergies).
  o.T = JH.transpose() * o.P;
  o.Tw = JH.transpose() * o.Pw;
  o.Z = Eigen::MatrixXd::Identity(nz, nz);
  o.Zw = Eigen::MatrixXd::Zero(nz, d);
  if (Kz.size() != 0) {
    const Eigen::LLT<Eigen::MatrixXd> Kz_llt(Kz);
    o.Z -= Kz_llt.solve(o.S.transpose() * o.T);
    o.Zw = -Kz_llt.solve(o.S.transpose() * o.Tw);
  }
  // Joints: dq = S dz - K_q^-1 dtau.
  o.Q = o.S * o.Z;
  o.Qw = o.S * o.Zw;
  if (Kq.size() != 0) {
    const Eigen::LLT<Eigen::MatrixXd> Kq_llt(Kq);
    o.Q -= Kq_llt.solve(o.T);
    o.Qw -= Kq_llt.solve(o.Tw);
  }
  return o;
}

QuasistaticSolution quasistatic_solution(const QuasistaticMaps& maps, const Eigen::Ref<const Eigen::VectorXd>& dw,
                                         const Eigen::Ref<const Eigen::VectorXd>& dz_r) {
  const char* fn = "quasistatic_solution";
  QuasistaticSolution s;
  s.du = Eigen::VectorXd::Zero(maps.V.rows());
  s.dlambda = Eigen::VectorXd::Zero(maps.P.rows());
  s.dq = Eigen::VectorXd::Zero(maps.Q.rows());
  s.dz = Eigen::VectorXd::Zero(maps.Z.rows());
  s.dtau = Eigen::VectorXd::Zero(maps.T.rows());
  if (dw.size() != 0) {
    require_length(fn, "dw", dw.size(), maps.Vw.cols(), "rows of G; or empty for no wrench");
    s.du += maps.Vw * dw;
    s.dlambda += maps.Pw * dw;
    s.dq += maps.Qw * dw;
    s.dz += maps.Zw * dw;
    s.dtau += maps.Tw * dw;
  }
  if (dz_r.size() != 0) {
    require_length(fn, "dz_r", dz_r.size(), maps.V.cols(), "columns of S; or empty for no reference change");
    s.du += maps.V * dz_r;
    s.dlambda += maps.P * dz_r;
    s.dq += maps.Q * dz_r;
    s.dz += maps.Z * dz_r;
    s.dtau += maps.T * dz_r;
  }
  return s;
}

Eigen::VectorXd contact_margins(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda0,
                                const Eigen::Ref<const Eigen::VectorXd>& dlambda) {
  const int m = total_rows(contacts);
  require_length("contact_margins", "lambda0", lambda0.size(), m, "total_rows(contacts)");
  require_length("contact_margins", "dlambda", dlambda.size(), m, "total_rows(contacts)");
  const Eigen::VectorXd lambda = lambda0 + dlambda;
  Eigen::VectorXd margin(static_cast<Eigen::Index>(contacts.size()));
  int row = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    margin(static_cast<Eigen::Index>(i)) = friction_cone_margin(contacts[i], lambda.data() + row);
    row += contact_rows(contacts[i].model);
  }
  return margin;
}

std::vector<int> sliding_contacts(const std::vector<Contact>& contacts, const Eigen::Ref<const Eigen::VectorXd>& lambda0,
                                  const Eigen::Ref<const Eigen::VectorXd>& dlambda, double tol) {
  const Eigen::VectorXd margin = contact_margins(contacts, lambda0, dlambda);
  std::vector<int> out;
  for (Eigen::Index i = 0; i < margin.size(); ++i) {
    if (!(margin(i) >= -tol)) out.push_back(static_cast<int>(i));  // NaN counts as sliding
  }
  return out;
}

Eigen::MatrixXd controllable_internal_forces(const QuasistaticMaps& maps, double tol) {
  const Eigen::Index m = maps.P.rows();
  if (maps.P.cols() == 0) return Eigen::MatrixXd(m, 0);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(maps.P, Eigen::ComputeFullU);
  // P has units of force per synergy unit: scale by |P| (at least 1) so round-off of K G^T ... does not count.
  const int r = svd_rank(svd, std::max(1.0, maps.P.norm()), tol);
  return svd.matrixU().leftCols(r);
}

RigidBodyMotions synergy_rigid_body_motions(const QuasistaticMaps& maps, double tol) {
  const Eigen::Index nz = maps.P.cols();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(maps.P, Eigen::ComputeFullV);
  const int r = svd_rank(svd, std::max(1.0, maps.P.norm()), tol);
  RigidBodyMotions o;
  o.dz = svd.matrixV().rightCols(nz - r);
  o.du = maps.V * o.dz;
  o.dq = maps.Q * o.dz;
  return o;
}

RigidBodyMotions rigid_body_motions(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                    double tol) {
  const Eigen::Index m = JH.rows(), n = JH.cols(), d = G.rows();
  require_size("rigid_body_motions", "G", G, d, m, "d x m with m = rows of JH");
  Eigen::MatrixXd A(m, n + d);
  A << JH, -G.transpose();
  RigidBodyMotions o;
  o.dz = Eigen::MatrixXd(0, 0);
  if (A.cols() == 0) return o;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullV);
  const int r = svd_rank(svd, std::max(1.0, A.norm()), tol);
  const Eigen::MatrixXd N = svd.matrixV().rightCols(n + d - r);
  o.dq = N.topRows(n);
  o.du = N.bottomRows(d);
  return o;
}

}  // namespace mjhand
