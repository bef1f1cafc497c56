// Via-point fingertip paths on fingers read from any MJCF kinematic tree (issue 18 item 1): ViaJointTrajectory over
// a TreeChain's serial chain on the Allegro-style hand's 4-joint fingers (redundant for a 3-D tip path), checked
// against MuJoCo's own kinematics (xpos after mj_kinematics, mj_jacBody), and computed_torque trajectory=via with
// finger=<tip body or site> tracking such a path in simulation on the real hand model.
#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/hand/tree_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/trajectory/trajectory.h>
#include <mjhand/util/dense_decompositions.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_file;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {

struct Finger {
  const char* tip;                // tip body (the Allegro's: its origin, the fingertip sphere's centre)
  std::vector<double> q0;         // start posture, inside the joint ranges, away from the straight (singular) finger
  std::vector<double> dq_via, dq_goal;  // the via point and the goal: MuJoCo's tip at q0 + dq (so reachable)
};

const Finger kIndex{"link_3.0_tip", {0.1, 0.5, 0.6, 0.5}, {0.1, 0.2, 0.1, 0.1}, {-0.1, 0.35, 0.3, 0.2}};
const Finger kThumb{"link_15.0_tip", {0.9, 0.5, 0.4, 0.4}, {0.1, 0.15, 0.2, 0.1}, {-0.1, 0.3, 0.35, 0.3}};
// Shadow (5 joints, two redundant directions), tips at default_fingertip (the distal capsule's end).
const Finger kShadowThumb{"rh_thdistal", {0.3, 0.6, 0.0, 0.2, 0.5}, {0.1, 0.1, 0.05, 0.1, 0.1},
                          {-0.1, 0.2, -0.05, 0.2, 0.3}};
const Finger kShadowLittle{"rh_lfdistal", {0.2, 0.0, 0.4, 0.5, 0.4}, {0.1, 0.1, 0.2, 0.1, 0.1},
                           {0.2, -0.1, 0.4, 0.3, 0.2}};

std::vector<double> plus(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> c(a.size());
  for (size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];
  return c;
}

// MuJoCo's position of the chain's tip (its body's xpos/xmat and the fixed tip point on that body) with the
// chain's joints at q (the rest of qpos unchanged).
Eigen::Vector3d mujoco_tip(const mjModel* m, mjData* d, const TreeChain& tc, const double* q) {
  for (int i = 0; i < tc.chain.dof(); ++i) d->qpos[tc.qpos_adr[i]] = q[i];
  mj_kinematics(m, d);
  mj_comPos(m, d);  // mj_jac* read cdof
  const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(d->xmat + 9 * tc.tip_body);
  return Eigen::Vector3d(d->xpos + 3 * tc.tip_body) + R * tc.tip_in_body.translation();
}

// MuJoCo's position Jacobian (mj_jac at the tip point) restricted to the chain's dofs, at q; Jdot likewise
// (mj_jacDot, with qvel of the chain's dofs = qd) when jdot is given.
Eigen::MatrixXd mujoco_jacobian(const mjModel* m, mjData* d, const TreeChain& tc, const double* q,
                                const double* qd = nullptr, Eigen::MatrixXd* jdot = nullptr) {
  const int n = tc.chain.dof();
  if (qd)
    for (int i = 0; i < n; ++i) d->qvel[tc.dof_adr[i]] = qd[i];
  const Eigen::Vector3d p = mujoco_tip(m, d, tc, q);
  std::vector<double> jacp(3 * m->nv), jd(3 * m->nv);
  mj_jac(m, d, jacp.data(), nullptr, p.data(), tc.tip_body);
  if (jdot) {
    mj_comVel(m, d);
    mj_jacDot(m, d, jd.data(), nullptr, p.data(), tc.tip_body);
    jdot->resize(3, n);
  }
  Eigen::MatrixXd J(3, n);
  for (int i = 0; i < n; ++i)
    for (int r = 0; r < 3; ++r) {
      J(r, i) = jacp[r * m->nv + tc.dof_adr[i]];
      if (jdot) (*jdot)(r, i) = jd[r * m->nv + tc.dof_adr[i]];
    }
  return J;
}

}  // namespace

TEST_CASE("via path on Allegro and Shadow fingers (4-5 joints): MuJoCo puts the tip on the path, in the limits",
          "[via_tree]") {
  struct Case {
    const char* model;
    const char* root;
    Finger finger;
  };
  for (const Case& c : {Case{"allegro_hand.xml", "base_link", kIndex}, Case{"allegro_hand.xml", "base_link", kThumb},
                        Case{"shadow_hand.xml", "rh_palm", kShadowThumb},
                        Case{"shadow_hand.xml", "rh_palm", kShadowLittle}}) {
    const Finger& f = c.finger;
    auto m = load_xml_file(source_path(std::string("models/real/") + c.model));
    auto d = make_data(m.get());
    mj_kinematics(m.get(), d.get());
    const int tip_body = mj_name2id(m.get(), mjOBJ_BODY, f.tip);
    // The Allegro's tips are the tip bodies' origins (as finger=<body> takes them); the Shadow's distal bodies sit
    // on J1's axis, so their tip is default_fingertip's (the capsule's end).
    const ChainTip tip = m->body_geomnum[tip_body] && std::string(c.model) == "shadow_hand.xml"
                             ? default_fingertip(m.get(), tip_body)
                             : ChainTip{-1, tip_body, Eigen::Isometry3d::Identity()};
    TreeChain tc = tree_chain(m.get(), mj_name2id(m.get(), mjOBJ_BODY, c.root), tip);
    set_world_base(d.get(), tc);  // the root at qpos0 (the Shadow's wrist joints stay there)
    const int n = tc.chain.dof();
    REQUIRE(n == static_cast<int>(f.q0.size()));
    const Eigen::Vector3d p0 = mujoco_tip(m.get(), d.get(), tc, f.q0.data());
    const std::vector<Eigen::Vector3d> w = {p0, mujoco_tip(m.get(), d.get(), tc, plus(f.q0, f.dq_via).data()),
                                            mujoco_tip(m.get(), d.get(), tc, plus(f.q0, f.dq_goal).data())};
    ViaJointTrajectory tr(tc.chain, ViaPointPath(w, {0.4, 0.4}, 0.1, 0.05), f.q0);
    ViaRedundancy min_norm;
    min_norm.posture_gain = 0;
    ViaJointTrajectory tr0(tc.chain, ViaPointPath(w, {0.4, 0.4}, 0.1, 0.05), f.q0, 1e-3, min_norm);
    CHECK(tr.redundant());
    const ViaPointPath& path = tr.path();
    double worst_x = 0, worst_v = 0, worst_jv = 0, worst_acc = 0, worst_a = 0, worst_law = 0, worst_law0 = 0;
    double worst_limit = -1e9, closest = 1e9;
    const double h = 1e-5;
    const Eigen::Map<const Eigen::VectorXd> vq0(f.q0.data(), n);
    std::vector<double> q(n), qd(n), qdd(n), qp(n), vp(n), ap(n), qm(n), vm(n), am(n), q0n(n), qd0n(n), qdd0n(n);
    for (double t = 0.0; t < path.end_time() + 0.05; t += 0.00317) {
      tr.evaluate(t, q.data(), qd.data(), qdd.data());
      tr.evaluate(t + h, qp.data(), vp.data(), ap.data());
      tr.evaluate(t - h, qm.data(), vm.data(), am.data());
      Eigen::Vector3d x, xd, xdd;
      path.evaluate(t, &x, &xd, &xdd);
      // MuJoCo at (q, qd): tip position, J (mj_jac) and Jdot (mj_jacDot) at the tip point.
      Eigen::MatrixXd Jdot;
      const Eigen::MatrixXd J = mujoco_jacobian(m.get(), d.get(), tc, q.data(), qd.data(), &Jdot);
      const Eigen::Vector3d xm = mujoco_tip(m.get(), d.get(), tc, q.data());
      const Eigen::Map<const Eigen::VectorXd> vqd(qd.data(), n), vqdd(qdd.data(), n), vq(q.data(), n);
      worst_x = std::max(worst_x, (xm - x).norm());
      closest = std::min(closest, (xm - w[1]).norm());
      worst_jv = std::max(worst_jv, (J * vqd - xd).norm());
      worst_acc = std::max(worst_acc, (J * vqdd + Jdot * vqd - xdd).norm());
      // The redundancy law (ViaRedundancy) in MuJoCo's terms, with N = I - J+ J from MuJoCo's J: N qd equals
      // 50 |xd| N (q0 - q); with posture_gain 0 it is zero (the minimum-norm qd).
      const Eigen::MatrixXd N = Eigen::MatrixXd::Identity(n, n) - J.completeOrthogonalDecomposition().pseudoInverse() * J;
      worst_law = std::max(worst_law, (N * vqd - 50.0 * xd.norm() * N * (vq0 - vq)).norm());
      tr0.evaluate(t, q0n.data(), qd0n.data(), qdd0n.data());
      const Eigen::MatrixXd J0 = mujoco_jacobian(m.get(), d.get(), tc, q0n.data());
      const Eigen::MatrixXd N0 =
          Eigen::MatrixXd::Identity(n, n) - J0.completeOrthogonalDecomposition().pseudoInverse() * J0;
      worst_law0 = std::max(worst_law0, (N0 * Eigen::Map<const Eigen::VectorXd>(qd0n.data(), n)).norm());
      for (int i = 0; i < n; ++i) {
        const int j = tc.joint_ids[i];
        worst_limit = std::max({worst_limit, m->jnt_range[2 * j] - q[i], q[i] - m->jnt_range[2 * j + 1]});
        worst_v = std::max(worst_v, std::abs((qp[i] - qm[i]) / (2 * h) - qd[i]));
        if (std::abs(ap[i] - am[i]) < 1e-3) worst_a = std::max(worst_a, std::abs((vp[i] - vm[i]) / (2 * h) - qdd[i]));
      }
    }
    WARN(f.tip << " (" << n << " joints): path " << worst_x << " m, J qd - xd " << worst_jv
               << " m/s, J qdd + Jdot qd - xdd " << worst_acc << " m/s^2, null-space law " << worst_law << " / "
               << worst_law0 << " rad/s, qd vs FD " << worst_v << ", qdd vs FD " << worst_a << ", limit margin "
               << -worst_limit << " rad, via point passed at " << closest << " m (|dv| tb / 8 = " << path.via_miss(1)
               << ")");
    // Newton stops at |e| < 1e-14 m; MuJoCo's FK and the chain's agree to 1.7e-16 m (test_tree_chains.cc): rounding
    // room (measured 1.0e-14 m).
    CHECK(worst_x < 1e-12);
    // qd = J+ xd + null-space term: J qd = xd up to rounding of a 3 x n product with |qd| ~ 1 rad/s (measured
    // <= 8.7e-16 m/s).
    CHECK(worst_jv < 1e-12);
    // qdd: J-dot terms from central differences with a 3e-4 rad step, truncation ~1e-7 relative on |xdd| <= 1 m/s^2
    // (measured <= 9.9e-8 m/s^2); a missing J-dot term would leave |Jdot qd| ~ 0.1 m/s^2.
    CHECK(worst_acc < 1e-6);
    // The documented redundancy law against MuJoCo's J: rounding (measured <= 3.3e-15 rad/s).
    CHECK(worst_law < 1e-12);
    CHECK(worst_law0 < 1e-12);
    // qd and qdd are the derivatives of q and qd (central differences, h = 1e-5 s; the Hermite interpolant is C1 at
    // the 1 ms samples, so its second derivative jumps there): measured <= 3.6e-8 rad/s and 5.2e-6 rad/s^2; 1e-6
    // and 1e-4 are >= 19x, far below the 0.1-1 rad/s a wrong null-space term would give.
    CHECK(worst_v < 1e-6);
    CHECK(worst_a < 1e-4);
    CHECK(worst_limit < 0.0);  // inside every joint range along the whole path
    // Via point passed at |dv| tb / 8 at its knot time, the path's own distance (+ rounding).
    tr.evaluate(path.knot_time(1), q.data(), qd.data(), qdd.data());
    CHECK((mujoco_tip(m.get(), d.get(), tc, q.data()) - w[1]).norm() == Approx(path.via_miss(1)).margin(1e-12));
    // Ends at rest on the goal; starts at q0 (the path starts at its tip: no IK moves it).
    tr.evaluate(path.end_time() + 0.1, q.data(), qd.data(), qdd.data());
    CHECK((mujoco_tip(m.get(), d.get(), tc, q.data()) - w[2]).norm() < 1e-12);
    for (int i = 0; i < n; ++i) CHECK((qd[i] == 0.0 && qdd[i] == 0.0));
    tr.evaluate(0.0, q.data(), qd.data(), qdd.data());
    for (int i = 0; i < n; ++i) CHECK(q[i] == Approx(f.q0[i]).margin(1e-12));
  }
}

TEST_CASE("via path on a tree finger: a via point out of reach or a path beyond a joint limit is named", "[via_tree]") {
  auto m = load_xml_file(source_path("models/real/allegro_hand.xml"));
  auto d = make_data(m.get());
  mj_kinematics(m.get(), d.get());
  TreeChain tc = tree_chain(m.get(), "base_link", "link_3.0_tip");
  set_world_base(d.get(), tc);
  const Eigen::Vector3d p0 = mujoco_tip(m.get(), d.get(), tc, kIndex.q0.data());
  // 0.3 m from joint_0.0's anchor straight along the finger at q = 0: the tip reaches at most 16.4 + 54 + 38.4 + 26.7
  // = 135.5 mm from that anchor (the published link lengths), so the closest tip is the straight finger's, 164.5 mm
  // short. The sampled path fails before it gets there; the message names the via point and that distance.
  const std::vector<double> zero(4, 0.0);
  const Eigen::Vector3d anchor(d->xanchor + 3 * tc.joint_ids[0]);
  const Eigen::Vector3d straight = mujoco_tip(m.get(), d.get(), tc, zero.data());
  const Eigen::Vector3d far = anchor + 0.3 * (straight - anchor).normalized();
  const Eigen::Vector3d mid = 0.5 * (p0 + far) + Eigen::Vector3d(0, 0.01, 0);
  std::string message;
  try {
    ViaJointTrajectory(tc.chain, ViaPointPath({p0, mid, far}, {0.5, 0.5}, 0.1), kIndex.q0);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  INFO(message);
  CHECK_THAT(message, Catch::Contains("not reachable by chain 'link_3.0_tip' within its joint limits"));
  const std::smatch found = [&] {
    std::smatch s;
    std::regex_search(message, s, std::regex("(via point|goal) (\\d) .* the closest tip position found is ([0-9.e+-]+) m"));
    return s;
  }();
  REQUIRE(found.size() == 4);
  CHECK(found[2] == "1");  // the middle point already lies beyond the reach (|mid - anchor| ~ 0.2 m)
  // The closest tip to `mid` is at least |mid - anchor| - 0.1355 m away (the reach sphere), and DLS IK finds the
  // straight finger pointing nearly at it: measured 0.49 mm above that bound (DLS stalls near the singular straight
  // finger, and the abduction range limits the direction); 1 cm tells it from the start tip's 8 cm.
  const double bound = (mid - anchor).norm() - (straight - anchor).norm();
  WARN("closest " << found[3] << " m, reach-sphere bound " << bound << " m");
  CHECK(std::stod(found[3]) >= bound - 1e-12);
  CHECK(std::stod(found[3]) < bound + 1e-2);
  // A reachable goal whose path (redundancy resolved toward the start posture) bends joint_1.0 below its lower
  // limit -0.196 rad: named with the joint, its range and the excess.
  const std::vector<double> qs = {0.0, 0.3, 0.3, -0.15}, dq = {0.0, -0.4, -0.4, -0.2};
  const ViaPointPath dive({mujoco_tip(m.get(), d.get(), tc, qs.data()), mujoco_tip(m.get(), d.get(), tc, plus(qs, dq).data())},
                          {0.5}, 0.1);
  CHECK_THROWS_WITH(ViaJointTrajectory(tc.chain, dive, qs),
                    Catch::Contains("toward goal 1") && Catch::Contains("drives joint 1 to -0.196") &&
                        Catch::Contains("beyond its range [-0.196, 1.61]"));
  // Independently: without that limit the same law does go below it (MuJoCo's tip stays on the path there).
  TreeChain unlimited = tc;
  unlimited.chain.links[1].lower = -INFINITY;
  ViaJointTrajectory free_path(unlimited.chain, dive, qs);
  double lowest = 0, worst = 0;
  for (double t = 0; t < dive.end_time(); t += 0.001) {
    double q[4], qd[4], qdd[4];
    free_path.evaluate(t, q, qd, qdd);
    Eigen::Vector3d x, xd, xdd;
    dive.evaluate(t, &x, &xd, &xdd);
    lowest = std::min(lowest, q[1]);
    worst = std::max(worst, (mujoco_tip(m.get(), d.get(), tc, q) - x).norm());
  }
  CHECK(lowest < m->jnt_range[2 * tc.joint_ids[1]]);
  CHECK(worst < 1e-12);  // as in the test above
}

namespace {

// `xml` with a computed_torque instance "via" configured by `config` ("k=v k2=v2").
std::string with_via_instance(std::string xml, const std::string& config) {
  std::string ext = "<extension><plugin plugin=\"mjhand.computed_torque\"><instance name=\"via\">";
  std::istringstream keys(config);
  for (std::string kv; keys >> kv;) {
    const size_t eq = kv.find('=');
    ext += "<config key=\"" + kv.substr(0, eq) + "\" value=\"" + kv.substr(eq + 1) + "\"/>";
  }
  ext += "</instance></plugin></extension>";
  xml.insert(xml.find("<worldbody>"), ext);
  return xml;
}

// The Allegro hand with its index finger's four position servos replaced by computed_torque's actuators (instance
// "via", configured by `config`), under RK4 at 1 ms.
std::string allegro_with_computed_torque(const std::string& config) {
  std::string xml = mjhand_test::read_all(source_path("models/real/allegro_hand.xml"));
  const std::string option = "<option timestep=\"0.002\"";
  REQUIRE(xml.find(option) != std::string::npos);
  xml.replace(xml.find(option), option.size(), "<option timestep=\"0.001\" integrator=\"RK4\"");
  const std::string servos = std::regex_replace(
      xml, std::regex("<position name=\"actuator_([0-3])\\.0\" joint=\"joint_([0-3])\\.0\"[^>]*/>"),
      "<plugin name=\"ct_$1\" joint=\"joint_$2.0\" instance=\"via\" gear=\"1\" ctrllimited=\"false\"/>");
  REQUIRE(servos != xml);
  return with_via_instance(servos, config);
}

std::string csv(const std::vector<double>& v) {
  std::ostringstream s;
  s.precision(17);
  for (size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i];
  return s.str();
}

}  // namespace

TEST_CASE("computed_torque trajectory=via on the Allegro hand's index finger (finger=<tip body>) tracks in simulation",
          "[via_tree]") {
  auto ref = load_xml_file(source_path("models/real/allegro_hand.xml"));
  auto rd = make_data(ref.get());
  mj_kinematics(ref.get(), rd.get());
  const TreeChain tc = tree_chain(ref.get(), "base_link", "link_3.0_tip");
  const Eigen::Vector3d via = mujoco_tip(ref.get(), rd.get(), tc, plus(kIndex.q0, kIndex.dq_via).data());
  const Eigen::Vector3d goal = mujoco_tip(ref.get(), rd.get(), tc, plus(kIndex.q0, kIndex.dq_goal).data());
  const std::string config = "trajectory=via finger=link_3.0_tip q0=" + csv(kIndex.q0) + " points=" +
                             csv({via.x(), via.y(), via.z(), goal.x(), goal.y(), goal.z()}) +
                             " durations=0.4 blend=0.1 start=0.05";
  auto m = load_xml_string(allegro_with_computed_torque(config));
  auto d = make_data(m.get());
  for (int i = 0; i < 4; ++i) d->qpos[m->jnt_qposadr[tc.joint_ids[i]]] = kIndex.q0[i];  // start on the path
  const int tip = mj_name2id(m.get(), mjOBJ_BODY, "link_3.0_tip");
  // The path the controller follows, rebuilt here from the same points (start: MuJoCo's tip at q0).
  const ViaPointPath path({mujoco_tip(ref.get(), rd.get(), tc, kIndex.q0.data()), via, goal}, {0.4, 0.4}, 0.1, 0.05);
  double closest = 1e9, worst_limit = -1e9, worst_track = 0;
  while (d->time < 1.2) {
    mj_step(m.get(), d.get());
    mj_kinematics(m.get(), d.get());
    const Eigen::Vector3d x(d->xpos + 3 * tip);
    Eigen::Vector3d xr, xdr, xddr;
    path.evaluate(d->time, &xr, &xdr, &xddr);
    worst_track = std::max(worst_track, (x - xr).norm());
    closest = std::min(closest, (x - via).norm());
    for (int j : tc.joint_ids) {
      const double q = d->qpos[m->jnt_qposadr[j]];
      worst_limit = std::max({worst_limit, m->jnt_range[2 * j] - q, q - m->jnt_range[2 * j + 1]});
    }
  }
  const double goal_error = (Eigen::Vector3d(d->xpos + 3 * tip) - goal).norm();
  WARN("Allegro index under computed_torque (RK4, 1 ms): tip within " << worst_track << " m of the path, via point "
       "passed at " << closest << " m (|dv| tb / 8 = " << path.via_miss(1) << " m), goal reached within " << goal_error
       << " m, joint-limit margin " << -worst_limit << " rad");
  // Exact model + RK4: what is left is the integrator's error (docs/controllers.md "Exact-model tracking bound";
  // the e_GRASP finger reaches its goal to 7e-9 m). Measured here: 1.7e-6 m off the path, goal 1.2e-8 m; bounds
  // about 10x (a controller on the wrong path, or without the null-space term's qdd, is off by millimetres).
  CHECK(worst_track < 2e-5);
  CHECK(closest <= path.via_miss(1) + worst_track);
  CHECK(goal_error < 1e-7);
  CHECK(worst_limit < 0.0);
}

TEST_CASE("computed_torque trajectory=via refuses bad fingers and via points with the key and the joints named",
          "[via_tree]") {
  auto expect = [](const std::string& xml, const std::vector<std::string>& needles) {
    const std::string error = mjhand_test::attach_error(xml);
    INFO(error);
    for (const std::string& n : needles) CHECK_THAT(error, Catch::Contains(n));
  };
  const std::string q0 = " q0=" + csv(kIndex.q0);
  // A via point 0.3 m away (the index reaches 135.5 mm from its base).
  expect(allegro_with_computed_torque("trajectory=via finger=link_3.0_tip points=0.4,0.05,0.3 durations=0.5" + q0),
         {"'points'", "goal 1 (0.4, 0.05, 0.3) is not reachable", "closest tip position found is"});
  // A path beyond a joint limit names the joint (the dive of the test above, from the same start).
  {
    auto ref = load_xml_file(source_path("models/real/allegro_hand.xml"));
    auto rd = make_data(ref.get());
    const TreeChain tc = tree_chain(ref.get(), "base_link", "link_3.0_tip");
    const std::vector<double> qs = {0.0, 0.3, 0.3, -0.15}, dq = {0.0, -0.4, -0.4, -0.2};
    const Eigen::Vector3d goal = mujoco_tip(ref.get(), rd.get(), tc, plus(qs, dq).data());
    expect(allegro_with_computed_torque("trajectory=via finger=link_3.0_tip durations=0.5 blend=0.1 q0=" + csv(qs) +
                                        " points=" + csv({goal.x(), goal.y(), goal.z()})),
           {"'points'", "drives joint 'joint_1.0' to -0.196", "beyond its range"});
  }
  expect(allegro_with_computed_torque("trajectory=via finger=nothing points=0.1,0,0.3 durations=0.5"),
         {"'finger'", "no embedded DH chain, site or body 'nothing'"});
  expect(allegro_with_computed_torque("trajectory=via finger=link_3.0_tip root=link_4.0 points=0.1,0,0.3 "
                                      "durations=0.5"),
         {"'root'", "link_4.0"});
  // The qpos0 default is the straight finger: singular (the tip cannot move along the finger).
  expect(allegro_with_computed_torque("trajectory=via finger=link_3.0_tip points=0.14,0.04,0.29 durations=0.5"),
         {"'points'", "singular"});
  // 2F-85: the pad's chain is closed by the 4-bar's connect equality.
  expect(with_via_instance(mjhand_test::read_all(source_path("models/real/robotiq_2f85.xml")),
                           "trajectory=via finger=right_inner_finger_pad points=0,0,0.2 durations=0.5"),
         {"'finger'", "not a free serial chain", "connect"});
  // Shadow: the palm hangs on the servoed wrist; from the fixed forearm, with motors on the wrist, FFJ4 and FFJ3,
  // FFJ2 and FFJ1 still share the one tendon actuator rh_A_FFJ0.
  const std::string shadow = mjhand_test::read_all(source_path("models/real/shadow_hand.xml"));
  expect(with_via_instance(shadow, "trajectory=via finger=rh_ffdistal points=0,0,0.2 durations=0.5"),
         {"'root'", "'rh_palm' moves"});
  const std::string motors = std::regex_replace(
      shadow, std::regex("<position name=\"rh_A_(WRJ2|WRJ1|FFJ4|FFJ3)\" joint=\"([^\"]+)\"[^>]*/>"),
      "<plugin name=\"ct_$1\" joint=\"$2\" instance=\"via\" gear=\"1\" ctrllimited=\"false\"/>");
  REQUIRE(motors != shadow);
  expect(with_via_instance(motors, "trajectory=via finger=rh_ffdistal root=rh_forearm points=0,0,0.2 durations=0.5"),
         {"'joints'", "'rh_FFJ2' is driven only through tendon 'rh_FFJ0' by actuator 'rh_A_FFJ0'"});
}

TEST_CASE("docs/real-hands.md: the 'Via-point paths on your hand' MJCF block loads and reaches its goal", "[via_tree]") {
  const std::string doc = mjhand_test::read_all(source_path("docs/real-hands.md"));
  std::smatch block;
  REQUIRE(std::regex_search(doc, block, std::regex("## Via-point paths on your hand[\\s\\S]*?```xml\n([\\s\\S]*?)```")));
  const std::string xml = block[1];
  auto m = load_xml_string(xml);
  auto d = make_data(m.get());
  // The block's own keys: the start posture and the points.
  std::smatch q0s, pts;
  REQUIRE(std::regex_search(xml, q0s, std::regex("key=\"q0\" value=\"([^\"]+)\"")));
  REQUIRE(std::regex_search(xml, pts, std::regex("key=\"points\" value=\"([^\"]+)\"")));
  auto numbers = [](const std::string& text) {
    std::vector<double> v;
    std::istringstream in(text);
    for (std::string x; std::getline(in, x, ',');) v.push_back(std::stod(x));
    return v;
  };
  const std::vector<double> q0 = numbers(q0s[1]), p = numbers(pts[1]);
  REQUIRE(q0.size() == 4);
  REQUIRE(p.size() == 6);
  for (int j = 0; j < 4; ++j) d->qpos[m->jnt_qposadr[j]] = q0[j];  // the four joints are the model's only ones
  const int site = mj_name2id(m.get(), mjOBJ_SITE, "index_tip");
  REQUIRE(site >= 0);
  const Eigen::Vector3d via(p[0], p[1], p[2]), goal(p[3], p[4], p[5]);
  double closest = 1e9;
  while (d->time < 1.2) {
    mj_step(m.get(), d.get());
    mj_kinematics(m.get(), d.get());
    closest = std::min(closest, (Eigen::Vector3d(d->site_xpos + 3 * site) - via).norm());
  }
  const double goal_error = (Eigen::Vector3d(d->site_xpos + 3 * site) - goal).norm();
  WARN("docs block: via point passed at " << closest << " m, goal reached within " << goal_error << " m");
  // 0.25 s after the path's end (0.95 s), as the Allegro simulation above (goal 1.2e-8 m there): measured 1.4e-8 m
  // (1.9e-7 m at 1.1 s, the loop's transient from the motion's integration error still decaying, time constant
  // 1 / sqrt(kp) = 32 ms). The via point: |dv| tb / 8 ~ 1 mm for these ~4 cm segments in 0.4 s with tb = 0.1 s
  // (measured 1.07 mm); 2 mm tells a path that skips it (~1 cm).
  CHECK(goal_error < 1e-7);
  CHECK(closest < 2e-3);
}
