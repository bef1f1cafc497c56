#include <mjhand/grasp/quasistatic.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/util/dense_decompositions.h>
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

namespace {

// Compliance K^-1 of a checked stiffness, or a zero n x n matrix for kRigid.
Eigen::MatrixXd compliance_or_zero(const Eigen::Ref<const Eigen::MatrixXd>& K, Eigen::Index n) {
  if (K.size() == 0) return Eigen::MatrixXd::Zero(n, n);
  return K.llt().solve(Eigen::MatrixXd::Identity(n, n));
}

// The maps of a hand J (m x N) with synergy matrix o.S (N x n_z), equivalent contact stiffness o.K and joint and
// synergy compliances Cq (N x N), Cz (n_z x n_z), zero where rigid. G (d x m) may have d = 0 rows: a fixed object
// (du = 0; V, Vw and the per-wrench maps are then empty).
void fill_maps(const char* fn, const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& J,
               const Eigen::MatrixXd& Cq, const Eigen::MatrixXd& Cz, QuasistaticMaps& o) {
  const Eigen::Index d = G.rows(), nz = o.S.cols();
  const Eigen::MatrixXd JS = J * o.S;
  o.KO = G * o.K * G.transpose();
  o.KO = 0.5 * (o.KO + o.KO.transpose());
  if (d > 0) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(o.KO, Eigen::EigenvaluesOnly);
    const double lo = eig.eigenvalues()(0), hi = eig.eigenvalues()(d - 1);
    if (!(hi > 0 && lo > 1e-12 * hi)) {
      std::ostringstream s;
      s << fn << ": the grasp stiffness G K G^T is singular (eigenvalues from " << lo << " to " << hi
        << "): the contacts do not restrain every object motion in G's " << d << " rows";
      throw std::invalid_argument(s.str());
    }
  }
  const Eigen::LLT<Eigen::MatrixXd> KO_llt(o.KO);
  const Eigen::MatrixXd KGt = o.K * G.transpose();  // m x d
  // Object: du = K_O^-1 (dw + G K J S dz_r).
  o.Vw = KO_llt.solve(Eigen::MatrixXd::Identity(d, d));
  o.V = d > 0 ? Eigen::MatrixXd(KO_llt.solve(KGt.transpose() * JS)) : Eigen::MatrixXd(0, nz);
  // Contacts: dlambda = K (J S dz_r - G^T du).
  o.P = o.K * JS - KGt * o.V;
  o.Pw = -KGt * o.Vw;
  // Torques and synergies: dtau = J^T dlambda; dz = dz_r - K_z^-1 S^T dtau (dz = dz_r where rigid).
  o.T = J.transpose() * o.P;
  o.Tw = J.transpose() * o.Pw;
  o.Z = Eigen::MatrixXd::Identity(nz, nz) - Cz * (o.S.transpose() * o.T);
  o.Zw = -Cz * (o.S.transpose() * o.Tw);
  // Joints: dq = S dz - K_q^-1 dtau.
  o.Q = o.S * o.Z - Cq * o.T;
  o.Qw = o.S * o.Zw - Cq * o.Tw;
}

// I_6 appended diagonally: blkdiag(A, I_6).
Eigen::MatrixXd append_identity6(const Eigen::MatrixXd& A) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(A.rows() + 6, A.cols() + 6);
  B.topLeftCorner(A.rows(), A.cols()) = A;
  B.bottomRightCorner(6, 6).setIdentity();
  return B;
}

}  // namespace

Eigen::MatrixXd wrist_contact_stiffness(const char* function, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Jw,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kw,
                                        const Eigen::Ref<const Eigen::MatrixXd>& S,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Kz) {
  require_size(function, "Jw", Jw, JH.rows(), 6, "m x 6 with m = rows of JH (wrist_jacobian)");
  if (!Jw.allFinite()) throw std::invalid_argument(std::string(function) + ": Jw has non-finite entries");
  Eigen::MatrixXd C = contact_compliance(JH, Kc, Kq, S, Kz, function);  // checks JH, Kc, Kq, S, Kz
  if (Kw.size() != 0) require_stiffness(function, "Kw", Kw, 6, "6 x 6 (wrist_stiffness; a fixed wrist: leave it out)");
  C.noalias() += Jw * compliance_or_zero(Kw, 6) * Jw.transpose();
  return invert_contact_compliance(function, C);
}

namespace {

// G must be d x m (m = rows of J_H), non-empty and finite: std::invalid_argument naming `fn` otherwise.
void require_grasp_matrix(const char* fn, const Eigen::Ref<const Eigen::MatrixXd>& G, Eigen::Index m) {
  require_size(fn, "G", G, G.rows(), m, "d x m with m = rows of JH");
  if (G.rows() == 0 || m == 0) throw std::invalid_argument(std::string(fn) + ": G and JH must not be empty (no contacts)");
  if (!G.allFinite()) throw std::invalid_argument(std::string(fn) + ": G has non-finite entries");
}

// The pieces shared by wrist_quasistatic_maps and slide_displacements: checks Jw and Kw, and returns the extended
// hand J_ext = [J_H, J_w] (in J_ext), K of the extended compliance (in o.K) and the extended joint compliance.
Eigen::MatrixXd extend_with_wrist(const char* fn, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                  const Eigen::Ref<const Eigen::MatrixXd>& Jw, const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                  const Eigen::Ref<const Eigen::MatrixXd>& Kq, const Eigen::Ref<const Eigen::MatrixXd>& Kw,
                                  const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::MatrixXd>& Kz,
                                  Eigen::MatrixXd& J_ext, QuasistaticMaps& o) {
  const Eigen::Index m = JH.rows(), n = JH.cols();
  o.K = wrist_contact_stiffness(fn, JH, Jw, Kc, Kq, Kw, S, Kz);
  J_ext.resize(m, n + 6);
  J_ext << JH, Jw;
  Eigen::MatrixXd Cq = Eigen::MatrixXd::Zero(n + 6, n + 6);
  Cq.topLeftCorner(n, n) = compliance_or_zero(Kq, n);
  Cq.bottomRightCorner(6, 6) = compliance_or_zero(Kw, 6);
  return Cq;
}

}  // namespace

QuasistaticMaps quasistatic_maps(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                 const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                 const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::MatrixXd>& Kz) {
  const char* fn = "quasistatic_maps";
  const Eigen::Index n = JH.cols();
  require_grasp_matrix(fn, G, JH.rows());
  QuasistaticMaps o;
  o.K = equivalent_contact_stiffness(JH, Kc, Kq, S, Kz);  // checks JH, Kc, Kq, S, Kz
  o.S = S.size() != 0 ? Eigen::MatrixXd(S) : Eigen::MatrixXd::Identity(n, n);
  fill_maps(fn, G, JH, compliance_or_zero(Kq, n), compliance_or_zero(Kz, o.S.cols()), o);
  return o;
}

QuasistaticMaps wrist_quasistatic_maps(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                       const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Jw,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kc,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kw,
                                       const Eigen::Ref<const Eigen::MatrixXd>& S,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Kz) {
  const char* fn = "wrist_quasistatic_maps";
  const Eigen::Index n = JH.cols();
  require_grasp_matrix(fn, G, JH.rows());
  QuasistaticMaps o;
  Eigen::MatrixXd J_ext;
  const Eigen::MatrixXd Cq = extend_with_wrist(fn, JH, Jw, Kc, Kq, Kw, S, Kz, J_ext, o);
  const Eigen::MatrixXd S0 = S.size() != 0 ? Eigen::MatrixXd(S) : Eigen::MatrixXd::Identity(n, n);
  o.S = append_identity6(S0);
  // The wrist's reference enters directly: zero compliance on its 6 inputs.
  Eigen::MatrixXd Cz = Eigen::MatrixXd::Zero(S0.cols() + 6, S0.cols() + 6);
  Cz.topLeftCorner(S0.cols(), S0.cols()) = compliance_or_zero(Kz, S0.cols());
  fill_maps(fn, G, J_ext, Cq, Cz, o);
  return o;
}

SlideSolution slide_displacements(const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::MatrixXd>& Jw,
                                  const Eigen::Ref<const Eigen::MatrixXd>& Kc, const Eigen::Ref<const Eigen::MatrixXd>& Kq,
                                  const Eigen::Ref<const Eigen::MatrixXd>& Kw, const Eigen::Ref<const Eigen::VectorXd>& dq_r,
                                  const Eigen::Ref<const Eigen::VectorXd>& dx_r) {
  const char* fn = "slide_displacements";
  const Eigen::Index m = JH.rows(), n = JH.cols();
  if (m == 0) throw std::invalid_argument("slide_displacements: JH must not be empty (no contacts)");
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n + 6);
  if (dq_r.size() != 0) {
    require_length(fn, "dq_r", dq_r.size(), n, "columns of JH; or empty for no joint reference change");
    r.head(n) = dq_r;
  }
  if (dx_r.size() != 0) {
    require_length(fn, "dx_r", dx_r.size(), 6, "wrist translation then rotation; or empty for none");
    r.tail(6) = dx_r;
  }
  QuasistaticMaps o;
  Eigen::MatrixXd J_ext;
  const Eigen::MatrixXd Cq = extend_with_wrist(fn, JH, Jw, Kc, Kq, Kw, kNoSynergies, kRigid, J_ext, o);
  o.S = Eigen::MatrixXd::Identity(n + 6, n + 6);
  fill_maps(fn, Eigen::MatrixXd(0, m), J_ext, Cq, Eigen::MatrixXd::Zero(n + 6, n + 6), o);
  const Eigen::VectorXd dq_ext = o.Q * r, tau_ext = o.T * r;
  SlideSolution s;
  s.dq = dq_ext.head(n);
  s.dx_w = dq_ext.tail(6);
  s.dcontact = J_ext * dq_ext;
  s.dlambda = o.P * r;
  s.dtau = tau_ext.head(n);
  s.dwrench = tau_ext.tail(6);
  return s;
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
