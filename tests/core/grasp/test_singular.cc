// Analysis functions at exactly singular configurations (what test_singularity, test_ik and test_grasp_analytic do
// not already cover): a stretched finger as IK seed and target, coincident contacts, a singular hand Jacobian.
// Every result must be finite, and equal to what the rank-revealing decomposition or the damping predicts.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <Eigen/Dense>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/mobility.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/kinematics/singularity.h>

using namespace mjhand;

namespace {
Eigen::Vector3d tip(const Chain& c, const double* q) {
  ChainData d(c);
  fk_and_jacobian(c, q, d);
  return d.tip.translation();
}

// Three hard-finger contacts 120 degrees apart on a sphere of radius r in the z = 0 plane.
std::vector<Contact> equilateral(double r = 0.03, double mu = 0.8) {
  std::vector<Contact> c;
  for (int k = 0; k < 3; ++k) {
    const double a = 2 * M_PI * k / 3;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0);
    c.push_back(analytic_contact(r * u, -u, ContactModel::kHardFinger, mu));
  }
  return c;
}
}  // namespace

TEST_CASE("DLS IK seeded at the exactly stretched finger reaches nearer targets and stays finite beyond reach",
          "[singular]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  DlsWorkspace ws(c);
  const double zero[3] = {0, 0, 0};
  const Eigen::Vector3d stretched = tip(c, zero);  // J^T e = 0 here for every target on the finger's line
  for (double scale : {0.97, 0.99, 0.999999}) {
    INFO("target at " << scale << " of full reach along the finger");
    double q[3] = {0, 0, 0};
    const Eigen::Vector3d target = scale * stretched;
    const DlsResult r = dls_ik_position(c, target, q, ws);
    CHECK(r.status == DlsStatus::kConverged);
    CHECK((tip(c, q) - target).norm() < 1e-10);  // DlsOptions::tolerance (dls_ik.h)
    CHECK(std::abs(q[2]) > 0);  // the finger had to bend
  }
  double q[3] = {0, 0, 0};
  const Eigen::Vector3d far = 1.2 * stretched;
  const DlsResult r = dls_ik_position(c, far, q, ws);
  CHECK_FALSE(r.converged);
  CHECK(std::isfinite(q[0]));
  CHECK(std::isfinite(q[1]));
  CHECK(std::isfinite(q[2]));
  // J^T e = 0 at the stretched seed for a target on its line: q stays 0, the error is 0.2 |stretched| to rounding
  CHECK(r.error == Approx(0.2 * stretched.norm()).epsilon(1e-9));  // best effort: stretched, pointing at it
}

TEST_CASE("closed-form e_GRASP IK at exactly full reach (q3 = 0) gives finite solutions that reproduce the tip",
          "[singular]") {
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  for (double q1 : {0.0, 0.3, -0.7}) {
    for (double q2 : {0.0, 0.4, 1.0, -0.3}) {
      const double q[3] = {q1, q2, 0.0};
      const Eigen::Vector3d target = tip(c, q);
      const EGraspIkResult r = egrasp_ik_position(f, target);
      INFO("q = " << q1 << ", " << q2 << ", 0");
      REQUIRE(r.status == EGraspIkStatus::kOk);  // rounding must not push the cosine rule past 1 ("beyond reach")
      REQUIRE(r.count >= 1);
      for (int k = 0; k < r.count; ++k) {
        const double* s = r.solutions[k].q.data();
        // q2 absorbs the elbow's direction and the reach goes with cos q3 (second order): a 1e-8-rad elbow error
        // changes the tip by ~L x 1e-16; rounding
        CHECK((tip(c, s) - target).norm() < 1e-12);
        // The elbow angle is conditioned like sqrt(rounding) at full reach: within 1e-7 of the straight finger.
        CHECK(std::abs(s[2]) < 1e-7);
      }
    }
  }
}

TEST_CASE("coincident contacts: rank-revealing statics split the duplicate, LP and epsilon are unchanged",
          "[singular]") {
  const std::vector<Contact> three = equilateral();
  std::vector<Contact> four = three;
  four.push_back(three[0]);  // a second contact at exactly the same point, same frame
  const Eigen::Vector3d o = Eigen::Vector3d::Zero();
  const Eigen::MatrixXd G3 = grasp_matrix(three, o), G4 = grasp_matrix(four, o);
  CHECK(numerical_rank(G4) == numerical_rank(G3));
  CHECK(numerical_rank(G4) == 6);

  // null(G) gains exactly the three "push one copy, pull the other" directions, orthonormal and exact.
  const Eigen::MatrixXd E3 = internal_force_basis(G3), E4 = internal_force_basis(G4);
  CHECK(E4.cols() == E3.cols() + 3);
  // null(G) by SVD, G entries <= 1 (0.03-m lever arms): rounding ~ eps x 12 columns
  CHECK((G4 * E4).norm() < 1e-12);
  CHECK((E4.transpose() * E4 - Eigen::MatrixXd::Identity(E4.cols(), E4.cols())).norm() < 1e-12);

  // The minimum-norm forces share the duplicated contact's force equally (for a + b fixed, |a|^2 + |b|^2 is least
  // at a = b), and still balance W.
  Wrench W;
  W << 0.3, -0.2, -1.0, 0.01, 0.004, -0.002;
  const MinNormForces m3 = min_norm_forces(three, G3, W), m4 = min_norm_forces(four, G4, W);
  REQUIRE(m4.balances);
  // least squares with an exactly duplicated column block: rounding of O(1) forces
  CHECK((m4.lambda.segment<3>(0) - m4.lambda.segment<3>(9)).norm() < 1e-12);
  CHECK(m4.wrench_residual < 1e-12);
  Eigen::VectorXd merged = m4.lambda.head(9);  // the copies' sum acting at the one contact balances W with G3
  merged.head<3>() += m4.lambda.segment<3>(9);
  CHECK((G3 * merged + W).norm() < 1e-12);
  CHECK(m4.lambda.norm() < m3.lambda.norm());  // sharing a contact's force between two copies costs less norm

  // The LP's optimum cannot change: the copy has the same cone. Neither can the grasp wrench space.
  const ForceDistribution o3 = optimal_forces(three, G3, W), o4 = optimal_forces(four, G4, W);
  REQUIRE(o3.ok());
  REQUIRE(o4.ok());
  // GLPK's basis solve plus the round-off entries of G it drops (< 1e-12 max|G| each, 12 columns, lambda ~ 1 N)
  CHECK(o4.total_normal_force == Approx(o3.total_normal_force).epsilon(1e-9));
  CHECK(o4.wrench_residual < 1e-9);
  const EpsilonResult e3 = ferrari_canny(three, o), e4 = ferrari_canny(four, o);
  CHECK(e4.status == e3.status);
  // the same hull with duplicated points: planes exact to rounding (as in test_wrench_space.cc: 1e-9 per grasp)
  CHECK(e4.epsilon == Approx(e3.epsilon).epsilon(1e-9));

  // Two copies of one contact and nothing else: rank 3, sigma_min exactly 0, pseudo-inverse still Moore-Penrose.
  const std::vector<Contact> pair = {three[1], three[1]};
  const Eigen::MatrixXd G2 = grasp_matrix(pair, o);
  const GraspQuality q2 = grasp_quality(G2, Eigen::MatrixXd::Identity(6, 6));
  CHECK(q2.valid);
  CHECK(q2.rank_G == 3);
  CHECK(q2.sigma_min_G == 0.0);
  CHECK(std::isfinite(q2.sigma_max_G));
  const Eigen::MatrixXd P = pseudo_inverse(G2);
  CHECK(P.allFinite());
  // Moore-Penrose identities of an SVD pseudo-inverse with exact zero singular values: rounding relative to the norms
  CHECK((G2 * P * G2 - G2).norm() < 1e-12 * G2.norm());
  CHECK((P * G2 * P - P).norm() < 1e-12 * P.norm());
  CHECK(((G2 * P).transpose() - G2 * P).norm() < 1e-12);
  CHECK(ferrari_canny(pair, o).status == EpsilonStatus::kRankDeficient);
}

TEST_CASE("a stretched finger in the hand Jacobian: its rank drop is revealed exactly, every measure stays finite",
          "[singular]") {
  // Three e_GRASP fingers, one per contact of the equilateral grasp; J_H = blockdiag(R_i^T J_i) (hard fingers). The
  // geometry is algebraic (contacts not placed at the fingertips); what matters is that finger 0 is exactly straight.
  const EGraspFinger f;
  const Chain c = egrasp_chain(f);
  const std::vector<Contact> contacts = equilateral();
  const double postures[3][3] = {{0.1, 0.0, 0.0}, {0.2, 0.4, 0.5}, {-0.1, 0.3, 0.7}};
  Eigen::MatrixXd JH = Eigen::MatrixXd::Zero(9, 9);
  for (int i = 0; i < 3; ++i) {
    ChainData d(c);
    fk_and_jacobian(c, postures[i], d);
    JH.block<3, 3>(3 * i, 3 * i) = contacts[i].frame.transpose() * d.jacobian.topRows<3>();
  }
  const SingularityMeasures s0 = singularity_measures(JH.block<3, 3>(0, 0));
  CHECK(s0.rank == 2);
  const Eigen::MatrixXd G = grasp_matrix(contacts, Eigen::Vector3d::Zero());
  const GraspQuality q = grasp_quality(G, JH);
  REQUIRE(q.valid);
  // one singular value is rounding (~eps x 0.1 m), the other eight < 0.1: the product is far below 1e-18
  CHECK(q.manipulability_JH < 1e-18);  // one singular value of J_H is exactly (round-off) zero
  CHECK(std::isfinite(q.sigma_min_HO));
  CHECK(std::isfinite(q.sigma_max_HO));
  CHECK(std::isfinite(q.ellipsoid_volume_HO));
  CHECK(std::isfinite(q.manipulability_JHpGT));
  CHECK_FALSE(std::isnan(q.uniformity_HO));  // +inf is the documented value when sigma_min(H_O) = 0
  const HandObjectMobility mob = hand_object_mobility(contacts, G, JH, 9);
  CHECK(mob.redundant_motions == 1);  // n_hand - rank J_H = 9 - 8: the stretched finger's lost direction
  CHECK(mob.rank_G == 6);
}
