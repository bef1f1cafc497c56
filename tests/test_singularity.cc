#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "kinematics/egrasp_ik.h"
#include "kinematics/forward_kinematics.h"
#include "kinematics/singularity.h"

using namespace mjhand;

TEST_CASE("singularity measures of hand-computed matrices", "[singularity]") {
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
    REQUIRE(s.manipulability == Approx(std::abs(jp.determinant())).epsilon(1e-10));
    // Closed form: |det J| = l2 l3 |S3| * (in-plane reach l1 + l2 C2 + l3 C23).
    const double reach = f.l1 + f.l2 * std::cos(q[1]) + f.l3 * std::cos(q[1] + q[2]);
    REQUIRE(s.manipulability == Approx(f.l2 * f.l3 * std::abs(std::sin(q[2])) * reach).epsilon(1e-10));
    REQUIRE(s.sigma_min <= s.sigma_max);
    REQUIRE(s.condition == Approx(s.sigma_max / s.sigma_min));
  }

  // Straight finger (q3 = 0): links 2 and 3 are aligned, the tip cannot move along them.
  const double straight[3] = {0.3, 0.4, 0.0};
  fk_and_jacobian(c, straight, d);
  SingularityMeasures s = singularity_measures(d.jacobian.topRows<3>());
  REQUIRE(s.sigma_min < 1e-15);
  REQUIRE(s.manipulability < 1e-15);
  REQUIRE(s.rank == 2);
  REQUIRE(s.condition > 1e12);
  // Slightly bent: regular again, and sigma_min grows with the bend.
  const double bent[3] = {0.3, 0.4, 0.2};
  fk_and_jacobian(c, bent, d);
  const SingularityMeasures sb = singularity_measures(d.jacobian.topRows<3>());
  REQUIRE(sb.rank == 3);
  REQUIRE(sb.sigma_min > 1e-3);
  REQUIRE(sb.condition < 100);

  // Tip on the joint-1 axis (l1 + l2 C2 + l3 C23 = 0): joint 1 no longer moves the tip.
  const double q2 = 2.5, q23 = std::acos(-(f.l1 + f.l2 * std::cos(q2)) / f.l3);
  const double axis[3] = {0.1, q2, q23 - q2};
  fk_and_jacobian(c, axis, d);
  s = singularity_measures(d.jacobian.topRows<3>());
  REQUIRE(d.jacobian.col(0).head<3>().norm() < 1e-15);
  REQUIRE(s.rank == 2);
  REQUIRE(s.sigma_min < 1e-15);

  // The full 6 x 3 Jacobian: measures come from its three singular values, not the always-zero det(J J^T).
  fk_and_jacobian(c, bent, d);
  s = singularity_measures(d.jacobian);
  REQUIRE(s.rank == 3);
  REQUIRE(s.manipulability > 0);
}
