#include <mjhand/grasp/force_closure_lp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <mjhand/grasp/wrench_space.h>
#include <mjhand/util/dense_decompositions.h>

namespace mjhand {

const char* to_string(ForceClosureLP::Result r) {
  switch (r) {
    case ForceClosureLP::Result::kClosure: return "force closure";
    case ForceClosureLP::Result::kNotClosure: return "not force closure";
    case ForceClosureLP::Result::kNoContacts: return "no contacts";
    case ForceClosureLP::Result::kRankDeficient: return "primitive wrenches span fewer than 6 dimensions";
    case ForceClosureLP::Result::kSolverLimit: return "simplex iteration limit reached";
    case ForceClosureLP::Result::kTooManyContacts: return "more contacts than the preallocated storage";
  }
  return "?";
}

ForceClosureLP::ForceClosureLP(int max_contacts, int cone_edges) : edges_(cone_edges), max_contacts_(max_contacts) {
  require_cone_edges(cone_edges);
  if (max_contacts < 1) throw GraspError("force closure needs room for at least one contact");
  const int cols = 2 * cone_edges * max_contacts;  // soft fingers have two primitives per edge
  prim_.setZero(6, cols);
  tableau_.setZero(7, cols + 7);
}

ForceClosureLP::Result ForceClosureLP::evaluate(const Contact* contacts, int count, const Eigen::Vector3d& p) {
  pivots_ = 0;
  if (count <= 0) return Result::kNoContacts;
  if (count > max_contacts_) return Result::kTooManyContacts;
  // Same torque length as ferrari_canny's default, so the two decide on the same primitive wrenches.
  double L = 0;
  for (int i = 0; i < count; ++i) L = std::max(L, (contacts[i].pos - p).norm());
  if (!(L > 1e-12)) L = 1.0;
  int K = 0;
  for (int i = 0; i < count; ++i) {
    K += primitive_wrenches(contacts[i], p, edges_, L, prim_.middleCols(K, prim_.cols() - K));
  }
  const auto W = prim_.leftCols(K);

  // Spanning R^6: the 6 x 6 Gram matrix is non-singular (the same 1e-7 singular-value ratio as ferrari_canny's
  // flatness test). Written as !(a > b) so that NaN input lands here too.
  Eigen::Matrix<double, 6, 6> gram;
  gram.noalias() = W * W.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(gram, Eigen::EigenvaluesOnly);
  if (!(eig.eigenvalues()(0) > 1e-14 * eig.eigenvalues()(5))) return Result::kRankDeficient;

  // Phase 1 of the simplex for W beta = b, beta >= 0, with alpha = 1 + beta, b = -W 1. Columns: beta (K),
  // artificials (6), right-hand side. Row 6 holds the reduced costs of "minimise the sum of artificials".
  auto T = tableau_.leftCols(K + 7);
  const int rhs = K + 6;
  const Eigen::Matrix<double, 6, 1> b = -W.rowwise().sum();
  int basis[6];
  for (int i = 0; i < 6; ++i) {
    const double s = b(i) < 0 ? -1.0 : 1.0;
    T.row(i).head(K) = s * W.row(i);
    T.row(i).segment(K, 6).setZero();
    T(i, K + i) = 1.0;
    T(i, rhs) = s * b(i);
    basis[i] = K + i;
  }
  for (int j = 0; j < K; ++j) T(6, j) = -T.col(j).head(6).sum();
  T.row(6).segment(K, 6).setZero();
  T(6, rhs) = -T.col(rhs).head(6).sum();
  const double scale = 1.0 + b.cwiseAbs().sum();
  constexpr double kPivotTol = 1e-11;
  const int max_pivots = 50 * (K + 6) + 100;
  while (true) {
    // Bland's rule (lowest index enters, lowest basic index leaves on ties) cannot cycle.
    int e = -1;
    for (int j = 0; j < K; ++j) {
      if (T(6, j) < -kPivotTol) {
        e = j;
        break;
      }
    }
    if (e < 0) break;
    int r = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 6; ++i) {
      const double a = T(i, e);
      if (!(a > kPivotTol)) continue;
      const double ratio = T(i, rhs) / a;
      if (ratio < best - 1e-15 * scale || (ratio <= best + 1e-15 * scale && r >= 0 && basis[i] < basis[r])) {
        best = ratio;
        r = i;
      }
    }
    if (r < 0) break;  // unbounded direction: impossible for a phase-1 objective bounded below by 0
    if (++pivots_ > max_pivots) return Result::kSolverLimit;
    T.row(r) /= T(r, e);
    for (int i = 0; i < 7; ++i) {
      if (i == r) continue;
      const double f = T(i, e);
      if (f != 0.0) T.row(i) -= f * T.row(r);
    }
    basis[r] = e;
  }
  const double infeasibility = -T(6, rhs);  // sum of the artificials left
  return infeasibility <= 1e-9 * scale ? Result::kClosure : Result::kNotClosure;
}

}  // namespace mjhand
