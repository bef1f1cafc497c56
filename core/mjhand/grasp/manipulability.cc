#include <mjhand/grasp/manipulability.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

namespace {

// Singular values below kRankTol * sigma_max count as zero when a subspace (range, null space) is extracted: well
// above the ~1e-15 round-off of an SVD, well below any physical ratio of a hand (link lengths 1e-3..1 m).
constexpr double kRankTol = 1e-10;

std::string size_of(const Eigen::Ref<const Eigen::MatrixXd>& A) {
  return std::to_string(A.rows()) + " x " + std::to_string(A.cols());
}

void check_inputs(const char* who, const Eigen::Ref<const Eigen::MatrixXd>& G,
                  const Eigen::Ref<const Eigen::MatrixXd>& JH, const Eigen::Ref<const Eigen::MatrixXd>& S) {
  const std::string w = std::string(who) + ": ";
  if (G.rows() != 6 || G.cols() == 0) {
    throw std::invalid_argument(w + "G must be 6 x m with m >= 1 contact-force components, got " + size_of(G));
  }
  if (JH.rows() != G.cols() || JH.cols() == 0) {
    throw std::invalid_argument(w + "J_H must be m x n_hand with m = G.cols() = " + std::to_string(G.cols()) +
                                " and n_hand >= 1, got " + size_of(JH));
  }
  if (S.rows() != JH.cols() || S.cols() == 0) {
    throw std::invalid_argument(w + "S must be n_hand x n_z with n_hand = J_H.cols() = " + std::to_string(JH.cols()) +
                                " and n_z >= 1 (identity: no synergies), got " + size_of(S));
  }
  if (!G.allFinite()) throw std::invalid_argument(w + "G has a NaN or infinite entry");
  if (!JH.allFinite()) throw std::invalid_argument(w + "J_H has a NaN or infinite entry");
  if (!S.allFinite()) throw std::invalid_argument(w + "S has a NaN or infinite entry");
}

int rank_of(const Eigen::VectorXd& sv) {
  if (sv.size() == 0 || !(sv(0) > 0)) return 0;
  int r = 0;
  while (r < sv.size() && sv(r) > kRankTol * sv(0)) ++r;
  return r;
}

// The ellipsoid {Y xi : |X xi| <= 1} of a linear relation between inputs X xi and outputs Y xi, for X (p x r) and
// Y (d x r) whose stacked columns [X; Y] have norm <= 1 (orthonormal bases, possibly projected), so that absolute
// thresholds are meaningful. Finite semi-axes below kRankTol * max(scale, largest, 1) are zero (scale: the largest
// finite semi-axis of the full 6-D ellipsoid, so that a block's round-off, e.g. the ~1e-17 rotation of a pure
// translation, is not an axis). Directions xi with X xi = 0 and Y xi != 0 make the ellipsoid unbounded along Y xi;
// in the quotient by those directions it is the image of the unit ball under Y X^+ restricted to range(X^T).
Ellipsoid relation_ellipsoid(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, double scale) {
  const int d = static_cast<int>(Y.rows());
  const int r = static_cast<int>(Y.cols());
  Ellipsoid e;
  e.semi_axes = Eigen::VectorXd::Zero(d);
  e.directions = Eigen::MatrixXd::Identity(d, d);
  if (r == 0) return e;
  // Inputs of norm below kRankTol per unit relation vector are no input: semi-axes above 1e10 are reported infinite.
  Eigen::JacobiSVD<Eigen::MatrixXd> sx(X, Eigen::ComputeFullV);
  int rx = 0;
  while (rx < sx.singularValues().size() && sx.singularValues()(rx) > kRankTol) ++rx;
  const Eigen::MatrixXd V0 = sx.matrixV().rightCols(r - rx);
  Eigen::MatrixXd W(d, 0);  // unbounded output directions (orthonormal)
  if (V0.cols() > 0) {
    Eigen::JacobiSVD<Eigen::MatrixXd> sw(Y * V0, Eigen::ComputeThinU);
    int u = 0;
    while (u < sw.singularValues().size() && sw.singularValues()(u) > kRankTol) ++u;
    W = sw.matrixU().leftCols(u);
  }
  Eigen::MatrixXd T = Y * sx.matrixV().leftCols(rx) * sx.singularValues().head(rx).cwiseInverse().asDiagonal();
  T -= W * (W.transpose() * T);  // quotient by the unbounded directions
  Eigen::VectorXd sv(0);
  Eigen::MatrixXd UT(d, 0);
  if (rx > 0) {  // Eigen's SVD of a d x 0 matrix is not defined
    Eigen::JacobiSVD<Eigen::MatrixXd> st(T, Eigen::ComputeFullU);
    sv = st.singularValues();
    UT = st.matrixU();
  }
  // The relation's vectors have norm <= 1, so its round-off is ~eps in absolute terms: the floor 1 keeps a hand
  // that moves nothing (J_H = 0) from showing ~1e-17 axes.
  const double ref = std::max({scale, sv.size() > 0 ? sv(0) : 0.0, 1.0});
  int rt = 0;
  while (rt < sv.size() && sv(rt) > kRankTol * ref) ++rt;
  const int u = static_cast<int>(W.cols());
  Eigen::MatrixXd B(d, u + rt);
  B << W, UT.leftCols(rt);
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(B);
  const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(d, d);
  e.directions << B, Q.rightCols(d - u - rt);
  for (int i = 0; i < u; ++i) e.semi_axes(i) = std::numeric_limits<double>::infinity();
  for (int i = 0; i < rt; ++i) e.semi_axes(u + i) = sv(i);
  e.unbounded = u;
  e.finite_rank = rt;
  return e;
}

ManipulabilityEllipsoid from_relation(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) {
  ManipulabilityEllipsoid out;
  out.full = relation_ellipsoid(X, Y, 0.0);
  const double scale = out.full.finite_rank > 0 ? out.full.semi_axes(out.full.unbounded) : 0.0;
  // Y without columns has no storage: a row block of it would offset a null pointer (UBSan), so pass empty parts.
  const bool none = Y.cols() == 0;
  out.linear = relation_ellipsoid(X, none ? Eigen::MatrixXd(3, 0) : Eigen::MatrixXd(Y.topRows(3)), scale);
  out.angular = relation_ellipsoid(X, none ? Eigen::MatrixXd(3, 0) : Eigen::MatrixXd(Y.bottomRows(3)), scale);
  return out;
}

}  // namespace

ManipulabilityEllipsoid kinematic_manipulability(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                                 const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                                 const Eigen::Ref<const Eigen::MatrixXd>& S) {
  check_inputs("kinematic_manipulability", G, JH, S);
  const int m = static_cast<int>(G.cols()), nz = static_cast<int>(S.cols());
  // Rigid-body motions (SynGrasp's Gamma_rb: no contact-force change, hence no compliance term): the pairs (dz, du)
  // with J_H S dz - G^T du = 0, an orthonormal basis N = [N_z; N_u] of null([J_H S, -G^T]).
  Eigen::MatrixXd C(m, nz + 6);
  C << JH * S, -G.transpose();
  Eigen::JacobiSVD<Eigen::MatrixXd> sc(C, Eigen::ComputeFullV);
  const int rc = rank_of(sc.singularValues());
  const Eigen::MatrixXd N = sc.matrixV().rightCols(nz + 6 - rc);
  // Motions in null(G^T) move no contact point: the contacts do not determine them. Keep the part of du in range(G),
  // which the inputs impose; P_G = U_1 U_1^T from G's SVD.
  Eigen::JacobiSVD<Eigen::MatrixXd> sg(G, Eigen::ComputeFullU);
  const int rg = rank_of(sg.singularValues());
  const Eigen::MatrixXd U1 = sg.matrixU().leftCols(rg);
  // No rigid-body motion at all: N has no column (and no storage; a block of it would offset a null pointer).
  const Eigen::MatrixXd Nu =
      N.cols() == 0 ? Eigen::MatrixXd(6, 0) : Eigen::MatrixXd(U1 * (U1.transpose() * N.bottomRows(6)));
  ManipulabilityEllipsoid out = from_relation(N.topRows(nz), Nu);
  out.inputs = nz;
  out.compatible_inputs = N.cols() == 0 ? 0 : rank_of(Eigen::JacobiSVD<Eigen::MatrixXd>(N.topRows(nz)).singularValues());
  out.indeterminate = 6 - rg;
  return out;
}

ManipulabilityEllipsoid force_manipulability(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                             const Eigen::Ref<const Eigen::MatrixXd>& JH,
                                             const Eigen::Ref<const Eigen::MatrixXd>& S) {
  check_inputs("force_manipulability", G, JH, S);
  const int nz = static_cast<int>(S.cols());
  // Statics: sigma = S^T J_H^T lambda, w = G lambda. The pairs (sigma, w) form range([S^T J_H^T; G]); an orthonormal
  // basis Q = [Q_sigma; Q_w] of it carries every lambda, so min |sigma| over the lambdas giving w is built in.
  Eigen::MatrixXd R(nz + 6, G.cols());
  R << S.transpose() * JH.transpose(), G;
  Eigen::JacobiSVD<Eigen::MatrixXd> sr(R, Eigen::ComputeThinU);
  const int rr = rank_of(sr.singularValues());
  const Eigen::MatrixXd Q = sr.matrixU().leftCols(rr);
  ManipulabilityEllipsoid out = from_relation(Q.topRows(nz), Q.bottomRows(6));
  out.inputs = nz;
  out.compatible_inputs = rr;
  out.indeterminate = 6 - rank_of(Eigen::JacobiSVD<Eigen::MatrixXd>(G).singularValues());
  return out;
}

ManipulabilityEllipsoid compliant_force_manipulability(const QuasistaticMaps& maps) {
  const char* fn = "compliant_force_manipulability: ";
  const Eigen::Index nz = maps.S.cols();
  if (maps.Vw.rows() != 6 || maps.Tw.cols() != 6) {
    throw std::invalid_argument(std::string(fn) + "the maps must have 6 object rows (a free object), got " +
                                std::to_string(maps.Vw.rows()));
  }
  if (maps.T.rows() != maps.S.rows() || maps.T.cols() != nz || nz == 0) {
    throw std::invalid_argument(std::string(fn) + "maps.T must be n x n_z with S n x n_z and n_z >= 1, got T " +
                                size_of(maps.T) + " and S " + size_of(maps.S));
  }
  // SynGrasp's kernel columns are the solutions for inputs (dw, dz_r): w = dw, sigma = S^T (Tw dw + T dz_r). The
  // pairs (sigma, w) span range([S^T Tw, S^T T; I, 0]); the dz_r block is replaced by an orthonormal basis of
  // range(S^T T) (same span, no column scaling: T is in N per input unit, Tw dimensionless).
  const Eigen::MatrixXd STw = maps.S.transpose() * maps.Tw;
  const Eigen::MatrixXd STT = maps.S.transpose() * maps.T;
  Eigen::JacobiSVD<Eigen::MatrixXd> st(STT, Eigen::ComputeThinU);
  const int rt = rank_of(st.singularValues());
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(nz + 6, 6 + rt);
  R.topLeftCorner(nz, 6) = STw;
  R.bottomLeftCorner(6, 6).setIdentity();
  R.topRightCorner(nz, rt) = st.matrixU().leftCols(rt);
  Eigen::JacobiSVD<Eigen::MatrixXd> sr(R, Eigen::ComputeThinU);
  const int rr = rank_of(sr.singularValues());
  const Eigen::MatrixXd Q = sr.matrixU().leftCols(rr);
  ManipulabilityEllipsoid out = from_relation(Q.topRows(nz), Q.bottomRows(6));
  out.inputs = static_cast<int>(nz);
  out.compatible_inputs = rr;
  out.indeterminate = 0;  // the maps exist only when G K G^T is invertible: G has rank 6
  return out;
}

}  // namespace mjhand
