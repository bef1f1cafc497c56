// Grasp analysis against MuJoCo: G from MuJoCo's contacts vs the analytic G, J_H from mj_jac vs finite differences,
// and an object held under gravity by the optimal contact forces turned into joint torques.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/util/dense_decompositions.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;

namespace {
constexpr double kR = 0.04;      // object sphere radius [m]
constexpr double kTip = 0.01;    // fingertip sphere radius [m]
constexpr double kLink = 0.06;   // root-to-tip distance [m]
const Eigen::Vector3d kCenter(0, 0, 0.3);

// Unit direction from the object centre to finger k's planned contact (azimuth 90 k deg, elevation below the equator
// so the normals also push up).
Eigen::Vector3d contact_dir(int k) {
  const double az = M_PI / 2 * k + 0.1 * k, el = -0.25 - 0.05 * k;
  return Eigen::Vector3d(std::cos(el) * std::cos(az), std::cos(el) * std::sin(az), std::sin(el));
}

// Four fingers (hinge, hinge, slide) with spherical tips touching a free sphere at the planned points with
// penetration `depth`. Elliptic cones: friction is the Coulomb cone the LP's inscribed pyramid is tested against, and
// mj_contactForce returns (f_n, f_t1, f_t2) directly. impratio 10 stiffens friction against creep.
std::string four_finger_xml(double depth, bool gravity, int condim) {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco><option timestep=\"0.001\" cone=\"elliptic\" impratio=\"10\" gravity=\"0 0 "
    << (gravity ? -9.81 : 0.0) << "\"/><worldbody><body name=\"palm\">";
  for (int k = 0; k < 4; ++k) {
    const Eigen::Vector3d u = contact_dir(k);
    const Eigen::Vector3d root = kCenter + (kR + kTip - depth + kLink) * u;
    const Eigen::Vector3d xa = -u;
    const Eigen::Vector3d ya = Eigen::Vector3d(-u.y(), u.x(), 0).normalized();
    x << "<body name=\"f" << k << "\" pos=\"" << root.x() << " " << root.y() << " " << root.z() << "\" xyaxes=\""
      << xa.x() << " " << xa.y() << " " << xa.z() << " " << ya.x() << " " << ya.y() << " " << ya.z() << "\">"
      << "<joint name=\"f" << k << "_yaw\" type=\"hinge\" axis=\"0 0 1\" damping=\"0.02\"/>"
      << "<joint name=\"f" << k << "_pitch\" type=\"hinge\" axis=\"0 1 0\" damping=\"0.02\"/>"
      << "<geom type=\"capsule\" fromto=\"0 0 0 " << 0.6 * kLink << " 0 0\" size=\"0.004\" mass=\"0.02\" contype=\"0\" "
         "conaffinity=\"0\"/>"
      << "<body name=\"f" << k << "_tip\" pos=\"" << kLink << " 0 0\">"
      << "<joint name=\"f" << k << "_slide\" type=\"slide\" axis=\"1 0 0\" damping=\"0.5\"/>"
      << "<geom name=\"tip" << k << "\" type=\"sphere\" size=\"" << kTip << "\" mass=\"0.01\" contype=\"2\" "
         "conaffinity=\"1\" condim=\"" << condim << "\" friction=\"1 0.005 0.0001\"/></body></body>";
  }
  x << "</body><body name=\"object\" pos=\"" << kCenter.x() << " " << kCenter.y() << " " << kCenter.z() << "\">"
    << "<freejoint/><geom name=\"ball\" type=\"sphere\" size=\"" << kR << "\" mass=\"0.1\" contype=\"1\" "
       "conaffinity=\"2\" condim=\""
    << condim << "\" friction=\"1 0.005 0.0001\"/></body></worldbody></mujoco>";
  return x.str();
}

HandModel four_finger_hand(const mjModel* m) {
  return hand_from_palm(m, mj_name2id(m, mjOBJ_BODY, "object"), mj_name2id(m, mjOBJ_BODY, "palm"));
}

void sort_by_finger(std::vector<Contact>& c) {
  std::sort(c.begin(), c.end(), [](const Contact& a, const Contact& b) { return a.finger < b.finger; });
}
}  // namespace

// The four-finger hand holding its free ball under gravity (fingertips 2e-4 m deep, condim 3) after mj_forward,
// with its four contacts, G and J_H.
struct HeldBall {
  ModelPtr m = load_xml_string(four_finger_xml(2e-4, true, 3));
  DataPtr d = forwarded(m.get());
  HandModel hand = four_finger_hand(m.get());
  GraspData gd = grasped(m.get(), d.get(), hand);

  static DataPtr forwarded(const mjModel* model) {
    DataPtr data = make_data(model);
    mj_forward(model, data.get());
    return data;
  }
  static GraspData grasped(const mjModel* model, const mjData* data, const HandModel& h) {
    GraspData g(model, h, 16);
    compute_grasp(model, data, h, g);
    REQUIRE(g.contacts.size() == 4);
    return g;
  }
};

TEST_CASE("G from MuJoCo's contacts equals the analytic G at the planned contact points", "[grasp]") {
  const double depth = 2e-6;
  for (int condim : {3, 4}) {
    auto m = load_xml_string(four_finger_xml(depth, false, condim));
    auto d = make_data(m.get());
    mj_forward(m.get(), d.get());
    const HandModel hand = four_finger_hand(m.get());
    REQUIRE(hand.num_fingers() == 4);
    REQUIRE(hand.num_hand_dofs() == 12);
    std::vector<Contact> mj;
    mj.reserve(16);
    const ContactScan scan = collect_contacts(m.get(), d.get(), hand, mj);
    REQUIRE(scan.kept == 4);
    sort_by_finger(mj);
    std::vector<Contact> planned;
    for (int k = 0; k < 4; ++k) {
      const Eigen::Vector3d u = contact_dir(k);
      planned.push_back(analytic_contact(kCenter + kR * u, -u,
                                         condim == 3 ? ContactModel::kHardFinger : ContactModel::kSoftFinger));
      CHECK(mj[k].finger == k);
      CHECK(mj[k].model == planned[k].model);
      CHECK(mj[k].mu == Approx(1.0));  // the model's values, parsed back
      CHECK(mj[k].mu_torsion == Approx(0.005));
    }
    const Eigen::MatrixXd Gmj = grasp_matrix(mj, kCenter);
    const Eigen::MatrixXd Gan = grasp_matrix(planned, kCenter);
    const double diff = (Gmj - Gan).cwiseAbs().maxCoeff();
    std::printf("[grasp] condim %d: max |G_mujoco - G_analytic| = %.3g (contact at mid-penetration, depth %.1g m)\n",
                condim, diff, depth);
    CHECK(diff < 2e-6);  // MuJoCo's point is depth/2 inside the surface: moment arms differ by 1e-6 m
    // the normal from the two sphere centres (17-digit text, 0.05 m apart): rounding ~1e-15; docs/grasp-analysis.md:
    // normals agree to 1e-9
    CHECK((mj[0].frame.col(0) - planned[0].frame.col(0)).norm() < 1e-9);
    // Keeping MuJoCo's tangents changes t, o but not n or the span of G.
    std::vector<Contact> own;
    own.reserve(16);
    ContactOptions keep;
    keep.tangent = ContactOptions::Tangent::kMuJoCo;
    collect_contacts(m.get(), d.get(), hand, own, keep);
    sort_by_finger(own);
    // the same normal, re-orthonormalised with MuJoCo's tangents: rounding
    CHECK((own[0].frame.col(0) - mj[0].frame.col(0)).norm() < 1e-14);
    CHECK(own[0].frame.determinant() == Approx(1.0));  // an orthonormal frame: rounding
  }
}

TEST_CASE("J_H from mj_jac equals finite differences of the contact points, block-diagonal by finger", "[grasp]") {
  auto m = load_xml_string(four_finger_xml(1e-4, false, 4));
  auto d = make_data(m.get());
  // A posture away from the zero pose so that no column is trivially aligned.
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_HINGE) d->qpos[m->jnt_qposadr[j]] = 0.05 * (j % 3) - 0.03;
  }
  mj_forward(m.get(), d.get());
  const HandModel hand = four_finger_hand(m.get());
  GraspData gd(m.get(), hand, 16);
  compute_grasp(m.get(), d.get(), hand, gd);
  std::vector<Contact> contacts = gd.contacts;
  REQUIRE(contacts.size() == 4);
  const Eigen::MatrixXd JH = hand_jacobian(m.get(), d.get(), hand, contacts);
  // Finite differences: the material point c_i of the finger body, and the body's rotation for the torsion row.
  const double h = 1e-6;
  auto scratch = make_data(m.get());
  double worst = 0, off_block = 0;
  for (int col = 0; col < hand.num_hand_dofs(); ++col) {
    const int dof = hand.dofs[col];
    const int q = m->jnt_qposadr[m->dof_jntid[dof]];
    Eigen::Vector3d pos[2];
    Eigen::Matrix3d rot[2];
    int row = 0;
    for (size_t i = 0; i < contacts.size(); ++i) {
      const Contact& c = contacts[i];
      const int b = c.hand_body;
      const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R0(d->xmat + 9 * b);
      const Eigen::Vector3d local = R0.transpose() * (c.pos - Eigen::Vector3d(d->xpos + 3 * b));
      for (int s = 0; s < 2; ++s) {
        mj_copyData(scratch.get(), m.get(), d.get());
        scratch->qpos[q] += s ? -h : h;
        mj_kinematics(m.get(), scratch.get());
        const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(scratch->xmat + 9 * b);
        rot[s] = R;
        pos[s] = Eigen::Vector3d(scratch->xpos + 3 * b) + R * local;
      }
      const Eigen::Vector3d v = (pos[0] - pos[1]) / (2 * h);
      const Eigen::Matrix3d A = rot[0] * rot[1].transpose();
      const Eigen::Vector3d w = Eigen::Vector3d(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1)) / (4 * h);
      Eigen::Vector4d fd;
      fd.head<3>() = c.frame.transpose() * v;
      fd(3) = c.normal().dot(w);
      for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(fd(r) - JH(row + r, col)));
      if (hand.finger_of_body[m->dof_bodyid[dof]] != c.finger) off_block = std::max(off_block, JH.block(row, col, 4, 1).norm());
      row += 4;
    }
  }
  std::printf("[grasp] max |J_H - finite differences| = %.3g, off-finger block max = %.3g\n", worst, off_block);
  // central differences, h = 1e-6: truncation ~h^2, cancellation eps x 0.35 m / h ~ 1e-10 (positions 0.3-0.4 m);
  // docs/grasp-analysis.md: measured 3.3e-11
  CHECK(worst < 1e-8);
  CHECK(off_block == 0.0);
  CHECK((gd.JH() - JH).norm() == 0.0);
  // Velocity closure: a joint motion that keeps contact moves the contact points as G^T T = J_H dq predicts
  // (checked here only as consistency of shapes and the quality measures being finite).
  const GraspQuality q = grasp_quality(gd.G(), gd.JH());
  CHECK(q.valid);
  CHECK(q.sigma_min_G > 0);
  CHECK(std::isfinite(q.uniformity_HO));
}

TEST_CASE("contacts on a body of no finger are reported, not analysed, a fixed object has no twist", "[grasp]") {
  auto m = load_xml_string(four_finger_xml(1e-4, false, 3));
  auto d = make_data(m.get());
  mj_forward(m.get(), d.get());
  // Only fingers 0 and 1 are declared: contacts of fingers 2 and 3 count as object_other.
  const HandModel two = hand_from_finger_roots(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "object"),
                                               {mj_name2id(m.get(), mjOBJ_BODY, "f0"), mj_name2id(m.get(), mjOBJ_BODY, "f1")});
  std::vector<Contact> c;
  c.reserve(8);
  const ContactScan scan = collect_contacts(m.get(), d.get(), two, c);
  CHECK(scan.kept == 2);
  CHECK(scan.object_other == 2);
  Contact stray = c[0];
  stray.hand_body = mj_name2id(m.get(), mjOBJ_BODY, "f3_tip");
  CHECK_THROWS_AS(hand_jacobian(m.get(), d.get(), two, std::vector<Contact>{stray}), GraspError);
  CHECK_THROWS_AS(hand_from_palm(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "f0_tip"), mj_name2id(m.get(), mjOBJ_BODY, "f0")),
                  GraspError);
  CHECK_THROWS_AS(hand_from_finger_roots(m.get(), 999, {1}), GraspError);
  // An object welded to the world: contacts and G still work, but it has no free joint to give a twist.
  HandModel fixed = two;
  fixed.object_dof = -1;
  CHECK_THROWS_AS(object_twist(m.get(), d.get(), fixed, kCenter), GraspError);
  // No contacts at all (fingers pulled back): empty G, quality invalid with a message, epsilon kNoContacts.
  auto far = load_xml_string(four_finger_xml(-0.01, false, 3));
  auto df = make_data(far.get());
  mj_forward(far.get(), df.get());
  const HandModel hf = four_finger_hand(far.get());
  GraspData gd(far.get(), hf, 8);
  compute_grasp(far.get(), df.get(), hf, gd);
  CHECK(gd.rows == 0);
  CHECK_FALSE(grasp_quality(gd.G(), gd.JH()).valid);
  CHECK(ferrari_canny(gd.contacts, gd.reference).status == EpsilonStatus::kNoContacts);
}

TEST_CASE("optimal forces through J_H^T hold the object under gravity in MuJoCo", "[grasp]") {
  HeldBall held;
  auto& [m, d, hand, gd] = held;
  const double mass = m->body_mass[hand.object_body];
  Wrench Wg = Wrench::Zero();
  Wg(2) = -mass * 9.81;  // gravity about the centre of mass
  ForceOptimizationOptions opt;
  opt.min_normal_force = 1.0;
  const ForceDistribution f = optimal_forces(gd.contacts, gd.G(), Wg, opt);
  REQUIRE(f.ok());
  const Eigen::VectorXd tau = gd.JH().transpose() * f.lambda;
  const Eigen::Vector3d p0(d->xpos + 3 * hand.object_body);
  const std::vector<mjtNum> q0(d->qpos, d->qpos + m->nq);
  double drift = 0;
  Eigen::VectorXd tau_net = tau;
  for (int step = 0; step < 1000; ++step) {
    mju_zero(d->qfrc_applied, m->nv);
    // Gravity compensation of the fingers from the previous step's bias forces (velocities stay ~0).
    // Pure torque control has no stiffness: any round-off in the balance grows (observed: the ball is dropped after
    // 0.5 s). A weak joint-space PD about the start posture (zero at equilibrium) gives the hold a restoring force.
    for (int k = 0; k < hand.num_hand_dofs(); ++k) {
      const int v = hand.dofs[k];
      const int jnt = m->dof_jntid[v];
      const double kp = m->jnt_type[jnt] == mjJNT_SLIDE ? 200.0 : 2.0;
      const double pd = kp * (q0[m->jnt_qposadr[jnt]] - d->qpos[m->jnt_qposadr[jnt]]);
      d->qfrc_applied[v] = tau(k) + d->qfrc_bias[v] + pd;
      tau_net(k) = tau(k) + pd;
    }
    mj_step(m.get(), d.get());
    drift = std::max(drift, (Eigen::Vector3d(d->xpos + 3 * hand.object_body) - p0).norm());
  }
  mj_forward(m.get(), d.get());
  std::vector<Contact> now;
  now.reserve(16);
  collect_contacts(m.get(), d.get(), hand, now);
  REQUIRE(now.size() == 4);
  const Eigen::Vector3d com = object_center(d.get(), hand);
  const Eigen::MatrixXd G = grasp_matrix(now, com);
  Eigen::VectorXd lam(total_rows(now));
  mujoco_contact_forces(m.get(), d.get(), now, lam);
  const double wrench_residual = (balanced_wrench(G, lam) - Wg).norm();
  // The joints balance MuJoCo's contact forces: J_H^T lambda_mj = applied torque minus gravity compensation.
  const Eigen::MatrixXd JH_now = hand_jacobian(m.get(), d.get(), hand, now);
  const double torque_residual = (JH_now.transpose() * lam - tau_net).norm();
  // Why MuJoCo's forces differ from the optimum, finger by finger (one hard contact and three joints each, so J_i is
  // 3 x 3 and J_H block-diagonal): tau_i = J_i,0^T lambda_opt,i + pd_i is applied and J_i^T lambda_mj,i = tau_i at the
  // end, hence lambda_mj,i = lambda_opt,i + J_i^-T pd_i + J_i^-T ((J_i,0 - J_i)^T lambda_opt,i + e_i) with e_i the
  // torque residual. The PD share J_i^-T pd_i and the share of J_i's change over the hold are computed from the
  // Jacobians; what is left of the difference must be within |J_i^-T| |e_i|: no tolerance chosen by hand. (Measured:
  // differences 0.24-0.33 N, PD shares 0.25-0.33 N, rests 0.004-0.012 N.)
  double lambda_diff = 0, pd_share = 0;
  for (size_t i = 0; i < now.size(); ++i) {
    const int k = now[i].finger;
    size_t j = 0;
    while (j < gd.contacts.size() && gd.contacts[j].finger != k) ++j;
    REQUIRE(j < gd.contacts.size());
    std::vector<int> cols;
    for (int c = 0; c < hand.num_hand_dofs(); ++c) {
      if (hand.finger_of_body[m->dof_bodyid[hand.dofs[c]]] == k) cols.push_back(c);
    }
    REQUIRE(cols.size() == 3);
    Eigen::Matrix3d J, J0;
    Eigen::Vector3d pd, e;
    for (int c = 0; c < 3; ++c) {
      J.col(c) = JH_now.block(3 * i, cols[c], 3, 1);
      J0.col(c) = gd.JH().block(3 * j, cols[c], 3, 1);
      pd(c) = tau_net(cols[c]) - tau(cols[c]);
    }
    const Eigen::Vector3d lam_mj = lam.segment<3>(3 * i), lam_opt = f.lambda.segment<3>(3 * j);
    e = J.transpose() * lam_mj - (J0.transpose() * lam_opt + pd);
    const Eigen::Vector3d explained = J.transpose().fullPivLu().solve(pd);
    const Eigen::Vector3d rest = lam_mj - lam_opt - explained;
    const double inv_norm = 1.0 / Eigen::JacobiSVD<Eigen::Matrix3d>(J).singularValues()(2);  // |J^-T|
    const Eigen::Vector3d drift_share = J.transpose().fullPivLu().solve((J0 - J).transpose() * lam_opt);
    const double bound = drift_share.norm() + inv_norm * e.norm();
    INFO("finger " << k << ": |lambda_mj - lambda_opt| = " << (lam_mj - lam_opt).norm() << " N, PD share "
                   << explained.norm() << " N, rest " << rest.norm() << " N, bound " << bound << " N");
    CHECK(rest.norm() <= bound * (1 + 1e-9) + 1e-12);  // slack for the 3x3 solves' rounding
    lambda_diff = std::max(lambda_diff, (lam_mj - lam_opt).norm());
    pd_share = std::max(pd_share, explained.norm());
  }
  std::printf("[grasp] hold: weight %.4f N, optimal sum f_n %.4f N, object drift over 1 s %.3g m, "
              "|-G lambda_mj - W| = %.3g N, |J_H^T lambda_mj - tau| = %.3g N m, max |lambda_mj - lambda_opt| = %.3g N, "
              "of which PD share up to %.3g N\n",
              mass * 9.81, f.total_normal_force, drift, wrench_residual, torque_residual, lambda_diff, pd_share);
  // docs/grasp-analysis.md: measured drift 0.21 mm, |-G lambda_mj - W| 7.8e-6 N (only the ball's residual acceleration
  // enters; 1 % of its weight allowed), |J_H^T lambda_mj - tau| 3.4e-4 N m (tolerance 1e-2 stated there)
  CHECK(drift < 1e-3);
  CHECK(wrench_residual < 1e-2 * mass * 9.81);
  CHECK(torque_residual < 1e-2);
  // MuJoCo's elliptic-cone forces lie in the cone by construction (measured smallest slack 0.68 N at the end of the
  // hold): 1e-9 N is rounding slack.
  CHECK(in_friction_cones(now, lam, 1e-9));
}

TEST_CASE("mujoco_normal_force_sum is the sum of mj_contactForce's normal components over the grasp contacts",
          "[grasp]") {
  auto m = load_xml_string(four_finger_xml(1e-4, false, 3));
  auto d = make_data(m.get());
  mj_forward(m.get(), d.get());
  for (int i = 0; i < 50; ++i) mj_step(m.get(), d.get());  // contacts loaded
  mj_forward(m.get(), d.get());
  const HandModel hand = four_finger_hand(m.get());
  std::vector<Contact> c;
  c.reserve(16);
  collect_contacts(m.get(), d.get(), hand, c);
  REQUIRE(c.size() >= 2);
  double expected = 0.0;
  mjtNum f6[6];
  for (const Contact& k : c) {
    mj_contactForce(m.get(), d.get(), k.mj_contact, f6);  // normal along MuJoCo's frame[0], >= 0 on the other geom
    expected += f6[0];
  }
  REQUIRE(expected > 0.0);
  // The same normal, rotated into the grasp frame and sign-flipped as needed: rounding of a 3 x 3 rotation.
  CHECK(mujoco_normal_force_sum(m.get(), d.get(), c) == Approx(expected).epsilon(1e-12));
  CHECK(mujoco_normal_force_sum(m.get(), d.get(), {}) == 0.0);
}

TEST_CASE("the C++ functions refuse contacts of another step and cone_edges outside 3..64", "[grasp]") {
  HeldBall held;
  auto& [m, d, hand, gd] = held;
  const std::vector<Contact>& c = gd.contacts;
  Eigen::VectorXd lambda(total_rows(c));
  REQUIRE_NOTHROW(mujoco_contact_forces(m.get(), d.get(), c, lambda));

  // Data without these contacts (the hand removed from the object): every index is out of range. Renumbered pairs
  // are the silent case: two contacts (of different geom pairs) with their indices swapped.
  auto apart = make_data(m.get());
  apart->qpos[m->jnt_qposadr[m->body_jntadr[hand.object_body]] + 2] += 1.0;  // the free object 1 m up
  mj_forward(m.get(), apart.get());
  REQUIRE(apart->ncon < static_cast<int>(c.size()));
  CHECK_THROWS_WITH(mujoco_contact_forces(m.get(), apart.get(), c, lambda),
                    Catch::Contains("is not a contact of this data"));
  std::vector<Contact> swapped = c;
  REQUIRE((c[1].hand_geom != c[0].hand_geom || c[1].object_geom != c[0].object_geom));
  std::swap(swapped[0].mj_contact, swapped[1].mj_contact);
  CHECK_THROWS_WITH(mujoco_contact_forces(m.get(), d.get(), swapped, lambda),
                    Catch::Contains("contacts[0] is not a contact of this data"));
  double lambda_i[6];
  CHECK_THROWS_AS(mujoco_contact_force(m.get(), d.get(), swapped[1], lambda_i), GraspError);
  Contact analytic = c[0];
  analytic.mj_contact = -1;
  CHECK_THROWS_AS(mujoco_contact_force(m.get(), d.get(), analytic, lambda_i), GraspError);

  // cone_edges: the status-returning analyses report invalid input (nothing allocated for 2^30 edges), the bool one
  // throws; the bounds themselves are accepted.
  for (int edges : {2, 65, 1 << 30}) {
    WrenchSpaceOptions wo;
    wo.cone_edges = edges;
    const EpsilonResult e = ferrari_canny(c, gd.reference, wo);
    CHECK(e.status == EpsilonStatus::kInvalidInput);
    CHECK_THAT(e.message, Catch::Contains("cone_edges must be in 3..64, got " + std::to_string(edges)));
    ForceOptimizationOptions fo;
    fo.cone_edges = edges;
    CHECK(optimal_forces(c, gd.G(), Wrench::Zero(), fo).status == ForceStatus::kInvalidInput);
    CHECK_THROWS_WITH(is_force_closure(c, gd.reference, edges), Catch::Contains("cone_edges must be in 3..64"));
    CHECK_THROWS_AS(require_cone_edges(edges), GraspError);
  }
  for (int edges : {kMinConeEdges, kMaxConeEdges}) {
    WrenchSpaceOptions wo;
    wo.cone_edges = edges;
    CHECK(ferrari_canny(c, gd.reference, wo).status != EpsilonStatus::kInvalidInput);
    CHECK_NOTHROW(is_force_closure(c, gd.reference, edges));
    CHECK(require_cone_edges(edges) == edges);
  }
}
