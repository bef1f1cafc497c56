// Hand structure (palm, fingers, wrist) inferred from any MJCF tree and the actuation through tendons and equality
// constraints, on the three real hands of models/real/ and mjhand's generated hands (issue 18 points 2 and 3).
// Checked against: hand_from_moving_roots on the generated hands (unchanged), the models' own body/joint names,
// MuJoCo's qfrc_actuator, mj_jac-derived loop Jacobians, and MuJoCo's own static balance (qfrc_* terms).
#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <mjhand/grasp/actuation.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/hand_structure.h>
#include "moving_roots_hand.h"
#include <mjhand/util/dense_decompositions.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_file;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {

int body(const mjModel* m, const std::string& name) {
  const int id = mj_name2id(m, mjOBJ_BODY, name.c_str());
  INFO("body " << name);
  REQUIRE(id >= 0);
  return id;
}

int dof_of(const mjModel* m, const std::string& joint) {
  const int j = mj_name2id(m, mjOBJ_JOINT, joint.c_str());
  INFO("joint " << joint);
  REQUIRE(j >= 0);
  return m->jnt_dofadr[j];
}

bool has(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// A scene at its `grasp` keyframe after mj_forward.
struct Scene {
  ModelPtr m;
  DataPtr d;
  int object = -1;
  explicit Scene(const std::string& file, const std::string& object_name) {
    m = load_xml_file(source_path("models/real/" + file));
    d = make_data(m.get());
    const int key = mj_name2id(m.get(), mjOBJ_KEY, "grasp");
    REQUIRE(key >= 0);
    mj_resetDataKeyframe(m.get(), d.get(), key);
    mj_forward(m.get(), d.get());
    object = body(m.get(), object_name);
  }
};

}  // namespace

TEST_CASE("hand structure: the Shadow hand's palm sits below its wrist, five fingers branch from it", "[hand_structure]") {
  Scene s("shadow_scene.xml", "ball");
  const mjModel* m = s.m.get();
  const HandModel h = infer_hand_structure(m, s.object);
  CHECK(h.palm_body == body(m, "rh_palm"));
  CHECK(h.finger_names == std::vector<std::string>{"rh_ffknuckle", "rh_mfknuckle", "rh_rfknuckle", "rh_lfmetacarpal",
                                                   "rh_thbase"});
  // The wrist joints (rh_WRJ2 on rh_wrist, rh_WRJ1 on the palm) are the wrist, not finger joints.
  CHECK(h.wrist_dofs == std::vector<int>{dof_of(m, "rh_WRJ2"), dof_of(m, "rh_WRJ1")});
  CHECK(h.num_hand_dofs() == 22);
  CHECK_FALSE(has(h.dofs, dof_of(m, "rh_WRJ1")));
  CHECK(has(h.dofs, dof_of(m, "rh_LFJ5")));  // the little finger's metacarpal joint is its finger's
  CHECK(h.finger_of_body[body(m, "rh_lfdistal")] == 3);
  CHECK(h.is_palm(body(m, "rh_palm")));
  CHECK_FALSE(h.is_palm(body(m, "rh_wrist")));
  CHECK_FALSE(h.in_hand(body(m, "rh_wrist")));
  HandStructureOptions with_wrist;
  with_wrist.include_wrist = true;
  const HandModel w = infer_hand_structure(m, s.object, with_wrist);
  CHECK(w.num_hand_dofs() == 24);
  CHECK(has(w.dofs, dof_of(m, "rh_WRJ2")));
}

TEST_CASE("hand structure: the 2F-85's loop-closing inner knuckles belong to their fingers", "[hand_structure]") {
  Scene s("robotiq_2f85_scene.xml", "box");
  const mjModel* m = s.m.get();
  const HandModel h = infer_hand_structure(m, s.object);
  CHECK(h.palm_body == body(m, "robotiq_arg2f_base_link"));
  REQUIRE(h.num_fingers() == 2);
  for (const char* side : {"right", "left"}) {
    const std::string p = side;
    const int f = h.finger_of_body[body(m, p + "_inner_finger_pad")];
    CHECK(f >= 0);
    CHECK(h.finger_of_body[body(m, p + "_inner_knuckle")] == f);  // joined by the connect equality p_loop
    CHECK(h.finger_of_body[body(m, p == "left" ? "left_outer_knuckle" : "right_outer_knuckle")] == f);
  }
  CHECK(h.finger_of_body[body(m, "right_inner_knuckle")] != h.finger_of_body[body(m, "left_inner_knuckle")]);
  CHECK(h.num_hand_dofs() == 6);
  // Naming the outer knuckles only: the loop pulls each inner knuckle into its finger all the same.
  HandStructureOptions o;
  o.fingers = {body(m, "right_outer_knuckle"), body(m, "left_outer_knuckle")};
  const HandModel g = infer_hand_structure(m, s.object, o);
  CHECK(g.palm_body == h.palm_body);
  CHECK(g.finger_of_body == h.finger_of_body);
  CHECK(g.dofs == h.dofs);
}

TEST_CASE("hand structure: the Allegro hand and mjhand's generated hands keep the fingers they had", "[hand_structure]") {
  // hand_from_moving_roots (one finger per moving body hanging from a static one) was right on these hands.
  const std::vector<std::pair<std::string, std::string>> scenes = {
      {"models/real/allegro_scene.xml", "ball"}, {"models/grasp_sensor_scene.xml", "ball"},
      {"models/egrasp_scene.xml", "ball"},       {"models/egrasp_hold.xml", "ball"},
      {"models/three_ur_hand.xml", "object"}};
  for (const auto& [file, object] : scenes) {
    INFO(file);
    const ModelPtr m = load_xml_file(source_path(file));
    const int obj = body(m.get(), object);
    const HandModel before = mjhand_test::hand_from_moving_roots(m.get(), obj);
    const HandModel now = infer_hand_structure(m.get(), obj);
    CHECK(now.finger_of_body == before.finger_of_body);
    CHECK(now.dofs == before.dofs);
    CHECK(now.finger_names == before.finger_names);
    CHECK(now.object_dof == before.object_dof);
    CHECK(now.palm_body == m->body_parentid[before.finger_roots[0][0]]);  // the static body they hang from
    CHECK(now.wrist_dofs.empty());
  }
}

TEST_CASE("hand structure: floating and mocap bases are the wrist, palm contacts are palm contacts", "[hand_structure]") {
  // A palm on a free joint (or a mocap body) with two one-link fingers and a ball resting on the palm.
  for (const bool mocap : {false, true}) {
    INFO((mocap ? "mocap base" : "free base"));
    const std::string xml = std::string("<mujoco><worldbody>") +
                            (mocap ? "<body name='base' mocap='true' pos='0 0 0.5'>" : "<body name='base' pos='0 0 0.5'><freejoint/>") +
                            "<geom type='box' size='0.02 0.02 0.02' mass='0.5'/>"
                            "<body name='palm' pos='0 0 0.05'><joint name='wrist' axis='0 0 1'/>"
                            "<geom name='palm' type='box' size='0.05 0.05 0.01' mass='0.2'/>"
                            "<body name='pad' pos='0 0 0.01'><geom name='pad' type='box' size='0.03 0.03 0.002' mass='0.01'/></body>"
                            "<body name='f1' pos='0.04 0 0.01'><joint name='j1' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 0.05' size='0.008'/></body>"
                            "<body name='f2' pos='-0.04 0 0.01'><joint name='j2' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 0.05' size='0.008'/></body>"
                            "</body></body>"
                            "<body name='ball' pos='0 0 0.5918'><freejoint/><geom name='ball' type='sphere' size='0.03' mass='0.05'/></body>"
                            "</worldbody></mujoco>";
    const ModelPtr m = load_xml_string(xml);
    const DataPtr d = make_data(m.get());
    mj_forward(m.get(), d.get());
    const HandModel h = infer_hand_structure(m.get(), body(m.get(), "ball"));
    CHECK(h.palm_body == body(m.get(), "palm"));
    CHECK(h.finger_names == std::vector<std::string>{"f1", "f2"});
    CHECK(h.wrist_dofs.size() == (mocap ? 1u : 7u));  // free joint (6) + wrist hinge
    CHECK(h.num_hand_dofs() == 2);
    CHECK(h.is_palm(body(m.get(), "pad")));  // fixed to the palm: part of it
    // The ball rests on the pad: one palm contact, kept with finger -1, its J_H row zero with the wrist held.
    std::vector<Contact> cs;
    cs.reserve(16);
    collect_contacts(m.get(), d.get(), h, cs);
    REQUIRE(cs.size() >= 1);
    for (const Contact& c : cs) {
      CHECK(c.finger == -1);
      CHECK(c.hand_body == body(m.get(), "pad"));
    }
    CHECK(hand_jacobian(m.get(), d.get(), h, cs).cwiseAbs().maxCoeff() == 0.0);
    ContactOptions soft;
    soft.force_palm_model = true;
    soft.palm_model = ContactModel::kSoftFinger;
    collect_contacts(m.get(), d.get(), h, cs, soft);
    CHECK(cs[0].model == ContactModel::kSoftFinger);
    if (!mocap) {  // with the wrist in J_H the palm contact moves with the free base: a non-zero row
      HandStructureOptions o;
      o.include_wrist = true;
      const HandModel w = infer_hand_structure(m.get(), body(m.get(), "ball"), o);
      collect_contacts(m.get(), d.get(), w, cs);
      CHECK(hand_jacobian(m.get(), d.get(), w, cs).cwiseAbs().maxCoeff() > 0.5);  // a unit base translation
    }
  }
}

TEST_CASE("hand structure: bad palm and finger choices are named errors", "[hand_structure]") {
  Scene s("shadow_scene.xml", "ball");
  const mjModel* m = s.m.get();
  auto fails = [&](const std::string& palm, const std::string& fingers, const std::string& says) {
    INFO("palm '" << palm << "' fingers '" << fingers << "'");
    try {
      infer_hand_structure(m, s.object, hand_structure_options(m, palm, fingers, false, "--palm", "--fingers"));
      FAIL("accepted");
    } catch (const GraspError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(says) != std::string::npos);
    }
  };
  fails("no_such_body", "", "--palm: no body named 'no_such_body'");
  fails("", "rh_ffknuckle,nope", "--fingers (entry 2): no body named 'nope'");
  fails("", "rh_ffknuckle,", "empty body name");
  fails("ball", "", "is the object 'ball'");
  fails("", "rh_ffknuckle,rh_ffproximal", "finger roots overlap: 'rh_ffproximal' lies inside finger 'rh_ffknuckle'");
  fails("", "rh_ffknuckle,rh_ffknuckle", "listed twice");
  fails("rh_palm", "rh_wrist", "'rh_wrist' is not below the palm 'rh_palm' (it is the palm or above it");
  fails("rh_ffdistal", "", "has no finger below it");
  // Tips: at most one per finger, each inside a finger.
  auto tips = [&](const std::string& list) {
    HandStructureOptions o;
    add_finger_tips(m, list, o, "--finger-tips");
    return infer_hand_structure(m, s.object, o);
  };
  const HandModel t = tips("rh_thdistal,rh_ffdistal");
  CHECK(t.finger_tip == std::vector<int>{body(m, "rh_ffdistal"), -1, -1, -1, body(m, "rh_thdistal")});
  CHECK_THROWS_WITH(tips("rh_ffdistal,rh_ffmiddle"),
                    Catch::Contains("finger tips 'rh_ffdistal' and 'rh_ffmiddle' are both in finger 'rh_ffknuckle'"));
  CHECK_THROWS_WITH(tips("rh_palm"), Catch::Contains("finger tip 'rh_palm' lies in no finger"));
  CHECK_THROWS_WITH(tips("rh_x"), Catch::Contains("--finger-tips (entry 1): no body named 'rh_x'"));
  // Two named fingers: the palm is where they meet.
  const HandModel two = infer_hand_structure(m, s.object, hand_structure_options(m, "", "rh_ffknuckle,rh_thbase", false));
  CHECK(two.palm_body == body(m, "rh_palm"));
  CHECK(two.num_fingers() == 2);
  CHECK(two.num_hand_dofs() == 4 + 5);
}

TEST_CASE("actuation: A is MuJoCo's transmission (qfrc_actuator = A actuator_force)", "[hand_structure]") {
  std::mt19937 rng(7);
  for (const auto& [file, object] : std::vector<std::pair<std::string, std::string>>{
           {"allegro_scene.xml", "ball"}, {"shadow_scene.xml", "ball"}, {"robotiq_2f85_scene.xml", "box"}}) {
    INFO(file);
    Scene s(file, object);
    const mjModel* m = s.m.get();
    mjData* d = s.d.get();
    std::vector<int> all(m->nv);
    for (int v = 0; v < m->nv; ++v) all[v] = v;
    for (int trial = 0; trial < 3; ++trial) {
      for (int u = 0; u < m->nu; ++u) {
        const double lo = m->actuator_ctrlrange[2 * u], hi = m->actuator_ctrlrange[2 * u + 1];
        d->ctrl[u] = std::uniform_real_distribution<double>(lo, hi)(rng);
      }
      mj_forward(m, d);
      const Eigen::MatrixXd A = actuator_transmission(m, d, all);
      const Eigen::VectorXd f = Eigen::Map<const Eigen::VectorXd>(d->actuator_force, m->nout);
      const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(d->qfrc_actuator, m->nv);
      // The same products MuJoCo sums: rounding ~ a few eps * |f| |A|
      CHECK((A * f - q).cwiseAbs().maxCoeff() <= 1e-12 * (1.0 + f.cwiseAbs().maxCoeff()));
    }
  }
  // The counts: every Shadow actuator is seen (20 on 24 joints with the wrist, the 2 wrist servos leave with it),
  // the 2F-85 has its one actuator.
  Scene sh("shadow_scene.xml", "ball");
  HandStructureOptions o;
  o.include_wrist = true;
  const HandActuation with_wrist = hand_actuation(sh.m.get(), sh.d.get(), infer_hand_structure(sh.m.get(), sh.object, o).dofs);
  CHECK(with_wrist.outputs.size() == 20);
  CHECK(with_wrist.actuated == 20);
  const HandActuation fingers = hand_actuation(sh.m.get(), sh.d.get(), infer_hand_structure(sh.m.get(), sh.object).dofs);
  CHECK(fingers.outputs.size() == 18);
  CHECK(fingers.actuated == 18);
  CHECK(fingers.joint_mobility == 22);
  Scene rq("robotiq_2f85_scene.xml", "box");
  const HandActuation g = hand_actuation(rq.m.get(), rq.d.get(), infer_hand_structure(rq.m.get(), rq.object).dofs);
  CHECK(g.outputs.size() == 1);
  CHECK(g.actuated == 1);
  CHECK(g.constraint_rows == 7);  // 2 connects (3 rows each) + 1 joint coupling
  CHECK(g.rank_Jeq == 5);         // the parallelogram loops are planar: 2 independent rows each
  CHECK(g.joint_mobility == 1);
}

TEST_CASE("actuation: the 2F-85's loop and coupling rows equal their mj_jac derivation, dense and sparse", "[hand_structure]") {
  for (const int jac : {mjJAC_DENSE, mjJAC_SPARSE}) {
    Scene s("robotiq_2f85_scene.xml", "box");
    mjModel* m = s.m.get();
    mjData* d = s.d.get();
    m->opt.jacobian = jac;
    mj_forward(m, d);
    const HandModel h = infer_hand_structure(m, s.object);
    const EqualityRows eq = equality_jacobian(m, d, h.dofs);
    const int n = h.num_hand_dofs();
    // Derived: connect -> J_p(anchor on body1) - J_p(anchor on body2); joint -> e_j1 - poly'(q2) e_j2.
    std::vector<Eigen::VectorXd> derived;
    std::vector<mjtNum> j1(3 * m->nv), j2(3 * m->nv);
    for (int e = 0; e < m->neq; ++e) {
      const mjtNum* data = m->eq_data + e * mjNEQDATA;
      if (m->eq_type[e] == mjEQ_CONNECT) {
        const int b1 = m->eq_obj1id[e], b2 = m->eq_obj2id[e];
        mjtNum p1[3], p2[3];
        mju_mulMatVec3(p1, d->xmat + 9 * b1, data);
        mju_mulMatVec3(p2, d->xmat + 9 * b2, data + 3);
        for (int k = 0; k < 3; ++k) p1[k] += d->xpos[3 * b1 + k], p2[k] += d->xpos[3 * b2 + k];
        mj_jac(m, d, j1.data(), nullptr, p1, b1);
        mj_jac(m, d, j2.data(), nullptr, p2, b2);
        for (int r = 0; r < 3; ++r) {
          Eigen::VectorXd row(n);
          for (int k = 0; k < n; ++k) row(k) = j1[r * m->nv + h.dofs[k]] - j2[r * m->nv + h.dofs[k]];
          if (row.cwiseAbs().maxCoeff() > 0) derived.push_back(row);
        }
      } else if (m->eq_type[e] == mjEQ_JOINT) {
        Eigen::VectorXd row = Eigen::VectorXd::Zero(n);
        const int a = m->jnt_dofadr[m->eq_obj1id[e]], b = m->jnt_dofadr[m->eq_obj2id[e]];
        const double q2 = d->qpos[m->jnt_qposadr[m->eq_obj2id[e]]];
        const double slope = data[1] + 2 * data[2] * q2 + 3 * data[3] * q2 * q2 + 4 * data[4] * q2 * q2 * q2;
        row(std::find(h.dofs.begin(), h.dofs.end(), a) - h.dofs.begin()) = 1.0;
        row(std::find(h.dofs.begin(), h.dofs.end(), b) - h.dofs.begin()) = -slope;
        derived.push_back(row);
      }
    }
    REQUIRE(eq.J.rows() == static_cast<Eigen::Index>(derived.size()));  // 2 + 2 loop rows (the x rows vanish) + 1
    for (size_t r = 0; r < derived.size(); ++r) {
      // the same mj_jac products: rounding ~ eps * lever arm (0.1 m)
      CHECK((eq.J.row(static_cast<Eigen::Index>(r)).transpose() - derived[r]).cwiseAbs().maxCoeff() < 1e-14);
    }
  }
}

TEST_CASE("actuation: actuator forces from J_H^T lambda reproduce MuJoCo's actuator_force at the grasps", "[hand_structure]") {
  // MuJoCo's balance on each hand dof: M qacc = qfrc_actuator + qfrc_passive - qfrc_bias + qfrc_constraint, the
  // constraint part being object contacts (-J_H^T lambda on the hand), equality rows (J_eq^T mu) and the rest (joint
  // limits, friction loss, other contacts). So A f = J_H^T lambda + (M qacc - passive + bias - rest) - J_eq^T mu,
  // and actuator_statics must return MuJoCo's actuator_force where P A has full column rank (all three hands), up to
  // how far MuJoCo's solver left that balance: r = M qacc - qfrc_smooth - qfrc_constraint (its tolerance, 1e-8).
  for (const auto& [file, object] : std::vector<std::pair<std::string, std::string>>{
           {"allegro_scene.xml", "ball"}, {"shadow_scene.xml", "ball"}, {"robotiq_2f85_scene.xml", "box"}}) {
    INFO(file);
    Scene s(file, object);
    const mjModel* m = s.m.get();
    const mjData* d = s.d.get();
    const HandModel h = infer_hand_structure(m, s.object);
    std::vector<Contact> cs;
    cs.reserve(m->nconmax > 0 ? m->nconmax : 64);
    collect_contacts(m, d, h, cs);
    REQUIRE(!cs.empty());
    const Eigen::MatrixXd JH = hand_jacobian(m, d, h, cs);
    Eigen::VectorXd lambda(total_rows(cs));
    mujoco_contact_forces(m, d, cs, lambda);
    const Eigen::VectorXd tau_contacts = JH.transpose() * lambda;
    // MuJoCo's generalised forces of the object contacts and of everything else that is no equality.
    std::vector<mjtNum> masked_object(d->nefc, 0), masked_rest(d->nefc, 0);
    for (int i = 0; i < d->nefc; ++i) {
      const int t = d->efc_type[i];
      const bool contact = t == mjCNSTR_CONTACT_FRICTIONLESS || t == mjCNSTR_CONTACT_PYRAMIDAL || t == mjCNSTR_CONTACT_ELLIPTIC;
      const bool on_object = contact && (m->geom_bodyid[d->contact[d->efc_id[i]].geom[0]] == s.object ||
                                         m->geom_bodyid[d->contact[d->efc_id[i]].geom[1]] == s.object);
      if (on_object) masked_object[i] = d->efc_force[i];
      else if (t != mjCNSTR_EQUALITY) masked_rest[i] = d->efc_force[i];
    }
    std::vector<mjtNum> q_object(m->nv), q_rest(m->nv), Mqacc(m->nv);
    mj_mulJacTVec(m, d, q_object.data(), masked_object.data());
    mj_mulJacTVec(m, d, q_rest.data(), masked_rest.data());
    mj_mulM(m, d, Mqacc.data(), d->qacc);
    const int n = h.num_hand_dofs();
    Eigen::VectorXd mujoco_contacts(n), tau(n), balance(n);
    for (int k = 0; k < n; ++k) {
      const int v = h.dofs[k];
      balance(k) = Mqacc[v] - d->qfrc_smooth[v] - d->qfrc_constraint[v];
      mujoco_contacts(k) = -q_object[v];
      tau(k) = tau_contacts(k) + Mqacc[v] - d->qfrc_passive[v] + d->qfrc_bias[v] - q_rest[v];
    }
    // J_H^T lambda is MuJoCo's contact force on the hand: the same contact forces through two Jacobians, rounding
    // relative to the largest torque
    const double scale = 1.0 + tau_contacts.cwiseAbs().maxCoeff();
    CHECK((tau_contacts - mujoco_contacts).cwiseAbs().maxCoeff() < 1e-10 * scale);
    const HandActuation act = hand_actuation(m, d, h.dofs);
    REQUIRE(act.actuated == static_cast<int>(act.outputs.size()));  // P A full column rank: f is unique
    const ActuatorStatics st = actuator_statics(act, tau);
    Eigen::MatrixXd PA(n, act.outputs.size());
    const Eigen::MatrixXd P = act.Jeq.rows() ? Eigen::MatrixXd(Eigen::MatrixXd::Identity(n, n) -
                                                               pseudo_inverse(act.Jeq) * act.Jeq)
                                             : Eigen::MatrixXd(Eigen::MatrixXd::Identity(n, n));
    for (size_t k = 0; k < act.outputs.size(); ++k) PA.col(static_cast<Eigen::Index>(k)) = P * act.A.col(act.outputs[k]);
    const double sigma_min = Eigen::JacobiSVD<Eigen::MatrixXd>(PA).singularValues().minCoeff();
    // The solver's balance residual passes through (P A)^+ (norm 1/sigma_min) to f; 1e-12 scale: rounding.
    const double bound = balance.norm() / sigma_min + 1e-12 * scale;
    double worst = 0;
    for (int k : act.outputs) worst = std::max(worst, std::abs(st.f(k) - d->actuator_force[k]));
    CHECK(worst <= bound);
    CHECK(st.residual_norm <= balance.norm() + 1e-12 * scale);  // the torque is held, up to the same residual
    WARN(file << ": max |f - actuator_force| = " << worst << " (bound " << bound << " from MuJoCo's balance residual "
              << balance.norm() << ", sigma_min(PA) " << sigma_min << "; |J_H^T lambda| max " << scale - 1 << ")");
  }
}

TEST_CASE("actuation: actuator statics splits a torque between actuators and constraints", "[hand_structure]") {
  // Closed form: two joints coupled q1 = q2 (J_eq = [1 -1]) and one actuator on joint 1 (A = [1; 0]). A torque
  // (t1, t2): the coupling passes torque between the joints, so the actuator holds f = t1 + t2 and
  // mu = t2 ... and nothing stays unresisted; with no coupling, t2 is unresisted.
  HandActuation a;
  a.A = (Eigen::MatrixXd(2, 1) << 1, 0).finished();
  a.Jeq = (Eigen::MatrixXd(1, 2) << 1, -1).finished();
  const Eigen::Vector2d tau(0.3, 0.5);
  const ActuatorStatics s = actuator_statics(a, tau);
  CHECK(s.f(0) == Approx(0.8).epsilon(1e-14));  // rounding of a 2 x 2 SVD
  CHECK((a.A * s.f + a.Jeq.transpose() * s.mu - tau).norm() < 1e-14);
  CHECK(s.resisted);
  a.Jeq.resize(0, 2);
  const ActuatorStatics free = actuator_statics(a, tau);
  CHECK(free.f(0) == Approx(0.3).epsilon(1e-14));
  CHECK(free.residual(1) == Approx(0.5).epsilon(1e-14));
  CHECK_FALSE(free.resisted);
}
