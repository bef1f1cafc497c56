// Hand-object Cartesian control (e_GRASP eqs 39-44) on the e_GRASP hand holding a ball (models/egrasp_hold.xml):
// the open-loop 4-finger hold cross-checked against MuJoCo's contact forces (issue 3), the Fig. 8 sinusoid tracked by
// the controller with a drop detector that fires when the controller is absent or has no gains, configuration
// errors, NaN handling, plain class == plugin, threads, and the pieces (squeeze distribution, trajectories).
// The controller is the native instance 'hold' (mjhand.hand_object): its torques are the forces of its 12 plugin
// actuators, so a test that needs the scene without it uses a copy with motors in their place
// (load_without_controller).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/hand_object/hand_object.h>
#include <mjhand/host/controller_plugin.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/native/native_overrides.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::make_data;
using mjhand_test::read_all;
using mjhand_test::source_path;

namespace {

const char* kHoldXml = "models/egrasp_hold.xml";

// A variant of egrasp_hold.xml written next to a copy of the generated hand, because MJCF includes resolve relative
// to the including file. `name` keeps the folders of test cases that ctest runs in parallel apart.
std::string write_hold(const std::string& name, const std::string& xml) {
  const std::string dir = mjhand_test::fresh_temp_dir("hand_object_" + name);
  std::filesystem::copy_file(source_path("models/egrasp_hold_hand.xml"), dir + "/egrasp_hold_hand.xml");
  std::ofstream(dir + "/hold.xml") << xml;
  return dir + "/hold.xml";
}

// egrasp_hold.xml with the configuration of instance 'hold' replaced (and `extra` inserted before </worldbody>).
std::string hold_variant(const std::string& name, const std::string& data, const std::string& extra = "") {
  std::string xml = mjhand_test::with_instance(read_all(source_path(kHoldXml)), "hold", data);
  xml.insert(xml.find("</worldbody>"), extra);
  return write_hold(name, xml);
}

// egrasp_hold.xml without the controller: each plugin actuator of 'hold' becomes the torque motor it stands for
// (same name, joint and order, gear 1, unlimited) and the instance is gone, so nothing inside mj_step computes a
// force and ctrl is the joint torque, as in a model with no controller attached.
ModelPtr load_without_controller(const std::string& name) {
  std::string xml = read_all(source_path(kHoldXml));
  const std::regex actuator("<plugin name=\"([^\"]+)\" joint=\"([^\"]+)\" instance=\"hold\"/>");
  REQUIRE(std::distance(std::sregex_iterator(xml.begin(), xml.end(), actuator), std::sregex_iterator()) == 12);
  xml = std::regex_replace(xml, actuator, "<motor name=\"$1\" joint=\"$2\" gear=\"1\" ctrllimited=\"false\"/>");
  const size_t begin = xml.find("<extension>"), end = xml.find("</extension>");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  xml.erase(begin, end + std::string("</extension>").size() - begin);
  ModelPtr m = load_model(write_hold(name, xml));
  REQUIRE(m->nplugin == 0);
  REQUIRE(m->nu == 12);
  return m;
}

// MuJoCo's load error for `path` (which carries mjhand's message for a bad configuration), or "" if it loads.
std::string load_error(const std::string& path) {
  try {
    load_model(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

int hold_id(const mjModel* m) {
  const int id = mj_name2id(m, mjOBJ_PLUGIN, "hold");
  REQUIRE(id >= 0);
  return id;
}

// The controller of d's instance 'hold' (each mjData has its own configured object).
const HandObjectController& controller_of(const mjModel* m, const mjData* d) {
  auto* plugin = dynamic_cast<const ControllerPlugin<HandObjectController>*>(native_plugin(m, d, hold_id(m)));
  REQUIRE(plugin);
  return plugin->controller();
}

mjtNum* hold_state(const mjModel* m, mjData* d) { return native_state(m, d, hold_id(m)); }

HandModel hold_hand(const mjModel* m) {
  return hand_from_palm(m, mj_name2id(m, mjOBJ_BODY, "ball"), mj_name2id(m, mjOBJ_BODY, "palm"));
}

// MuJoCo's contacts between the ball and the fingers, and their forces in the grasp contact frames.
struct MujocoGrasp {
  std::vector<Contact> contacts;
  Eigen::VectorXd lambda;
  unsigned fingers = 0;  // bit k: finger k touches
};
MujocoGrasp mujoco_grasp(const mjModel* m, const mjData* d, const HandModel& hand) {
  MujocoGrasp g;
  g.contacts.reserve(32);
  collect_contacts(m, d, hand, g.contacts);
  g.lambda.resize(total_rows(g.contacts));
  mujoco_contact_forces(m, d, g.contacts, g.lambda);
  for (const Contact& c : g.contacts) g.fingers |= 1u << c.finger;
  return g;
}

// Fires when the object is farther than `limit` from where the controller wants it.
struct DropDetector {
  double limit = 0.01;  // [m]
  bool fired = false;
  double when = -1;
  void update(double t, double error) {
    if (!fired && !(error <= limit)) {
      fired = true;
      when = t;
    }
  }
};

// Fig. 8 rollout figures.
struct Tracking {
  double rms = 0, max = 0, max_rot = 0;  // position [m], orientation [rad], whole run
  double max_moving = 0, rms_moving = 0, max_rot_moving = 0;  // the same from 0.5 s on (after the settling)
  double min_fn_margin = 1e9;            // MuJoCo's f_n - min_normal_force, min over contacts and steps [N]
  double min_cone_margin = 1e9;          // MuJoCo's forces: friction_cone_margin [N]
  double min_cmd_normal_margin = 1e9, min_cmd_cone_margin = 1e9;  // the controller's commanded forces [N]
  double min_limit_margin = 1e9;         // closest any hand joint came to a limit [rad]
  bool all_fingers = true;               // every finger touched the ball at every step
  DropDetector drop;
  HandObjectReport last;
  long replaced = 0;                     // non-finite torques the native adapter had to replace by 0
};

// Steps a hold model for `seconds` (its controller runs inside mj_step) and measures the tracking of the
// controller's reference.
Tracking track(const std::string& path, double seconds, double min_normal_force) {
  ModelPtr m = load_model(path);
  const HandModel hand = hold_hand(m.get());
  DataPtr d = make_data(m.get());
  const HandObjectController& ctl = controller_of(m.get(), d.get());
  Tracking t;
  double sum = 0, sum_moving = 0;
  long moving = 0;
  const long steps = std::lround(seconds / m->opt.timestep);
  for (long k = 0; k < steps; ++k) {
    mj_step(m.get(), d.get());
    // After mj_step, d->contact, efc_force and xipos belong to the state the step started from: compare with the
    // reference and the report of that same instant.
    const mjtNum* st = hold_state(m.get(), d.get());
    const double t_ctl = d->time - m->opt.timestep;
    const ObjectReference ref = ctl.reference(st, t_ctl);
    const Eigen::Vector3d p(d->xipos + 3 * hand.object_body);
    const Eigen::Quaterniond q(d->xquat[4 * hand.object_body], d->xquat[4 * hand.object_body + 1],
                               d->xquat[4 * hand.object_body + 2], d->xquat[4 * hand.object_body + 3]);
    const double e = (ref.p - p).norm();
    sum += e * e;
    t.max = std::max(t.max, e);
    t.max_rot = std::max(t.max_rot, orientation_error(ref.q, q).norm());
    t.drop.update(d->time, e);
    if (t_ctl >= 0.5) {
      sum_moving += e * e;
      ++moving;
      t.max_moving = std::max(t.max_moving, e);
      t.max_rot_moving = std::max(t.max_rot_moving, orientation_error(ref.q, q).norm());
    }
    const MujocoGrasp g = mujoco_grasp(m.get(), d.get(), hand);
    t.all_fingers = t.all_fingers && g.fingers == 0xF;
    int row = 0;
    for (const Contact& c : g.contacts) {
      t.min_fn_margin = std::min(t.min_fn_margin, g.lambda(row) - min_normal_force);
      t.min_cone_margin = std::min(t.min_cone_margin, friction_cone_margin(c, g.lambda.data() + row));
      row += contact_rows(c.model);
    }
    for (int v : hand.dofs) {
      const int j = m->dof_jntid[v];
      const double q = d->qpos[m->jnt_qposadr[j]];
      t.min_limit_margin = std::min({t.min_limit_margin, q - m->jnt_range[2 * j], m->jnt_range[2 * j + 1] - q});
    }
    const HandObjectReport r = HandObjectController::report(st);
    t.min_cmd_normal_margin = std::min(t.min_cmd_normal_margin, r.normal_margin);
    t.min_cmd_cone_margin = std::min(t.min_cmd_cone_margin, r.cone_margin);
  }
  t.rms = std::sqrt(sum / static_cast<double>(steps));
  t.rms_moving = moving ? std::sqrt(sum_moving / static_cast<double>(moving)) : 0.0;
  t.last = HandObjectController::report(hold_state(m.get(), d.get()));
  t.replaced = native_faults(m.get(), d.get()).count;
  return t;
}

}  // namespace

// ---- the model ----------------------------------------------------------------------------------------------------

TEST_CASE("egrasp_hold: the e_GRASP hand, palm up, with the four fingertips on the ball at qpos0", "[hand_object]") {
  ModelPtr m = load_model(source_path(kHoldXml));
  ModelPtr ref = load_model(source_path("models/egrasp_hand.xml"));
  // Same kinematics as egrasp_hand.xml: the paper's angle is theta_deg + q, so the hold hand at q = a - theta
  // equals the reference hand at a (tip poses in the palm frame).
  std::vector<TreeChain> hold = read_model_chains(m.get()), paper = read_model_chains(ref.get());
  REQUIRE(hold.size() == 4);
  REQUIRE(paper.size() == 4);
  double worst = 0;
  for (size_t f = 0; f < 4; ++f) {
    Chain c1 = hold[f].dh, c2 = paper[f].dh;
    c1.base = hold[f].base_in_root;
    c2.base = paper[f].base_in_root;
    for (int sample = 0; sample < 20; ++sample) {
      double a[3], q[3];
      for (int i = 0; i < 3; ++i) {
        a[i] = 0.7 * std::sin(1.3 * sample + 2.1 * i + static_cast<double>(f)) * M_PI / 4;  // within +-45 deg
        q[i] = a[i] - c1.links[i].theta;
      }
      const Eigen::Isometry3d t1 = tip_pose_and_jacobian(c1, q), t2 = tip_pose_and_jacobian(c2, a);
      worst = std::max(worst, (t1.matrix() - t2.matrix()).cwiseAbs().maxCoeff());
    }
    // The joint range is the paper's +-45 deg in the paper's angle.
    for (int i = 0; i < 3; ++i) {
      // Range and theta come from the yaml's degrees (-45 - g and g): only deg-to-rad rounding separates them.
      const int j = hold[f].joint_ids[i];
      CHECK(m->jnt_range[2 * j] + hold[f].dh.links[i].theta == Approx(-M_PI / 4).margin(1e-9));
      CHECK(m->jnt_range[2 * j + 1] + hold[f].dh.links[i].theta == Approx(M_PI / 4).margin(1e-9));
    }
  }
  CHECK(worst < 1e-12);  // the same transform with theta moved into q: double rounding
  // One torque actuator of instance 'hold' on every joint, gain 1: its force is the controller's joint torque.
  REQUIRE(m->nu == 12);
  const int instance = hold_id(m.get());
  for (int a = 0; a < m->nu; ++a) {
    CHECK(m->actuator_plugin[a] == instance);
    CHECK(m->actuator_trntype[a] == mjTRN_JOINT);
    CHECK(m->actuator_dyntype[a] == mjDYN_NONE);
    CHECK(m->actuator_gaintype[a] == mjGAIN_FIXED);
    CHECK(m->actuator_biastype[a] == mjBIAS_NONE);
    CHECK(m->actuator_gainprm[mjNGAIN * a] * m->actuator_gear[6 * a] == 1.0);
  }
  for (int v : hold_hand(m.get()).dofs) CHECK(hand_motor_actuator(m.get(), v) >= 0);
  // qpos0 and keyframe 'grasp': one contact per fingertip (on the last link), 0.3 mm deep, nothing else touching.
  const int key = mj_name2id(m.get(), mjOBJ_KEY, "grasp");
  REQUIRE(key >= 0);
  DataPtr d = make_data(m.get());
  for (int variant = 0; variant < 2; ++variant) {
    if (variant == 1) mj_resetDataKeyframe(m.get(), d.get(), key);
    mj_forward(m.get(), d.get());
    const HandModel hand = hold_hand(m.get());
    const MujocoGrasp g = mujoco_grasp(m.get(), d.get(), hand);
    CHECK(g.contacts.size() == 4);
    CHECK(g.fingers == 0xF);
    CHECK(d->ncon == 4);
    for (const Contact& c : g.contacts) {
      CHECK(c.depth == Approx(3e-4).margin(2e-5));  // angles rounded to 0.01 deg (yaml): ~2e-5 m at the tip
      const char* body = mj_id2name(m.get(), mjOBJ_BODY, c.hand_body);
      CHECK(std::string(body).find("_link3") != std::string::npos);
      // Palm up: every fingertip pushes the ball upward (world z), so the normals carry the weight.
      CHECK(c.normal().z() > 0.4);
    }
  }
  // That egrasp_hold_hand.xml is what make-hand writes from egrasp_hold_hand.yaml is checked with every committed
  // model (test_hand_spec.cc).
}

TEST_CASE("mjhand run models/egrasp_hold.xml: 5 s of Fig. 8 with the ball still held", "[hand_object]") {
  const std::string dir = mjhand_test::fresh_temp_dir("hand_object_run");
  const auto r = mjhand_test::run_cli("run " + source_path(kHoldXml) + " --duration 5 --out " + dir);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const std::string summary = read_all(dir + "/summary.txt");
  CHECK_THAT(summary, Catch::Contains("hold (hand_object)"));
  CHECK_THAT(summary,
             Catch::Contains("contacts at end: 4 (ball-f1_link3, ball-f2_link3, ball-f3_link3, ball-f4_link3)"));
  CHECK_THAT(summary, Catch::Contains("(5001 rows"));
  CHECK(std::filesystem::file_size(dir + "/trajectory.csv") > 100000);
  // The torques are recorded: plugin actuators leave ctrl alone, so they are the force columns.
  std::string header;
  std::getline(std::ifstream(dir + "/trajectory.csv"), header);
  for (const char* motor : {"f1_j1_motor", "f4_j3_motor"}) {
    CHECK_THAT(header, Catch::Contains(std::string("force:") + motor));
  }
}

// ---- issue 3 cross-check: open-loop optimal-force hold ------------------------------------------------------------

TEST_CASE("e_GRASP 4-finger hold: optimal forces through J_H^T hold the ball, MuJoCo's forces balance gravity",
          "[hand_object]") {
  ModelPtr m = load_without_controller("openloop");  // the test writes ctrl itself
  DataPtr d = make_data(m.get());
  mj_forward(m.get(), d.get());
  const HandModel hand = hold_hand(m.get());
  GraspData gd(m.get(), hand, 16);
  compute_grasp(m.get(), d.get(), hand, gd);
  REQUIRE(gd.contacts.size() == 4);
  const double mass = m->body_mass[hand.object_body];
  const double weight = mass * -m->opt.gravity[2];
  Wrench Wg = Wrench::Zero();
  Wg(2) = -weight;  // gravity about the centre of mass
  ForceOptimizationOptions fo;
  fo.min_normal_force = 0.5;
  const ForceDistribution f = optimal_forces(gd.contacts, gd.G(), Wg, fo);
  REQUIRE(f.ok());
  const Eigen::VectorXd tau = gd.JH().transpose() * f.lambda;  // balancing torques, fixed
  const Eigen::Vector3d p0(d->xipos + 3 * hand.object_body);
  const int nh = hand.num_hand_dofs();
  double drift = 0;
  // mj_step1 computes qfrc_bias at this step's state, so ctrl = tau + gravity/Coriolis compensation is exact.
  for (int step = 0; step < 1000; ++step) {
    mj_step1(m.get(), d.get());
    for (int k = 0; k < nh; ++k) d->ctrl[k] = tau(k) + d->qfrc_bias[hand.dofs[k]];
    mj_step2(m.get(), d.get());
    drift = std::max(drift, (Eigen::Vector3d(d->xipos + 3 * hand.object_body) - p0).norm());
  }
  // d->contact, efc_force, qacc, xipos and the Jacobians still describe the last step's starting state.
  const MujocoGrasp g = mujoco_grasp(m.get(), d.get(), hand);
  REQUIRE(g.fingers == 0xF);
  const Eigen::Vector3d com(d->xipos + 3 * hand.object_body);
  const Eigen::MatrixXd G = grasp_matrix(g.contacts, com);
  const Wrench balance = balanced_wrench(G, g.lambda);  // -G lambda_mj
  const double wrench_residual = (balance - Wg).norm();
  // Newton-Euler of the ball: G lambda_mj + W_g = (m a, I alpha + w x I w), so the residual is its inertial wrench.
  const mjtNum* acc = d->qacc + hand.object_dof;
  const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(d->xmat + 9 * hand.object_body);
  Wrench inertial;
  inertial.head<3>() = mass * Eigen::Vector3d(acc[0], acc[1], acc[2]);  // ball: centre of mass = body origin
  const Eigen::Vector3d I(m->body_inertia + 3 * hand.object_body);
  inertial.tail<3>() = R * I.asDiagonal() * Eigen::Vector3d(acc[3], acc[4], acc[5]);  // w ~ 0: no gyroscopic term
  const double newton = (-balance + Wg - inertial).norm();
  // Joint side: M_h qdd + bias = ctrl - J_H^T lambda_mj + passive, and ctrl - bias = tau, so
  // J_H^T lambda_mj - tau = qfrc_passive - M_h qdd.
  const Eigen::MatrixXd JH = hand_jacobian(m.get(), d.get(), hand, g.contacts);
  std::vector<mjtNum> Mqdd(m->nv);
  mj_mulM(m.get(), d.get(), Mqdd.data(), d->qacc);
  double torque_residual = 0, joint_newton = 0;
  const Eigen::VectorXd jt = JH.transpose() * g.lambda;
  for (int k = 0; k < nh; ++k) {
    const int v = hand.dofs[k];
    torque_residual = std::max(torque_residual, std::abs(jt(k) - tau(k)));
    joint_newton = std::max(joint_newton, std::abs(jt(k) - tau(k) - (d->qfrc_passive[v] - Mqdd[v])));
  }
  // lambda_mj and the LP's lambda differ by internal forces: per finger the world-frame forces differ, their net
  // wrench does not (beyond the ball's inertial wrench).
  double lambda_diff = 0;
  for (size_t i = 0; i < g.contacts.size(); ++i) {
    for (size_t j = 0; j < gd.contacts.size(); ++j) {
      if (gd.contacts[j].finger != g.contacts[i].finger) continue;
      const Eigen::Vector3d f_mj = g.contacts[i].frame * g.lambda.segment<3>(3 * i);
      const Eigen::Vector3d f_lp = gd.contacts[j].frame * f.lambda.segment<3>(3 * j);
      lambda_diff = std::max(lambda_diff, (f_mj - f_lp).norm());
    }
  }
  const double internal_part = (G * g.lambda - gd.G() * f.lambda).norm();
  std::printf("[hand_object] e_GRASP hold: weight %.4f N, optimal sum f_n %.4f N (min 0.5 N each), ball drift over 1 s "
              "%.3g m, |-G lambda_mj - W| = %.3g N (inertial wrench of the ball: residual of that %.2g), "
              "|J_H^T lambda_mj - tau|_max = %.3g N m (finger damping + inertia: residual of that %.2g), "
              "max |f_mj - f_lp| per finger = %.3g N with net |G lambda_mj - G_0 lambda_lp| = %.3g N\n",
              weight, f.total_normal_force, drift, wrench_residual, newton, torque_residual, joint_newton, lambda_diff,
              internal_part);
  // Measured (docs/controllers.md, "Measured"): drift 0.31 mm, 7.2e-5 N (1.5e-4 of the weight), Newton-Euler 2.7e-16,
  // 7.3e-4 N m, joint side 2e-17. The last two are identities of MuJoCo's equations of motion (rounding only).
  CHECK(drift < 1e-3);
  CHECK(wrench_residual < 1e-2 * weight);
  // Newton-Euler and the joint side are identities of MuJoCo's equations of motion: rounding (measured 2.7e-16 N,
  // 2e-17 N m) plus, for the ball, the neglected gyroscopic term |w x I w| <= |I| |w|^2 ~ 1e-14 N m while it is held.
  CHECK(newton < 1e-10 * weight);
  CHECK(torque_residual < 1e-3);
  CHECK(joint_newton < 1e-10);
  // G lambda_mj + W = the ball's inertial wrench and G_0 lambda_lp + W = the LP's residual (~1e-16), so the net
  // difference is that inertial wrench: measured 7.2e-5 N (1.5e-4 of the weight, the same figure as wrench_residual);
  // 1e-3 of the weight (4.9e-4 N) is 6.8x that and 90x below the 0.045 N per-finger differences it separates.
  CHECK(internal_part < 1e-3 * weight);
  // MuJoCo's elliptic-cone solver keeps its forces in the cone by construction: 1e-9 N is rounding slack.
  CHECK(in_friction_cones(g.contacts, g.lambda, 1e-9));
}

// ---- the controller on Fig. 8 ------------------------------------------------------------------------------------

TEST_CASE("hand_object moves the ball along the Fig. 8 sinusoid under gravity without dropping it", "[hand_object]") {
  const std::string path = source_path(kHoldXml);
  const Tracking t = track(path, 5.0, 0.5);
  std::printf("[hand_object] Fig. 8 (amplitude 2/5/2 mm, 0.5 Hz, 5 s): position error RMS %.3g m, max %.3g m; "
              "orientation error max %.3g rad (first 50 ms: the contacts settle from the keyframe); from 0.5 s on: "
              "RMS %.3g m, max %.3g m, orientation max %.3g rad; MuJoCo's forces: min f_n - 0.5 N = %.3g N, min cone "
              "margin %.3g N; commanded: min normal margin %.3g N, min cone margin %.3g N; contact losses %d, LP steps "
              "%d; closest joint limit %.3g rad\n",
              t.rms, t.max, t.max_rot, t.rms_moving, t.max_moving, t.max_rot_moving, t.min_fn_margin, t.min_cone_margin,
              t.min_cmd_normal_margin, t.min_cmd_cone_margin, t.last.lost_events, t.last.lp_steps, t.min_limit_margin);
  CHECK_FALSE(t.drop.fired);
  CHECK(t.all_fingers);
  CHECK(t.last.fault == kHoOk);
  CHECK(t.replaced == 0);
  CHECK(t.last.lost_events == 0);
  CHECK(t.last.infeasible_steps == 0);
  CHECK(t.last.lp_steps == 0);
  CHECK(t.last.other_contacts == 0);
  // Bounds: a quarter of a millimetre is 1/8 of the smallest amplitude and 1/40 of the drop limit; the variants
  // below (no gains, no finger inertia, no damping compensation) all exceed it by 10x or more.
  // Measured (docs/controllers.md): max 74 um, RMS 8.4 um, orientation 3.5 mrad; from 0.5 s on 10.8 um, 0.16 mrad.
  CHECK(t.max < 2.5e-4);
  CHECK(t.rms < 5e-5);
  CHECK(t.max_rot < 1e-2);
  CHECK(t.max_moving < 1e-4);
  CHECK(t.max_rot_moving < 5e-3);
  // The squeeze keeps every commanded f_n at or above the minimum and inside the (0.8-scaled) cone.
  // Measured: 0 N (the minimum binds, so -1e-9 is rounding slack) and 0.33 N.
  CHECK(t.min_cmd_normal_margin > -1e-9);
  CHECK(t.min_cmd_cone_margin > 0.1);
  // What MuJoCo's contacts actually carry: firmly closed and strictly inside the cones (no sliding).
  // Measured: -0.049 N (soft contacts dip 10 % under the commanded 0.5 N) and 0.31 N.
  CHECK(t.min_fn_margin > -0.25);
  CHECK(t.min_cone_margin > 0.05);
  // The motion fits the hand's small workspace: no joint limit takes part (>= 1 deg away at all times).
  CHECK(t.min_limit_margin > 0.0175);
}

TEST_CASE("hand_object: a push is rejected, a yank that tears the ball out is reported, never NaN", "[hand_object]") {
  const std::string path = source_path(kHoldXml);
  for (double force : {1.0, 3.0}) {  // upward on the ball for 50 ms: 2x and 6x its weight
    ModelPtr m = load_model(path);
    DataPtr d = make_data(m.get());
    const HandObjectController& ctl = controller_of(m.get(), d.get());
    const int ball = mj_name2id(m.get(), mjOBJ_BODY, "ball");
    double worst = 0, after = 0;
    int min_fingers = 4;
    bool finite = true;
    for (int k = 1; k <= 2000; ++k) {
      d->xfrc_applied[6 * ball + 2] = k > 300 && k <= 350 ? force : 0.0;
      mj_step(m.get(), d.get());
      const mjtNum* st = hold_state(m.get(), d.get());
      const double e = (ctl.reference(st, d->time - m->opt.timestep).p - Eigen::Vector3d(d->xipos + 3 * ball)).norm();
      worst = std::max(worst, e);
      if (k > 1500) after = std::max(after, e);
      min_fingers = std::min(min_fingers, HandObjectController::report(st).fingers_in_contact);
      for (int a = 0; a < m->nu; ++a) finite = finite && std::isfinite(d->actuator_force[a]);
    }
    const HandObjectReport r = HandObjectController::report(hold_state(m.get(), d.get()));
    std::printf("[hand_object] %.0f N push for 50 ms: max deviation %.3g m, deviation after 1.5 s %.3g m, fewest "
                "fingers in contact %d, contact losses %d\n",
                force, worst, after, min_fingers, r.lost_events);
    CHECK(finite);
    // The adapter replaces a non-finite force by 0, so finite forces alone would not show the controller never
    // produced one: it counts every replacement.
    CHECK(native_faults(m.get(), d.get()).count == 0);
    CHECK(r.fault == kHoOk);
    if (force == 1.0) {
      CHECK(min_fingers == 4);  // rejected: the grasp holds
      CHECK(r.lost_events == 0);
      // Measured: back within 25 um (docs/controllers.md); the Fig. 8 bound.
      CHECK(after < 2.5e-4);    // back on the reference
    } else {
      CHECK(r.lost_events >= 4);  // every finger's loss counted
      CHECK(r.lost_mask == 0xFu);
      CHECK(r.method == ForceMethod::kNoGrasp);
      CHECK(r.fingers_in_contact == 0);
    }
  }
}

TEST_CASE("the drop detector fires without the controller or with zero gains", "[hand_object]") {
  // No controller (motors in place of its actuators): ctrl stays 0, the fingers go limp and the ball falls.
  {
    ModelPtr m = load_without_controller("drop");
    DataPtr d = make_data(m.get());
    const int ball = mj_name2id(m.get(), mjOBJ_BODY, "ball");
    mj_forward(m.get(), d.get());
    const Eigen::Vector3d p0(d->xipos + 3 * ball);
    DropDetector drop;
    for (int k = 0; k < 1000; ++k) {
      mj_step(m.get(), d.get());
      drop.update(d->time, (Eigen::Vector3d(d->xipos + 3 * ball) - p0).norm());
    }
    std::printf("[hand_object] without the controller the drop detector fires at t = %.3f s\n", drop.when);
    CHECK(drop.fired);
  }
  // Zero pose gains: the wrench still carries the weight, but nothing corrects the drift or follows the reference.
  const std::string path =
      hold_variant("nogain",
                   "type=hand_object object=ball palm=palm tips=f1_tip,f2_tip,f3_tip,f4_tip trajectory=sinusoid "
                   "amplitude=0.002,0.005,0.002 frequency=0.5 phase_deg=0,90,180 start=0.5 ramp=1 "
                   "kp=0 kd=0 kp_rot=0 kd_rot=0");
  const Tracking t = track(path, 5.0, 0.5);
  std::printf("[hand_object] zero gains: max position error %.3g m, detector fired at t = %.3f s\n", t.max,
              t.drop.when);
  CHECK(t.drop.fired);
  // The feed-forward terms matter: without finger inertia or damping compensation the same motion misses by mm.
  for (const char* off : {"finger_acceleration=false", "compensate_passive=false"}) {
    const std::string p = hold_variant(
        "ablation",
        std::string("type=hand_object object=ball palm=palm tips=f1_tip,f2_tip,f3_tip,f4_tip trajectory=sinusoid "
                    "amplitude=0.002,0.005,0.002 frequency=0.5 phase_deg=0,90,180 start=0.5 ramp=1 ") + off);
    const Tracking a = track(p, 5.0, 0.5);
    std::printf("[hand_object] %s: max position error %.3g m\n", off, a.max);
    // Measured 2.8 mm and 2.6 mm (docs/controllers.md); 10x the 0.25 mm bound of the Fig. 8 test.
    CHECK(a.max > 2.5e-3);
  }
}

// ---- configuration and faults -------------------------------------------------------------------------------------

TEST_CASE("hand_object rejects bad configurations naming the instance and the key", "[hand_object]") {
  const std::string base = "type=hand_object object=ball palm=palm ";
  struct Case {
    std::string data, key, why;
  };
  const std::vector<Case> cases = {
      {"type=hand_object object=nope palm=palm", "object", "nope"},
      {"type=hand_object object=palm palm=f1_link1", "object", "free joint"},
      {"type=hand_object object=ball", "palm", "either palm"},
      {"type=hand_object object=ball palm=palm fingers=f1_link1", "palm", "either palm"},
      {base + "kp=-1", "kp", "must lie in"},
      {base + "kd_rot=nan", "kd_rot", ""},
      {base + "tips=f1_tip,f2_tip", "tips", "one site per finger"},
      {base + "tips=f2_tip,f1_tip,f3_tip,f4_tip", "tips", "not on finger"},
      {base + "tips=f1_tip,f2_tip,f3_tip,nosuchsite", "tips", "nosuchsite"},
      {base + "friction_scale=1.5", "friction_scale", "must lie in"},
      {base + "min_normal_force=-1", "min_normal_force", "must lie in"},
      {base + "trajectory=circle", "trajectory", "circle"},
      {base + "trajectory=sinusoid amplitude=0.01", "frequency", ""},
      {base + "trajectory=sinusoid amplitude=0.01,0.02 frequency=1", "amplitude", "1 or 3 values"},
      {base + "trajectory=sinusoid frequency=1 rot_amplitude_deg=5 rot_axis=0,0,0", "rot_axis", "zero"},
      {base + "amplitude=0.01", "amplitude", "trajectory=sinusoid"},
      {base + "center=0,0", "center", "1 or 3 values"},
      // A key the type does not declare is MuJoCo's own error, which spells it 'plugin:KEY'.
      {base + "kpp=3", "plugin:kpp", "unrecognized attribute"},
  };
  for (const Case& c : cases) {
    const std::string msg = load_error(hold_variant("config", c.data));
    INFO(c.data << "\n -> " << msg);
    CHECK_THAT(msg, Catch::Contains("'hold'"));
    CHECK_THAT(msg, Catch::Contains("'" + c.key + "'"));
    if (!c.why.empty()) CHECK_THAT(msg, Catch::Contains(c.why));
  }
  // Position servos instead of torque actuators (the e_GRASP bench scene): the hand joints are named.
  const std::string scene = mjhand_test::fresh_temp_dir("hand_object_servo");
  std::filesystem::copy_file(source_path("models/egrasp_hand.xml"), scene + "/egrasp_hand.xml");
  std::ofstream(scene + "/s.xml")
      << "<mujoco><include file=\"egrasp_hand.xml\"/><worldbody><body name=\"ball\" pos=\"0.04 -0.022 0.42\">"
         "<freejoint/><geom type=\"sphere\" size=\"0.025\" mass=\"0.05\"/></body></worldbody>"
         "<extension><plugin plugin=\"mjhand.hand_object\"><instance name=\"hold\">"
         "<config key=\"object\" value=\"ball\"/><config key=\"palm\" value=\"palm\"/>"
         "</instance></plugin></extension></mujoco>";
  const std::string msg = load_error(scene + "/s.xml");
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("'hold'"));
  CHECK_THAT(msg, Catch::Contains("'palm'"));
  CHECK_THAT(msg, Catch::Contains("f1_j1"));
  CHECK_THAT(msg, Catch::Contains("not a motor"));
  // --set overrides (written into the instance's <config> and compiled again) are validated the same way; a NaN
  // hold centre never gets in.
  try {
    load_model_with_overrides(source_path(kHoldXml), {parse_override("hold.center=nan,0,0.3", "--set")});
    FAIL("a NaN centre was accepted");
  } catch (const std::runtime_error& e) {
    INFO(e.what());
    CHECK_THAT(std::string(e.what()), Catch::Contains("'hold'"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("'center'"));
  }
}

TEST_CASE("a NaN hold pose faults the controller and never reaches the actuator forces", "[hand_object]") {
  ModelPtr m = load_model(source_path(kHoldXml));
  DataPtr d = make_data(m.get());
  for (int k = 0; k < 100; ++k) mj_step(m.get(), d.get());
  mjtNum* st = hold_state(m.get(), d.get());
  CHECK(HandObjectController::report(st).fault == kHoOk);
  bool nonzero = false;
  for (int a = 0; a < m->nu; ++a) nonzero = nonzero || d->actuator_force[a] != 0;
  CHECK(nonzero);
  HandObjectController::set_hold_pose(st, Eigen::Vector3d(std::nan(""), 0, 0.3), Eigen::Quaterniond::Identity());
  for (int k = 0; k < 10; ++k) {
    mj_step(m.get(), d.get());
    for (int a = 0; a < m->nu; ++a) REQUIRE(d->actuator_force[a] == 0.0);
    for (int v = 0; v < m->nv; ++v) REQUIRE(d->qfrc_actuator[v] == 0.0);
  }
  // The controller zeroed its own output: the adapter's net for non-finite forces never had to catch anything.
  CHECK(native_faults(m.get(), d.get()).count == 0);
  const HandObjectReport r = HandObjectController::report(st);
  CHECK(r.fault == kHoBadReference);
  // 100 steps of 1 ms summed: rounding only, <= 100 x eps = 2.2e-14 relative; measured 6.7e-16.
  CHECK(r.fault_time == Approx(0.1).epsilon(1e-13));
  // Sticky until mj_resetData: a finite pose does not restart it; a reset does.
  HandObjectController::set_hold_pose(st, Eigen::Vector3d(0.05, 0.011, 0.37), Eigen::Quaterniond::Identity());
  mj_step(m.get(), d.get());
  CHECK(HandObjectController::report(st).fault == kHoBadReference);
  mj_resetData(m.get(), d.get());
  mj_step(m.get(), d.get());
  CHECK(HandObjectController::report(hold_state(m.get(), d.get())).fault == kHoOk);
}

// ---- plain class, repeated calls, threads -------------------------------------------------------------------------

TEST_CASE("hand_object: the plain class computes the torques the plugin wrote, repeated calls agree",
          "[hand_object]") {
  ModelPtr m = load_model(source_path(kHoldXml));
  ModelPtr plain_model = load_without_controller("plain");  // nothing runs inside its mj_forward
  DataPtr d = make_data(m.get());
  for (int k = 0; k < 1200; ++k) mj_step(m.get(), d.get());  // into the sinusoid
  mj_forward(m.get(), d.get());  // the plugin computes its actuators' forces for this state and time
  const std::vector<mjtNum> plugin_force(d->actuator_force, d->actuator_force + m->nu);
  mj_forward(m.get(), d.get());  // same instant again: the integral does not advance, the output is identical
  for (int a = 0; a < m->nu; ++a) CHECK(d->actuator_force[a] == plugin_force[a]);

  // A user's own loop: the same options built in code, the state copied.
  HandObjectController::Options o = HandObjectController::for_hand(
      plain_model.get(), mj_name2id(plain_model.get(), mjOBJ_BODY, "ball"),
      mj_name2id(plain_model.get(), mjOBJ_BODY, "palm"));
  for (const char* s : {"f1_tip", "f2_tip", "f3_tip", "f4_tip"}) {
    o.tips.push_back(mj_name2id(plain_model.get(), mjOBJ_SITE, s));
  }
  SinusoidMotion motion;
  motion.amplitude = Eigen::Vector3d(0.002, 0.005, 0.002);
  motion.frequency = 0.5;
  motion.phase = Eigen::Vector3d(0, 90, 180) * M_PI / 180;
  motion.start = 0.5;
  motion.ramp = 1;
  o.trajectory = ObjectTrajectory(motion);
  o.ki = o.ki_rot = 1000;
  o.forces.min_normal_force = 0.5;
  HandObjectController plain(plain_model.get(), o);
  const Plugin* plugin = native_plugin(m.get(), d.get(), hold_id(m.get()));
  REQUIRE(plugin);
  REQUIRE(plain.nstate() == plugin->nstate());
  REQUIRE(native_state_size(m.get(), hold_id(m.get())) >= plain.nstate());
  // The two models differ only in their actuators (plugin or motor) and mjData layout, so mj_copyData cannot go
  // from one to the other: the state that mj_forward starts from is copied instead.
  REQUIRE(m->na == 0);
  REQUIRE(m->nmocap == 0);
  DataPtr d2 = make_data(plain_model.get());
  d2->time = d->time;
  mju_copy(d2->qpos, d->qpos, m->nq);
  mju_copy(d2->qvel, d->qvel, m->nv);
  mju_copy(d2->qacc_warmstart, d->qacc_warmstart, m->nv);
  std::vector<mjtNum> state(hold_state(m.get(), d.get()), hold_state(m.get(), d.get()) + plain.nstate());
  mju_zero(d2->ctrl, plain_model->nu);
  mj_forward(plain_model.get(), d2.get());
  plain.compute(plain_model.get(), d2.get(), state.data());
  double worst = 0;
  for (int a = 0; a < m->nu; ++a) worst = std::max(worst, std::abs(d2->ctrl[a] - plugin_force[a]));
  CHECK(worst == 0.0);
  // ... and the same report.
  const HandObjectReport r1 = HandObjectController::report(state.data()),
                         r2 = HandObjectController::report(hold_state(m.get(), d.get()));
  CHECK(r1.contacts == r2.contacts);
  CHECK(r1.squeeze == r2.squeeze);
  CHECK(r1.position_error == r2.position_error);
}

TEST_CASE("hand_object: two threads stepping two mjData of one model give the one-thread result", "[hand_object]") {
  ModelPtr m = load_model(source_path(kHoldXml));
  auto run = [&](mjData* d) {
    for (int k = 0; k < 1500; ++k) mj_step(m.get(), d);
  };
  DataPtr serial = make_data(m.get());
  run(serial.get());
  DataPtr a = make_data(m.get()), b = make_data(m.get());
  std::thread ta(run, a.get()), tb(run, b.get());
  ta.join();
  tb.join();
  for (int i = 0; i < m->nq; ++i) {
    CHECK(a->qpos[i] == serial->qpos[i]);
    CHECK(b->qpos[i] == serial->qpos[i]);
  }
  // ... and so does each mjData's own controller state (integral, counters).
  for (int i = 0; i < m->npluginstate; ++i) {
    CHECK(a->plugin_state[i] == serial->plugin_state[i]);
    CHECK(b->plugin_state[i] == serial->plugin_state[i]);
  }
}

// ---- the pieces --------------------------------------------------------------------------------------------------

TEST_CASE("squeeze distribution: two opposed fingers lifting, derived by hand", "[hand_object]") {
  // Contacts at (+-R, 0, 0) pushing inward, mu = 0.5 (used at 0.8), lift F = 2 N: G^+ W gives each contact F/2
  // tangentially and no normal force; the squeeze s must satisfy F/2 <= 0.8 mu s, so s = F / (2 * 0.4) = 2.5 N.
  const double R = 0.03;
  std::vector<Contact> c = {analytic_contact({R, 0, 0}, {-1, 0, 0}, ContactModel::kHardFinger, 0.5),
                            analytic_contact({-R, 0, 0}, {1, 0, 0}, ContactModel::kHardFinger, 0.5)};
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  Wrench W = Wrench::Zero();
  W(2) = 2.0;
  SqueezeOptions o;
  o.min_normal_force = 0.5;
  o.friction_scale = 0.8;
  SqueezeWorkspace ws(8);
  Eigen::VectorXd lambda(6);
  const SqueezeResult r = squeeze_forces(c.data(), 2, G, W, o, ws, lambda);
  CHECK(r.status == SqueezeStatus::kOk);  // rank(G) = 5 (spin about the x axis is free), W has no x moment
  // 1e-12 relative here and below: double rounding of G^+ W and the squeeze on O(1) N values.
  CHECK(r.squeeze == Approx(2.5).epsilon(1e-12));
  CHECK(lambda(0) == Approx(2.5).epsilon(1e-12));
  CHECK(lambda(3) == Approx(2.5).epsilon(1e-12));
  CHECK((G * lambda - W).norm() < 1e-12);
  CHECK(r.wrench_residual < 1e-12);
  CHECK(r.min_normal_margin == Approx(2.0).epsilon(1e-12));
  CHECK(r.min_cone_margin == Approx(0.5 * 2.5 - 1.0).epsilon(1e-12));  // unscaled mu: 0.25 N of slack
  // A small lift: the minimum normal force binds instead of the cone.
  W(2) = 0.1;
  CHECK(squeeze_forces(c.data(), 2, G, W, o, ws, lambda).squeeze == Approx(0.5).epsilon(1e-12));
  // A moment about the x axis cannot be produced by two point contacts on that axis.
  W(3) = 0.01;
  const SqueezeResult rd = squeeze_forces(c.data(), 2, G, W, o, ws, lambda);
  CHECK(rd.status == SqueezeStatus::kRankDeficient);
  CHECK(rd.wrench_residual == Approx(0.01).epsilon(1e-9));  // rounding of the least-squares projection
  CHECK(lambda.allFinite());
}

TEST_CASE("squeeze distribution: balance and cones on random grasps, failures are reported, never NaN",
          "[hand_object]") {
  SqueezeOptions o;
  o.min_normal_force = 0.3;
  o.friction_scale = 0.9;
  SqueezeWorkspace ws(16);
  Eigen::VectorXd lambda(16);
  int ok = 0, infeasible = 0;
  unsigned seed = 12345;
  auto uniform = [&]() {
    seed = seed * 1103515245u + 12345u;
    return ((seed >> 8) & 0xFFFF) / 32768.0 - 1.0;
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Contact> c;
    const int n = 3 + trial % 2;
    for (int i = 0; i < n; ++i) {
      Eigen::Vector3d u(uniform(), uniform(), uniform());
      if (u.norm() < 0.1) u = Eigen::Vector3d::UnitX();
      u.normalize();
      c.push_back(analytic_contact(0.03 * u, -u, i % 2 ? ContactModel::kSoftFinger : ContactModel::kHardFinger, 0.8,
                                   0.004));
    }
    const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
    Wrench W;
    for (int k = 0; k < 6; ++k) W(k) = uniform() * (k < 3 ? 0.5 : 0.005);
    auto lam = lambda.head(total_rows(c));
    const SqueezeResult r = squeeze_forces(c.data(), n, G, W, o, ws, lam);
    REQUIRE(lam.allFinite());
    if (r.status == SqueezeStatus::kOk) {
      ++ok;
      // Rounding on random (some near-singular) grasps of O(1) N forces: 1e-9.
      CHECK((G * lam - W).norm() < 1e-9);
      int row = 0;
      for (const Contact& k : c) {
        Contact scaled = k;
        scaled.mu *= o.friction_scale;
        scaled.mu_torsion *= o.friction_scale;
        // Measured worst over the 713 contacts of the ok grasps: |G lambda - W| 5.3e-15 N, cone margin -8.9e-16 N,
        // normal margin -5.6e-17 N (rounding). 1e-9 leaves room for cond(G) up to ~1e6: the grasps come from
        // std::uniform_real_distribution, whose draws differ between standard libraries, and some are near-singular.
        CHECK(friction_cone_margin(scaled, lam.data() + row) > -1e-9);
        CHECK(lam(row) >= o.min_normal_force - 1e-9);
        row += contact_rows(k.model);
      }
    } else {
      ++infeasible;
      CHECK(r.status == SqueezeStatus::kConeInfeasible);
    }
  }
  std::printf("[hand_object] random grasps: squeeze feasible %d, cone-infeasible %d\n", ok, infeasible);
  CHECK(ok > 50);
  // Nothing to hold with, and non-finite input: zeros and a status, no NaN.
  Eigen::VectorXd none(0);
  CHECK(squeeze_forces(nullptr, 0, Eigen::MatrixXd(6, 0), Wrench::Ones(), o, ws, none).status ==
        SqueezeStatus::kNoContacts);
  std::vector<Contact> one = {analytic_contact({0.03, 0, 0}, {-1, 0, 0})};
  Eigen::MatrixXd G1 = grasp_matrix(one, Eigen::Vector3d::Zero());
  Eigen::VectorXd l1(3);
  Wrench bad = Wrench::Zero();
  bad(0) = std::nan("");
  const SqueezeResult rb = squeeze_forces(one.data(), 1, G1, bad, o, ws, l1);
  CHECK(rb.status == SqueezeStatus::kRankDeficient);
  CHECK(l1.isZero());
  // One contact cannot pull sideways with no normal force: infeasible, reported.
  Wrench side = Wrench::Zero();
  side(1) = 1.0;
  CHECK(squeeze_forces(one.data(), 1, G1, side, o, ws, l1).status != SqueezeStatus::kOk);
  CHECK(l1.allFinite());
}

TEST_CASE("force distribution falls back to GLPK when the squeeze direction leaves a cone", "[hand_object]") {
  // Three contacts where P_N e (the squeeze) cannot satisfy every cone but an LP solution exists.
  std::vector<Contact> c;
  for (const Eigen::Vector3d& u0 : {Eigen::Vector3d(-0.439408, 0.891390, -0.111107),
                                    Eigen::Vector3d(0.139502, 0.010965, -0.990161),
                                    Eigen::Vector3d(-0.762176, 0.467555, 0.447750)}) {
    const Eigen::Vector3d u = u0.normalized();
    c.push_back(analytic_contact(0.03 * u, -u, ContactModel::kHardFinger, 0.6));
  }
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  Wrench W = Wrench::Zero();
  W(2) = 0.5;
  SqueezeOptions o;
  o.min_normal_force = 0.5;
  o.friction_scale = 1.0;
  SqueezeWorkspace ws(12);
  Eigen::VectorXd lambda(9);
  CHECK(squeeze_forces(c.data(), 3, G, W, o, ws, lambda).status == SqueezeStatus::kConeInfeasible);
  const ForceChoice without = distribute_forces(c, G, W, o, false, ws, lambda);
  CHECK(without.method == ForceMethod::kBestEffort);
  CHECK(without.result.min_cone_margin < 0);
  const ForceChoice with = distribute_forces(c, G, W, o, true, ws, lambda);
  REQUIRE(with.method == ForceMethod::kLinearProgram);
  // GLPK's basic solution: the 6 equality rows are met to the rounding of its LU solve on O(1) N forces (measured
  // 2.5e-15 N; the old 1e-6 was 4e8 x that); 1e-12 = 400x.
  CHECK((G * lambda - W).norm() < 1e-12);
  // The LP's 8-edge pyramid is inscribed in the cone, so an exact LP solution has cone margin >= 0 (measured
  // +0.0177 N) and normal margin >= 0 (measured 0: f_n non-basic at its 0.5 N bound). -1e-9 N: rounding room, still
  // below GLPK's primal feasibility tolerance tol_bnd = 1e-7, the most its Harris ratio test may leave.
  CHECK(with.result.min_cone_margin > -1e-9);
  CHECK(with.result.min_normal_margin > -1e-9);
}

TEST_CASE("object trajectory: analytic derivatives, ramp, rotation, orientation error", "[hand_object]") {
  SinusoidMotion s;
  s.amplitude = Eigen::Vector3d(0.002, 0.005, -0.003);
  s.phase = Eigen::Vector3d(0.3, 1.2, -2.0);
  s.frequency = 0.7;
  s.rot_axis = Eigen::Vector3d(1, 2, 2);
  s.rot_amplitude = 0.2;
  s.rot_phase = 0.4;
  s.start = 0.25;
  s.ramp = 0.8;
  const ObjectTrajectory traj(s);
  const Eigen::Vector3d p0(0.1, -0.2, 0.3);
  const Eigen::Quaterniond q0(Eigen::AngleAxisd(0.7, Eigen::Vector3d(0, 1, 0)));
  ObjectReference r, a, b;
  // Holds before start and starts there at rest in position.
  traj.evaluate(0.1, p0, q0, &r);
  CHECK((r.p - p0).norm() == 0.0);
  CHECK(r.v.norm() == 0.0);
  traj.evaluate(0.25, p0, q0, &r);
  CHECK((r.p - p0).norm() < 1e-15);  // rounding of the O(0.3) start point
  // Central differences of p, v and of the rotation give v, a, w, dw.
  const double h = 1e-5;
  double worst_v = 0, worst_a = 0, worst_w = 0, worst_dw = 0;
  for (double t : {0.4, 0.77, 1.02, 1.6, 2.9}) {
    traj.evaluate(t, p0, q0, &r);
    traj.evaluate(t + h, p0, q0, &a);
    traj.evaluate(t - h, p0, q0, &b);
    worst_v = std::max(worst_v, ((a.p - b.p) / (2 * h) - r.v).norm());
    worst_a = std::max(worst_a, ((a.v - b.v) / (2 * h) - r.a).norm());
    worst_w = std::max(worst_w, (orientation_error(a.q, b.q) / (2 * h) - r.w).norm());
    worst_dw = std::max(worst_dw, ((a.w - b.w) / (2 * h) - r.dw).norm());
  }
  // h = 1e-5: truncation h^2/6 |f'''| (<~1e-9 with w = 4.4 rad/s, 5 mm, 0.2 rad) and rounding eps |f|/h (~1e-11).
  CHECK(worst_v < 1e-8);
  CHECK(worst_a < 1e-6);
  CHECK(worst_w < 1e-8);
  CHECK(worst_dw < 1e-6);
  // After the ramp the motion is the pure sinusoid about the start point.
  traj.evaluate(3.0, p0, q0, &r);
  const double tau = 3.0 - 0.25, w = 2 * M_PI * 0.7;
  // The closed form: rounding only.
  CHECK(r.p(1) == Approx(p0(1) + 0.005 * (std::sin(w * tau + 1.2) - std::sin(1.2))).epsilon(1e-12));
  // Orientation error: a rotation by 0.3 rad about z is reported as 0.3 z; q and -q are the same orientation.
  const Eigen::Quaterniond qz(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()));
  CHECK((orientation_error(qz * q0, q0) - 0.3 * Eigen::Vector3d::UnitZ()).norm() < 1e-12);  // rounding only
  Eigen::Quaterniond neg = qz * q0;
  neg.coeffs() = -neg.coeffs();
  CHECK((orientation_error(neg, q0) - 0.3 * Eigen::Vector3d::UnitZ()).norm() < 1e-12);  // rounding only
  const Eigen::Quaterniond big(Eigen::AngleAxisd(3.0, Eigen::Vector3d::UnitX()));
  CHECK(orientation_error(big, Eigen::Quaterniond::Identity()).norm() == Approx(3.0).epsilon(1e-12));  // rounding only
  // Bad parameters are refused.
  SinusoidMotion bad = s;
  bad.frequency = 0;
  CHECK_THROWS_AS(ObjectTrajectory(bad), std::invalid_argument);
  bad = s;
  bad.rot_axis.setZero();
  CHECK_THROWS_AS(ObjectTrajectory(bad), std::invalid_argument);
  bad = s;
  bad.amplitude(0) = std::nan("");
  CHECK_THROWS_AS(ObjectTrajectory(bad), std::invalid_argument);
}
