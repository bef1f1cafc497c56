// Coupled (underactuated) fingers: the BERUL thumb with MuJoCo joint equalities and with mjhand's "coupling"
// plugin, under motion, load and contact; Table 2's coupled FK against MuJoCo; range checks; the sensor mapping.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include <mjhand/coupling/berul.h>
#include <mjhand/coupling/coupling_law.h>
#include <mjhand/coupling/coupling_plugin.h>
#include <mjhand/joint_signal/joint_signal_plugin.h>
#include <mjhand/generators/build_model.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/model_chains.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::source_path;

namespace {

constexpr double kPi = 3.14159265358979323846;
// Coupling-error bounds [rad], see docs/berul-coupling.md.
// Measured 2026-11-21 (Release): equality 0.0020 / 0.0011 / 0.0039, spring 0.033 / 0.018 / 0.061.
constexpr double EQ_MOTION = 0.005, EQ_LOAD = 0.005, EQ_CONTACT = 0.01;
constexpr double SP_MOTION = 0.05, SP_LOAD = 0.03, SP_CONTACT = 0.1;

// World pose of a generated model's first finger's DH frame 0 (the palm is fixed).
Eigen::Isometry3d thumb_frame0(const mjModel* m) {
  auto chains = read_model_chains(m);
  set_world_bases(m, nullptr, chains);
  return chains.at(0).dh.base;
}

struct CouplingErrors {
  double motion = 0, load = 0, contact = 0;  // max |theta_k - law(theta_(k-1))| over both laws [rad] per phase
  double contact_force = 0;                  // largest normal force seen, to prove the contact happened [N]
};

// Thumb scenario: 1 s sweep of theta_1 (sine, -0.05..0.3 rad) and theta_0 under gravity; 1 s holding theta_1 = 0.15
// with 0.3 N pushing on the distal link; 1 s closing onto a fixed ball placed where the tip passes at theta_1 = 0.2.
CouplingErrors run_thumb(const std::string& model_file) {
  std::string xml = mjhand_test::read_all(source_path("models/" + model_file));
  const Eigen::Vector3d ball =
      thumb_frame0(mjhand_test::load_xml_string(xml).get()) * berul_thumb_fk(BerulThumbGeometry{}, 0.0, 0.2).translation();
  char geom[256];
  std::snprintf(geom, sizeof geom,
                "<body name=\"obstacle\" pos=\"%.9g %.9g %.9g\"><geom name=\"ball\" type=\"sphere\" size=\"0.012\" "
                "contype=\"1\" conaffinity=\"1\"/></body>\n  </worldbody>",
                ball.x(), ball.y(), ball.z());
  const std::size_t at = xml.find("</worldbody>");
  REQUIRE(at != std::string::npos);
  xml.replace(at, std::string("</worldbody>").size(), geom);
  ModelPtr m = mjhand_test::load_xml_string(xml);
  DataPtr d = make_data(m.get());
  const auto chains = read_model_chains(m.get());
  const TreeChain& th = chains.at(0);
  const int a0 = mj_name2id(m.get(), mjOBJ_ACTUATOR, "thumb_j1_position");
  const int a1 = mj_name2id(m.get(), mjOBJ_ACTUATOR, "thumb_j2_position");
  const int distal = mj_name2id(m.get(), mjOBJ_BODY, "thumb_link4");
  const int obstacle = mj_name2id(m.get(), mjOBJ_BODY, "obstacle");
  REQUIRE((a0 >= 0 && a1 >= 0 && distal >= 0 && obstacle >= 0));
  const Eigen::Vector3d ball_pos(m->body_pos + 3 * obstacle);
  m->body_pos[3 * obstacle + 2] = -10;  // parked out of reach until phase 3 puts it back
  const auto theta = [&](int k) { return d->qpos[th.qpos_adr[k]] + th.dh.links[k].theta; };
  CouplingErrors e;
  const double dt = m->opt.timestep;
  for (int i = 0; i < static_cast<int>(3.0 / dt); ++i) {
    const double t = d->time;
    mju_zero(d->xfrc_applied, 6 * m->nbody);
    if (t < 1.0) {
      d->ctrl[a1] = 0.125 + 0.175 * std::sin(2 * kPi * t);
      d->ctrl[a0] = 0.2 * std::sin(2 * kPi * t);
    } else if (t < 2.0) {
      d->ctrl[a1] = 0.15;
      d->ctrl[a0] = 0.0;
      d->xfrc_applied[6 * distal + 2] = -0.3;  // [N], world -z
      d->xfrc_applied[6 * distal + 1] = 0.1;
    } else {
      if (m->body_pos[3 * obstacle + 2] < 0) {
        mju_copy3(m->body_pos + 3 * obstacle, ball_pos.data());
        d->ctrl[a1] = -0.05;
      }
      d->ctrl[a1] = std::min(0.3, d->ctrl[a1] + 0.5 * dt);  // closes past the ball
    }
    mj_step(m.get(), d.get());
    const double err = std::max(std::fabs(theta(2) - kBerulTheta2.value(theta(1))),
                                std::fabs(theta(3) - kBerulTheta3.value(theta(2))));
    double& phase = t < 1.0 ? e.motion : t < 2.0 ? e.load : e.contact;
    phase = std::max(phase, err);
    for (int c = 0; c < d->ncon; ++c) {
      mjtNum f[6];
      mj_contactForce(m.get(), d.get(), c, f);
      e.contact_force = std::max(e.contact_force, f[0]);
    }
  }
  return e;
}

}  // namespace

TEST_CASE("BERUL thumb couplings hold under motion and load and contact with both mechanisms", "[coupling]") {
  const CouplingErrors eq = run_thumb("berul_thumb.xml");
  const CouplingErrors sp = run_thumb("berul_thumb_spring.xml");
  std::printf("coupling error [rad] equality: motion %.3g load %.3g contact %.3g (force %.3g N); "
              "spring plugin: motion %.3g load %.3g contact %.3g (force %.3g N)\n",
              eq.motion, eq.load, eq.contact, eq.contact_force, sp.motion, sp.load, sp.contact, sp.contact_force);
  CHECK(eq.contact_force > 0.05);  // the ball really stopped the finger
  CHECK(sp.contact_force > 0.05);
  // Bounds (docs/berul-coupling.md): see the measured values printed above.
  CHECK(eq.motion < EQ_MOTION);
  CHECK(eq.load < EQ_LOAD);
  CHECK(eq.contact < EQ_CONTACT);
  CHECK(sp.motion < SP_MOTION);
  CHECK(sp.load < SP_LOAD);
  CHECK(sp.contact < SP_CONTACT);
}

TEST_CASE("Table 2 coupled FK of theta_0 and theta_1 alone equals MuJoCo's thumb tip", "[coupling]") {
  for (const char* file : {"models/berul_thumb.xml", "models/berul_hand.xml"}) {
    ModelPtr m = mjhand_test::load_xml_file(source_path(file));
    DataPtr d = make_data(m.get());
    auto chains = read_model_chains(m.get());
    set_world_bases(m.get(), nullptr, chains);
    const TreeChain& th = chains.at(0);
    REQUIRE(th.dh.name == "thumb");
    double worst = 0.0, worst_rot = 0.0;
    for (double t0 : {-0.4, 0.0, 0.3}) {
      for (int i = 0; i <= 10; ++i) {
        const double t1 = -0.1 + 0.5 * i / 10;
        const std::array<double, 3> t = berul_coupled_angles(t1);
        d->qpos[th.qpos_adr[0]] = t0;
        for (int k = 0; k < 3; ++k) d->qpos[th.qpos_adr[k + 1]] = t[k] - th.dh.links[k + 1].theta;
        mj_kinematics(m.get(), d.get());
        const Eigen::Isometry3d tip = th.dh.base * berul_thumb_fk(BerulThumbGeometry{}, t0, t1);
        const Eigen::Vector3d site(d->site_xpos + 3 * th.tip_site);
        Eigen::Matrix3d rot;
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) rot(r, c) = d->site_xmat[9 * th.tip_site + 3 * r + c];
        worst = std::max(worst, (site - tip.translation()).norm());
        worst_rot = std::max(worst_rot, (rot - tip.linear()).cwiseAbs().maxCoeff());
      }
    }
    INFO(file);
    // Two FKs of the same 17-digit numbers (quaternions vs DH): rounding of ~4 transforms, ~10 eps on 0.1 m and on
    // unit entries. Measured 5.9e-17 m and 7.8e-16 (both files); 1e-15 m and 1e-14 are ~15x (the old 1e-9, 1e7x).
    CHECK(worst < 1e-15);
    CHECK(worst_rot < 1e-14);
  }
  // Table 2 read literally: theta_3 = 1.3805 theta_2 - 0.1006 with theta_2 from eq 4 = 1.4567 theta_1 + 1.2907.
  const std::array<double, 3> t = berul_coupled_angles(0.2);
  CHECK(t[2] == Approx(1.3805 * 1.0552 * 0.2 + 1.3805 * 1.0078 - 0.1006).epsilon(1e-14));  // the same arithmetic
}

TEST_CASE("Fig. 7 poses: every BERUL finger's MuJoCo tip equals its DH FK for M = 0 to -0.6", "[coupling]") {
  ModelPtr m = mjhand_test::load_xml_file(source_path("models/berul_hand.xml"));
  const std::vector<BerulPose> poses = berul_poses(m.get(), {0.0, -0.2, -0.4, -0.6});
  REQUIRE(poses.size() == 20);
  for (const BerulPose& p : poses) {
    // As above: MuJoCo vs DH FK, rounding (loose bound); theta_0 = gain M + offset recomputed.
    CHECK((p.tip - p.dh_tip).norm() < 1e-9);
    CHECK(p.theta[0] == Approx(-0.2924 * p.signal - 0.0419).epsilon(1e-14));
  }
  // A more negative M flexes further (theta_1 grows), so each tip moves: poses are distinct.
  CHECK((poses[1].tip - poses[16].tip).norm() > 0.005);  // index at M = 0 vs M = -0.6
}

TEST_CASE("Coupling laws convert to MuJoCo polycoef in the generated BERUL model", "[coupling]") {
  ModelPtr m = mjhand_test::load_xml_file(source_path("models/berul_hand.xml"));
  REQUIRE(m->neq == 10);
  DataPtr d = make_data(m.get());
  mj_forward(m.get(), d.get());
  // qpos0 = 0 lies on every law (the theta offsets are the laws at theta_1 = 0): no equality residual at reset.
  for (int i = 0; i < d->nefc; ++i) {
    if (d->efc_type[i] == mjCNSTR_EQUALITY) CHECK(std::fabs(d->efc_pos[i]) < 1e-12);  // rounding
  }
  const int e = mj_name2id(m.get(), mjOBJ_EQUALITY, "couple_thumb_j4");
  REQUIRE(e >= 0);
  // The file's 1.3805 parses to the same double; the shifted constant term cancels to rounding.
  CHECK(m->eq_data[mjNEQDATA * e + 1] == Approx(1.3805).epsilon(1e-14));
  CHECK(std::fabs(m->eq_data[mjNEQDATA * e]) < 1e-12);
  // The committed model is what make-hand writes today.
  const HandSpec spec = load_hand_spec(source_path("models/berul_hand.yaml"));
  const std::string xml = build_hand_model(spec).xml;
  const std::string file = mjhand_test::read_all(source_path("models/berul_hand.xml"));
  CHECK(xml.substr(xml.find("<mujoco")) == file.substr(file.find("<mujoco")));
}

TEST_CASE("A coupling that leaves a joint range is rejected naming instance and joint and value", "[coupling]") {
  const CouplingLaw quad = coupling_law({0.0, 0.0, -4.0});  // peak inside the driver range
  CHECK_FALSE(check_coupling_range(coupling_law({0.0, 1.0}), -1, 1, -1, 1).violated);
  const RangeViolation v = check_coupling_range(coupling_law({0.5, 0.0, -4.0}), -0.5, 0.5, -1.2, 0.4);
  CHECK(v.violated);
  // Bisection to ~1e-21 of the grid cell at 0 (coupling_law.cc); 0.5 - 4 x^2 there: rounding.
  CHECK(v.driver == Approx(0.0).margin(1e-9));  // interior maximum, not an endpoint
  CHECK(v.value == Approx(0.5).margin(1e-12));
  CHECK(check_coupling_range(quad, -0.1, 0.1, -1, 1).violated == false);
  CHECK(check_coupling_range(coupling_law({0.0, 1.0}), -INFINITY, INFINITY, -1, 1).violated);

  // Native instance "link" coupling y to x with stiffness 5, plus the given <config> entries.
  const auto coupled = [](const std::string& configs) {
    return "<mujoco><compiler angle=\"radian\"/><extension><plugin plugin=\"mjhand.coupling\"><instance name=\"link\">"
           "<config key=\"joint\" value=\"y\"/><config key=\"driver\" value=\"x\"/><config key=\"stiffness\" value=\"5\"/>" +
           configs +
           "</instance></plugin></extension><worldbody><body><joint name=\"x\" axis=\"0 0 1\" limited=\"true\" "
           "range=\"-0.5 0.5\"/><geom type=\"capsule\" size=\"0.01\" fromto=\"0 0 0 0.1 0 0\"/><body pos=\"0.1 0 0\">"
           "<joint name=\"y\" axis=\"0 0 1\" limited=\"true\" range=\"-0.6 0.6\"/><geom type=\"capsule\" size=\"0.01\" "
           "fromto=\"0 0 0 0.1 0 0\"/></body></body></worldbody></mujoco>";
  };
  const auto coef = [](const std::string& v) { return "<config key=\"coef\" value=\"" + v + "\"/>"; };
  CHECK(mjhand_test::attach_error(coupled(coef("0,1"))).empty());
  const std::string err = mjhand_test::attach_error(coupled(coef("0.1,1.2")));
  CHECK_THAT(err, Catch::Contains("'link'") && Catch::Contains("'y'") && Catch::Contains("0.7") &&
                      Catch::Contains("coef"));
  CHECK_THAT(mjhand_test::attach_error(coupled(coef("0,1,0,0,0,1"))), Catch::Contains("1 to 5 coefficients"));
  CHECK_THAT(mjhand_test::attach_error(coupled(coef("0,1") + "<config key=\"angles\" value=\"dh\"/>")),
             Catch::Contains("no DH chain"));

  // The hand description's couplings are checked when parsed, at the YAML line.
  std::string yaml = mjhand_test::read_all(source_path("models/berul_thumb.yaml"));
  const std::string good = "coef: [-0.1006, 1.3805]", bad = "coef: [-0.1006, 1.6]";
  REQUIRE(yaml.find(good) != std::string::npos);
  yaml.replace(yaml.find(good), good.size(), bad);
  try {
    parse_hand_spec(yaml, "thumb.yaml");
    FAIL("accepted a coupling that leaves the range");
  } catch (const SpecError& e) {
    CHECK_THAT(e.what(), Catch::Contains("thumb.yaml:") && Catch::Contains("couplings[1].coef") &&
                             Catch::Contains("thumb_j4") && Catch::Contains("outside its range"));
  }
  const auto spec_error = [&](const std::string& from, const std::string& to) {
    std::string y = mjhand_test::read_all(source_path("models/berul_thumb.yaml"));
    REQUIRE(y.find(from) != std::string::npos);
    y.replace(y.find(from), from.size(), to);
    try {
      parse_hand_spec(y, "thumb.yaml");
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(spec_error("joint: thumb_j4, driver: thumb_j3", "joint: thumb_j9, driver: thumb_j3"),
             Catch::Contains("couplings[1].joint") && Catch::Contains("no joint \"thumb_j9\""));
  // Laws chosen to stay inside the ranges, so the structural checks are what fires.
  CHECK_THAT(spec_error("joint: thumb_j4, driver: thumb_j3, coef: [-0.1006, 1.3805]",
                        "joint: thumb_j3, driver: thumb_j4, coef: [0.9, 0.1]"),
             Catch::Contains("couplings[1].joint") && Catch::Contains("already driven"));
  CHECK_THAT(spec_error("joint: thumb_j4, driver: thumb_j3, coef: [-0.1006, 1.3805]",
                        "joint: thumb_j2, driver: thumb_j3, coef: [-0.5, 0.5]"),
             Catch::Contains("cycle"));
  CHECK_THAT(spec_error("solref: [0.004, 1]}", "solref: [0, 1]}"), Catch::Contains("solref"));
}

TEST_CASE("joint_signal writes the actuator sensor value M and inverts the BERUL mapping", "[coupling]") {
  const LinearSensorModel s = kBerulThumbSensor;
  // The linear map and its inverse with 4-digit coefficients: rounding only.
  for (double M : {0.0, -0.2, -0.4, -0.6}) CHECK(s.signal(s.angle(M)) == Approx(M).margin(1e-14));
  CHECK(s.angle(-0.6) == Approx(0.13354).epsilon(1e-12));
  std::string xml = mjhand_test::read_all(source_path("models/berul_thumb.xml"));
  const std::string sensor =
      "<extension><plugin plugin=\"mjhand.joint_signal\"><instance name=\"m\"><config key=\"joint\" value=\"thumb_j4\"/>"
      "<config key=\"sensor\" value=\"thumb_M\"/><config key=\"gain\" value=\"-0.2924\"/>"
      "<config key=\"offset\" value=\"-0.0419\"/><config key=\"angles\" value=\"dh\"/></instance></plugin></extension>"
      "<sensor><plugin name=\"thumb_M\" instance=\"m\"/></sensor>\n  <custom>";
  xml.replace(xml.find("<custom>"), 8, sensor);
  ModelPtr m = mjhand_test::load_xml_string(xml);
  DataPtr d = make_data(m.get());
  const int j4 = mj_name2id(m.get(), mjOBJ_JOINT, "thumb_j4");
  REQUIRE(m->sensor_dim[0] == 1);
  d->qpos[m->jnt_qposadr[j4]] = 0.1;
  mj_forward(m.get(), d.get());
  const double theta = 0.1 + dh_angle_offset(m.get(), j4);
  CHECK(d->sensordata[0] == Approx((theta + 0.0419) / -0.2924).epsilon(1e-14));  // rounding
  std::string zero = xml;
  const std::string gain = "<config key=\"gain\" value=\"-0.2924\"/>";
  zero.replace(zero.find(gain), gain.size(), "<config key=\"gain\" value=\"0\"/>");
  CHECK_THAT(mjhand_test::attach_error(zero), Catch::Contains("'m'") && Catch::Contains("gain") &&
                                                  Catch::Contains("nonzero"));
}

TEST_CASE("BERUL scene closes to M = -0.6 and its joint_signal sensors report M from theta_1", "[coupling]") {
  ModelPtr m = mjhand_test::load_xml_file(source_path("models/berul_scene.xml"));
  DataPtr d = make_data(m.get());
  while (d->time < 2.0) mj_step(m.get(), d.get());
  mj_forward(m.get(), d.get());
  const auto chains = read_model_chains(m.get());
  for (const TreeChain& mc : chains) {
    const int driver = mc.dh.dof() - 3;  // theta_1's row
    const double theta1 = d->qpos[mc.qpos_adr[driver]] + mc.dh.links[driver].theta;
    const int s = mj_name2id(m.get(), mjOBJ_SENSOR, (mc.dh.name + "_M").c_str());
    REQUIRE(s >= 0);
    const double M = d->sensordata[m->sensor_adr[s]];
    INFO(mc.dh.name);
    CHECK(M == Approx(kBerulThumbSensor.signal(theta1)).margin(1e-12));  // the same map
    // docs/berul-coupling.md: -0.61 to -0.63 at the end.
    CHECK(M == Approx(-0.6).margin(0.05));  // the servo target; gravity pulls a little further
  }
}

TEST_CASE("Hand descriptions with couplings survive a YAML round trip", "[coupling]") {
  const HandSpec a = load_hand_spec(source_path("models/berul_hand.yaml"));
  const HandSpec b = parse_hand_spec(hand_spec_to_yaml(a), "roundtrip.yaml");
  REQUIRE(b.couplings.size() == a.couplings.size());
  for (std::size_t i = 0; i < a.couplings.size(); ++i) {
    CHECK(b.couplings[i].joint == a.couplings[i].joint);
    CHECK(b.couplings[i].driver == a.couplings[i].driver);
    CHECK(b.couplings[i].coef == a.couplings[i].coef);
    CHECK(b.couplings[i].solref == a.couplings[i].solref);
  }
  CHECK(build_hand_model(b).xml.find("polycoef=\"0 1.3805 0 0 0\" solref=\"0.004 1\"") != std::string::npos);
}
