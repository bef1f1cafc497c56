// Screw primitives and reciprocal systems of the parallel-manipulator framework (plugin/parallel): the reciprocal
// product, null spaces of standard passive joints, choice (a) (diagonal J_Theta) and choice (b) (contact n, t, o).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/parallel/parallel_jacobians.h>
#include <mjhand/parallel/parallel_statics.h>
#include <mjhand/parallel/reciprocal_screws.h>

using namespace mjhand;

namespace {
Eigen::Vector3d random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
}

Eigen::Vector3d random_point(std::mt19937& rng, double size = 0.1) {
  std::uniform_real_distribution<double> u(-size, size);
  return Eigen::Vector3d(u(rng), u(rng), u(rng));
}

// Largest |W . $| over all pairs: 0 when every wrench is reciprocal to every twist.
double max_product(const Eigen::MatrixXd& W, const Eigen::MatrixXd& S) { return (W.transpose() * S).cwiseAbs().maxCoeff(); }
}  // namespace

TEST_CASE("the reciprocal product is the power of a wrench on a twist and does not depend on the reference", "[parallel]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Vector3d q1 = random_point(rng), q2 = random_point(rng), u1 = random_unit(rng), u2 = random_unit(rng);
    const Eigen::Vector3d r1 = random_point(rng), r2 = random_point(rng);
    const Wrench6 W = line_wrench(q1, u1, r1);
    const Twist6 T = revolute_twist(q2, u2, r1);
    // The same screws about another reference, moved with the two shift functions and built directly.
    Eigen::MatrixXd Ws = W, Ts = T;
    shift_wrench_reference(Ws, r1, r2);
    shift_twist_reference(Ts, r1, r2);
    // Points within 0.1 m, unit directions: products and shifts of O(0.1) values round to ~1e-17.
    CHECK((Ws - line_wrench(q1, u1, r2)).norm() < 1e-15);
    CHECK((Ts - revolute_twist(q2, u2, r2)).norm() < 1e-15);
    CHECK(reciprocal_product(Ws.col(0), Ts.col(0)) == Approx(reciprocal_product(W, T)).margin(1e-15));
    // Closed form of two lines: (q2 - q1) . (u2 x u1) = -(distance) sin(angle) with a sign.
    CHECK(reciprocal_product(W, T) == Approx((q2 - q1).dot(u2.cross(u1))).margin(1e-15));
    // The paper's o on two screws in the same coordinates is symmetric, and equals the power once the wrench is
    // written as a twist-like line (w = f, v = m).
    const Twist6 Wline = revolute_twist(q1, u1, r1);
    CHECK(screw_reciprocal_product(Wline, T) == Approx(screw_reciprocal_product(T, Wline)).margin(1e-15));
    CHECK(screw_reciprocal_product(Wline, T) == Approx(reciprocal_product(W, T)).margin(1e-15));
  }
  // Intersecting and parallel lines are reciprocal; skew lines at distance h and angle a give -h sin a.
  const Eigen::Vector3d o = Eigen::Vector3d::Zero();
  CHECK(reciprocal_product(line_wrench(o, Eigen::Vector3d::UnitX(), o), revolute_twist(o, Eigen::Vector3d::UnitY(), o)) == 0.0);
  // Products with 0 and 1 only: exactly 0 here, 1e-16 is room.
  CHECK(std::abs(reciprocal_product(line_wrench(Eigen::Vector3d(0, 0.3, 0), Eigen::Vector3d::UnitX(), o),
                                    revolute_twist(Eigen::Vector3d(0, 0, 0.2), Eigen::Vector3d::UnitX(), o))) < 1e-16);
  const double h = 0.07, a = 0.6;
  CHECK(reciprocal_product(line_wrench(o, Eigen::Vector3d::UnitX(), o),
                           revolute_twist(Eigen::Vector3d(0, 0, h), Eigen::Vector3d(std::cos(a), std::sin(a), 0), o)) ==
        Approx(-h * std::sin(a)).epsilon(1e-14));  // a few products of O(1) terms: rounding (measured 0)
}

TEST_CASE("reciprocal systems of the standard passive joints: dimension, reciprocity, pure forces through a centre", "[parallel]") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::Vector3d c = random_point(rng), ref = random_point(rng);
    const Eigen::Vector3d u = random_unit(rng), v = u.cross(random_unit(rng)).normalized();
    // Spherical joint (the paper's z_i4, z_i5, z_i6): 3 reciprocal screws, all pure forces through c.
    const ReciprocalSystem s = reciprocal_system(spherical_joint_twists(c, ref));
    REQUIRE(s.dimension == 3);
    CHECK(s.twist_rank == 3);
    // Null spaces by SVD of O(1) entries: the products are rounding (~1e-16 each).
    CHECK(max_product(s.wrenches, spherical_joint_twists(c, ref)) < 1e-14);
    Eigen::MatrixXd at_c = s.wrenches;
    shift_wrench_reference(at_c, ref, c);
    CHECK(at_c.bottomRows(3).norm() < 1e-14);                       // no moment about c: lines through c
    CHECK((s.wrenches.transpose() * s.wrenches - Eigen::Matrix3d::Identity()).norm() < 1e-14);
    // Universal joint (two axes through c): 4 (forces through c + the couple normal to both axes).
    Eigen::MatrixXd U(6, 2);
    U << revolute_twist(c, u, ref), revolute_twist(c, v, ref);
    const ReciprocalSystem su = reciprocal_system(U);
    CHECK(su.dimension == 4);
    CHECK(max_product(su.wrenches, U) < 1e-14);
    // One revolute joint: 5; one prismatic joint: 5 (all couples are reciprocal to a translation).
    CHECK(reciprocal_system(revolute_twist(c, u, ref)).dimension == 5);
    const ReciprocalSystem sp = reciprocal_system(prismatic_twist(u));
    CHECK(sp.dimension == 5);
    CHECK(max_product(sp.wrenches, prismatic_twist(u)) < 1e-15);
    // No passive joint: everything is reciprocal; a full-rank set: nothing is. Repeated twists count once.
    CHECK(reciprocal_system(Eigen::MatrixXd(6, 0)).dimension == 6);
    Eigen::MatrixXd six(6, 6);
    for (int k = 0; k < 6; ++k) six.col(k) = revolute_twist(random_point(rng), random_unit(rng), ref);
    CHECK(reciprocal_system(six).dimension == 0);
    Eigen::MatrixXd twice(6, 4);
    twice << spherical_joint_twists(c, ref), revolute_twist(c, Eigen::Vector3d::UnitX(), ref);
    CHECK(reciprocal_system(twice).dimension == 3);
    CHECK(reciprocal_system(twice).twist_rank == 3);
  }
}

TEST_CASE("choice (a) makes each leg's J_Theta diagonal, choice (b) is reciprocal to the contact and equals G_i", "[parallel]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::Vector3d c = random_point(rng), ref = random_point(rng);
    Leg leg;
    leg.passive = spherical_joint_twists(c, ref);
    leg.active.resize(6, 3);
    for (int k = 0; k < 3; ++k) leg.active.col(k) = revolute_twist(random_point(rng), random_unit(rng), ref);
    const DiagonalReciprocalScrews a = diagonal_reciprocal_screws(leg.passive, leg.active);
    REQUIRE(a.ok);
    const Eigen::MatrixXd JTheta = a.wrenches.transpose() * leg.active;
    // Screws built by cross products and SVDs of O(1) entries: rounding only.
    CHECK((JTheta - Eigen::Matrix3d(JTheta.diagonal().asDiagonal())).cwiseAbs().maxCoeff() < 1e-14);
    CHECK(JTheta.diagonal().minCoeff() > 0);
    CHECK(max_product(a.wrenches, leg.passive) < 1e-14);
    // Unit forces, normalised: rounding (measured |norm - 1| <= 2.2e-16 over the 150 columns).
    for (int k = 0; k < 3; ++k) CHECK(a.wrenches.col(k).head<3>().norm() == Approx(1.0).epsilon(1e-14));
    // The SVD basis spans the same system: J_Theta^-1 J_p is the same map.
    const ParallelJacobians Jsvd = parallel_jacobians(std::vector<Leg>{leg}, ref, ReciprocalChoice::kSvd);
    const ParallelJacobians Jdiag = parallel_jacobians(std::vector<Leg>{leg}, ref, ReciprocalChoice::kDiagonal);
    REQUIRE(Jdiag.ok);
    // Two bases of one reciprocal system, each map an LU solve: rounding times the legs' conditioning. Measured worst
    // 2.4e-13 relative over the 50 random legs; 1e-11 = 40x, room for the differently drawn legs of another
    // standard library's std::normal_distribution (the old 1e-9 was 4000x).
    CHECK((twist_to_joint_rates(Jsvd.Jp, Jsvd.JTheta) - twist_to_joint_rates(Jdiag.Jp, Jdiag.JTheta)).norm() <
          1e-11 * twist_to_joint_rates(Jdiag.Jp, Jdiag.JTheta).norm());

    // Choice (b) for each contact model: reciprocal to the contact's passive joint, and G_i's columns.
    for (ContactModel model : {ContactModel::kFrictionlessPoint, ContactModel::kHardFinger, ContactModel::kSoftFinger}) {
      const Contact k = analytic_contact(c, random_unit(rng), model, 0.8, 0.003);
      const Eigen::MatrixXd W = contact_reciprocal_screws(k, ref);
      const Eigen::MatrixXd P = contact_passive_twists(k, ref);
      CHECK(W.cols() == contact_rows(model));
      CHECK(W.cols() + P.cols() == 6);
      // n, t, o lines through c (|c| < 0.2 m): rounding only.
      CHECK(max_product(W, P) < 1e-15);
      CHECK(reciprocal_system(P).dimension == contact_rows(model));
      CHECK((W - grasp_matrix(std::vector<Contact>{k}, ref)).norm() < 1e-15);
    }
  }
  // A leg whose actuated joint lies along a passive axis: that joint does no work on any reciprocal screw.
  const Eigen::Vector3d c(0.1, 0, 0), o = Eigen::Vector3d::Zero();
  Eigen::MatrixXd act(6, 3);
  act << revolute_twist(c, Eigen::Vector3d::UnitZ(), o), revolute_twist(o, Eigen::Vector3d::UnitY(), o),
      revolute_twist(Eigen::Vector3d(0.05, 0, 0), Eigen::Vector3d::UnitY(), o);
  const DiagonalReciprocalScrews bad = diagonal_reciprocal_screws(spherical_joint_twists(c, o), act);
  CHECK_FALSE(bad.ok);
  CHECK(bad.message.find("actuated joint 0") != std::string::npos);
  const ParallelJacobians Jbad = parallel_jacobians(std::vector<Leg>{{act, spherical_joint_twists(c, o)}}, o,
                                                    ReciprocalChoice::kDiagonal);
  CHECK_FALSE(Jbad.ok);
  CHECK(Jbad.message.find("leg 0") != std::string::npos);
}

TEST_CASE("parallel statics: leg wrenches sum to -W, intensities of choice (b) are the contact forces", "[parallel]") {
  // Two 3-joint legs on one platform, contacts as passive spherical joints (6 x 6 J_Theta).
  std::mt19937 rng(3);
  const Eigen::Vector3d p(0.01, -0.02, 0.08), o = Eigen::Vector3d::Zero();
  std::vector<Contact> contacts;
  std::vector<Eigen::MatrixXd> twists;
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector3d c = p + 0.03 * random_unit(rng);
    contacts.push_back(analytic_contact(c, p - c));
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(6, 6);
    for (int k = 0; k < 3; ++k) S.col(3 * i + k) = revolute_twist(random_point(rng), random_unit(rng), o);
    twists.push_back(S);
  }
  const ParallelJacobians J = contact_frame_jacobians(contacts, twists, o);
  REQUIRE(J.Jp.rows() == 6);
  Eigen::VectorXd tau(6);
  tau << 0.1, -0.2, 0.05, 0.3, 0.02, -0.1;
  const Wrench6 W = platform_wrench(J.Jp, J.JTheta, tau);
  const std::vector<Wrench6> legs = leg_wrenches(J, tau);
  REQUIRE(legs.size() == 2);
  // One LU solve for the intensities, then the same products (|tau| <= 0.3 N m): rounding only.
  CHECK((legs[0] + legs[1] + W).norm() < 1e-12);
  // Choice (b): the intensities are lambda, and -G lambda about the origin is the same W.
  const Eigen::VectorXd nu = screw_intensities(J.JTheta, tau);
  CHECK((J.JTheta.transpose() * nu - tau).norm() < 1e-12);
  CHECK((balanced_wrench(grasp_matrix(contacts, o), nu) - W).norm() < 1e-12);
  // Bad input names the function and the sizes.
  CHECK_THROWS_WITH(platform_wrench(J.Jp, J.JTheta, Eigen::VectorXd::Zero(5)), Catch::Contains("screw_intensities"));
  CHECK_THROWS_AS(reciprocal_system(Eigen::MatrixXd::Zero(5, 2)), ParallelError);
  Eigen::MatrixXd nan = Eigen::MatrixXd::Zero(6, 1);
  nan(2, 0) = std::nan("");
  CHECK_THROWS_WITH(reciprocal_system(nan), Catch::Contains("NaN"));
  CHECK_THROWS_WITH(revolute_twist(o, Eigen::Vector3d(0, 0, 2), o), Catch::Contains("unit vector"));
  CHECK_THROWS_AS(parallel_jacobians(std::vector<Eigen::MatrixXd>{Eigen::MatrixXd::Zero(6, 3)}, {}, o), ParallelError);
}
