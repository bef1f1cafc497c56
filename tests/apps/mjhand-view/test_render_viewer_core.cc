// mjhand-view's simulation core (apps/mjhand-view, library mjhand_view_core; no display needed): plugin edits by
// re-attach, on/off switches, reload keeping the old model on failure, keyframes, Cartesian fingertip targets
// (closed form and DLS, cross-checked against MuJoCo's site positions), live grasp metrics (cross-checked against
// the grasp_analysis sensor), plot signals and overlay geoms.
#if __has_include("session.h") && __has_include("finger_targets.h")

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mjhand/direct_drive/kinematics.h>
#include <mjhand/pid/pid.h>
#include "finger_targets.h"
#include "grasp_monitor.h"
#include <mjhand/native/native_plugins.h>
#include "overlays.h"
#include "session.h"
#include "signals.h"
#include "moving_roots_hand.h"
#include "test_util.h"
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/util/dense_decompositions.h>

using namespace mjhand::view;
using mjhand_test::source_path;

namespace {
std::string config_of(const mjhand::InstanceList& h, const std::string& inst, const std::string& key) {
  const mjhand::Instance* i = h.find(inst);
  REQUIRE(i);
  for (const auto& kv : i->config) {
    if (kv.first == key) return kv.second;
  }
  return "";
}

void run_for(Session& s, double seconds) {
  const double t_end = s.d()->time + seconds;
  while (s.d()->time < t_end) s.step_once();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("viewer session: a key edit recompiles a native instance, keeps the state and is validated", "[viewer]") {
  Session s(source_path("models/pid_finger.xml"));
  run_for(s, 0.2);
  const double t = s.d()->time;
  const int id = mj_name2id(s.m(), mjOBJ_PLUGIN, "hold");
  REQUIRE(id >= 0);
  const int n = s.instances().find("hold")->plugin->nstate();
  const std::vector<mjtNum> before(mjhand::native_state(s.m(), s.d(), id), mjhand::native_state(s.m(), s.d(), id) + n);
  const std::vector<mjtNum> qpos(s.d()->qpos, s.d()->qpos + s.m()->nq);
  REQUIRE(s.set_key("hold", "setpoint", "0.1,0.2,0.3") == "");
  // A new model (the configuration is compiled in) carrying the simulation on: time, positions and the running
  // plugin state (integrators, sample timing, held outputs); only what reset() derives from the configuration --
  // here the setpoints, which the PID keeps in its state -- takes the new value.
  CHECK(s.d()->time == t);
  for (int i = 0; i < s.m()->nq; ++i) CHECK(s.d()->qpos[i] == qpos[i]);
  const mjtNum* st = mjhand::native_state(s.m(), s.d(), id);
  const double sp[3] = {0.1, 0.2, 0.3};
  using mjhand::PidController;
  for (int j = 0; j < 3; ++j) {
    CHECK(st[PidController::kHeader + PidController::kPerJoint * j] == sp[j]);
    CHECK(PidController::integral(st, j) == PidController::integral(before.data(), j));
    CHECK(PidController::integral(st, j) != 0.0);
  }
  int changed = 0;
  for (int i = 0; i < n; ++i) changed += st[i] != before[i];
  CHECK(changed == 3);
  CHECK(config_of(s.instances(), "hold", "setpoint") == "0.1,0.2,0.3");
  REQUIRE(s.overrides().size() == 1);
  CHECK(s.overrides()[0].origin == "viewer");
  run_for(s, 3.0);
  // PID with integral action holds the new setpoints (encoder quantisation 2 pi / 4096 = 1.5 mrad).
  const mjModel* m = s.m();
  // a count is 1.5 mrad; the same setpoints from rest are held to 4.5e-4 rad after 3 s (measured); 0.01 ~ 6 counts
  for (int k = 0; k < 3; ++k) CHECK(std::fabs(s.d()->qpos[m->jnt_qposadr[k]] - sp[k]) < 0.01);
  // An invalid value is rejected with mjhand's message; the previous edits stay in force.
  const mjModel* kept = s.m();
  const std::string err = s.set_key("hold", "kp", "-1");
  CHECK(err.find("kp") != std::string::npos);
  CHECK(err.find("hold") != std::string::npos);
  CHECK(s.m() == kept);
  CHECK(config_of(s.instances(), "hold", "setpoint") == "0.1,0.2,0.3");
  CHECK(s.overrides().size() == 1);
  // Dropping every edit returns to the file's values.
  REQUIRE(s.set_overrides({}) == "");
  CHECK(config_of(s.instances(), "hold", "setpoint") == "0.6,0.5,0.4");
}

TEST_CASE("viewer session: switching a native instance off removes its force, across edits", "[viewer]") {
  Session s(source_path("models/pid_finger.xml"));
  run_for(s, 0.1);
  s.set_enabled("hold", false);
  CHECK_FALSE(s.enabled("hold"));
  run_for(s, 0.05);
  for (int a = 0; a < s.m()->nu; ++a) CHECK(s.d()->actuator_force[a] == 0.0);
  REQUIRE(s.set_key("hold", "kp", "3") == "");
  const int id = mj_name2id(s.m(), mjOBJ_PLUGIN, "hold");
  CHECK_FALSE(mjhand::native_enabled(s.m(), s.d(), id));  // the switch survives the recompiled model
  run_for(s, 0.01);
  CHECK(s.d()->actuator_force[0] == 0.0);
  s.set_enabled("hold", true);
  run_for(s, 0.05);
  CHECK(s.d()->actuator_force[0] != 0.0);  // the controller acts again
}

TEST_CASE("viewer session: a failing reload keeps the old model, a good one replaces it", "[viewer]") {
  const std::string path = mjhand_test::binary_dir() + "/viewer_reload_test.xml";
  const std::string good = read_text(source_path("models/pid_finger.xml"));
  {
    std::ofstream(path) << good;
  }
  Session s(path);
  REQUIRE(s.set_key("hold", "kp", "3") == "");
  const mjModel* old = s.m();
  {
    std::ofstream(path) << "<mujoco><worldbody><nosuchelement/></worldbody></mujoco>";
  }
  const std::string err = s.reload();
  CHECK(err.find("unrecognized element") != std::string::npos);  // MuJoCo's own message
  CHECK(s.m() == old);
  run_for(s, 0.01);  // still simulating
  std::string changed = good;
  const std::string from = "<config key=\"setpoint\" value=\"0.6,0.5,0.4\"/>";
  const size_t at = changed.find(from);
  REQUIRE(at != std::string::npos);
  changed.replace(at, from.size(), "<config key=\"setpoint\" value=\"0.2,0.2,0.2\"/>");
  {
    std::ofstream(path) << changed;
  }
  CHECK(s.reload() == "");
  CHECK(config_of(s.instances(), "hold", "setpoint") == "0.2,0.2,0.2");
  CHECK(config_of(s.instances(), "hold", "kp") == "3");  // the viewer edit still applies and is kept
  CHECK(s.d()->time == 0);
  std::remove(path.c_str());
}

TEST_CASE("viewer session: keyframes by name, unknown names list the presets", "[viewer]") {
  Session s(source_path("models/direct_drive_hand.xml"));
  const int k = s.find_keyframe("count_3");
  s.select_keyframe(k);
  for (int i = 0; i < s.m()->nq; ++i) CHECK(s.d()->qpos[i] == s.m()->key_qpos[k * s.m()->nq + i]);
  run_for(s, 0.01);
  s.reset();  // back to the keyframe, not qpos0
  CHECK(s.d()->qpos[s.m()->nq - 1] == s.m()->key_qpos[k * s.m()->nq + s.m()->nq - 1]);
  try {
    s.find_keyframe("nonexistent");
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    for (const char* name : {"nonexistent", "open_hand", "close_hand", "point_finger", "count_1", "count_5"}) {
      CHECK(msg.find(name) != std::string::npos);
    }
  }
}

TEST_CASE("viewer targets: direct-drive x, y, gamma round trip and MuJoCo's fingertip site", "[viewer]") {
  Session s(source_path("models/direct_drive_hand.xml"));
  FingerTargets t(s.m());
  REQUIRE(t.fingers().size() == 5);
  const double phi[3] = {0.3, 0.6, 0.4};
  for (int k = 0; k < 5; ++k) {
    FingerTarget& f = t.fingers()[k];
    REQUIRE(f.planar);
    // Target = closed-form FK of phi; the IK must give phi back, and MuJoCo must put the tip site there.
    const Eigen::Isometry3d T = mjhand::tip_in_base(f.dd, phi);
    const std::array<double, 3> th = mjhand::frame_angles(f.dd, phi);
    f.input[0] = T.translation().x();
    f.input[1] = T.translation().y();
    f.input[2] = th[0] + th[1] + th[2];
    REQUIRE(t.solve(s.m(), s.d(), k));
    // docs/direct-drive-hand.md: the IK round trip to ~1e-11, MuJoCo's site vs the closed-form FK to ~1e-15 (measured)
    for (int i = 0; i < 3; ++i) CHECK(f.q[i] == Approx(phi[i]).margin(1e-9));
    t.set_pose(s, k);
    const Eigen::Vector3d p = mjhand::tip_in_palm(f.dd, phi).translation();  // palm body at the world origin
    for (int i = 0; i < 3; ++i) CHECK(s.d()->site_xpos[3 * f.tree.tip_site + i] == Approx(p[i]).margin(1e-9));
    // Reading the current pose back gives the same fields.
    const double in0[3] = {f.input[0], f.input[1], f.input[2]};
    t.read_current(s.m(), s.d(), k);
    for (int i = 0; i < 3; ++i) CHECK(f.input[i] == Approx(in0[i]).margin(1e-12));  // FK of the solved q: rounding
  }
  // Out of reach: reported, nothing solved.
  t.fingers()[1].input[0] = 1.0;
  CHECK_FALSE(t.solve(s.m(), s.d(), 1));
  CHECK(t.fingers()[1].status.find("unreachable") != std::string::npos);
  // Torque motors without a position controller get no target: send says so and names the joints.
  REQUIRE(t.solve(s.m(), s.d(), 0));
  const std::string msg = t.send(s, 0);
  CHECK(msg.find("no position target") != std::string::npos);
  CHECK(msg.find("f1_j1") != std::string::npos);
}

TEST_CASE("viewer targets: DLS x, y, z reaches MuJoCo's site and becomes the posture target", "[viewer]") {
  Session s(source_path("models/egrasp_scene.xml"));
  FingerTargets t(s.m());
  REQUIRE(t.fingers().size() == 4);
  FingerTarget& f = t.fingers()[0];
  CHECK_FALSE(f.planar);
  // A reachable target: where MuJoCo puts the tip for some joint angles.
  const double q_goal[3] = {0.2, -0.4, -0.3};
  for (int i = 0; i < 3; ++i) s.d()->qpos[f.tree.qpos_adr[i]] = q_goal[i];
  mj_forward(s.m(), s.d());
  Eigen::Vector3d target;
  for (int i = 0; i < 3; ++i) target[i] = s.d()->site_xpos[3 * f.tree.tip_site + i];
  s.reset();
  for (int i = 0; i < 3; ++i) f.input[i] = target[i];
  REQUIRE(t.solve(s.m(), s.d(), 0));
  t.set_pose(s, 0);
  // DLS stops at 1e-10 m (dls_ik.h); MuJoCo's FK of the same q adds rounding; 1e-7 is loose
  for (int i = 0; i < 3; ++i) CHECK(s.d()->site_xpos[3 * f.tree.tip_site + i] == Approx(target[i]).margin(1e-7));
  // Sending: posture 'close' drives every actuator (actuators=all); entries 0..2 (f1's joints) are replaced.
  const std::string msg = t.send(s, 0);
  CHECK(msg.find("close.target=") != std::string::npos);
  const std::string tgt = config_of(s.instances(), "close", "target");
  std::vector<double> vals;
  std::stringstream ss(tgt);
  std::string item;
  while (std::getline(ss, item, ',')) vals.push_back(std::stod(item));
  REQUIRE(vals.size() == static_cast<size_t>(s.m()->nu));
  // the target text is %.9g: 5e-10 for |q| < 1
  for (int i = 0; i < 3; ++i) CHECK(vals[i] == Approx(f.q[i]).margin(1e-8));
  // -0.7 parsed back from the text it came from: equal
  CHECK(vals[4] == Approx(-0.7));  // other fingers keep the file's values
  // With the instance off nothing holds a position target: the hand's actuators are the instance's own servos
  // (native plugin actuators), not MuJoCo position actuators whose ctrl could take it.
  s.set_enabled("close", false);
  REQUIRE(t.solve(s.m(), s.d(), 0));
  CHECK_THAT(t.send(s, 0), Catch::Contains("no position target for f1_j1, f1_j2, f1_j3"));
  // The hand with MuJoCo position actuators and no plugin (egrasp_hand.xml, same palm pose): the target goes to
  // their ctrl.
  Session plain(source_path("models/egrasp_hand.xml"));
  FingerTargets tp(plain.m());
  FingerTarget& g = tp.fingers()[0];
  for (int i = 0; i < 3; ++i) g.input[i] = target[i];
  REQUIRE(tp.solve(plain.m(), plain.d(), 0));
  CHECK(tp.send(plain, 0) == "position actuators set");
  for (int i = 0; i < 3; ++i) CHECK(plain.d()->ctrl[i] == Approx(g.q[i]).margin(1e-12));  // ctrl is q copied
}

TEST_CASE("viewer targets: a real hand without DH chains (Allegro) gets DLS targets from its kinematic tree",
          "[viewer][tree_chains]") {
  Session s(source_path("models/real/allegro_scene.xml"));
  FingerTargets t(s.m());
  REQUIRE(t.fingers().size() == 4);
  for (int k = 0; k < 4; ++k) {
    FingerTarget& f = t.fingers()[k];
    CHECK_FALSE(f.planar);
    REQUIRE(f.tree.chain.dof() == 4);
    // A reachable target: MuJoCo's fingertip (the tip body's sphere pole) at in-range joint values.
    for (int i = 0; i < 4; ++i) {
      const int j = f.tree.joint_ids[i];
      s.d()->qpos[f.tree.qpos_adr[i]] = 0.3 * s.m()->jnt_range[2 * j] + 0.7 * s.m()->jnt_range[2 * j + 1];
    }
    mj_forward(s.m(), s.d());
    t.read_current(s.m(), s.d(), k);
    const Eigen::Vector3d target(f.input[0], f.input[1], f.input[2]);
    s.reset();
    REQUIRE(t.solve(s.m(), s.d(), k));
    t.set_pose(s, k);
    // DLS stops at 1e-10 m (dls_ik.h); MuJoCo's FK of the same q adds rounding; 1e-7 is loose
    const Eigen::Vector3d got = mjhand::mujoco_tip_pose(s.d(), f.tree).translation();
    CHECK((got - target).norm() < 1e-7);
    // The hand's MuJoCo position servos take the solution as ctrl (within their ctrlrange = the joint range).
    CHECK(t.send(s, k) == "position actuators set");
    for (int i = 0; i < 4; ++i) {
      for (int a = 0; a < s.m()->nu; ++a) {
        if (s.m()->actuator_trnid[2 * a] == f.tree.joint_ids[i]) CHECK(s.d()->ctrl[a] == Approx(f.q[i]).margin(1e-12));
      }
    }
  }
}

TEST_CASE("viewer metrics: the grasp box agrees with the grasp_analysis sensor", "[viewer]") {
  Session s(source_path("models/grasp_sensor_scene.xml"));
  run_for(s, 1.0);
  GraspMonitor g(s.m(), "");
  g.update(s.m(), s.d(), &s.instances(), true);
  const GraspMetrics& gm = g.metrics();
  CHECK(gm.object_name == "ball");
  CHECK(gm.object_source.find("grasp_analysis") != std::string::npos);
  // The sensor wrote its outputs (contacts, sigma_min, ...) at the end of the same step from the same contacts.
  const int sid = mj_name2id(s.m(), mjOBJ_SENSOR, "grasp");
  REQUIRE(sid >= 0);
  const mjtNum* out = s.d()->sensordata + s.m()->sensor_adr[sid];
  CHECK(gm.contacts == static_cast<int>(out[0]));
  CHECK(gm.contacts >= 1);
  // grasp_sigma_min on the same contacts' G as the sensor's: equal up to rounding; 1e-9 is loose
  CHECK(gm.sigma_min == Approx(out[1]).margin(1e-9));
  CHECK((gm.closure == "yes") == (out[3] > 0.5));
  CHECK(g.text().find("sigma_min") != std::string::npos);
  // --object naming no body fails by name.
  CHECK_THROWS_WITH(GraspMonitor(s.m(), "nosuchbody"), Catch::Contains("nosuchbody"));
  // A model without a free body says so instead of failing.
  Session p(source_path("models/pid_finger.xml"));
  GraspMonitor none(p.m(), "");
  none.update(p.m(), p.d(), &p.instances(), false);
  CHECK(none.metrics().object == -1);
  CHECK(none.text().find("no free body") != std::string::npos);
}

TEST_CASE("viewer signals and overlays: coil currents, ring buffer, contact geoms", "[viewer]") {
  Session s(source_path("models/direct_drive_coil_scene.xml"));
  run_for(s, 0.05);
  const std::vector<Signal> sig = available_signals(s.m(), &s.instances());
  int coils = 0;
  for (const Signal& x : sig) {
    if (x.kind != SignalKind::kCoilCurrent) continue;
    ++coils;
    CHECK(read_signal(s.m(), s.d(), x) == s.d()->ctrl[x.index]);
  }
  CHECK(coils == 15);
  RingBuffer rb(4);
  for (int i = 1; i <= 6; ++i) rb.push(static_cast<float>(i));
  CHECK(rb.size() == 4);
  CHECK(rb.data()[rb.offset()] == 3.0f);  // oldest kept sample
  CHECK(rb.min() == 3.0f);
  CHECK(rb.max() == 6.0f);

  Session g(source_path("models/grasp_sensor_scene.xml"));
  run_for(g, 1.0);
  REQUIRE(g.d()->ncon > 0);
  mjvScene scn;
  mjv_defaultScene(&scn);
  mjv_makeScene(g.m(), &scn, 1000);
  OverlayFlags only_points;
  only_points.contact_forces = only_points.tip_frames = only_points.object_frames = false;
  add_overlays(g.m(), g.d(), only_points, scn);
  CHECK(scn.ngeom == g.d()->ncon);  // one sphere per contact
  scn.ngeom = 0;
  OverlayFlags cones = only_points;
  cones.contact_points = false;
  cones.friction_cones = true;
  add_overlays(g.m(), g.d(), cones, scn);
  int cone_contacts = 0;
  for (int i = 0; i < g.d()->ncon; ++i) cone_contacts += g.d()->contact[i].dim >= 3;
  CHECK(scn.ngeom == 8 * cone_contacts);
  // A full scene is never overrun.
  scn.ngeom = scn.maxgeom - 2;
  OverlayFlags all;
  all.friction_cones = true;
  add_overlays(g.m(), g.d(), all, scn);
  CHECK(scn.ngeom == scn.maxgeom);
  mjv_freeScene(&scn);
}

TEST_CASE("viewer overlay: the manipulability ellipsoid geom has the grasp's translation semi-axes", "[viewer]") {
  Session g(source_path("models/grasp_sensor_scene.xml"));
  run_for(g, 1.0);
  GraspMonitor mon(g.m(), "");
  mon.update(g.m(), g.d(), &g.instances(), false);
  const GraspMetrics& gm = mon.metrics();
  REQUIRE(gm.contacts >= 1);
  REQUIRE(gm.ellipsoid.ok);
  // Independent computation from the same G and J_H: the compatible joint speeds from an LU kernel of
  // [J_H, -G^T], Z orthonormal (QR), M = (G^T)^+ J_H Z (complete orthogonal decomposition), and the translation
  // block's semi-axes as the square roots of the eigenvalues of (M M^T)_tt -- the projection of the 6-D ellipsoid.
  mjhand::HandModel hand = mjhand_test::hand_from_moving_roots(g.m(), gm.object);
  mjhand::GraspData data(g.m(), hand, 64);
  mjhand::compute_grasp(g.m(), g.d(), hand, data);
  const Eigen::MatrixXd G = data.G(), JH = data.JH();
  Eigen::MatrixXd C(G.cols(), JH.cols() + 6);
  C << JH, -G.transpose();
  const Eigen::MatrixXd K = Eigen::FullPivLU<Eigen::MatrixXd>(C).kernel();
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(K.topRows(JH.cols()));
  const Eigen::MatrixXd Z = Eigen::MatrixXd(qr.householderQ()).leftCols(qr.rank());
  const Eigen::MatrixXd M = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(G.transpose()).solve(JH * Z);
  const Eigen::Matrix3d Ett = (M * M.transpose()).topLeftCorner<3, 3>();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(Ett);
  for (int i = 0; i < 3; ++i) {
    // Rounding of SVD vs LU/QR/eigen routes on J_H entries of a few cm: 1e-9 of the largest axis.
    CHECK(gm.ellipsoid.axes(i) == Approx(std::sqrt(std::max(0.0, es.eigenvalues()(2 - i))))
                                      .margin(1e-9 * gm.ellipsoid.axes(0)));
  }
  CHECK(gm.ellipsoid.axes(0) > 0);
  CHECK((gm.ellipsoid.centre - data.reference).norm() == 0.0);

  mjvScene scn;
  mjv_defaultScene(&scn);
  mjv_makeScene(g.m(), &scn, 100);
  OverlayFlags f;
  add_ellipsoid_overlay(g.m(), gm, f, scn);  // off by default
  CHECK(scn.ngeom == 0);
  f.manip_ellipsoid = true;
  f.ellipsoid_scale = 2.0f;
  add_ellipsoid_overlay(g.m(), gm, f, scn);
  REQUIRE(scn.ngeom == 1);
  const mjvGeom& e = scn.geoms[0];
  CHECK(e.type == mjGEOM_ELLIPSOID);
  const double floor = 0.002 * g.m()->stat.extent;
  for (int i = 0; i < 3; ++i) {
    // mjvGeom stores floats: relative 1e-6.
    CHECK(e.size[i] == Approx(std::max(2.0 * gm.ellipsoid.axes(i), floor)).epsilon(1e-6));
    CHECK(e.pos[i] == Approx(gm.ellipsoid.centre(i)).margin(1e-6));
    Eigen::Vector3d col(e.mat[i], e.mat[3 + i], e.mat[6 + i]);  // geom axis i in world coordinates
    CHECK(std::abs(col.dot(gm.ellipsoid.dirs.col(i))) == Approx(1).epsilon(1e-6));
  }
  // A full scene is never overrun.
  scn.ngeom = scn.maxgeom;
  add_ellipsoid_overlay(g.m(), gm, f, scn);
  CHECK(scn.ngeom == scn.maxgeom);
  mjv_freeScene(&scn);
}

#endif
