#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/singularity.h>

using namespace mjhand;

TEST_CASE("singularity measures of hand-computed matrices", "[singularity]") {
  // SVDs of O(1)-O(10) entries: every tolerance below is rounding (1e-13 for the 7 x 7's products).
  // [[1, 1], [0, 1]]: singular values are the golden ratio phi and 1 / phi.
  const double phi = (1 + std::sqrt(5.0)) / 2;
  Eigen::MatrixXd j(2, 2);
  j << 1, 1, 0, 1;
  SingularityMeasures s = singularity_measures(j);
  REQUIRE(s.sigma_max == Approx(phi).epsilon(1e-14));
  REQUIRE(s.sigma_min == Approx(1 / phi).epsilon(1e-14));
  REQUIRE(s.manipulability == Approx(1.0).epsilon(1e-14));
  REQUIRE(s.condition == Approx(phi * phi).epsilon(1e-14));
  REQUIRE(s.rank == 2);

  // Wide 2 x 3: det(J J^T) = det(diag(9, 16)) = 144.
  Eigen::MatrixXd w(2, 3);
  w << 3, 0, 0, 0, 0, 4;
  s = singularity_measures(w);
  REQUIRE(s.manipulability == Approx(12.0).epsilon(1e-14));
  REQUIRE(s.sigma_max == Approx(4.0).epsilon(1e-14));
  REQUIRE(s.sigma_min == Approx(3.0).epsilon(1e-14));
  REQUIRE(s.condition == Approx(4.0 / 3.0).epsilon(1e-14));

  // Rank one: [[1, 2], [2, 4]] = [1, 2]^T [1, 2], singular values 5 and 0.
  Eigen::MatrixXd r(2, 2);
  r << 1, 2, 2, 4;
  s = singularity_measures(r);
  REQUIRE(s.rank == 1);
  REQUIRE(s.sigma_max == Approx(5.0).epsilon(1e-14));
  REQUIRE(s.sigma_min < 1e-14);
  REQUIRE(s.manipulability < 1e-13);
  REQUIRE(std::isinf(s.condition));
  // An explicit tolerance above sigma_max counts nothing.
  REQUIRE(singularity_measures(r, 10.0).rank == 0);

  // Rotated diagonal U diag(3, 2, 0.5) V^T: singular values 3, 2, 0.5 whatever the rotations, so condition 6 and
  // manipulability 3; a fourth, zero row makes it tall without changing any of them.
  const Eigen::Matrix3d u = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::Matrix3d v = Eigen::AngleAxisd(-1.9, Eigen::Vector3d(-2, 0.5, 1).normalized()).toRotationMatrix();
  Eigen::MatrixXd rotated = u * Eigen::Vector3d(3, 2, 0.5).asDiagonal() * v.transpose();
  for (int tall = 0; tall < 2; ++tall) {
    if (tall) {
      rotated.conservativeResize(4, 3);
      rotated.row(3).setZero();
    }
    s = singularity_measures(rotated);
    REQUIRE(s.sigma_max == Approx(3.0).epsilon(1e-14));
    REQUIRE(s.sigma_min == Approx(0.5).epsilon(1e-14));
    REQUIRE(s.condition == Approx(6.0).epsilon(1e-14));
    REQUIRE(s.manipulability == Approx(3.0).epsilon(1e-14));
    REQUIRE(s.rank == 3);
  }

  // Larger than the allocation-free size takes the general path with the same answers.
  Eigen::MatrixXd big = Eigen::MatrixXd::Zero(7, 7);
  big.diagonal() << 7, 6, 5, 4, 3, 2, 1;
  s = singularity_measures(big);
  REQUIRE(s.manipulability == Approx(5040.0).epsilon(1e-13));
  REQUIRE(s.condition == Approx(7.0).epsilon(1e-13));
  REQUIRE(s.rank == 7);
}

TEST_CASE("e_GRASP position Jacobian: manipulability is |det J| and vanishes at the known singularities",
          "[singularity]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  ChainData d(c);
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-M_PI / 4, M_PI / 4);
  for (int k = 0; k < 200; ++k) {
    const double q[3] = {u(rng), u(rng), u(rng)};
    fk_and_jacobian(c, q, d);
    const Eigen::Matrix3d jp = d.jacobian.topRows<3>();
    const SingularityMeasures s = singularity_measures(d.jacobian.topRows<3>());
    // sigma_min's rounding is ~1e-16 sigma_max: relative 1e-16 x condition; 1e-10 allows conditions up to 1e6.
    REQUIRE(s.manipulability == Approx(std::abs(jp.determinant())).epsilon(1e-10));
    // Closed form: |det J| = l2 l3 |S3| * (in-plane reach l1 + l2 C2 + l3 C23).
    const double reach = f.l1 + f.l2 * std::cos(q[1]) + f.l3 * std::cos(q[1] + q[2]);
    REQUIRE(s.manipulability == Approx(f.l2 * f.l3 * std::abs(std::sin(q[2])) * reach).epsilon(1e-10));
    // Singular values by hand, not from an SVD: column 1 is z0 x p = r (-S1, C1, 0), normal to the finger plane,
    // while columns 2 and 3 lie in it, so the values are |r| and those of the planar two-link Jacobian, whose Gram
    // matrix [[l2^2 + l3^2 + 2 l2 l3 C3, l3^2 + l2 l3 C3], [., l3^2]] has trace T and determinant (l2 l3 S3)^2.
    const double l2 = f.l2, l3 = f.l3, c3 = std::cos(q[2]);
    const double trace = l2 * l2 + 2 * l3 * l3 + 2 * l2 * l3 * c3;
    const double det = std::pow(l2 * l3 * std::sin(q[2]), 2);
    const double big2 = (trace + std::sqrt(trace * trace - 4 * det)) / 2;
    const double small2 = det / big2;  // not (T - sqrt(...)) / 2, which cancels near the straight finger
    const double sv[3] = {std::abs(reach), std::sqrt(big2), std::sqrt(small2)};
    const double sv_max = *std::max_element(sv, sv + 3), sv_min = *std::min_element(sv, sv + 3);
    INFO("q = " << q[0] << ", " << q[1] << ", " << q[2]);
    REQUIRE(s.sigma_max == Approx(sv_max).epsilon(1e-12));  // well conditioned: rounding
    REQUIRE(s.sigma_min == Approx(sv_min).epsilon(1e-9));  // ~1e-16 x condition: allows conditions up to 1e7
    REQUIRE(s.condition == Approx(sv_max / sv_min).epsilon(1e-9));  // as sigma_min
    REQUIRE(s.rank == 3);
  }

  // Straight finger (q3 = 0): links 2 and 3 are aligned, the tip cannot move along them.
  const double straight[3] = {0.3, 0.4, 0.0};
  fk_and_jacobian(c, straight, d);
  SingularityMeasures s = singularity_measures(d.jacobian.topRows<3>());
  // Exactly singular: sigma_min is rounding, ~1e-16 sigma_max (sigma_max < 0.1 m).
  REQUIRE(s.sigma_min < 1e-15);
  REQUIRE(s.manipulability < 1e-15);
  REQUIRE(s.rank == 2);
  REQUIRE(s.condition > 1e12);
  // Slightly bent: regular again, and sigma_min grows with the bend.
  const double bent[3] = {0.3, 0.4, 0.2};
  fk_and_jacobian(c, bent, d);
  const SingularityMeasures sb = singularity_measures(d.jacobian.topRows<3>());
  REQUIRE(sb.rank == 3);
  REQUIRE(sb.sigma_min > 1e-3);  // the closed form above: 3.3e-3 m
  REQUIRE(sb.condition < 100);  // the closed form above: 26

  // Tip on the joint-1 axis (l1 + l2 C2 + l3 C23 = 0): joint 1 no longer moves the tip.
  const double q2 = 2.5, q23 = std::acos(-(f.l1 + f.l2 * std::cos(q2)) / f.l3);
  const double axis[3] = {0.1, q2, q23 - q2};
  fk_and_jacobian(c, axis, d);
  s = singularity_measures(d.jacobian.topRows<3>());
  // reach = 0 up to the rounding of O(0.05 m) terms (~1e-17 m).
  REQUIRE(d.jacobian.col(0).head<3>().norm() < 1e-15);
  REQUIRE(s.rank == 2);
  REQUIRE(s.sigma_min < 1e-15);

  // The full 6 x 3 Jacobian: measures come from its three singular values, not the always-zero det(J J^T).
  fk_and_jacobian(c, bent, d);
  s = singularity_measures(d.jacobian);
  REQUIRE(s.rank == 3);
  REQUIRE(s.manipulability > 0);
}

TEST_CASE("singularity measures of a NaN or inf Jacobian are an explicit invalid marker", "[singularity]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const double bad : {nan, inf, -inf}) {
    for (const int size : {3, 7}) {  // both the fixed-capacity and the general path
      Eigen::MatrixXd j = Eigen::MatrixXd::Identity(size, size);
      j(1, 2) = bad;
      INFO("bad = " << bad << ", size = " << size);
      const SingularityMeasures s = singularity_measures(j);
      // Before: manipulability 0, rank 2, condition inf, i.e. a believable singular posture.
      REQUIRE_FALSE(s.valid());
      REQUIRE(s.rank == -1);
      REQUIRE(std::isnan(s.manipulability));
      REQUIRE(std::isnan(s.sigma_min));
      REQUIRE(std::isnan(s.sigma_max));
      REQUIRE(std::isnan(s.condition));
    }
  }
  const Eigen::Matrix2d fine = Eigen::Matrix2d::Identity();
  REQUIRE(singularity_measures(fine).valid());
  REQUIRE_FALSE(singularity_measures(fine, nan).valid());
  REQUIRE(singularity_measures(fine, inf).rank == 0);  // an infinite tolerance is meaningful: nothing counts
}

TEST_CASE("position_manipulability is the SVD's product of singular values without an SVD", "[singularity]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-0.1, 0.1);
  double worst = 0;
  for (int n = 0; n <= 7; ++n) {
    for (int trial = 0; trial < 200; ++trial) {
      Eigen::Matrix<double, 3, Eigen::Dynamic> j(3, n);
      for (Eigen::Index k = 0; k < j.size(); ++k) j.data()[k] = U(rng);
      if (trial % 10 == 0 && n >= 2) j.col(1) = 2.0 * j.col(0);  // rank-deficient: exactly 0 for n <= 3
      const double svd = singularity_measures(j).manipulability;
      const double det = position_manipulability(j);
      // entries ~0.1, values up to ~1e-3: rounding of a 3 x 3 determinant or Gram matrix, far below 1e-15
      worst = std::max(worst, std::abs(det - svd));
      CHECK(det >= 0);
    }
  }
  INFO("worst |det - svd| " << worst);
  CHECK(worst < 1e-15);
  Eigen::Matrix3d nan = Eigen::Matrix3d::Identity();
  nan(1, 2) = std::nan("");
  CHECK(std::isnan(position_manipulability(nan)));
  CHECK(position_manipulability(Eigen::Matrix3d::Identity() * 2) == 8.0);
}
