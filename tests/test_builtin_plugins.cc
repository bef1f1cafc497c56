// Built-in plugin types: posture (controller, plain class and plugin) and fingertip_kinematics (sensor).
#include <catch2/catch.hpp>

#include <cmath>
#include <thread>
#include <vector>

#include "hand/hand_spec.h"
#include "hand/mjcf_writer.h"
#include "host/host.h"
#include "kinematics/singularity.h"
#include "posture/posture.h"
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_file;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;
using mjhand_test::source_path;

namespace {
// A one-finger hand with a free palm, so the sensor must follow the palm through mjData.
std::string free_palm_hand(const std::string& extra_sensors, const std::string& plugin_data) {
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
  const std::string extra = "<size nuserdata=\"8\"/><sensor>" + extra_sensors +
                            "</sensor><custom><text name=\"mjhand:tips\" data=\"" + plugin_data + "\"/></custom>";
  xml.insert(xml.rfind("</mujoco>"), extra);
  return xml;
}
}  // namespace

TEST_CASE("fingertip_kinematics reports MuJoCo's site position and mj_jacSite's manipulability, live", "[plugins]") {
  auto m = load_xml_file(source_path("models/egrasp_scene.xml"));
  auto host = Host::attach(m.get());
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
  REQUIRE(worst_pos < 1e-12);
  REQUIRE(worst_manip < 1e-12);
  REQUIRE(smallest_manip > 0);  // the check compared real, non-degenerate values
}

TEST_CASE("fingertip_kinematics follows a moving (free) palm", "[plugins]") {
  auto m = load_xml_string(free_palm_hand(
      R"(<user name="tip_fk" objtype="site" objname="f_tip" datatype="real" needstage="pos" dim="3"/>)",
      "type=fingertip_kinematics sensors=tip_fk"));
  auto host = Host::attach(m.get());
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
  REQUIRE(worst < 1e-12);
}

TEST_CASE("fingertip_kinematics rejects sensors it cannot serve", "[plugins]") {
  using Catch::Contains;
  auto err = [](const std::string& sensors, const std::string& data) {
    auto m = load_xml_string(free_palm_hand(sensors, data));
    try {
      Host::attach(m.get());
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err(R"(<user name="x" objtype="site" objname="f_tip" datatype="real" needstage="pos" dim="5"/>)",
                 "type=fingertip_kinematics sensors=x"),
             Contains("'tips'") && Contains("dim 3 or 4"));
  CHECK_THAT(err(R"(<user name="x" objtype="site" objname="f_tip" datatype="real" needstage="vel" dim="3"/>)",
                 "type=fingertip_kinematics sensors=x"),
             Contains("needstage=\"pos\""));
  CHECK_THAT(err(R"(<user name="x" objtype="body" objname="palm" datatype="real" needstage="pos" dim="3"/>)",
                 "type=fingertip_kinematics sensors=x"),
             Contains("objtype=\"site\""));
  CHECK_THAT(err(R"(<framepos name="x" objtype="site" objname="f_tip"/>)", "type=fingertip_kinematics sensors=x"),
             Contains("not a <user> sensor"));
  // A model without embedded chains.
  auto bare = load_xml_string(R"(<mujoco><size nuserdata="4"/><worldbody><body><joint/><geom size="0.1"/>
    <site name="s"/></body></worldbody><sensor><user name="x" objtype="site" objname="s" datatype="real"
    needstage="pos" dim="3"/></sensor><custom><text name="mjhand:t" data="type=fingertip_kinematics sensors=x"/>
    </custom></mujoco>)");
  REQUIRE_THROWS_WITH(Host::attach(bare.get()), Contains("no mjhand DH chains"));
}

namespace {
std::string posture_xml(const char* integrator) {
  return std::string(R"(<mujoco><size nuserdata="8"/><option integrator=")") + integrator + R"("/><worldbody><body>
    <joint name="j" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/></body></worldbody>
    <actuator><position name="a" joint="j" kp="1"/></actuator>
    <custom><text name="mjhand:p" data="type=posture actuators=a target=0.5 tau=0.1 start=0.05"/></custom></mujoco>)";
}

double posture_setpoint(double t) { return t <= 0.05 ? 0.0 : 0.5 * (1 - std::exp(-(t - 0.05) / 0.1)); }
}  // namespace

TEST_CASE("posture: plain class and plugin give the same ctrl, the response is first order", "[plugins]") {
  auto m = load_xml_string(posture_xml("Euler"));
  PostureController::Options o;
  o.actuators = {0};
  o.target = {0.5};
  o.tau = 0.1;
  o.start = 0.05;
  PostureController plain(o);
  std::vector<mjtNum> state(plain.nstate());
  auto d_plain = make_data(m.get());
  plain.reset(m.get(), d_plain.get(), state.data());
  std::vector<double> ctrl_plain;
  for (int i = 0; i < 200; ++i) {
    plain.compute(m.get(), d_plain.get(), state.data());  // the user's own loop: compute, then step
    mj_step(m.get(), d_plain.get());
    ctrl_plain.push_back(d_plain->ctrl[0]);
  }
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  for (int i = 0; i < 200; ++i) {
    mj_step(m.get(), d.get());
    REQUIRE(d->ctrl[0] == Approx(ctrl_plain[i]).margin(1e-12));
    // ctrl was set at the start of the step
    REQUIRE(d->ctrl[0] == Approx(posture_setpoint(d->time - m->opt.timestep)).margin(1e-12));
  }
}

TEST_CASE("posture under RK4: each stage sees the setpoint of its own time, none is integrated twice", "[plugins]") {
  auto m = load_xml_string(posture_xml("RK4"));
  auto host = Host::attach(m.get());
  auto d = make_data(m.get());
  for (int i = 0; i < 200; ++i) {
    mj_step(m.get(), d.get());
    // RK4 calls mjcb_control at t, t+h/2 (twice) and t+h; the last call leaves the setpoint of t+h.
    REQUIRE(d->ctrl[0] == Approx(posture_setpoint(d->time)).margin(1e-12));
    REQUIRE(host->state(d.get(), host->instances()[0])[0] == Approx(d->time).margin(1e-15));
  }
}

TEST_CASE("fingertip_kinematics in two threads on two mjData equals one thread", "[plugins]") {
  auto m = load_xml_file(source_path("models/egrasp_scene.xml"));
  auto host = Host::attach(m.get());
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
