// Kinematic and force manipulability ellipsoids (core/mjhand/grasp/manipulability.h) against a hand-derived two-finger
// pinch, sampled inputs mapped by an independent least-squares solve, synergy invariances and kinematic/force duality.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/manipulability.h>
#include <mjhand/util/dense_decompositions.h>

using namespace mjhand;

namespace {

// Two hard fingers pinching along x at +-r. Each finger is a Cartesian (x, y, z prismatic) finger, so its contact
// point moves with the joint velocities in world axes and J_H = diag(R_1^T, R_2^T) (contact-frame components).
struct Pinch {
  Eigen::MatrixXd G, JH;
};
Pinch pinch(double r) {
  const std::vector<Contact> c = {analytic_contact(Eigen::Vector3d(-r, 0, 0), Eigen::Vector3d::UnitX()),
                                  analytic_contact(Eigen::Vector3d(r, 0, 0), -Eigen::Vector3d::UnitX())};
  Pinch p;
  p.G = grasp_matrix(c, Eigen::Vector3d::Zero());
  p.JH = Eigen::MatrixXd::Zero(6, 6);
  p.JH.block<3, 3>(0, 0) = c[0].frame.transpose();
  p.JH.block<3, 3>(3, 3) = c[1].frame.transpose();
  return p;
}

// Three hard fingers at random points of a sphere, 9 joints with a random (invertible) J_H.
Pinch random_grasp(std::mt19937& rng) {
  std::normal_distribution<double> n01;
  std::vector<Contact> c;
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d u = Eigen::Vector3d(n01(rng), n01(rng), n01(rng)).normalized();
    c.push_back(analytic_contact(0.04 * u, -u));
  }
  Pinch p;
  p.G = grasp_matrix(c, Eigen::Vector3d::Zero());
  p.JH = 0.05 * Eigen::MatrixXd::NullaryExpr(9, 9, [&] { return n01(rng); });  // ~ link length 5 cm
  return p;
}

Eigen::MatrixXd random_matrix(std::mt19937& rng, int rows, int cols) {
  std::normal_distribution<double> n01;
  return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return n01(rng); });
}

// |d_i . x| for the ellipsoid's direction i, i.e. the coordinate of x along it.
double along(const Ellipsoid& e, int i, const Eigen::VectorXd& x) { return std::abs(e.directions.col(i).dot(x)); }

// sum over finite nonzero axes of (coordinate / a_i)^2 and the largest coordinate along a zero axis.
void ellipsoid_coordinates(const Ellipsoid& e, const Eigen::VectorXd& x, double& quadratic, double& off_flat) {
  quadratic = 0;
  off_flat = 0;
  for (int i = 0; i < e.semi_axes.size(); ++i) {
    const double a = e.semi_axes(i), c = along(e, i, x);
    if (std::isinf(a)) continue;
    if (a > 0) quadratic += (c / a) * (c / a);
    else off_flat = std::max(off_flat, c);
  }
}

// Orthonormal basis of the inputs dz compatible with rigid contacts (J_H S dz in range(G^T)), from a full-pivoting
// LU kernel of [J_H S, -G^T] (a different factorisation from the SVDs of the implementation).
Eigen::MatrixXd compatible_inputs_lu(const Pinch& p, const Eigen::MatrixXd& S) {
  Eigen::MatrixXd C(p.G.cols(), S.cols() + 6);
  C << p.JH * S, -p.G.transpose();
  const Eigen::MatrixXd K = Eigen::FullPivLU<Eigen::MatrixXd>(C).kernel();
  const Eigen::MatrixXd Kz = K.topRows(S.cols());
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Kz);
  return Eigen::MatrixXd(qr.householderQ()).leftCols(qr.rank());
}

}  // namespace

TEST_CASE("manipulability: the two-finger pinch matches the hand-derived ellipsoids", "[grasp][manipulability]") {
  // J_H^{-1} = diag(R_i) is orthogonal, so |dq| = |G^T du| and the compatible motions fill range(G):
  // kinematic {du : du^T G G^T du <= 1}, force {w : w^T (G G^T)^+ w <= 1}. G G^T = diag(2, 2, 2, 0, 2 r^2, 2 r^2)
  // (the moment couplings of the two fingers cancel), the 0 being the free rotation about the pinch line.
  const double r = 0.05;
  const Pinch p = pinch(r);
  const Eigen::MatrixXd I6 = Eigen::MatrixXd::Identity(6, 6);
  const ManipulabilityEllipsoid k = kinematic_manipulability(p.G, p.JH, I6);
  const ManipulabilityEllipsoid f = force_manipulability(p.G, p.JH, I6);
  // Rounding of SVDs of O(1) matrices: ~10 eps.
  const double tol = 1e-12;
  CHECK(k.indeterminate == 1);
  CHECK(f.indeterminate == 1);
  CHECK(k.compatible_inputs == 5);  // every joint motion but the squeeze along x
  REQUIRE(k.full.unbounded == 0);
  REQUIRE(k.full.finite_rank == 5);
  const double big = 1 / (std::sqrt(2.0) * r), small = 1 / std::sqrt(2.0);
  const double expected_k[6] = {big, big, small, small, small, 0};
  for (int i = 0; i < 6; ++i) CHECK(k.full.semi_axes(i) == Approx(expected_k[i]).margin(tol));
  // The two long axes are the rotations about y and z; the flat one the rotation about x.
  CHECK(std::hypot(k.full.directions(4, 0), k.full.directions(5, 0)) == Approx(1).margin(tol));
  CHECK(std::abs(k.full.directions(3, 5)) == Approx(1).margin(tol));
  for (int i = 0; i < 3; ++i) CHECK(k.linear.semi_axes(i) == Approx(small).margin(tol));
  CHECK(k.angular.semi_axes(0) == Approx(big).margin(tol));
  CHECK(k.angular.semi_axes(1) == Approx(big).margin(tol));
  CHECK(k.angular.semi_axes(2) == Approx(0).margin(tol));
  REQUIRE(f.full.unbounded == 0);
  const double expected_f[6] = {std::sqrt(2.0), std::sqrt(2.0), std::sqrt(2.0), std::sqrt(2.0) * r,
                                std::sqrt(2.0) * r, 0};
  for (int i = 0; i < 6; ++i) CHECK(f.full.semi_axes(i) == Approx(expected_f[i]).margin(tol));
  CHECK(std::abs(f.full.directions(3, 5)) == Approx(1).margin(tol));  // no moment about the pinch line
  for (int i = 0; i < 3; ++i) CHECK(f.linear.semi_axes(i) == Approx(std::sqrt(2.0)).margin(tol));
  CHECK(f.angular.semi_axes(2) == Approx(0).margin(tol));
}

TEST_CASE("manipulability: sampled unit inputs map inside the ellipsoids and reach their axes",
          "[grasp][manipulability]") {
  std::mt19937 rng(7);
  const Pinch p = random_grasp(rng);
  const Eigen::MatrixXd S = random_matrix(rng, 9, 7);  // 7 synergies: 7 + 6 - 9 = 4 compatible inputs
  const ManipulabilityEllipsoid k = kinematic_manipulability(p.G, p.JH, S);
  const Eigen::MatrixXd Z = compatible_inputs_lu(p, S);
  REQUIRE(Z.cols() == 4);
  CHECK(k.compatible_inputs == 4);
  CHECK(k.full.finite_rank == 4);
  CHECK(k.indeterminate == 0);
  std::normal_distribution<double> n01;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> gt(p.G.transpose());  // du from G^T du = J_H S dz (exact: compatible)
  std::vector<double> reach(6, 0.0), reach_lin(3, 0.0);
  double worst = 0, worst_flat = 0, worst_residual = 0;
  for (int s = 0; s < 20000; ++s) {
    const Eigen::VectorXd a = Eigen::VectorXd::NullaryExpr(Z.cols(), [&] { return n01(rng); }).normalized();
    const Eigen::VectorXd dz = Z * a;  // |dz| = 1
    const Eigen::VectorXd rhs = p.JH * S * dz;
    const Eigen::VectorXd du = gt.solve(rhs);
    worst_residual = std::max(worst_residual, (p.G.transpose() * du - rhs).norm());
    double q, flat;
    ellipsoid_coordinates(k.full, du, q, flat);
    worst = std::max(worst, q);
    worst_flat = std::max(worst_flat, flat);
    for (int i = 0; i < 4; ++i) reach[i] = std::max(reach[i], along(k.full, i, du) / k.full.semi_axes(i));
    for (int i = 0; i < 3; ++i) {
      reach_lin[i] = std::max(reach_lin[i], along(k.linear, i, du.head<3>()) / k.linear.semi_axes(i));
    }
  }
  CHECK(worst_residual < 1e-12);  // the samples are compatible: rounding of O(0.1) products
  // On the boundary at most, up to rounding amplified by the condition of the map (~1e3 here).
  CHECK(worst <= 1 + 1e-9);
  CHECK(worst_flat < 1e-10);
  // 20000 directions on the 3-sphere of inputs: the cap within 8 deg of an axis (cos = 0.99) holds ~0.1 % of them,
  // so ~20 samples reach >= 0.99 of every axis (a miss has probability ~e^-20).
  for (int i = 0; i < 4; ++i) CHECK(reach[i] >= 0.99);
  for (int i = 0; i < 3; ++i) CHECK(reach_lin[i] >= 0.99);  // the projection's axes are reached too

  // Force: any lambda gives the pair (sigma, w); w / |sigma| lies inside (the least |sigma| is at most |sigma|).
  const ManipulabilityEllipsoid f = force_manipulability(p.G, p.JH, S);
  CHECK(f.full.unbounded == 2);  // wrenches held by the hand structure with sigma = 0 (9 - 7 joint directions)
  double worst_f = 0;
  for (int s = 0; s < 2000; ++s) {
    const Eigen::VectorXd lambda = Eigen::VectorXd::NullaryExpr(9, [&] { return n01(rng); });
    const Eigen::VectorXd sigma = S.transpose() * p.JH.transpose() * lambda;
    const Eigen::VectorXd w = p.G * lambda / sigma.norm();
    double q, flat;
    ellipsoid_coordinates(f.full, w, q, flat);
    worst_f = std::max(worst_f, q);
  }
  CHECK(worst_f <= 1 + 1e-9);  // as above
}

TEST_CASE("manipulability: S = I, an orthogonal S and an extra zero synergy give the same ellipsoid",
          "[grasp][manipulability]") {
  std::mt19937 rng(11);
  const Pinch p = random_grasp(rng);
  const Eigen::MatrixXd I9 = Eigen::MatrixXd::Identity(9, 9);
  // An orthogonal S maps the unit input ball onto itself, and a zero column adds an input that moves nothing.
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(random_matrix(rng, 9, 9)).householderQ();
  Eigen::MatrixXd S0 = Eigen::MatrixXd::Zero(9, 10);
  S0.leftCols(9) = I9;
  for (bool force : {false, true}) {
    const auto run = [&](const Eigen::MatrixXd& S) {
      return force ? force_manipulability(p.G, p.JH, S) : kinematic_manipulability(p.G, p.JH, S);
    };
    const ManipulabilityEllipsoid a = run(I9), b = run(Q), c = run(S0);
    REQUIRE(a.full.finite_rank == 6);
    for (const ManipulabilityEllipsoid* x : {&b, &c}) {
      REQUIRE(x->full.finite_rank == 6);
      for (int i = 0; i < 6; ++i) {
        // Rounding of SVDs of matrices with condition ~1e3: 1e-9 relative.
        CHECK(x->full.semi_axes(i) == Approx(a.full.semi_axes(i)).epsilon(1e-9));
        CHECK(std::abs(x->full.directions.col(i).dot(a.full.directions.col(i))) == Approx(1).epsilon(1e-9));
      }
    }
  }
}

TEST_CASE("manipulability: one synergy gives a line along the predicted motion, or a point", "[grasp][manipulability]") {
  const double r = 0.05;
  const Pinch p = pinch(r);
  // Both fingers move +y with unit |s|: the object translates along y at 1/sqrt 2.
  Eigen::MatrixXd s = Eigen::MatrixXd::Zero(6, 1);
  s(1, 0) = s(4, 0) = 1 / std::sqrt(2.0);
  const ManipulabilityEllipsoid k = kinematic_manipulability(p.G, p.JH, s);
  REQUIRE(k.full.finite_rank == 1);
  CHECK(k.full.semi_axes(0) == Approx(1 / std::sqrt(2.0)).margin(1e-12));  // rounding
  CHECK(std::abs(k.full.directions(1, 0)) == Approx(1).margin(1e-12));
  for (int i = 1; i < 6; ++i) CHECK(k.full.semi_axes(i) == 0.0);
  CHECK(k.linear.finite_rank == 1);
  CHECK(k.angular.finite_rank == 0);
  // A squeeze is blocked by the rigid contacts: no compatible input, a point.
  s.setZero();
  s(0, 0) = 1;
  s(3, 0) = -1;
  const ManipulabilityEllipsoid z = kinematic_manipulability(p.G, p.JH, s);
  CHECK(z.compatible_inputs == 0);
  CHECK(z.full.finite_rank == 0);
  CHECK(z.full.semi_axes.allFinite());
  CHECK(z.full.semi_axes.maxCoeff() == 0.0);

  // Random grasp: the synergy s = J_H^{-1} G^T du0 moves the object by du0 per unit synergy amplitude.
  std::mt19937 rng(3);
  const Pinch g = random_grasp(rng);
  const Eigen::VectorXd du0 = random_matrix(rng, 6, 1);
  const Eigen::VectorXd s1 = g.JH.partialPivLu().solve(g.G.transpose() * du0);
  const ManipulabilityEllipsoid l = kinematic_manipulability(g.G, g.JH, s1);
  REQUIRE(l.full.finite_rank == 1);
  // Rounding amplified by J_H's condition (~1e2..1e3).
  CHECK(l.full.semi_axes(0) == Approx(du0.norm()).epsilon(1e-9));
  CHECK(std::abs(l.full.directions.col(0).dot(du0.normalized())) == Approx(1).epsilon(1e-9));
}

TEST_CASE("manipulability: the kinematic axes are SynGrasp's compliant rigid-body-motion eigenvalues",
          "[grasp][manipulability]") {
  // SynGrasp's route, rebuilt from the quasi-static equations (Prattichizzo et al. 2012; SGquasistaticHsolution):
  // unknowns x = (dw, dlambda, dtau, dsigma, du, dq, dz, dz_r) with random SPD stiffnesses K_c, K_q, K_z and
  //   dw + G dlambda = 0,  dtau = J_H^T dlambda,  dsigma = S^T dtau,  dlambda = K_c (J_H dq - G^T du),
  //   dtau = K_q (S dz - dq),  dsigma = K_z (dz_r - dz).
  // The rigid-body motions are the solutions with dlambda = 0; SGkinManipulability's D are the generalized
  // eigenvalues of (Gamma_u' Gamma_u, Gamma_zr' Gamma_zr) over them. Their nonzero square roots must be our axes.
  std::mt19937 rng(17);
  const Pinch p = random_grasp(rng);
  const int m = 9, n = 9, nz = 7;
  const Eigen::MatrixXd S = random_matrix(rng, n, nz);
  const auto spd = [&](int k) {
    const Eigen::MatrixXd A = random_matrix(rng, k, k);
    return Eigen::MatrixXd(A * A.transpose() + k * Eigen::MatrixXd::Identity(k, k));
  };
  const Eigen::MatrixXd Kc = 1e3 * spd(m), Kq = spd(n), Kz = spd(nz);
  const int iw = 0, il = 6, it = il + m, is = it + n, iu = is + nz, iq = iu + 6, iz = iq + n, ir = iz + nz,
            cols = ir + nz;
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(6 + n + nz + m + n + nz, cols);
  int row = 0;
  E.block(row, iw, 6, 6).setIdentity();
  E.block(row, il, 6, m) = p.G;
  row += 6;
  E.block(row, it, n, n).setIdentity();
  E.block(row, il, n, m) = -p.JH.transpose();
  row += n;
  E.block(row, is, nz, nz).setIdentity();
  E.block(row, it, nz, n) = -S.transpose();
  row += nz;
  E.block(row, il, m, m).setIdentity();
  E.block(row, iq, m, n) = -Kc * p.JH;
  E.block(row, iu, m, 6) = Kc * p.G.transpose();
  row += m;
  E.block(row, it, n, n).setIdentity();
  E.block(row, iz, n, nz) = -Kq * S;
  E.block(row, iq, n, n) = Kq;
  row += n;
  E.block(row, is, nz, nz).setIdentity();
  E.block(row, ir, nz, nz) = -Kz;
  E.block(row, iz, nz, nz) = Kz;
  const Eigen::MatrixXd Gamma = Eigen::FullPivLU<Eigen::MatrixXd>(E).kernel();
  REQUIRE(Gamma.cols() == 6 + nz);  // one solution per (dw, dz_r)
  const Eigen::MatrixXd c = Eigen::FullPivLU<Eigen::MatrixXd>(Gamma.middleRows(il, m)).kernel();
  const Eigen::MatrixXd rb = Gamma * c;  // dlambda = 0
  const Eigen::MatrixXd Gu = rb.middleRows(iu, 6), Gz = rb.middleRows(ir, nz);
  const Eigen::MatrixXd A = Gu.transpose() * Gu, B = Gz.transpose() * Gz;
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ge(A, B);
  const ManipulabilityEllipsoid k = kinematic_manipulability(p.G, p.JH, S);
  REQUIRE(rb.cols() == k.compatible_inputs);
  REQUIRE(k.full.finite_rank == rb.cols());  // 4 here: every rigid-body motion moves the object
  for (int i = 0; i < k.full.finite_rank; ++i) {
    // LU kernels with stiffnesses up to ~1e4 and J_H's condition ~1e3: 1e-7 relative.
    CHECK(std::sqrt(ge.eigenvalues()(rb.cols() - 1 - i)) == Approx(k.full.semi_axes(i)).epsilon(1e-7));
  }
}

TEST_CASE("manipulability: force axes are the reciprocals of the kinematic ones (virtual work)", "[grasp][manipulability]") {
  // For the rigid model dz^T sigma = du^T w on compatible motions, so the force ellipsoid is {w : |M^T w| <= 1} with
  // M the kinematic map: same directions, reciprocal semi-axes, and kinematic zero axes (in range G) are force
  // unbounded axes. Along null(G^T) (not in this grasp) both are zero instead.
  std::mt19937 rng(5);
  for (int nz : {9, 7}) {
    const Pinch p = random_grasp(rng);
    const Eigen::MatrixXd S = random_matrix(rng, 9, nz);
    const ManipulabilityEllipsoid k = kinematic_manipulability(p.G, p.JH, S);
    const ManipulabilityEllipsoid f = force_manipulability(p.G, p.JH, S);
    const int rank = k.full.finite_rank;
    CHECK(rank == nz - 3);
    REQUIRE(f.full.unbounded == 6 - rank);
    REQUIRE(f.full.finite_rank == rank);
    for (int i = 0; i < rank; ++i) {
      const int j = f.full.unbounded + rank - 1 - i;  // largest kinematic <-> smallest finite force axis
      // Rounding amplified by the condition of the random J_H (~1e2..1e3).
      CHECK(f.full.semi_axes(j) * k.full.semi_axes(i) == Approx(1).epsilon(1e-9));
      CHECK(std::abs(f.full.directions.col(j).dot(k.full.directions.col(i))) == Approx(1).epsilon(1e-9));
    }
    // The unbounded force directions span the kinematic flat ones.
    if (rank == 6) continue;
    const Eigen::MatrixXd Wf = f.full.directions.leftCols(f.full.unbounded);
    const Eigen::MatrixXd Zk = k.full.directions.rightCols(6 - rank);
    CHECK((Wf.transpose() * Zk).jacobiSvd().singularValues().minCoeff() == Approx(1).epsilon(1e-9));
  }
}

TEST_CASE("manipulability: rank-deficient input is finite, bad sizes are named", "[grasp][manipulability]") {
  const Pinch p = pinch(0.05);
  const Eigen::MatrixXd I6 = Eigen::MatrixXd::Identity(6, 6);
  // A hand with J_H = 0 moves nothing and exerts every wrench of range(G) with sigma = 0.
  const Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(6, 6);
  const ManipulabilityEllipsoid k = kinematic_manipulability(p.G, Z, I6);
  CHECK(k.full.semi_axes.allFinite());
  CHECK(k.full.semi_axes.maxCoeff() == 0.0);
  CHECK(k.compatible_inputs == 6);  // every input is compatible (nothing moves)
  const ManipulabilityEllipsoid f = force_manipulability(p.G, Z, I6);
  CHECK(f.full.unbounded == 5);
  CHECK(f.full.semi_axes(5) == 0.0);  // no moment about the pinch line
  CHECK(!f.full.semi_axes.hasNaN());
  CHECK(!f.full.directions.hasNaN());

  CHECK_THROWS_WITH(kinematic_manipulability(Eigen::MatrixXd::Zero(5, 6), p.JH, I6),
                    Catch::Contains("G must be 6 x m") && Catch::Contains("5 x 6"));
  CHECK_THROWS_WITH(force_manipulability(p.G, Eigen::MatrixXd::Zero(5, 6), I6),
                    Catch::Contains("J_H must be m x n_hand") && Catch::Contains("5 x 6"));
  CHECK_THROWS_WITH(kinematic_manipulability(p.G, p.JH, Eigen::MatrixXd::Identity(5, 5)),
                    Catch::Contains("S must be n_hand x n_z") && Catch::Contains("5 x 5"));
  CHECK_THROWS_WITH(kinematic_manipulability(p.G, p.JH, Eigen::MatrixXd::Zero(6, 0)), Catch::Contains("n_z >= 1"));
  Eigen::MatrixXd bad = p.JH;
  bad(0, 0) = std::nan("");
  CHECK_THROWS_WITH(force_manipulability(p.G, bad, I6), Catch::Contains("J_H has a NaN"));
  CHECK_THROWS_AS(kinematic_manipulability(Eigen::MatrixXd::Zero(6, 0), Eigen::MatrixXd::Zero(0, 6), I6),
                  std::invalid_argument);
}

TEST_CASE("ellipsoid_volume_HO is SynGrasp's SGmanipEllipsoidVolume, sqrt(det(H_O H_O^T))", "[grasp][manipulability]") {
  // SGmanipEllipsoidVolume: Gc = G' inv(G G'), HO = Gc' J, VE = sqrt(det(HO HO')) -- computed here with an LU inverse
  // and determinant, not the SVDs grasp_quality uses; no pi^3/6 unit-ball factor.
  std::mt19937 rng(13);
  const Pinch p = random_grasp(rng);
  const Eigen::MatrixXd Gc = p.G.transpose() * (p.G * p.G.transpose()).inverse();
  const Eigen::MatrixXd HO = Gc.transpose() * p.JH;
  const double VE = std::sqrt((HO * HO.transpose()).determinant());
  const GraspQuality q = grasp_quality(p.G, p.JH);
  REQUIRE(q.valid);
  CHECK(q.ellipsoid_volume_HO == Approx(VE).epsilon(1e-9));  // LU vs SVD rounding, condition ~1e3
  // Rank < 6 (the pinch has a free rotation): SynGrasp's inv(G G') is singular; mjhand reports 0.
  const Pinch pin = pinch(0.05);
  CHECK(grasp_quality(pin.G, pin.JH).ellipsoid_volume_HO == 0.0);
}
