// `mjhand run` on the shipped models (moved here from the unit tests of the laws they use): each runs, the PID
// finger holds its posture, and the fingertips' FK check of the run report holds under RK4 and on the real hands.
#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <fstream>
#include <string>

#include "test_util.h"

using mjhand_test::make_data;
using mjhand_test::run_cli;
using mjhand_test::source_path;

TEST_CASE("models/motor_joint.xml runs with mjhand run", "[controllers]") {
  const std::string out = mjhand_test::fresh_temp_dir("motor_joint_run");
  const auto r = run_cli("run " + source_path("models/motor_joint.xml") + " --duration 0.2 --quiet --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
}

TEST_CASE("models/pid_finger.xml runs with mjhand run and holds its posture", "[controllers]") {
  auto m = mjhand_test::load_xml_file(source_path("models/pid_finger.xml"));
  auto d = make_data(m.get());
  for (int i = 0; i < 3000; ++i) mj_step(m.get(), d.get());
  // this model holds within one encoder count (2 pi/4096 = 1.5e-3 rad) after 2 s (rollout_pid.py in
  // tests/python/package/test_examples.py; here 6e-4 rad after 3 s); 0.01 is ~6 counts
  REQUIRE(d->qpos[0] == Approx(0.6).margin(0.01));  // integral action removes gravity's offset
  REQUIRE(d->qpos[1] == Approx(0.5).margin(0.01));
  REQUIRE(d->qpos[2] == Approx(0.4).margin(0.01));
  const std::string out = mjhand_test::fresh_temp_dir("pid_finger_run");
  const auto r = run_cli("run " + source_path("models/pid_finger.xml") + " --duration 0.5 --quiet --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
}

TEST_CASE("models/torque_fingertip.xml runs with mjhand run", "[controllers]") {
  const std::string out = mjhand_test::fresh_temp_dir("torque_fingertip_run");
  const auto r = run_cli("run " + source_path("models/torque_fingertip.xml") + " --duration 0.1 --quiet --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
}

TEST_CASE("tree chains: `mjhand run` cross-checks the fingertips under RK4 too", "[tree_chains]") {
  struct Case {
    const char* dir;
    const char* scene;
    const char* hand;
    const char* line;  // the report line of its kind of check
  };
  for (const Case& c : {Case{"models/real/", "allegro_scene.xml", "allegro_hand.xml", "tree-chain FK vs MuJoCo tip positions"},
                        Case{"models/", "egrasp_scene.xml", "egrasp_hand_servo.xml", "DH FK vs MuJoCo site_xpos"}}) {
    INFO(c.scene);
    const std::string dir = mjhand_test::fresh_temp_dir(std::string("run_rk4_") + c.scene);
    int rk4 = 0;  // <option> elements switched to RK4: at least one, or the case would quietly test Euler
    for (const char* file : {c.scene, c.hand}) {
      std::string xml = mjhand_test::read_all(source_path(std::string(c.dir) + file));
      const size_t option = xml.find("<option ");
      if (option != std::string::npos) {
        xml.insert(option + 8, "integrator=\"RK4\" ");
        ++rk4;
      }
      std::ofstream(dir + "/" + file) << xml;
    }
    REQUIRE(rk4 >= 1);
    const auto r = mjhand_test::run_cli("run " + dir + "/" + c.scene + " --duration 0.05 --out " + dir + "/out");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const size_t at = r.output.find(c.line);
    REQUIRE(at != std::string::npos);
    const std::string key = "steps: max deviation ";
    const double deviation = std::stod(r.output.substr(r.output.find(key, at) + key.size()));
    CHECK(deviation < 1e-12);  // rounding, as under Euler above
  }
}

TEST_CASE("tree chains: `mjhand run` names the FK its fingertip sensors checked (DH chain, tree chain, site, body)",
          "[tree_chains]") {
  // egrasp_scene.xml's four sensors end the embedded DH chains at their tip sites; a fifth on the body f1_link3 (a tip
  // that ends no DH chain) is resolved to the tree chain and compared with MuJoCo's body xpos, so the label says so.
  const std::string dir = mjhand_test::fresh_temp_dir("run_fk_label");
  std::string xml = mjhand_test::read_all(source_path("models/egrasp_scene.xml"));
  const auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = xml.find(from);
    REQUIRE(at != std::string::npos);
    xml.replace(at, from.size(), to);
  };
  replace("f3_fk,f4_fk\"", "f3_fk,f4_fk,f1_body\"");
  replace("<framepos name=\"f1_pos\"", "<plugin name=\"f1_body\" instance=\"tips\" objtype=\"body\" objname=\"f1_link3\"/>\n"
          "    <framepos name=\"f1_pos\"");
  std::ofstream(dir + "/egrasp_scene.xml") << xml;
  std::ofstream(dir + "/egrasp_hand_servo.xml") << mjhand_test::read_all(source_path("models/egrasp_hand_servo.xml"));
  const auto mixed = mjhand_test::run_cli("run " + dir + "/egrasp_scene.xml --duration 0.02 --out " + dir + "/out");
  INFO(mixed.output);
  REQUIRE(mixed.status == 0);
  CHECK_THAT(mixed.output, Catch::Contains("cross-check: mjhand 4 DH and 1 tree-chain FK vs MuJoCo 4 site_xpos and 1 "
                                           "body xpos, 5 fingertips x 10 steps: max deviation"));
  const auto plain = mjhand_test::run_cli("run " + source_path("models/egrasp_scene.xml") + " --duration 0.02 --out " +
                                          dir + "/out2");
  CHECK_THAT(plain.output, Catch::Contains("cross-check: mjhand DH FK vs MuJoCo site_xpos, 4 fingertips"));
}

TEST_CASE("tree chains: `mjhand run` cross-checks the real hands' fingertips with tree-chain FK", "[tree_chains]") {
  for (const char* scene : {"allegro_scene.xml", "shadow_scene.xml", "robotiq_2f85_scene.xml"}) {
    INFO(scene);
    const std::string out = mjhand_test::fresh_temp_dir(std::string("run_") + scene);
    const auto r = mjhand_test::run_cli("run " + source_path(std::string("models/real/") + scene) +
                                        " --keyframe grasp --duration 0.05 --out " + out);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string key = "steps: max deviation ";
    const size_t at = r.output.find("tree-chain FK vs MuJoCo tip positions");
    REQUIRE(at != std::string::npos);
    const double deviation = std::stod(r.output.substr(r.output.find(key, at) + key.size()));
    // FK of the state each step started from vs MuJoCo's positions of that state: rounding (measured 1.1e-16 m).
    CHECK(deviation < 1e-12);
  }
}
