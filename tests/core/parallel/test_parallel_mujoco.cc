// The 3-UR hand model (models/three_ur_hand.xml) against plugin/parallel: the file's numbers, finger kinematics vs
// MuJoCo's sites and Jacobians, G and J_H from MuJoCo's contacts vs both frameworks, an object held under gravity by
// the optimal forces, mobility, and parallel_view on any MuJoCo grasp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/mobility.h>
#include <mjhand/parallel/grasp_equivalence.h>
#include <mjhand/parallel/parallel_statics.h>
#include <mjhand/parallel/three_ur_kinematics.h>
#include <mjhand/parallel/three_ur_matrices.h>
#include <mjhand/util/dense_decompositions.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_file;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {
constexpr double kTipRadius = 0.008;  // the pads' radius r_t in the model [m]

mjhand::ModelPtr load_hand() { return load_xml_file(source_path("models/three_ur_hand.xml")); }

int id(const mjModel* m, mjtObj type, const std::string& name) {
  const int i = mj_name2id(m, type, name.c_str());
  REQUIRE(i >= 0);
  return i;
}

std::string finger(int i, const char* suffix) { return "f" + std::to_string(i + 1) + suffix; }

// Overlap of pad and object at the keyframe: the object's radius is r_o + delta/2.
double overlap(const mjModel* m, const ThreeURHand& hand) {
  return 2.0 * (m->geom_size[3 * id(m, mjOBJ_GEOM, "object")] - hand.r_o);
}

// The grasp HandModel of three_ur_hand.xml: the palm's children are the fingers.
HandModel three_ur_hand_model(const mjModel* m) {
  return hand_from_palm(m, id(m, mjOBJ_BODY, "object"), id(m, mjOBJ_BODY, "palm"));
}

ObjectPose keyframe_pose(const mjModel* m) {
  const int key = id(m, mjOBJ_KEY, "grasp");
  const mjtNum* q = m->key_qpos + key * m->nq + 9;
  ObjectPose x;
  x.p = Eigen::Vector3d(q[0], q[1], q[2]);
  x.R = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).toRotationMatrix();
  return x;
}

// Sets the 9 finger angles and the object pose, and moves each pad so that its surface reaches delta/2 past c_i
// along n_i (as the keyframe's pads do): MuJoCo's contact point, the middle of the overlap, is then exactly c_i.
void pose_grasp(mjModel* m, mjData* d, const ThreeURHand& hand, const ThreeURJoints& theta, const ObjectPose& x) {
  for (int k = 0; k < 9; ++k) d->qpos[k] = theta(k);
  const Eigen::Quaterniond q(x.R);
  const mjtNum obj[7] = {x.p.x(), x.p.y(), x.p.z(), q.w(), q.x(), q.y(), q.z()};
  for (int k = 0; k < 7; ++k) d->qpos[9 + k] = obj[k];
  mj_kinematics(m, d);
  const double delta = overlap(m, hand);
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d c = object_contact_point(hand, i, x);
    const Eigen::Vector3d n = (x.p - c).normalized();
    const Eigen::Vector3d s = c - (kTipRadius - delta / 2) * n;
    const int b = id(m, mjOBJ_BODY, finger(i, "_distal"));
    const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(d->xmat + 9 * b);
    const Eigen::Vector3d local = R.transpose() * (s - Eigen::Vector3d(d->xpos + 3 * b));
    mjtNum* gp = m->geom_pos + 3 * id(m, mjOBJ_GEOM, finger(i, "_pad"));
    for (int k = 0; k < 3; ++k) gp[k] = local(k);
  }
  mj_forward(m, d);
}

// Contacts by finger (MuJoCo's order is its own), with G about the object centre and J_H for that order.
struct MjGrasp {
  std::vector<Contact> contacts;
  Eigen::Vector3d p;
  Eigen::MatrixXd G, JH;
};
MjGrasp mujoco_grasp(const mjModel* m, const mjData* d, const HandModel& hand) {
  MjGrasp g;
  g.contacts.reserve(16);
  collect_contacts(m, d, hand, g.contacts);
  std::sort(g.contacts.begin(), g.contacts.end(), [](const Contact& a, const Contact& b) { return a.finger < b.finger; });
  g.p = object_center(d, hand);
  g.G = grasp_matrix(g.contacts, g.p);
  g.JH = hand_jacobian(m, d, hand, g.contacts);
  return g;
}

double rel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }
}  // namespace

TEST_CASE("the model file matches ThreeURHand's dimensions and the keyframe is the inverse kinematics of its grasp",
          "[parallel]") {
  auto m = load_hand();
  const ThreeURHand hand;
  REQUIRE(m->nq == 16);
  REQUIRE(m->nu == 9);
  const double delta = overlap(m.get(), hand);
  CHECK(delta > 0);
  CHECK(delta < 1e-3);  // the model's overlap is 0.7 mm (docs/parallel-manipulator.md)
  // The file prints 17 significant digits: 1e-15 m (1e-14 relative) is the rounding of recomputing its numbers.
  for (int i = 0; i < 3; ++i) {
    const Eigen::Map<const Eigen::Vector3d> base(m->body_pos + 3 * id(m.get(), mjOBJ_BODY, finger(i, "_base")));
    CHECK((base - hand.a(i)).norm() < 1e-15);
    const Eigen::Map<const Eigen::Vector3d> prox(m->body_pos + 3 * id(m.get(), mjOBJ_BODY, finger(i, "_proximal")));
    CHECK(prox.norm() == 0.0);
    const Eigen::Map<const Eigen::Vector3d> dist(m->body_pos + 3 * id(m.get(), mjOBJ_BODY, finger(i, "_distal")));
    CHECK((dist - Eigen::Vector3d(hand.l[i], 0, 0)).norm() < 1e-15);
    const Eigen::Map<const Eigen::Vector3d> tip(m->site_pos + 3 * id(m.get(), mjOBJ_SITE, finger(i, "_tip")));
    CHECK((tip - Eigen::Vector3d(hand.d[i], 0, 0)).norm() < 1e-15);
    const int pad = id(m.get(), mjOBJ_GEOM, finger(i, "_pad"));
    CHECK(m->geom_size[3 * pad] == kTipRadius);
    CHECK(m->geom_pos[3 * pad] == Approx(hand.d[i] - kTipRadius + delta / 2).epsilon(1e-14));
    const Eigen::Map<const Eigen::Vector3d> oc(m->site_pos + 3 * id(m.get(), mjOBJ_SITE, "object_c" + std::to_string(i + 1)));
    CHECK((oc - hand.c_local(i)).norm() < 1e-15);
    const Eigen::Vector3d axes[3] = {Eigen::Vector3d::UnitZ(), -Eigen::Vector3d::UnitY(), -Eigen::Vector3d::UnitY()};
    for (int j = 0; j < 3; ++j) {
      const int jnt = id(m.get(), mjOBJ_JOINT, finger(i, ("_j" + std::to_string(j + 1)).c_str()));
      CHECK(m->jnt_qposadr[jnt] == 3 * i + j);  // qpos = Theta of eq 1
      CHECK((Eigen::Map<const Eigen::Vector3d>(m->jnt_axis + 3 * jnt) - axes[j]).norm() == 0.0);
      const int act = id(m.get(), mjOBJ_ACTUATOR, finger(i, ("_m" + std::to_string(j + 1)).c_str()));
      CHECK(m->actuator_trnid[2 * act] == jnt);
      CHECK(m->actuator_gear[6 * act] == 1.0);
      CHECK(m->actuator_ctrllimited[act] == 0);
    }
  }
  const int key = id(m.get(), mjOBJ_KEY, "grasp");
  const ObjectPose x = keyframe_pose(m.get());
  const ThreeURInverse ik = three_ur_inverse(hand, x);
  REQUIRE(ik.ok());
  // The keyframe prints 17 digits; the IK's acos/atan2 round to a few ulp of pi (4.4e-16 rad).
  for (int k = 0; k < 9; ++k) CHECK(m->key_qpos[key * m->nq + k] == Approx(ik.theta(k)).margin(1e-15));
  // The documented grasp: distal links horizontal (theta_i2 + theta_i3 = 0), so the pads face the object.
  // 1e-15 rad: t3 = -t2 up to rounding (pi is 4.4e-16 per ulp).
  for (int i = 0; i < 3; ++i) CHECK(std::abs(ik.theta(3 * i + 1) + ik.theta(3 * i + 2)) < 1e-15);
}

TEST_CASE("finger kinematics and eq 4 twists equal MuJoCo's sites, bodies, axes and mj_jac", "[parallel]") {
  auto m = load_hand();
  auto d = make_data(m.get());
  const ThreeURHand hand;
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> u(-M_PI, M_PI);
  std::vector<mjtNum> jacp(3 * m->nv), jacr(3 * m->nv);
  const Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  double worst_point = 0, worst_axis = 0, worst_twist = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ThreeURJoints theta;
    for (int k = 0; k < 9; ++k) theta(k) = u(rng);
    mj_resetData(m.get(), d.get());
    for (int k = 0; k < 9; ++k) d->qpos[k] = theta(k);
    mj_kinematics(m.get(), d.get());
    mj_comPos(m.get(), d.get());
    for (int i = 0; i < 3; ++i) {
      const FingerGeometry g = finger_geometry(hand, i, theta(3 * i), theta(3 * i + 1), theta(3 * i + 2));
      const int site = id(m.get(), mjOBJ_SITE, finger(i, "_tip"));
      const int prox = id(m.get(), mjOBJ_BODY, finger(i, "_proximal"));
      const int dist = id(m.get(), mjOBJ_BODY, finger(i, "_distal"));
      worst_point = std::max({worst_point, (Eigen::Vector3d(d->site_xpos + 3 * site) - g.c).norm(),
                              (Eigen::Vector3d(d->xpos + 3 * prox) - g.a).norm(),
                              (Eigen::Vector3d(d->xpos + 3 * dist) - g.b).norm()});
      const Eigen::Vector3d z[3] = {g.z1, g.z2, g.z2};
      for (int j = 0; j < 3; ++j) {
        worst_axis = std::max(worst_axis, (Eigen::Vector3d(d->xaxis + 3 * (3 * i + j)) - z[j]).norm());
      }
      // mj_jac of the origin moving with the distal link: columns = eq 4's twists (r x z, z) of the finger's joints.
      mj_jac(m.get(), d.get(), jacp.data(), jacr.data(), origin.data(), dist);
      const Eigen::Matrix<double, 6, 3> S = finger_joint_twists(g, origin);
      for (int j = 0; j < 3; ++j) {
        const int dof = 3 * i + j;
        const Eigen::Vector3d v(jacp[dof], jacp[m->nv + dof], jacp[2 * m->nv + dof]);
        const Eigen::Vector3d w(jacr[dof], jacr[m->nv + dof], jacr[2 * m->nv + dof]);
        worst_twist = std::max({worst_twist, (v - S.col(j).head<3>()).norm(), (w - S.col(j).tail<3>()).norm()});
      }
    }
  }
  std::printf("[parallel] finger kinematics vs MuJoCo (300 random Theta): points %.2g m, axes %.2g, twists %.2g\n",
              worst_point, worst_axis, worst_twist);
  // Measured 5.8e-17 m, 1e-15, 1e-15 (docs/parallel-manipulator.md): rounding, with room.
  CHECK(worst_point < 1e-15 * 100);
  CHECK(worst_axis < 1e-15 * 10);
  CHECK(worst_twist < 1e-15 * 100);
}

TEST_CASE("G and J_H from MuJoCo's contacts equal both frameworks' matrices at the same configuration", "[parallel]") {
  auto m = load_hand();
  auto d = make_data(m.get());
  const ThreeURHand hand;
  const HandModel hm = three_ur_hand_model(m.get());
  REQUIRE(hm.num_hand_dofs() == 9);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst_c = 0, worst_G = 0, worst_JH = 0, worst_map = 0, worst_view = 0, worst_jt = 0;
  int checked = 0;
  for (int trial = 0; trial < 51; ++trial) {
    ObjectPose x = keyframe_pose(m.get());  // trial 0: the keyframe itself
    if (trial > 0) {
      x.p += 0.01 * Eigen::Vector3d(u(rng), u(rng), u(rng));
      x.R = Eigen::AngleAxisd(0.25 * u(rng), Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    }
    const ThreeURInverse ik = three_ur_inverse(hand, x);
    REQUIRE(ik.ok());
    pose_grasp(m.get(), d.get(), hand, ik.theta, x);
    const MjGrasp mj = mujoco_grasp(m.get(), d.get(), hm);
    REQUIRE(mj.contacts.size() == 3);
    ++checked;
    for (int i = 0; i < 3; ++i) {
      CHECK(mj.contacts[i].finger == i);
      CHECK(mj.contacts[i].model == ContactModel::kHardFinger);
      worst_c = std::max(worst_c, (mj.contacts[i].pos - object_contact_point(hand, i, x)).norm());
    }
    // Table 1 column 1 from the kinematics (eq 2, eq 3) vs MuJoCo (collect_contacts, grasp_matrix, mj_jac).
    const ThreeURGrasp an = three_ur_grasp(hand, ik.theta, x.p);
    worst_G = std::max(worst_G, (mj.G - an.G).cwiseAbs().maxCoeff());
    worst_JH = std::max(worst_JH, (mj.JH - an.JH).cwiseAbs().maxCoeff());
    // Column 2 (closed form, origin) with the reference transform vs MuJoCo's J_H^-1 G^T.
    const ParallelJacobians cf = table1_jacobians(hand, ik.theta);
    Eigen::MatrixXd Jp_p = cf.Jp;
    shift_jp_reference(Jp_p, Eigen::Vector3d::Zero(), x.p);
    worst_map = std::max(worst_map, rel(cf.JTheta.inverse() * Jp_p, mj.JH.inverse() * mj.G.transpose()));
    // parallel_view: choice (b) from MuJoCo's joint twists.
    const ParallelView v = parallel_view(m.get(), d.get(), hm, mj.contacts, mj.G, mj.p, mj.JH);
    worst_view = std::max(worst_view, v.relative_residual);
    worst_jt = std::max({worst_jt, v.jtheta_vs_jh, v.jp_vs_gt});
  }
  std::printf("[parallel] MuJoCo vs frameworks (%d grasps): contact points %.2g m, |G_mj - G| %.2g, |J_H,mj - J_H| "
              "%.2g m, J_H,mj^-1 G_mj^T vs Table 1 col 2 (relative) %.2g, parallel_view residual %.2g, "
              "|J_Theta - J_H|, |J_p S - G^T| %.2g\n",
              checked, worst_c, worst_G, worst_JH, worst_map, worst_view, worst_jt);
  // Measured (docs/parallel-manipulator.md, these 51 grasps); the bounds leave room above rounding.
  CHECK(worst_c < 1e-14);  // measured 2.7e-17 m
  CHECK(worst_G < 1e-14);  // measured 8.3e-16
  CHECK(worst_JH < 1e-14);  // measured 9e-17 m
  CHECK(worst_map < 1e-11);  // measured 1e-15 (relative), through two 9 x 9 inverses
  CHECK(worst_view < 1e-12);  // measured <= 4e-16 (relative)
  CHECK(worst_jt < 1e-14);  // the same entries from mj_jac and from J_H: rounding
}

TEST_CASE("optimal forces through J_H^T hold the 3-UR object in MuJoCo, both frameworks predict MuJoCo's statics",
          "[parallel]") {
  auto m = load_hand();
  const HandModel hm = three_ur_hand_model(m.get());
  const double mass = m->body_mass[hm.object_body];
  Wrench Wg = Wrench::Zero();
  Wg(2) = mass * m->opt.gravity[2];  // gravity about the centre of mass
  struct Run {
    double drift = 0, wrench_residual = 0, torque_residual = 0, parallel_residual = 0, lambda_diff = 0;
    double parallel_start = 0;  // |-J_p^T J_Theta^-T tau - W| of the planned torques at the start [N]
    double sum_fn = 0;
    bool in_cones = false;
    int contacts = 0;
  };
  // kp: a weak joint PD about the grasp posture (0 = pure torque control).
  auto hold = [&](double kp) {
    Run r;
    auto d = make_data(m.get());
    mj_resetDataKeyframe(m.get(), d.get(), id(m.get(), mjOBJ_KEY, "grasp"));
    mj_forward(m.get(), d.get());
    const MjGrasp g0 = mujoco_grasp(m.get(), d.get(), hm);
    REQUIRE(g0.contacts.size() == 3);
    ForceOptimizationOptions opt;
    opt.min_normal_force = 1.0;
    const ForceDistribution f = optimal_forces(g0.contacts, g0.G, Wg, opt);
    REQUIRE(f.ok());
    r.sum_fn = f.total_normal_force;
    const Eigen::VectorXd tau = g0.JH.transpose() * f.lambda;
    // The parallel-manipulator statics of the same torques balance gravity too (J_p about the palm origin).
    const ParallelView v0 = parallel_view(m.get(), d.get(), hm, g0.contacts, g0.G, g0.p, g0.JH);
    Eigen::MatrixXd Wpar = platform_wrench(v0.Jp, v0.JTheta, tau);
    shift_wrench_reference(Wpar, Eigen::Vector3d::Zero(), g0.p);
    r.parallel_start = (Wpar.col(0) - Wg).norm();
    CHECK(r.parallel_start < 1e-12 * -Wg(2));  // measured 1.7e-15 N (docs/parallel-manipulator.md): rounding
    const std::vector<mjtNum> q0(d->qpos, d->qpos + m->nq);
    const Eigen::Vector3d p0 = g0.p;
    Eigen::VectorXd tau_net = tau;
    for (int step = 0; step < 1000; ++step) {
      for (int k = 0; k < 9; ++k) {
        const int dof = hm.dofs[k];
        const double pd = kp * (q0[m->jnt_qposadr[m->dof_jntid[dof]]] - d->qpos[m->jnt_qposadr[m->dof_jntid[dof]]]);
        tau_net(k) = tau(k) + pd;
        d->ctrl[k] = tau_net(k) + d->qfrc_bias[dof];  // + gravity (and Coriolis) compensation of the fingers
      }
      mj_step(m.get(), d.get());
      r.drift = std::max(r.drift, (object_center(d.get(), hm) - p0).norm());
    }
    mj_forward(m.get(), d.get());
    const MjGrasp g = mujoco_grasp(m.get(), d.get(), hm);
    r.contacts = static_cast<int>(g.contacts.size());
    if (r.contacts != 3) return r;
    Eigen::VectorXd lam(9);
    mujoco_contact_forces(m.get(), d.get(), g.contacts, lam);
    r.wrench_residual = (balanced_wrench(g.G, lam) - Wg).norm();
    r.torque_residual = (g.JH.transpose() * lam - tau_net).norm();
    r.lambda_diff = (lam - f.lambda).cwiseAbs().maxCoeff();
    r.in_cones = in_friction_cones(g.contacts, lam, 1e-9);
    // The parallel framework predicts the wrench from the torques alone: W = -J_p^T J_Theta^-T tau_net.
    const ParallelView v = parallel_view(m.get(), d.get(), hm, g.contacts, g.G, g.p, g.JH);
    Eigen::MatrixXd W = platform_wrench(v.Jp, v.JTheta, tau_net);
    shift_wrench_reference(W, Eigen::Vector3d::Zero(), g.p);
    r.parallel_residual = (W.col(0) - Wg).norm();
    return r;
  };
  const Run free_run = hold(0.0);
  const Run pd = hold(0.5);
  std::printf("[parallel] 3-UR hold, weight %.4f N, optimal sum f_n %.3f N, parallel statics of the planned torques "
              "%.2g N off W; pure torques -> drift %.3g m in 1 s "
              "(%d contacts left); with a 0.5 N m/rad PD -> drift %.3g m, |-G lambda_mj - W| %.3g N, "
              "|J_H^T lambda_mj - tau| %.3g N m, |-J_p^T J_Theta^-T tau - W| %.3g N, max |lambda_mj - lambda_opt| %.3g N\n",
              -Wg(2), pd.sum_fn, pd.parallel_start, free_run.drift, free_run.contacts, pd.drift, pd.wrench_residual, pd.torque_residual,
              pd.parallel_residual, pd.lambda_diff);
  REQUIRE(pd.contacts == 3);
  // Tolerances: about 5-10 x the measured values (docs/parallel-manipulator.md lists them). Pure torque control has no
  // stiffness along the closed chain's 6 free motions: the object is dropped (measured 27 mm), hence the weak PD.
  CHECK(free_run.drift > 1e-2);
  CHECK(pd.drift < 5e-4);
  CHECK(pd.wrench_residual < 1e-5);
  CHECK(pd.torque_residual < 2e-6);
  CHECK(pd.parallel_residual < 1e-4);
  CHECK(pd.lambda_diff < 0.03);
  CHECK(pd.in_cones);
}

TEST_CASE("3-UR mobility: Grubler-Kutzbach 6, actuation redundancy 3", "[parallel]") {
  auto m = load_hand();
  auto d = make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), id(m.get(), mjOBJ_KEY, "grasp"));
  mj_forward(m.get(), d.get());
  const MjGrasp g = mujoco_grasp(m.get(), d.get(), three_ur_hand_model(m.get()));
  REQUIRE(g.contacts.size() == 3);
  const HandObjectMobility mob = hand_object_mobility(g.contacts, g.G, g.JH, 9);
  CHECK(mob.grubler == 6);
  CHECK(mob.instantaneous == 6);
  CHECK(mob.actuated == 9);
  CHECK(mob.actuation_redundancy == 3);
  CHECK(mob.rank_G == 6);
  CHECK(mob.internal_forces == 3);
  CHECK(mob.indeterminate == 0);
  CHECK(mob.redundant_motions == 0);
  // The paper's 3-URS count (U, R, S per leg; palm, 2 links per finger, object) and the model's bodies (palm,
  // 3 bodies per finger, object; 9 hinges and 3 spherical contacts) agree.
  CHECK(grubler_kutzbach(8, {2, 1, 3, 2, 1, 3, 2, 1, 3}) == 6);
  CHECK(grubler_kutzbach(11, {1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3}) == 6);
  // Soft fingers (3-URU): one torsion row more per contact.
  CHECK(grubler_kutzbach(8, {2, 1, 2, 2, 1, 2, 2, 1, 2}) == 3);
}

TEST_CASE("parallel_view gives J_p, J_Theta and the residual for soft and frictionless MuJoCo contacts too", "[parallel]") {
  auto m = load_hand();
  const HandModel hm = three_ur_hand_model(m.get());
  for (int condim : {1, 3, 4}) {
    for (const char* g : {"f1_pad", "f2_pad", "f3_pad", "object"}) m->geom_condim[id(m.get(), mjOBJ_GEOM, g)] = condim;
    auto d = make_data(m.get());
    mj_resetDataKeyframe(m.get(), d.get(), id(m.get(), mjOBJ_KEY, "grasp"));
    mj_forward(m.get(), d.get());
    const MjGrasp g = mujoco_grasp(m.get(), d.get(), hm);
    REQUIRE(g.contacts.size() == 3);
    const int rows = condim == 1 ? 1 : condim == 3 ? 3 : 4;
    REQUIRE(g.JH.rows() == 3 * rows);
    const ParallelView v = parallel_view(m.get(), d.get(), hm, g.contacts, g.G, g.p, g.JH);
    CHECK(v.Jp.rows() == 3 * rows);
    CHECK(v.Jp.cols() == 6);
    CHECK(v.JTheta.cols() == 9);
    std::printf("[parallel] parallel_view, condim %d (J_H %d x 9): residual %.2g (relative %.2g), |J_Theta - J_H| %.2g\n",
                condim, static_cast<int>(g.JH.rows()), v.residual, v.relative_residual, v.jtheta_vs_jh);
    // Measured 1.6e-16 / 1.4e-16 / 2.8e-16 (docs/parallel-manipulator.md); J_Theta = J_H, J_p = G^T: rounding.
    CHECK(v.relative_residual < 1e-12);
    CHECK(v.jtheta_vs_jh < 1e-14);
    CHECK(v.jp_vs_gt < 1e-14);
    // J_p's rows are the contacts' wrenches about the palm origin: row 0 is finger 1's normal force line.
    const Eigen::Vector3d n = g.contacts[0].frame.col(0), c = g.contacts[0].pos;
    // The same n and c x n (|c| ~ 0.06 m): rounding only.
    CHECK((v.Jp.row(0).head<3>().transpose() - n).norm() < 1e-15);
    CHECK((v.Jp.row(0).tail<3>().transpose() - c.cross(n)).norm() < 1e-15);
  }
  // A contact attributed to a body of no finger is refused with a message, not analysed.
  auto d = make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), id(m.get(), mjOBJ_KEY, "grasp"));
  mj_forward(m.get(), d.get());
  MjGrasp g = mujoco_grasp(m.get(), d.get(), hm);
  g.contacts[1].hand_body = hm.object_body;
  CHECK_THROWS_WITH(parallel_view(m.get(), d.get(), hm, g.contacts, g.G, g.p, g.JH), Catch::Contains("contact 1"));
  CHECK_THROWS_AS(parallel_view_from_twists(g.contacts, {}, g.G.leftCols(3), g.p, g.JH), ParallelError);
}
