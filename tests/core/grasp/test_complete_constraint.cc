// The complete-constraint contact (6 rows, SynGrasp contact type 3): G and J_H against MuJoCo's own kinematics (the
// object's and the finger's mj_jac / finite differences), H, the rank of a welded grasp, and every function that
// switches over ContactModel (friction margin, force optimisation, squeeze distribution, reciprocal screws, wrench
// space refusal, MuJoCo contact forces).
#include <catch2/catch.hpp>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/hand_object/squeeze_distribution.h>
#include <mjhand/parallel/reciprocal_screws.h>
#include <mjhand/util/dense_decompositions.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;

namespace {

// One finger with three hinges about different axes and a slide, a free box object; no collisions needed (the
// contacts are analytic points fixed to the finger tip).
const char* kFingerXml = R"(<mujoco><option gravity="0 0 0"/><worldbody>
  <body name="palm"><body name="f0" pos="0 0 0.1">
    <joint name="a" type="hinge" axis="0 0 1"/><geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.005"/>
    <body name="f1" pos="0.05 0 0" euler="0.3 0.2 0.1"><joint name="b" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.04 0 0" size="0.005"/>
      <body name="tip" pos="0.04 0 0"><joint name="c" type="hinge" axis="1 0 0"/>
        <joint name="s" type="slide" axis="0.3 0.4 0.866"/><geom type="sphere" size="0.01"/></body></body></body></body>
  <body name="object" pos="0.1 0.02 0.08" quat="0.9 0.1 0.3 -0.2"><freejoint/><geom type="box" size="0.02 0.03 0.04"/></body>
  </worldbody></mujoco>)";

Eigen::Matrix3d body_rot(const mjData* d, int b) {
  return Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>>(d->xmat + 9 * b);
}

}  // namespace

TEST_CASE("complete constraint: 6 rows, H = I_6, named, friction limits on the force only", "[complete]") {
  CHECK(contact_rows(ContactModel::kCompleteConstraint) == 6);
  CHECK(kMaxContactRows == 6);
  CHECK(std::string(to_string(ContactModel::kCompleteConstraint)) == "complete constraint");
  Eigen::MatrixXd H(6, 6);
  selection_matrix(ContactModel::kCompleteConstraint, H);
  CHECK(H.isIdentity(0.0));  // exact: a selection of rows of I_6
  // Block-diagonal H of a mixed set: the welded block is I_6, the hard block the first 3 rows of I_6.
  const std::vector<Contact> mixed = {analytic_contact({0, 0, 0}, {1, 0, 0}, ContactModel::kHardFinger),
                                      analytic_contact({1, 0, 0}, {-1, 0, 0}, ContactModel::kCompleteConstraint)};
  const Eigen::MatrixXd Hm = selection_matrix(mixed);
  REQUIRE(Hm.rows() == 9);
  REQUIRE(Hm.cols() == 12);
  CHECK(Hm.block(0, 0, 3, 6) == Eigen::MatrixXd::Identity(3, 6));
  CHECK(Hm.block(3, 6, 6, 6).isIdentity(0.0));
  CHECK(Hm.block(0, 6, 3, 6).isZero(0.0));
  CHECK(total_rows(mixed) == 9);

  // Friction: the force is held to the Coulomb cone, the moments are unlimited (documented choice).
  Contact c = analytic_contact({0, 0, 0}, {0, 0, 1}, ContactModel::kCompleteConstraint, 0.5);
  const double inside[6] = {2.0, 0.3, -0.4, 1e6, -1e6, 1e6};  // |f_t| = 0.5 <= 0.5 * 2: slack min(2, 0.5) = 0.5
  CHECK(friction_cone_margin(c, inside) == Approx(0.5).epsilon(1e-15));
  const double slipping[6] = {1.0, 0.6, 0.8, 0, 0, 0};  // |f_t| = 1 > mu f_n = 0.5: slack -0.5
  CHECK(friction_cone_margin(c, slipping) == Approx(-0.5).epsilon(1e-15));
  Eigen::VectorXd lam(6);
  lam << 2.0, 0.3, -0.4, 5, 5, 5;
  CHECK(in_friction_cones({c}, lam));
  lam(0) = -1;  // pulling
  CHECK_FALSE(in_friction_cones({c}, lam));
}

TEST_CASE("complete constraint: G^T maps the object twist to the contact frame twist MuJoCo computes", "[complete]") {
  auto m = load_xml_string(kFingerXml);
  auto d = make_data(m.get());
  const int obj = mj_name2id(m.get(), mjOBJ_BODY, "object");
  // A random object velocity (free joint: linear velocity of the body origin in world, angular in the body frame).
  for (int i = 0; i < 6; ++i) d->qvel[m->jnt_dofadr[m->body_jntadr[obj]] + i] = 0.3 * std::sin(1.7 * i + 0.4);
  mj_forward(m.get(), d.get());
  const Eigen::Vector3d p(d->xipos + 3 * obj);
  std::vector<Contact> contacts = {
      analytic_contact(p + Eigen::Vector3d(0.02, 0.01, -0.01), Eigen::Vector3d(-1, 0.2, 0.1),
                       ContactModel::kCompleteConstraint),
      analytic_contact(p + Eigen::Vector3d(-0.015, 0.03, 0.02), Eigen::Vector3d(0.3, -1, 0.2),
                       ContactModel::kSoftFinger, 0.5, 0.01)};
  const Eigen::MatrixXd G = grasp_matrix(contacts, p);
  REQUIRE(G.cols() == 10);
  // Independent: MuJoCo's Jacobians of the object's material points at c_i and of its rotation.
  std::vector<mjtNum> jp(3 * m->nv), jr(3 * m->nv);
  Eigen::Map<Eigen::VectorXd> qvel(d->qvel, m->nv);
  HandModel hand;
  hand.object_body = obj;
  hand.object_dof = m->jnt_dofadr[m->body_jntadr[obj]];
  const Eigen::Matrix<double, 6, 1> T = object_twist(m.get(), d.get(), hand, p);
  const Eigen::VectorXd local = G.transpose() * T;
  int row = 0;
  double worst = 0;
  for (const Contact& c : contacts) {
    mjtNum pt[3] = {c.pos.x(), c.pos.y(), c.pos.z()};
    mj_jac(m.get(), d.get(), jp.data(), jr.data(), pt, obj);
    const Eigen::Vector3d v = Eigen::Map<Eigen::Matrix<mjtNum, 3, Eigen::Dynamic, Eigen::RowMajor>>(jp.data(), 3, m->nv) * qvel;
    const Eigen::Vector3d w = Eigen::Map<Eigen::Matrix<mjtNum, 3, Eigen::Dynamic, Eigen::RowMajor>>(jr.data(), 3, m->nv) * qvel;
    Eigen::VectorXd expect(6);  // dynamic: GCC 12 cannot bound head(r) of a fixed 6-vector (false -Warray-bounds)
    expect << c.frame.transpose() * v, c.frame.transpose() * w;
    const int r = contact_rows(c.model);
    worst = std::max(worst, (local.segment(row, r) - expect.head(r)).cwiseAbs().maxCoeff());
    row += r;
  }
  CHECK(worst < 1e-14);  // rounding of a few products of O(0.3) numbers

  // One welded contact constrains all 6 object freedoms: G is 6 x 6 of rank 6; one hard finger only 3.
  const Eigen::MatrixXd G1 = grasp_matrix({contacts[0]}, p);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(G1);
  CHECK(G1.cols() == 6);
  CHECK(svd.singularValues()(5) > 1e-3);  // the smallest is O(moment arm) = O(0.02), far from 0
  Contact hard = contacts[0];
  hard.model = ContactModel::kHardFinger;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd3(grasp_matrix({hard}, p));
  CHECK(svd3.rank() == 3);
  // Choice (b) of the reciprocal-screw view: a welded contact's transmitted wrenches are G_i's columns, and it has
  // no passive joint.
  CHECK((contact_reciprocal_screws(contacts[0], p) - G1).cwiseAbs().maxCoeff() < 1e-15);  // same products, rounding
  CHECK(contact_passive_twists(contacts[0], p).cols() == 0);
}

TEST_CASE("complete constraint: J_H's 6 rows equal finite differences of the finger point and rotation", "[complete]") {
  auto m = load_xml_string(kFingerXml);
  auto d = make_data(m.get());
  for (int j = 0; j < m->njnt - 1; ++j) d->qpos[m->jnt_qposadr[j]] = 0.2 + 0.1 * j;
  mj_forward(m.get(), d.get());
  const int obj = mj_name2id(m.get(), mjOBJ_BODY, "object");
  const HandModel hand = hand_from_finger_roots(m.get(), obj, {mj_name2id(m.get(), mjOBJ_BODY, "f0")});
  REQUIRE(hand.num_hand_dofs() == 4);
  const int tip = mj_name2id(m.get(), mjOBJ_BODY, "tip");
  Contact c = analytic_contact(Eigen::Vector3d(d->xpos + 3 * tip) + Eigen::Vector3d(0.004, -0.006, 0.008),
                               Eigen::Vector3d(0.2, 0.9, -0.3), ContactModel::kCompleteConstraint);
  c.hand_body = tip;
  const Eigen::MatrixXd JH = hand_jacobian(m.get(), d.get(), hand, {c});
  REQUIRE(JH.rows() == 6);
  const Eigen::Vector3d local = body_rot(d.get(), tip).transpose() * (c.pos - Eigen::Vector3d(d->xpos + 3 * tip));
  auto scratch = make_data(m.get());
  const double h = 1e-6;
  double worst = 0;
  for (int k = 0; k < hand.num_hand_dofs(); ++k) {
    const int q = m->jnt_qposadr[m->dof_jntid[hand.dofs[k]]];
    Eigen::Vector3d pos[2];
    Eigen::Matrix3d rot[2];
    for (int s = 0; s < 2; ++s) {
      mj_copyData(scratch.get(), m.get(), d.get());
      scratch->qpos[q] += s ? -h : h;
      mj_kinematics(m.get(), scratch.get());
      rot[s] = body_rot(scratch.get(), tip);
      pos[s] = Eigen::Vector3d(scratch->xpos + 3 * tip) + rot[s] * local;
    }
    const Eigen::Vector3d v = (pos[0] - pos[1]) / (2 * h);
    const Eigen::AngleAxisd aa(rot[0] * rot[1].transpose());
    const Eigen::Vector3d w = aa.angle() * aa.axis() / (2 * h);
    Eigen::Matrix<double, 6, 1> fd;
    fd << c.frame.transpose() * v, c.frame.transpose() * w;
    worst = std::max(worst, (fd - JH.col(k)).cwiseAbs().maxCoeff());
  }
  CHECK(worst < 1e-8);  // central differences: O(h^2) truncation ~1e-12 plus rounding eps/h ~ 2e-10 per entry
}

TEST_CASE("complete constraint: one welded contact holds an offset load with the hand-computed moment", "[complete]") {
  // Contact at the origin, n = +z (t = x, o = y by eq 2's vertical fallback), object centre p = (0.1, 0, 0), weight
  // 2 N. Balance: f = (0, 0, 2) and moment at c = (p - c) x f = (0, -0.2, 0), i.e. m_o = -0.2 N m; the rest zero.
  const std::vector<Contact> c = {analytic_contact({0, 0, 0}, {0, 0, 1}, ContactModel::kCompleteConstraint, 0.5)};
  const Eigen::Vector3d p(0.1, 0, 0);
  const Eigen::MatrixXd G = grasp_matrix(c, p);
  Wrench W;
  W << 0, 0, -2.0, 0, 0, 0;
  Eigen::Matrix<double, 6, 1> expect;
  expect << 2.0, 0, 0, 0, 0, -0.2;
  const ForceDistribution lp = optimal_forces(c, G, W);
  REQUIRE(lp.ok());
  CHECK((lp.lambda - expect).cwiseAbs().maxCoeff() < 1e-9);  // simplex vertex, rounding of GLPK's scaled solve
  CHECK(lp.total_normal_force == Approx(2.0).epsilon(1e-12));
  // The same with the closed-form squeeze distribution (G lambda = -W here: it takes the wrench the hand applies).
  SqueezeWorkspace ws(6);
  Eigen::VectorXd lambda(6);
  SqueezeOptions so;
  so.min_normal_force = 0.1;
  const SqueezeResult sq = squeeze_forces(c.data(), 1, G, -W, so, ws, lambda);
  CHECK(sq.status == SqueezeStatus::kOk);
  CHECK((lambda - expect).cwiseAbs().maxCoeff() < 1e-12);  // 6 x 6 Cholesky solve, rounding
  // A hard finger at the same place cannot hold that moment: the LP says infeasible.
  std::vector<Contact> hard = c;
  hard[0].model = ContactModel::kHardFinger;
  CHECK(optimal_forces(hard, grasp_matrix(hard, p), W).status == ForceStatus::kInfeasible);
}

TEST_CASE("complete constraint: the wrench space refuses it clearly", "[complete]") {
  const std::vector<Contact> c = {analytic_contact({0.05, 0, 0}, {-1, 0, 0}, ContactModel::kCompleteConstraint),
                                  analytic_contact({-0.05, 0, 0}, {1, 0, 0}, ContactModel::kHardFinger)};
  const EpsilonResult e = ferrari_canny(c, Eigen::Vector3d::Zero());
  CHECK(e.status == EpsilonStatus::kInvalidInput);
  CHECK(e.epsilon == 0.0);
  CHECK_THAT(e.message, Catch::Contains("contact 0 is a complete constraint"));
  CHECK_FALSE(is_force_closure(c, Eigen::Vector3d::Zero()));
  Eigen::Matrix<double, 6, Eigen::Dynamic> out(6, 32);
  CHECK_THROWS_AS(primitive_wrenches(c[0], Eigen::Vector3d::Zero(), 8, 1.0, out), std::invalid_argument);
}

TEST_CASE("complete constraint: MuJoCo's contact force gives the full moment in the contact frame", "[complete]") {
  // A box resting on a fixed plate with condim 6 (torsional and rolling friction): forced to the complete model, the
  // contacts' 6-row lambda balances gravity including the moments (the plate pushes, the object weighs 1 kg).
  const char* xml = R"(<mujoco><option timestep="0.002" cone="elliptic" gravity="0 0 -9.81"/><worldbody>
    <body name="palm"><body name="pad" pos="0 0 0"><joint name="j" type="slide" axis="1 0 0" stiffness="1e4" damping="50"/>
      <geom type="box" size="0.05 0.05 0.01" condim="6" friction="1 0.02 0.02"/></body></body>
    <body name="object" pos="0.01 0.005 0.031"><freejoint/>
      <geom type="box" size="0.02 0.02 0.02" mass="1" condim="6" friction="1 0.02 0.02"/></body>
    </worldbody></mujoco>)";
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  for (int i = 0; i < 1500; ++i) mj_step(m.get(), d.get());
  mj_forward(m.get(), d.get());
  const int obj = mj_name2id(m.get(), mjOBJ_BODY, "object");
  const HandModel hand = hand_from_palm(m.get(), obj, mj_name2id(m.get(), mjOBJ_BODY, "palm"));
  std::vector<Contact> contacts;
  contacts.reserve(16);
  ContactOptions opt;
  opt.force_model = true;
  opt.model = ContactModel::kCompleteConstraint;
  opt.tangent = ContactOptions::Tangent::kMuJoCo;
  collect_contacts(m.get(), d.get(), hand, contacts, opt);
  REQUIRE(contacts.size() >= 1);
  Eigen::VectorXd lambda(total_rows(contacts));
  mujoco_contact_forces(m.get(), d.get(), contacts, lambda);
  const Eigen::Vector3d p(d->xipos + 3 * obj);
  const Wrench applied = grasp_matrix(contacts, p) * lambda;
  Wrench weight;
  weight << 0, 0, -9.81, 0, 0, 0;
  // Independent: the moments from MuJoCo's own torque output, world frame, summed with the forces' moments.
  Wrench direct = Wrench::Zero();
  for (const Contact& c : contacts) {
    const mjContact& con = d->contact[c.mj_contact];
    mjtNum f[6];
    mj_contactForce(m.get(), d.get(), c.mj_contact, f);
    const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> F(con.frame);
    const double sign = c.object_geom == con.geom[1] ? 1.0 : -1.0;
    const Eigen::Vector3d fw = sign * F.transpose() * Eigen::Vector3d(f[0], f[1], f[2]);
    direct.head<3>() += fw;
    direct.tail<3>() += (c.pos - p).cross(fw) + sign * F.transpose() * Eigen::Vector3d(f[3], f[4], f[5]);
  }
  CHECK((applied - direct).cwiseAbs().maxCoeff() < 1e-10);  // rounding of rotations of O(10 N) forces
  std::printf("[complete] %zu contacts, applied wrench %.6g %.6g %.6g | %.3g %.3g %.3g\n", contacts.size(), applied(0),
              applied(1), applied(2), applied(3), applied(4), applied(5));
  CHECK((applied + weight).head<3>().norm() < 1e-3 * 9.81);  // at rest after 3 s: residual acceleration < 1e-3 g
  CHECK(applied.tail<3>().norm() < 1e-3 * 9.81 * 0.02);  // no net moment at rest: same 1e-3 g on the 2 cm half size
  // The preallocated per-step path: GraspData for exactly as many contacts as there are holds their 6 rows each.
  GraspData gd(m.get(), hand, static_cast<int>(contacts.size()));
  GraspOptions go;
  go.contacts = opt;
  compute_grasp(m.get(), d.get(), hand, gd, go);
  REQUIRE(gd.rows == 6 * static_cast<int>(contacts.size()));
  CHECK((gd.G() - grasp_matrix(contacts, gd.reference)).cwiseAbs().maxCoeff() == 0.0);  // same contacts, same code
  CHECK((gd.JH() - hand_jacobian(m.get(), d.get(), hand, contacts)).cwiseAbs().maxCoeff() == 0.0);
}
