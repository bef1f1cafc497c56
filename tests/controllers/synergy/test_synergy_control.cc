// Synergy control in MuJoCo (controllers/mjhand/synergy/): the synergy plugin's soft-synergy torque against the law
// evaluated from mjData and its steady state against MuJoCo's gravity torque; closing the direct-drive hand on a sphere
// along a synergy direction; the committed synergy file regenerated from the committed postures, and the first
// postures re-recorded.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include <mjhand/hand/number_format.h>
#include <mjhand/hand/synergies.h>
#include <mjhand/synergy/posture_recording.h>
#include <mjhand/synergy/synergy.h>
#include <mjhand/synergy/synergy_closure.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::source_path;

namespace {

const std::string kScene = "models/direct_drive_synergy_scene.xml";
const std::string kGraspScene = "models/direct_drive_synergy_grasp.xml";
const std::string kSynergies = "models/synergies/direct_drive_hand.csv";
const std::string kPostures = "models/synergies/direct_drive_hand_postures.csv";

std::string scene_text() { return mjhand_test::read_all(source_path(kScene)); }

// `xml` with the <config key="KEY" value="..."/> element's value replaced, or the element removed when value is "".
std::string set_key(std::string xml, const std::string& key, const std::string& value) {
  const std::string start = "<config key=\"" + key + "\" value=\"";
  const size_t b = xml.find(start);
  REQUIRE(b != std::string::npos);
  const size_t e = xml.find("/>", b) + 2;
  xml.replace(b, e - b, value.empty() ? "" : start + value + "\"/>");
  return xml;
}

// The scene text with one key changed, its include made absolute so that it compiles from a string.
std::string scene_with(const std::string& key, const std::string& value) {
  std::string xml = set_key(scene_text(), key, value);
  const std::string inc = "<include file=\"direct_drive_hand.xml\"/>";
  xml.replace(xml.find(inc), inc.size(), "<include file=\"" + source_path("models/direct_drive_hand.xml") + "\"/>");
  return xml;
}

}  // namespace

TEST_CASE("synergy plugin: torque is the soft-synergy law, settles at q0 + S z minus K_q^-1 gravity torque",
          "[synergy]") {
  auto m = mjhand_test::load_xml_file(source_path(kScene));
  const Synergies s = read_synergies(source_path(kSynergies));
  REQUIRE(synergy_count(s) == 3);
  m->opt.disableflags |= mjDSBL_CONTACT;  // free motion: no contact with the sphere
  auto d = make_data(m.get());
  const SynergyJoints joints = resolve_synergy_joints(m.get(), s, kScene);
  const double kq = 2.0, kd = 0.01;  // the scene's gains
  int inputs[3], acts[15];
  for (int c = 0; c < 3; ++c) inputs[c] = mj_name2id(m.get(), mjOBJ_ACTUATOR, ("z" + std::to_string(c + 1)).c_str());
  for (int i = 0; i < 15; ++i) acts[i] = mj_name2id(m.get(), mjOBJ_ACTUATOR, (s.joints[i] + "_syn").c_str());
  // z: on a grid of steps 0.1 in [-1.5, 1.5]^3, the largest amplitudes whose reference keeps 0.06 rad from the
  // joint limits (room for the gravity sag, below).
  Eigen::Vector3d z = Eigen::Vector3d::Zero();
  double best = -1;
  for (int a = -15; a <= 15; ++a)
    for (int b = -15; b <= 15; ++b)
      for (int c = -15; c <= 15; ++c) {
        const Eigen::Vector3d t(0.1 * a, 0.1 * b, 0.1 * c);
        const Eigen::VectorXd q = synergy_posture(s, t);
        const double margin = std::min(q.minCoeff(), 1.5707963267948966 - q.maxCoeff());
        if (margin >= 0.06 && t.norm() > best) {
          best = t.norm();
          z = t;
        }
      }
  const Eigen::VectorXd qr = synergy_posture(s, z);
  // The reference must lie inside the joint ranges [0, pi/2] with room for the gravity sag (measured 0.045 rad), so
  // that no joint limit adds a force (checked after settling).
  INFO("z " << z.transpose() << ", q_r in [" << qr.minCoeff() << ", " << qr.maxCoeff() << "]");
  REQUIRE(qr.minCoeff() >= 0.06);
  REQUIRE(qr.maxCoeff() <= 1.5707963267948966 - 0.06);
  for (int c = 0; c < 3; ++c) d->ctrl[inputs[c]] = z(c);

  // The law from mjData, during the motion: every 250 steps.
  double worst = 0;
  for (int step = 1; step <= 16000; ++step) {
    mj_step(m.get(), d.get());
    if (step % 250 != 0) continue;
    mj_forward(m.get(), d.get());
    for (int i = 0; i < 15; ++i) {
      const double law = kq * (qr(i) - d->qpos[joints.qpos[i]]) - kd * d->qvel[joints.dof[i]];
      worst = std::max(worst, std::abs(d->actuator_force[acts[i]] - law));
      CHECK(d->qfrc_actuator[joints.dof[i]] == Approx(law).margin(1e-12));  // gear 1: the dof's actuation
    }
    for (int c = 0; c < 3; ++c) {
      CHECK(d->actuator_force[inputs[c]] == 0.0);  // inputs carry no force
      CHECK(d->ctrl[inputs[c]] == z(c));           // and the user's z is kept
    }
  }
  CHECK(worst <= 1e-12);  // the same sums in another order: rounding of O(1) N m values

  // Settled (8 s): at rest the actuation balances MuJoCo's gravity torque, K_q (q_r - q) = qfrc_bias, so
  // q = q_r - K_q^-1 qfrc_bias with qfrc_bias evaluated by MuJoCo at the settled posture.
  double sag = 0, residual = 0, speed = 0;
  for (int i = 0; i < 15; ++i) {
    const double expected = qr(i) - d->qfrc_bias[joints.dof[i]] / kq;
    residual = std::max(residual, std::abs(d->qpos[joints.qpos[i]] - expected));
    sag = std::max(sag, std::abs(d->qfrc_bias[joints.dof[i]] / kq));
    speed = std::max(speed, std::abs(d->qvel[joints.dof[i]]));
  }
  CHECK(sag > 0.01);     // gravity (palm up) loads the joints: the check below is not trivially q = q_r
  int limits = 0;        // and no joint limit acts: the balance below is the actuation's and gravity's alone
  for (int e = 0; e < d->nefc; ++e) limits += d->efc_type[e] == mjCNSTR_LIMIT_JOINT;
  CHECK(limits == 0);
  CHECK(speed < 1e-6);   // settled
  // The remaining motion's damping force kd * speed < 1e-8 N m, so the equilibrium holds to ~1e-8 / kq rad.
  CHECK(residual < 1e-7);  // measured 1.6e-12 (speed 8e-11 rad/s)
}

TEST_CASE("synergy plugin: bad configurations are named", "[synergy]") {
  using mjhand_test::attach_error;
  CHECK(attach_error(scene_with("kq", "2")).empty());  // the test's own editing leaves a valid scene
  CHECK_THAT(attach_error(scene_with("joints", "f1_j1,f1_j2,f1_j3,f2_j1,f2_j2,f2_j3,f3_j1,f3_j2,f3_j3,f4_j1,f4_j2,f4_j3,"
                                               "f5_j1,f5_j2,nope")),
             Catch::Contains("joint 'nope' is not in the model"));
  CHECK_THAT(attach_error(scene_with("inputs", "z1,z2")),
             Catch::Contains("'inputs'") && Catch::Contains("one actuator per synergy (k = 3), got 2"));
  CHECK_THAT(attach_error(scene_with("S", "1,2,3")), Catch::Contains("needs k x 15 values"));
  CHECK_THAT(attach_error(scene_with("kq", "-1")), Catch::Contains("must be positive"));
  // file= instead of the inline keys: a missing file is named; the committed file by absolute path works.
  const std::string no_inline = set_key(set_key(scene_with("q0", ""), "S", ""), "joints", "");
  const std::string with_file = "<config key=\"inputs\"";
  auto file_scene = [&](const std::string& path) {
    std::string xml = no_inline;
    xml.insert(xml.find(with_file), "<config key=\"file\" value=\"" + path + "\"/>");
    return xml;
  };
  CHECK_THAT(attach_error(file_scene("/nonexistent/syn.csv")),
             Catch::Contains("/nonexistent/syn.csv: cannot open the synergy file"));
  CHECK(attach_error(file_scene(source_path(kSynergies))).empty());
  CHECK_THAT(attach_error(set_key(file_scene(source_path(kSynergies)), "kd", "0,1")),
             Catch::Contains("needs 1 or 15 values"));
}

TEST_CASE("synergy scene: its inline q0 and S are the committed synergy file", "[synergy]") {
  auto m = mjhand_test::load_xml_file(source_path(kScene));
  const Synergies s = read_synergies(source_path(kSynergies));
  // Each number as the file writes it (format_exact) appears in the scene's keys in order; so in the grasp scene.
  std::string q0, S;
  for (int i = 0; i < 15; ++i) q0 += (i ? "," : "") + format_exact(s.q0(i));
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < 15; ++i) S += (S.empty() ? "" : ",") + format_exact(s.S(i, c));
  for (const std::string& path : {kScene, kGraspScene}) {
    INFO(path);
    const std::string xml = mjhand_test::read_all(source_path(path));
    CHECK(xml.find("<config key=\"q0\" value=\"" + q0 + "\"/>") != std::string::npos);
    CHECK(xml.find("<config key=\"S\" value=\"" + S + "\"/>") != std::string::npos);
  }
}

TEST_CASE("synergy grasp scene: the synergy-driven hand holds the free ball, knocked or not, and drops it unactuated",
          "[synergy]") {
  auto m = mjhand_test::load_xml_file(source_path(kGraspScene));
  auto d = mjhand_test::make_data(m.get());
  const int key = mj_name2id(m.get(), mjOBJ_KEY, "hold"), ball = mj_name2id(m.get(), mjOBJ_BODY, "ball");
  REQUIRE(key >= 0);
  REQUIRE(ball > 0);
  const int vadr = m->jnt_dofadr[m->body_jntadr[ball]];
  // Ball contacts (dist <= 0) by the other body's name.
  auto touching = [&]() {
    std::set<std::string> bodies;
    for (int i = 0; i < d->ncon; ++i) {
      const int b1 = m->geom_bodyid[d->contact[i].geom[0]], b2 = m->geom_bodyid[d->contact[i].geom[1]];
      if ((b1 == ball) != (b2 == ball) && d->contact[i].dist <= 0) bodies.insert(mj_id2name(m.get(), mjOBJ_BODY, b1 == ball ? b2 : b1));
    }
    return bodies;
  };
  const std::set<std::string> grasp = {"f3_link3", "f4_link3", "palm"};
  // Held still, and knocked at 0.1 m/s along each axis (gravity is along -X): after 1 s the ball is back where the
  // keyframe put it, in the same three contacts.
  for (int axis = -1; axis < 3; ++axis) {
    INFO("knock axis " << axis);
    mj_resetDataKeyframe(m.get(), d.get(), key);
    mj_forward(m.get(), d.get());
    const Eigen::Vector3d p0(d->xpos + 3 * ball);
    CHECK(touching() == grasp);
    if (axis >= 0) d->qvel[vadr + axis] = axis == 0 ? -0.1 : 0.1;
    double farthest = 0;
    while (d->time < 1.0) {
      mj_step(m.get(), d.get());
      farthest = std::max(farthest, (Eigen::Vector3d(d->xpos + 3 * ball) - p0).norm());
    }
    // Measured: 1e-11 m unknocked, 1.6e-7 m knocked (0.9 mm at most on the way); 1e-5 m is a settled ball, far
    // below any slip (the ball's radius is 35 mm).
    CHECK((Eigen::Vector3d(d->xpos + 3 * ball) - p0).norm() < 1e-5);
    CHECK(farthest < 0.005);  // measured 0.87 mm: the fingers' compliance, no escape
    CHECK(touching() == grasp);
  }
  // Control: the same start without actuation (the synergy torques off), the ball falls out of the hand.
  m->opt.disableflags |= mjDSBL_ACTUATION;
  mj_resetDataKeyframe(m.get(), d.get(), key);
  mj_forward(m.get(), d.get());
  const Eigen::Vector3d p0(d->xpos + 3 * ball);
  while (d->time < 0.5) mj_step(m.get(), d.get());
  CHECK((Eigen::Vector3d(d->xpos + 3 * ball) - p0).norm() > 0.1);  // free fall for ~0.5 s: ~1 m
}

TEST_CASE("closing with synergies: the direct-drive hand stops on a sphere with the fingers whose plane cuts it",
          "[synergy]") {
  const Synergies s = read_synergies(source_path(kSynergies));
  // Sphere r = 35 mm at z = 0: fingers move in the planes z = f_z (+-7 mm capsules): f3 (25 mm) and f4 (-25 mm) cut
  // it, f2 (75 mm), f5 (-75 mm) and the thumb (50 mm) pass at >= 50 - 7 - 35 = 8 mm.
  GraspObject sphere{"sphere", Eigen::Vector3d(0.035, 0, 0), Eigen::Vector3d(0.2, 0.09, 0.0)};
  auto m = hand_with_object(source_path("models/direct_drive_hand.xml"), sphere);
  mju_zero3(m->opt.gravity);
  m->opt.timestep = 5e-4;
  auto d = make_data(m.get());
  mj_forward(m.get(), d.get());
  SynergyClosureOptions o;
  o.z_start = Eigen::Vector3d::Zero();
  o.direction = s.S.transpose() * s.q0;  // from the open hand (q = 0) toward the mean grasp, within the synergies
  o.speed = 1.0;
  o.travel = 4.0;
  o.kq = Eigen::VectorXd::Constant(15, 0.5);
  o.kd = Eigen::VectorXd::Constant(15, 0.01);
  o.stop_fingers = 2;
  const SynergyClosureResult r = close_hand_with_synergies(m.get(), d.get(), s, o);
  INFO("travel " << r.travel << " steps " << r.steps << " deepest " << r.deepest);
  CHECK(r.stopped_by_contact);
  CHECK(r.travel < o.travel);
  CHECK(std::set<std::string>(r.fingers.begin(), r.fingers.end()) == std::set<std::string>{"f3", "f4"});
  // MuJoCo's soft contacts penetrate; the default solimp reaches its full impedance at 1 mm (width 0.001), beyond
  // which a contact is not resolved as intended.
  CHECK(r.deepest > -1e-3);
  CHECK(r.deepest < 0);  // and the fingers do touch
  // The reference moved along S d only: the joints not in contact follow q_start + S (z - z_start) up to their
  // stiffness; the touching fingers' joints lag behind it.
  Eigen::VectorXd q(15);
  gather_synergy_joints(resolve_synergy_joints(m.get(), s, "test"), d->qpos, q);
  const Eigen::VectorXd qr = s.S * (r.z - o.z_start);
  // The free fingers f2 and f5 (joints 3-5, 12-14) follow the reference: what is left is the oscillation of their
  // lightly damped proximal joints (damping ratio ~0.1) 0.1 s after the ramp stopped, measured 0.015 rad.
  CHECK((q.segment(3, 3) - qr.segment(3, 3)).cwiseAbs().maxCoeff() < 0.03);
  CHECK((q.segment(12, 3) - qr.segment(12, 3)).cwiseAbs().maxCoeff() < 0.03);
}

TEST_CASE("synergies: the committed file is the PCA of the committed postures", "[synergy]") {
  const PostureRecording r = read_postures(source_path(kPostures));
  const Synergies committed = read_synergies(source_path(kSynergies));
  const SynergyFit fit = fit_synergies(r.joints, r.postures, synergy_count(committed));
  CHECK(fit.synergies.joints == committed.joints);
  // Same data, same algorithm: differences only from the build's floating-point contraction (FMA) in the SVD.
  CHECK((fit.synergies.q0 - committed.q0).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((fit.synergies.S - committed.S).cwiseAbs().maxCoeff() < 1e-9);
}

TEST_CASE("synergies: a short recording reproduces the first committed postures", "[synergy]") {
  const PostureRecording committed = read_postures(source_path(kPostures));
  PostureRecordingOptions o;
  o.hand_xml = source_path("models/direct_drive_hand.xml");
  o.seed = 1;
  o.count = 3;
  const PostureRecording r = record_grasp_postures(o);
  REQUIRE(r.postures.rows() == 3);
  CHECK(r.joints == committed.joints);
  for (int i = 0; i < 3; ++i) {
    CHECK(r.draws[i] == committed.draws[i]);
    CHECK(r.fingers[i] == committed.fingers[i]);
    CHECK((r.objects[i].pos - committed.objects[i].pos).cwiseAbs().maxCoeff() == 0.0);  // bit arithmetic draws
    // Thousands of steps with contacts: a different build's rounding (FMA) could move the settled posture a little;
    // on the build that wrote the file it is exact.
    CHECK((r.postures.row(i) - committed.postures.row(i)).cwiseAbs().maxCoeff() < 1e-6);
  }
}

