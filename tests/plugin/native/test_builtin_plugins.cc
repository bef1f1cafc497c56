// Built-in plugin types as native MuJoCo plugins: posture (plain class and native servo) and fingertip_kinematics
// (sensor).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <thread>
#include <vector>

#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/mjcf_writer.h>
#include <mjhand/kinematics/singularity.h>
#include <mjhand/native/native_plugins.h>
#include <mjhand/posture/posture.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::attach_error;
using mjhand_test::load_xml_file;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {
// A one-finger hand with a free palm, so the sensor must follow the palm through mjData. `config` ("k=v ...") is
// the configuration of the native fingertip_kinematics instance "tips"; `sensors` go into <sensor>.
std::string free_palm_hand(const std::string& sensors, const std::string& config) {
  const char* spec = R"(
name: freehand
convention: modified
palm: {pos: [0.1, -0.05, 0.5], rpy_deg: [20, -30, 45], mount: free, half_size: [0.03, 0.03, 0.01], mass: 0.2}
fingers:
  - name: f
    base: {pos: [0.01, 0.02, 0], rpy_deg: [0, 10, 0]}
    link_radius: 0.006
    link_mass: 0.02
    tool: {pos: [0.01, 0, 0.002]}
    links:
      - {a: 0.0, alpha_deg: 0, d: 0.01, theta_deg: 0, joint: revolute, range_deg: [-60, 60]}
      - {a: 0.03, alpha_deg: 90, d: 0, theta_deg: 10, joint: revolute, range_deg: [-60, 60]}
      - {a: 0.03, alpha_deg: 0, d: 0, theta_deg: 0, joint: revolute, range_deg: [-60, 60]}
)";
  std::string xml = write_mjcf(parse_hand_spec(spec, "freehand.yaml"), "freehand.yaml");
  const std::string extra =
      "<extension><plugin plugin=\"mjhand.fingertip_kinematics\"><instance name=\"tips\"></instance></plugin>"
      "</extension><sensor>" + sensors + "</sensor>";
  xml.insert(xml.rfind("</mujoco>"), extra);
  return mjhand_test::with_instance(xml, "tips", config);
}
}  // namespace

TEST_CASE("fingertip_kinematics reports MuJoCo's site position and mj_jacSite's manipulability, live", "[plugins]") {
  auto m = load_xml_file(source_path("models/egrasp_scene.xml"));
  auto d = make_data(m.get());
  const int sensors[4] = {mj_name2id(m.get(), mjOBJ_SENSOR, "f1_fk"), mj_name2id(m.get(), mjOBJ_SENSOR, "f2_fk"),
                          mj_name2id(m.get(), mjOBJ_SENSOR, "f3_fk"), mj_name2id(m.get(), mjOBJ_SENSOR, "f4_fk")};
  std::vector<mjtNum> jacp(3 * m->nv);
  double worst_pos = 0, worst_manip = 0, smallest_manip = 1e9;
  for (int step = 0; step < 600; ++step) {
    mj_step(m.get(), d.get());
    // After mj_step, sensordata and site_xpos both describe the state the step started from.
    for (int s : sensors) {
      const int site = m->sensor_objid[s];
      const mjtNum* v = d->sensordata + m->sensor_adr[s];
      for (int k = 0; k < 3; ++k) worst_pos = std::max(worst_pos, std::abs(v[k] - d->site_xpos[3 * site + k]));
      mj_jacSite(m.get(), d.get(), jacp.data(), nullptr, site);
      // The finger's three columns of MuJoCo's Jacobian (its joints are the three dofs ending at the site's body).
      const int body = m->site_bodyid[site];
      const int dof = m->body_dofadr[body];
      Eigen::Matrix3d jp;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) jp(r, c) = jacp[r * m->nv + dof - 2 + c];
      const double manip = singularity_measures(jp).manipulability;
      worst_manip = std::max(worst_manip, std::abs(v[3] - manip));
      smallest_manip = std::min(smallest_manip, manip);
    }
  }
  // mjhand's DH FK vs MuJoCo's FK of the same numbers (tips ~0.4 m): rounding ~1e-16; manipulability ~1e-5 from the
  // same Jacobian columns: rounding far below 1e-12
  REQUIRE(worst_pos < 1e-12);
  REQUIRE(worst_manip < 1e-12);
  REQUIRE(smallest_manip > 0);  // the check compared real, non-degenerate values
}

TEST_CASE("fingertip_kinematics on the Allegro scene (no DH chains): MuJoCo's tip positions and mj_jac's "
          "manipulability, through a grasp", "[plugins][tree_chains]") {
  // The real hand as its scene includes it, with one body-tip sensor per fingertip body; the chains come from the
  // kinematic tree (root: base_link, where the fingers branch).
  const std::string dir = mjhand_test::fresh_temp_dir("fk_allegro");
  std::string sensors, names;
  for (const char* tip : {"link_3.0_tip", "link_7.0_tip", "link_11.0_tip", "link_15.0_tip"}) {
    sensors += std::string("<plugin name=\"fk_") + tip + "\" instance=\"tips\" objtype=\"body\" objname=\"" + tip +
               "\"/>";
    names += std::string(names.empty() ? "" : ",") + "fk_" + tip;
  }
  const std::string xml = "<mujoco><include file=\"" + source_path("models/real/allegro_scene.xml") +
                          "\"/><extension><plugin plugin=\"mjhand.fingertip_kinematics\"><instance name=\"tips\">"
                          "<config key=\"sensors\" value=\"" + names + "\"/><config key=\"manipulability\" "
                          "value=\"true\"/></instance></plugin></extension><sensor>" + sensors + "</sensor></mujoco>";
  const std::string path = dir + "/allegro_fk.xml";
  { std::ofstream(path) << xml; }
  auto m = load_xml_file(path);
  auto d = make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), mj_name2id(m.get(), mjOBJ_KEY, "grasp"));
  std::vector<mjtNum> jacp(3 * m->nv);
  double worst_pos = 0, worst_manip = 0, smallest_manip = 1e9;
  for (int step = 0; step < 300; ++step) {
    mj_step(m.get(), d.get());
    for (int s = 0; s < m->nsensor; ++s) {
      const int body = m->sensor_objid[s];
      const mjtNum* v = d->sensordata + m->sensor_adr[s];
      for (int k = 0; k < 3; ++k) worst_pos = std::max(worst_pos, std::abs(v[k] - d->xpos[3 * body + k]));
      mj_jac(m.get(), d.get(), jacp.data(), nullptr, d->xpos + 3 * body, body);
      // The finger's four hinge dofs: those of the body's three ancestors below base_link and the fixed tip's parent.
      Eigen::Matrix<double, 3, 4> jp;
      int b = m->body_parentid[body];
      for (int c = 3; c >= 0; --c, b = m->body_parentid[b]) {
        for (int r = 0; r < 3; ++r) jp(r, c) = jacp[r * m->nv + m->body_dofadr[b]];
      }
      const double manip = singularity_measures(jp).manipulability;
      worst_manip = std::max(worst_manip, std::abs(v[3] - manip));
      smallest_manip = std::min(smallest_manip, manip);
    }
  }
  INFO("worst position " << worst_pos << " m, manipulability " << worst_manip << ", smallest " << smallest_manip);
  // Tree-chain FK vs MuJoCo's FK of the same model (tips ~0.3 m from the origin): rounding ~1e-16; manipulability
  // (>= 2.5e-4 m^3 here) from Jacobian columns equal to rounding: far below 1e-12 (measured 1.1e-16 m, 2.2e-18)
  REQUIRE(m->nsensor == 4);
  REQUIRE(worst_pos < 1e-12);
  REQUIRE(worst_manip < 1e-12);
  REQUIRE(smallest_manip > 0);  // real, non-degenerate values compared
}

TEST_CASE("fingertip_kinematics follows a moving (free) palm", "[plugins]") {
  auto m = load_xml_string(free_palm_hand(R"(<plugin name="tip_fk" instance="tips" objtype="site" objname="f_tip"/>)",
                                          "sensors=tip_fk"));
  REQUIRE(m->sensor_dim[0] == 3);
  auto d = make_data(m.get());
  d->qvel[0] = 0.3;  // the palm flies and tumbles; the finger swings
  d->qvel[4] = 2.0;
  d->qvel[6] = -3.0;
  const int site = mj_name2id(m.get(), mjOBJ_SITE, "f_tip");
  double worst = 0, travelled = 0;
  const double start[3] = {d->site_xpos[3 * site], d->site_xpos[3 * site + 1], d->site_xpos[3 * site + 2]};
  for (int i = 0; i < 300; ++i) {
    mj_step(m.get(), d.get());
    for (int k = 0; k < 3; ++k) {
      worst = std::max(worst, std::abs(d->sensordata[k] - d->site_xpos[3 * site + k]));
      travelled = std::max(travelled, std::abs(d->site_xpos[3 * site + k] - start[k]));
    }
  }
  REQUIRE(travelled > 0.05);
  // as above, with the palm pose composed: rounding
  REQUIRE(worst < 1e-12);
}

TEST_CASE("fingertip_kinematics rejects sensors it cannot serve", "[plugins]") {
  using Catch::Contains;
  // The width and stage a <user> sensor had to declare (dim 3 or 4, needstage="pos") are the plugin's own natively:
  // 3 values, 4 with manipulability=true, computed at the position stage.
  const std::string tip = R"(<plugin name="x" instance="tips" objtype="site" objname="f_tip"/>)";
  for (const bool manipulability : {false, true}) {
    auto m = load_xml_string(free_palm_hand(tip, manipulability ? "sensors=x manipulability=true" : "sensors=x"));
    CHECK(m->sensor_dim[0] == (manipulability ? 4 : 3));
    CHECK(m->sensor_needstage[0] == mjSTAGE_POS);
  }
  // A body tip is served by a tree chain, but the palm hangs from a free joint: no serial chain reaches it.
  CHECK_THAT(attach_error(free_palm_hand(R"(<plugin name="x" instance="tips" objtype="body" objname="palm"/>)",
                                         "sensors=x")),
             Contains("'tips'") && Contains("free joint"));
  CHECK_THAT(attach_error(free_palm_hand(R"(<plugin name="x" instance="tips" objtype="geom" objname="palm_geom"/>)",
                                         "sensors=x")),
             Contains("'tips'") && Contains("objtype=\"site\" or objtype=\"body\""));
  CHECK_THAT(attach_error(free_palm_hand(R"(<framepos name="x" objtype="site" objname="f_tip"/>)", "sensors=x")),
             Contains("'tips'") && Contains("not bound to this instance"));
  // A model without embedded chains whose tip no joint moves.
  CHECK_THAT(attach_error(R"(<mujoco><extension><plugin plugin="mjhand.fingertip_kinematics"><instance name="t">
    <config key="sensors" value="x"/></instance></plugin></extension><worldbody><body><geom size="0.1"/>
    <site name="s"/></body></worldbody><sensor><plugin name="x" instance="t" objtype="site" objname="s"/></sensor>
    </mujoco>)"),
             Contains("no hinge or slide joint"));
}

namespace {
// One hinge driven toward 0.5 rad by posture: natively its own actuator "a" is the servo (kp = 1); `servo` false gives
// the plugin-free copy, a <position kp="1"> actuator "a" whose ctrl a user's loop sets.
std::string posture_xml(const char* integrator, bool servo = true) {
  const std::string extension = R"(<extension><plugin plugin="mjhand.posture"><instance name="p">
    <config key="actuators" value="a"/><config key="target" value="0.5"/><config key="tau" value="0.1"/>
    <config key="start" value="0.05"/><config key="kp" value="1"/></instance></plugin></extension>)";
  return std::string("<mujoco><option integrator=\"") + integrator + "\"/>" + (servo ? extension : "") +
         R"(<worldbody><body><joint name="j" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/>
    </body></worldbody><actuator>)" +
         (servo ? R"(<plugin name="a" joint="j" instance="p"/>)" : R"(<position name="a" joint="j" kp="1"/>)") +
         "</actuator></mujoco>";
}

double posture_setpoint(double t) { return t <= 0.05 ? 0.0 : 0.5 * (1 - std::exp(-(t - 0.05) / 0.1)); }

// The native instance's setpoint (its state: time of the last update, then the setpoint).
const mjtNum* posture_state(const mjModel* m, mjData* d) {
  return native_state(m, d, mj_name2id(m, mjOBJ_PLUGIN, "p"));
}
}  // namespace

TEST_CASE("posture: plain class and native servo give the same setpoint, the response is first order", "[plugins]") {
  auto plain_model = load_xml_string(posture_xml("Euler", false));
  PostureController::Options o;
  o.actuators = {0};
  o.target = {0.5};
  o.tau = 0.1;
  o.start = 0.05;
  PostureController plain(o);
  std::vector<mjtNum> state(plain.nstate());
  auto d_plain = make_data(plain_model.get());
  plain.reset(plain_model.get(), d_plain.get(), state.data());
  std::vector<double> ctrl_plain;
  for (int i = 0; i < 200; ++i) {
    plain.compute(plain_model.get(), d_plain.get(), state.data());  // the user's own loop: compute, then step
    mj_step(plain_model.get(), d_plain.get());
    ctrl_plain.push_back(d_plain->ctrl[0]);
  }
  auto m = load_xml_string(posture_xml("Euler"));
  auto d = make_data(m.get());
  for (int i = 0; i < 200; ++i) {
    mj_step(m.get(), d.get());
    const double setpoint = posture_state(m.get(), d.get())[1];
    // the same controller: equal; vs the closed form, per-step decays multiplied: ~200 roundings of 0.5 (~2e-14)
    REQUIRE(setpoint == Approx(ctrl_plain[i]).margin(1e-12));
    // the setpoint of the step's start time, where the actuation stage ran
    REQUIRE(setpoint == Approx(posture_setpoint(d->time - m->opt.timestep)).margin(1e-12));
    // and the servo's force during the step: kp (setpoint - q), kv = 0; ctrl is not written
    REQUIRE(d->actuator_force[0] == Approx(setpoint - d->actuator_length[0]).margin(1e-12));  // kp = 1: one subtraction
    REQUIRE(d->ctrl[0] == 0.0);
  }
}

TEST_CASE("posture under RK4: each stage sees the setpoint of its own time, none is integrated twice", "[plugins]") {
  auto m = load_xml_string(posture_xml("RK4"));
  auto d = make_data(m.get());
  for (int i = 0; i < 200; ++i) {
    mj_step(m.get(), d.get());
    // RK4 runs the actuation stage at t, t+h/2 (twice) and t+h; the last leaves the setpoint of t+h.
    // as above; the stage time t + h vs MuJoCo's summed time: an ulp of < 1 s
    REQUIRE(posture_state(m.get(), d.get())[1] == Approx(posture_setpoint(d->time)).margin(1e-12));
    REQUIRE(posture_state(m.get(), d.get())[0] == Approx(d->time).margin(1e-15));
  }
}

TEST_CASE("fingertip_kinematics in two threads on two mjData equals one thread", "[plugins]") {
  auto m = load_xml_file(source_path("models/egrasp_scene.xml"));
  auto run = [&](std::vector<double>& out) {
    auto d = make_data(m.get());
    for (int i = 0; i < 400; ++i) {
      mj_step(m.get(), d.get());
      out.insert(out.end(), d->sensordata, d->sensordata + m->nsensordata);
    }
  };
  std::vector<double> ref, a, b;
  run(ref);
  std::thread ta([&] { run(a); }), tb([&] { run(b); });
  ta.join();
  tb.join();
  REQUIRE(a == ref);
  REQUIRE(b == ref);
}
