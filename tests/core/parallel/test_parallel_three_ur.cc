// The 3-UR hand of Borras & Dollar on 1,000+ random reachable grasps: closed-chain inverse/forward kinematics,
// Table 1's closed form against the general reciprocal-screw computation, and the equivalence of the grasp and the
// parallel-manipulator frameworks (velocities and statics).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/parallel/parallel_jacobians.h>
#include <mjhand/parallel/parallel_statics.h>
#include <mjhand/parallel/reciprocal_screws.h>
#include <mjhand/parallel/three_ur_kinematics.h>
#include <mjhand/parallel/three_ur_matrices.h>
#include <mjhand/util/dense_decompositions.h>

using namespace mjhand;

namespace {
constexpr int kSamples = 1000;

// The grasp of models/three_ur_hand.xml: object centre on the palm axis, R = I.
ObjectPose nominal_pose() {
  ObjectPose x;
  x.p = Eigen::Vector3d(0, 0, 0.04 * std::sqrt(2.0));
  return x;
}

// Object poses around the nominal grasp: +-15 mm, rotations up to 0.35 rad about a random axis.
ObjectPose random_pose(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> n(0.0, 1.0);
  ObjectPose x = nominal_pose();
  x.p += 0.015 * Eigen::Vector3d(u(rng), u(rng), u(rng));
  const Eigen::Vector3d axis = Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
  x.R = Eigen::AngleAxisd(0.35 * 0.5 * (u(rng) + 1.0), axis).toRotationMatrix();
  return x;
}

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

// S carries a twist about p to one about the origin: T_O = [I p^x; 0 I] T_p (v_O = v_p + w x (O - p)).
Eigen::Matrix<double, 6, 6> twist_p_to_origin(const Eigen::Vector3d& p) {
  Eigen::Matrix<double, 6, 6> S = Eigen::Matrix<double, 6, 6>::Identity();
  S.block<3, 3>(0, 3) = skew(p);
  return S;
}

// Calls f(pose, theta) on kSamples reachable random grasps (seeded); returns how many poses were tried.
template <class F>
int for_random_grasps(unsigned seed, F&& f) {
  std::mt19937 rng(seed);
  const ThreeURHand hand;
  int reachable = 0, tried = 0;
  while (reachable < kSamples) {
    ++tried;
    REQUIRE(tried < 2 * kSamples);
    const ObjectPose x = random_pose(rng);
    const ThreeURInverse ik = three_ur_inverse(hand, x);
    if (!ik.ok()) continue;
    ++reachable;
    f(x, ik.theta);
  }
  return tried;
}

double rel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }
}  // namespace

TEST_CASE("3-UR inverse kinematics closes the loops and forward kinematics recovers the pose", "[parallel]") {
  const ThreeURHand hand;
  double worst_loop = 0, worst_pose = 0, worst_lm = 0, worst_q = 0;
  int max_iter = 0;
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int tried = for_random_grasps(1, [&](const ObjectPose& x, const ThreeURJoints& theta) {
    // Loop equations: each fingertip is on the object's contact circle.
    const auto tips = fingertips(hand, theta);
    for (int i = 0; i < 3; ++i) worst_loop = std::max(worst_loop, (tips[i] - object_contact_point(hand, i, x)).norm());
    // Forward from the fingertips' best fit, and by Levenberg-Marquardt from a start 20 mm / 0.3 rad away.
    const ThreeURForward fk = three_ur_forward(hand, theta);
    REQUIRE(fk.status == ForwardStatus::kConverged);
    worst_pose = std::max({worst_pose, (fk.pose.p - x.p).norm(), (fk.pose.R - x.R).norm() * 0.03});
    ForwardOptions far;
    far.use_initial = true;
    far.initial.p = x.p + 0.02 * Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    far.initial.R = Eigen::AngleAxisd(0.3, Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized()) * x.R;
    const ThreeURForward lm = three_ur_forward(hand, theta, far);
    REQUIRE(lm.status == ForwardStatus::kConverged);
    worst_lm = std::max({worst_lm, (lm.pose.p - x.p).norm(), (lm.pose.R - x.R).norm() * 0.03});
    max_iter = std::max(max_iter, lm.iterations);
    // And back: the recovered pose gives the same angles on the same branch.
    const ThreeURInverse again = three_ur_inverse(hand, lm.pose);
    REQUIRE(again.ok());
    worst_q = std::max(worst_q, (again.theta - theta).cwiseAbs().maxCoeff());
  });
  std::printf("[parallel] IK/FK on %d reachable of %d random poses: loop error %.2g m, FK (Kabsch start) pose error "
              "%.2g m, FK (LM from 20 mm / 0.3 rad) %.2g m in <= %d iterations, IK(FK(q)) - q %.2g rad\n",
              kSamples, tried, worst_loop, worst_pose, worst_lm, max_iter, worst_q);
  // Measured on these grasps (docs/parallel-manipulator.md); the bounds leave room above rounding.
  CHECK(worst_loop < 1e-13);  // measured 4e-17 m
  CHECK(worst_pose < 1e-12);  // measured 4.1e-17 m
  CHECK(worst_lm < 1e-12);  // measured 4.3e-14 m
  CHECK(worst_q < 1e-10);  // measured 7.9e-13 rad
}

TEST_CASE("3-UR kinematics reports unreachable, singular and inconsistent input", "[parallel]") {
  const ThreeURHand hand;
  ObjectPose far = nominal_pose();
  far.p.z() = 0.2;  // 20 cm above the palm: beyond l + d = 11 cm
  const ThreeURInverse ik = three_ur_inverse(hand, far);
  CHECK_FALSE(ik.ok());
  CHECK(ik.status[0] == FingerIKStatus::kUnreachable);
  CHECK(ik.reach_margin[0] < 0);
  CHECK(ik.message.find("finger 0") != std::string::npos);
  CHECK(ik.theta.cwiseAbs().maxCoeff() == 0.0);
  // Contact 1 straight above its palm joint: theta_11 is undefined.
  ObjectPose above = nominal_pose();
  above.p = Eigen::Vector3d(hand.r_p - hand.r_o, 0, 0.05);
  const ThreeURInverse s = three_ur_inverse(hand, above);
  CHECK(s.status[0] == FingerIKStatus::kSingular);
  CHECK(s.message.find("theta_i1") != std::string::npos);
  // The four branches of one finger all close the loop; reach -1 turns theta_i1 by pi.
  const ObjectPose x = nominal_pose();
  const ThreeURInverse base = three_ur_inverse(hand, x);
  for (int reach : {1, -1}) {
    for (int elbow : {1, -1}) {
      ThreeURBranches br;
      br[1] = {reach, elbow};
      const ThreeURInverse b = three_ur_inverse(hand, x, br);
      REQUIRE(b.ok());
      // Closed-form IK of one finger (loop closure 4e-17 m in docs/parallel-manipulator.md); angles: atan2 rounding.
      CHECK((fingertips(hand, b.theta)[1] - object_contact_point(hand, 1, x)).norm() < 1e-15);
      CHECK(b.theta(5) * elbow >= 0);
      if (reach == -1) CHECK(std::abs(std::remainder(b.theta(3) - base.theta(3) - M_PI, 2 * M_PI)) < 1e-12);
    }
  }
  // Nine angles that no pose satisfies (finger 3 turned 0.05 rad about its base axis, which moves its tip 1.5 mm
  // sideways): FK reports the loop error of the best fit, not a pose.
  ThreeURJoints bent = base.theta;
  bent(6) += 0.05;
  const ThreeURForward fk = three_ur_forward(hand, bent);
  std::printf("[parallel] FK of inconsistent angles: %s, loop error %.3g m after %d iterations\n", to_string(fk.status),
              fk.loop_error, fk.iterations);
  CHECK(fk.status == ForwardStatus::kNotClosed);
  CHECK(fk.loop_error > 1e-4);  // measured 0.51 mm (docs/parallel-manipulator.md)
  CHECK(fk.message.find("not consistent") != std::string::npos);
  // Bad input.
  ThreeURJoints nan = base.theta;
  nan(4) = std::nan("");
  CHECK_THROWS_WITH(three_ur_forward(hand, nan), Catch::Contains("not finite"));
  ThreeURHand broken;
  broken.d[2] = -0.01;
  CHECK_THROWS_WITH(three_ur_inverse(broken, x), Catch::Contains("d[2]"));
  ObjectPose skewed = x;
  skewed.R(0, 1) = 0.3;
  CHECK_THROWS_WITH(three_ur_inverse(hand, skewed), Catch::Contains("rotation"));
}

TEST_CASE("Table 1 rows d, e (column 2) equal the general reciprocal-screw computation", "[parallel]") {
  const ThreeURHand hand;
  const Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  double worst_jtheta = 0, worst_recip = 0, worst_map = 0, worst_line = 0;
  for_random_grasps(2, [&](const ObjectPose&, const ThreeURJoints& theta) {
    const ParallelJacobians cf = table1_jacobians(hand, theta);
    const std::vector<Leg> legs = three_ur_legs(hand, theta, origin);
    for (int i = 0; i < 3; ++i) {
      // Row e from row d: the printed reciprocal screws times eq 4's actuated twists give the printed diagonal.
      const Eigen::MatrixXd Jp_i = cf.Jp.middleRows<3>(3 * i);
      const Eigen::Matrix3d computed = Jp_i * legs[i].active;
      worst_jtheta = std::max(worst_jtheta, (computed - cf.JTheta.block<3, 3>(3 * i, 3 * i)).cwiseAbs().maxCoeff());
      // Row d's screws are reciprocal to the passive spherical joint.
      worst_recip = std::max(worst_recip, (Jp_i * legs[i].passive).cwiseAbs().maxCoeff());
    }
    // The general choice (a) finds the same lines (up to scale and sign) and the same J_Theta^-1 J_p.
    const ParallelJacobians gen = parallel_jacobians(legs, origin, ReciprocalChoice::kDiagonal);
    REQUIRE(gen.ok);
    for (int k = 0; k < 9; ++k) {
      const Eigen::VectorXd a = cf.Jp.row(k).normalized(), b = gen.Jp.row(k).normalized();
      worst_line = std::max(worst_line, std::min((a - b).norm(), (a + b).norm()));
    }
    const Eigen::MatrixXd map_cf = twist_to_joint_rates(cf.Jp, cf.JTheta);
    worst_map = std::max(worst_map, rel(twist_to_joint_rates(gen.Jp, gen.JTheta), map_cf));
  });
  std::printf("[parallel] Table 1 col 2 vs general (%d grasps): |row e - (row d o eq 4 twists)| %.2g, row d o passive "
              "%.2g, line directions %.2g, J_Theta^-1 J_p relative %.2g\n",
              kSamples, worst_jtheta, worst_recip, worst_line, worst_map);
  // Measured (docs/parallel-manipulator.md): 1.4e-17, exactly 0, 3.8e-14, 2e-14 (relative).
  CHECK(worst_jtheta < 1e-15);
  CHECK(worst_recip < 1e-15);
  // Unit line directions from two computations (Table 1's formulas, SVD-based choice (a)): rounding times the legs'
  // conditioning, 3.8e-14 worst over the 1000 grasps; 1e-12 = 26x, room for other draws (the old 1e-9: 2.6e4x).
  CHECK(worst_line < 1e-12);
  CHECK(worst_map < 1e-12);
}

TEST_CASE("J_Theta^-1 J_p equals J_H^-1 G^T once the reference moves, the n,t,o screws give J_Theta = J_H, J_p = G^T",
          "[parallel]") {
  const ThreeURHand hand;
  const Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  double worst_a = 0, worst_svd = 0, worst_shift = 0, worst_b_jt = 0, worst_b_jp = 0, worst_b_map = 0, raw_gap = 1e300;
  double min_sigma = 1e300;
  for_random_grasps(3, [&](const ObjectPose& x, const ThreeURJoints& theta) {
    // Grasp framework (Table 1 column 1): G about the object centre p, J_H from eq 3.
    const ThreeURGrasp g = three_ur_grasp(hand, theta, x.p);
    const Eigen::MatrixXd grasp_map = g.JH.inverse() * g.G.transpose();  // J_H^-1 G^T: twist about p -> dTheta
    min_sigma = std::min(min_sigma, g.JH.jacobiSvd().singularValues().minCoeff());
    // Parallel framework with moments about the palm origin (Table 1 column 2, choice (a)).
    const ParallelJacobians Ja = table1_jacobians(hand, theta);
    const Eigen::MatrixXd par_map = Ja.JTheta.inverse() * Ja.Jp;       // twist about the origin -> dTheta
    // The transform: J_Theta^-1 J_p(O) [I p^x; 0 I] = J_H^-1 G^T(p).
    worst_a = std::max(worst_a, rel(par_map * twist_p_to_origin(x.p), grasp_map));
    raw_gap = std::min(raw_gap, rel(par_map, grasp_map));  // without the transform they differ
    // The same by moving J_p's moments to p, and with the SVD choice of reciprocal screws.
    Eigen::MatrixXd Jp_p = Ja.Jp;
    shift_jp_reference(Jp_p, origin, x.p);
    worst_shift = std::max(worst_shift, rel(twist_to_joint_rates(Jp_p, Ja.JTheta), grasp_map));
    const ParallelJacobians Js = parallel_jacobians(three_ur_legs(hand, theta, origin), origin, ReciprocalChoice::kSvd);
    worst_svd = std::max(worst_svd, rel(twist_to_joint_rates(Js.Jp, Js.JTheta) * twist_p_to_origin(x.p), grasp_map));
    // Choice (b): reciprocal screws along n, t, o through c_i, about p: the matrices coincide.
    std::vector<Eigen::MatrixXd> twists;
    for (int i = 0; i < 3; ++i) {
      Eigen::MatrixXd S = Eigen::MatrixXd::Zero(6, 9);
      S.middleCols<3>(3 * i) = three_ur_legs(hand, theta, x.p)[i].active;
      twists.push_back(S);
    }
    const ParallelJacobians Jb = contact_frame_jacobians(g.contacts, twists, x.p);
    worst_b_jt = std::max(worst_b_jt, (Jb.JTheta - g.JH).cwiseAbs().maxCoeff());
    worst_b_jp = std::max(worst_b_jp, (Jb.Jp - g.G.transpose()).cwiseAbs().maxCoeff());
    worst_b_map = std::max(worst_b_map, rel(twist_to_joint_rates(Jb.Jp, Jb.JTheta), grasp_map));
  });
  std::printf("[parallel] equivalence on %d grasps (min sigma(J_H) %.3g m): choice (a) with the reference transform "
              "%.2g (without it >= %.2g), shifted J_p %.2g, SVD choice %.2g; choice (b) |J_Theta - J_H| %.2g m, "
              "|J_p - G^T| %.2g, maps %.2g\n",
              kSamples, min_sigma, worst_a, raw_gap, worst_shift, worst_svd, worst_b_jt, worst_b_jp, worst_b_map);
  // Measured (docs/parallel-manipulator.md): (a) 5.1e-16, SVD 1.4e-14, >= 0.038 apart untransformed, (b) 4.2e-17 m, 0.
  CHECK(worst_a < 1e-12);
  CHECK(worst_shift < 1e-12);  // (a) moved by shift_jp_reference: rounding
  CHECK(worst_svd < 1e-11);
  CHECK(raw_gap > 1e-2);
  CHECK(worst_b_jt < 1e-16);
  CHECK(worst_b_jp < 1e-16);
  CHECK(worst_b_map < 1e-12);  // J_Theta = J_H, J_p = G^T above: the same map
}

TEST_CASE("the static relations of both frameworks give the same wrench for the same torques", "[parallel]") {
  const ThreeURHand hand;
  const Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-0.05, 0.05);  // joint torques [N m]
  double worst = 0, worst_lambda = 0, worst_legs = 0, worst_jpb = 0;
  for_random_grasps(5, [&](const ObjectPose& x, const ThreeURJoints& theta) {
    Eigen::VectorXd tau(9);
    for (int k = 0; k < 9; ++k) tau(k) = u(rng);
    // Grasp: lambda = J_H^-T tau, W = -G lambda (about p).
    const ThreeURGrasp g = three_ur_grasp(hand, theta, x.p);
    const GraspTorqueStatics gs = grasp_wrench_from_torques(g.G, g.JH, tau);
    // Parallel manipulator: W = -J_p^T J_Theta^-T tau about the origin, moved to p.
    const ParallelJacobians Ja = table1_jacobians(hand, theta);
    Eigen::MatrixXd W = platform_wrench(Ja.Jp, Ja.JTheta, tau);
    shift_wrench_reference(W, origin, x.p);
    worst = std::max(worst, (W.col(0) - gs.W).norm() / gs.W.norm());
    // Each finger's wrench (section 2.2: three columns of J_p^T J_Theta^-T times its torques) is -G_i lambda_i.
    const std::vector<Wrench6> legs = leg_wrenches(Ja, tau);
    for (int i = 0; i < 3; ++i) {
      Eigen::MatrixXd Wi = legs[i];
      shift_wrench_reference(Wi, origin, x.p);
      const Eigen::MatrixXd Gi = g.G.middleCols<3>(3 * i);
      worst_legs = std::max(worst_legs, (Wi.col(0) - Gi * gs.lambda.segment<3>(3 * i)).norm() / gs.W.norm());
    }
    // With the n,t,o screws (J_Theta from the reciprocal products with eq 4's twists) the intensities are the
    // contact forces and J_p about p is G^T.
    std::vector<Eigen::MatrixXd> twists;
    for (int i = 0; i < 3; ++i) {
      Eigen::MatrixXd S = Eigen::MatrixXd::Zero(6, 9);
      S.middleCols<3>(3 * i) = three_ur_legs(hand, theta, origin)[i].active;
      twists.push_back(S);
    }
    const ParallelJacobians Jb = contact_frame_jacobians(g.contacts, twists, origin);
    worst_lambda = std::max(worst_lambda, (screw_intensities(Jb.JTheta, tau) - gs.lambda).norm() / gs.lambda.norm());
    Eigen::MatrixXd Jpb = Jb.Jp;
    shift_jp_reference(Jpb, origin, x.p);
    worst_jpb = std::max(worst_jpb, (Jpb - g.G.transpose()).norm());
  });
  std::printf("[parallel] statics on %d grasps: |W_parallel - W_grasp| / |W| %.2g, per finger %.2g, nu - lambda %.2g\n",
              kSamples, worst, worst_legs, worst_lambda);
  // Measured (docs/parallel-manipulator.md): 3.5e-15, 1.8e-15, 8.2e-16 (relative); J_p moved to p: rounding.
  CHECK(worst < 1e-12);
  CHECK(worst_legs < 1e-12);
  CHECK(worst_lambda < 1e-12);
  CHECK(worst_jpb < 1e-14);
}
