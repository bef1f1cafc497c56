// `mjhand analyze` on the real hands with the hand-structure, actuation and control options (issue 18 points 2-4):
// what the JSON says about palm, fingers, wrist and actuators, keyframe ctrl honoured, --ctrl and
// --ctrl-from-keyframe, the force-to-weight warning, and the named usage errors.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "test_util.h"

using mjhand_test::run_cli;
using mjhand_test::source_path;

namespace {

std::string scene(const std::string& name) { return source_path("models/real/" + name + "_scene.xml"); }

// The first number after "key": in the text (JSON keys here are unique enough for the fields read).
double number_after(const std::string& text, const std::string& key) {
  std::smatch m;
  const std::regex re("\"" + key + "\": (-?[0-9.eE+-]+)");
  INFO("key " << key);
  REQUIRE(std::regex_search(text, m, re));
  return std::stod(m[1].str());
}

std::string string_after(const std::string& text, const std::string& key) {
  std::smatch m;
  const std::regex re("\"" + key + "\": \"([^\"]*)\"");
  INFO("key " << key);
  REQUIRE(std::regex_search(text, m, re));
  return m[1].str();
}

// The keyframe's qpos as a --qpos list, from MuJoCo (not the XML text).
std::string keyframe_qpos(const std::string& file) {
  const mjhand::ModelPtr m = mjhand_test::load_xml_file(file);
  const int key = mj_name2id(m.get(), mjOBJ_KEY, "grasp");
  REQUIRE(key >= 0);
  std::string s;
  char buf[40];
  for (int i = 0; i < m->nq; ++i) {
    std::snprintf(buf, sizeof(buf), "%s%.17g", i ? "," : "", m->key_qpos[key * m->nq + i]);
    s += buf;
  }
  return s;
}

}  // namespace

TEST_CASE("analyze: the real hands' structure and actuation in the JSON", "[analyze_hand]") {
  const auto g = run_cli("analyze " + scene("robotiq_2f85") + " --keyframe grasp --json");
  INFO(g.output);
  REQUIRE(g.status == 0);
  CHECK_THAT(g.output, Catch::Contains("\"palm\": \"robotiq_arg2f_base_link\""));
  CHECK_THAT(g.output, Catch::Contains("\"actuators_on_hand\": [\"fingers_actuator\"]"));
  CHECK(number_after(g.output, "actuated") == 1);  // hand.actuated: the one tendon actuator, seen
  CHECK(number_after(g.output, "joint_mobility") == 1);
  CHECK(number_after(g.output, "constraint_rows") == 7);
  CHECK(string_after(g.output, "ctrl_source") == "keyframe");  // the keyframe's ctrl is honoured
  // The inner knuckles are in their fingers: two fingers, no contact on a finger named after an inner knuckle.
  CHECK_THAT(g.output, !Catch::Contains("\"finger\": \"right_inner_knuckle\""));

  const auto s = run_cli("analyze " + scene("shadow") + " --keyframe grasp --json");
  INFO(s.output);
  REQUIRE(s.status == 0);
  CHECK_THAT(s.output, Catch::Contains("\"wrist_dofs\": [\"rh_WRJ2\", \"rh_WRJ1\"]"));
  CHECK_THAT(s.output, Catch::Contains("\"wrist_in_JH\": false"));
  CHECK(number_after(s.output, "actuated") == 18);  // 20 actuators, the 2 wrist servos act on held joints
  const auto w = run_cli("analyze " + scene("shadow") + " --keyframe grasp --with-wrist --json");
  REQUIRE(w.status == 0);
  CHECK(number_after(w.output, "actuated") == 20);  // all 20, the 4 J1+J2 tendons included
  CHECK_THAT(w.output, Catch::Contains("\"wrist_in_JH\": true"));
}

TEST_CASE("analyze: ctrl from the keyframe, --ctrl or --ctrl-from-keyframe, and the force warning", "[analyze_hand]") {
  const std::string file = scene("robotiq_2f85");
  const std::string q = keyframe_qpos(file);
  // --qpos alone: ctrl 0, the gripper's servo pulls open, no contact force, and a note says why.
  const auto open = run_cli("analyze " + file + " --qpos " + q + " --json");
  REQUIRE(open.status == 0);
  CHECK(string_after(open.output, "ctrl_source") == "zero");
  CHECK(number_after(open.output, "contact_normal_force_N") == 0);
  CHECK_THAT(open.output, Catch::Contains("ctrl is 0: --qpos sets no actuator controls"));
  // The keyframe's ctrl given back three ways: the same state, the same forces (to the printed digits).
  const auto key = run_cli("analyze " + file + " --keyframe grasp --json");
  const auto from_key = run_cli("analyze " + file + " --qpos " + q + " --ctrl-from-keyframe grasp --json");
  const auto ctrl = run_cli("analyze " + file + " --qpos " + q + " --ctrl 255 --json");  // the keyframe's ctrl
  for (const auto* r : {&key, &from_key, &ctrl}) {
    INFO(r->output);
    REQUIRE(r->status == 0);
    const double f = number_after(r->output, "contact_normal_force_N");
    CHECK(f == number_after(key.output, "contact_normal_force_N"));
    // The servo at its force limit squeezes ~90 N on a 0.49 N box: far above 20 weights, so it warns, on stderr
    // (first line) and in the JSON.
    CHECK(f > 20 * number_after(r->output, "weight_N"));
    CHECK_THAT(r->output, Catch::StartsWith("mjhand analyze: WARNING: the contact normal forces sum to"));
    CHECK_THAT(r->output, Catch::Contains("\"warnings\": [\"the contact normal forces sum to"));
  }
  CHECK(string_after(from_key.output, "ctrl_source") == "--ctrl-from-keyframe");
  CHECK(string_after(ctrl.output, "ctrl_source") == "--ctrl");
  // A higher factor silences it; the Allegro's 4.7 N (9.6 weights) never warns at the default 20.
  const auto quiet = run_cli("analyze " + file + " --keyframe grasp --force-warning-factor 500 --json");
  CHECK_THAT(quiet.output, Catch::Contains("\"warnings\": []"));
  const auto allegro = run_cli("analyze " + scene("allegro") + " --keyframe grasp --linf-max-points 10");  // epsilon L-inf: 8 s
  CHECK_THAT(allegro.output, !Catch::Contains("WARNING"));
}

TEST_CASE("analyze: the ctrl note names the actuators that read ctrl, and the weight is reported without contacts",
          "[analyze_hand]") {
  // grasp_sensor_scene.xml's actuators are a posture instance's servos, which write their own ctrl: --qpos with ctrl 0
  // changes nothing there, so no note (there was one before issue 31), and none of them is listed as reading ctrl.
  const std::string sensor = source_path("models/grasp_sensor_scene.xml");
  const mjhand::ModelPtr m = mjhand_test::load_xml_file(sensor);
  REQUIRE(m->nu > 0);
  std::string qpos0;
  for (int i = 0; i < m->nq; ++i) qpos0 += (i ? "," : "") + std::to_string(m->qpos0[i]);
  const auto servo = run_cli("analyze " + sensor + " --qpos " + qpos0 + " --json");
  INFO(servo.output);
  REQUIRE(servo.status == 0);
  CHECK(string_after(servo.output, "ctrl_source") == "zero");
  CHECK_THAT(servo.output, Catch::Contains("\"ctrl_readers\": []"));
  CHECK_THAT(servo.output, !Catch::Contains("ctrl is 0"));
  // The 2F-85's <position>-style actuator reads it: named in the note and the JSON.
  const auto gripper = run_cli("analyze " + scene("robotiq_2f85") + " --qpos " + keyframe_qpos(scene("robotiq_2f85")) +
                               " --json");
  INFO(gripper.output);
  CHECK_THAT(gripper.output, Catch::Contains("\"ctrl_readers\": [\"fingers_actuator\"]"));
  CHECK_THAT(gripper.output, Catch::Contains("depends on ctrl ('fingers_actuator')"));
  // No contact (the Allegro at qpos0, the ball below the open hand): no analysis, but the load section still has
  // the ball's weight, 0.05 kg x 9.81 m/s^2 (it was 0 before).
  const auto open = run_cli("analyze " + scene("allegro") + " --object ball --json");
  INFO(open.output);
  REQUIRE(open.status == 0);
  CHECK_THAT(open.output, Catch::Contains("\"analysed\": false"));
  CHECK(number_after(open.output, "weight_N") == Approx(0.05 * 9.81).epsilon(1e-12));
}

TEST_CASE("analyze: bad hand and ctrl options exit 2 naming the problem", "[analyze_hand]") {
  const std::string sh = scene("shadow") + " --keyframe grasp", rq = scene("robotiq_2f85");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {sh + " --palm nope", "--palm: no body named 'nope'"},
      {sh + " --fingers rh_ffknuckle,rh_ffproximal", "finger roots overlap: 'rh_ffproximal' lies inside finger 'rh_ffknuckle'"},
      {sh + " --palm rh_palm --fingers rh_wrist", "'rh_wrist' is not below the palm 'rh_palm'"},
      {sh + " --fingers ball", "is the object 'ball'"},
      {sh + " --finger-tips rh_ffdistal,rh_ffmiddle", "are both in finger 'rh_ffknuckle'"},
      {sh + " --palm-contact squishy", "--palm-contact: unknown contact model 'squishy'"},
      {rq + " --ctrl 1,2", "--ctrl has 2 values but the model has nu = 1"},
      {rq + " --ctrl 300", "actuator 'fingers_actuator' is outside its ctrlrange"},
      {rq + " --ctrl 1 --ctrl-from-keyframe grasp", "give --ctrl or --ctrl-from-keyframe, not both"},
      {rq + " --ctrl-from-keyframe nokey", "no keyframe 'nokey'"},
  };
  for (const auto& [args, says] : bad) {
    const auto r = run_cli("analyze " + args);
    INFO(args << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(says));
  }
}

TEST_CASE("run: --palm/--fingers/--with-wrist name the hand in the summary, bad bodies exit 2", "[analyze_hand]") {
  const std::string out = mjhand_test::fresh_temp_dir("run_hand");
  const auto r = run_cli("run " + scene("shadow") + " --duration 0.002 --out " + out + " --palm rh_palm --with-wrist");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("hand: palm 'rh_palm', 2 wrist/arm dof(s) included in J_H; 5 finger(s)"));
  const auto g = run_cli("run " + scene("robotiq_2f85") + " --duration 0.002 --out " + out);
  CHECK_THAT(g.output, Catch::Contains("hand: inferred: palm 'robotiq_arg2f_base_link'; 2 finger(s)"));
  const auto bad = run_cli("run " + scene("shadow") + " --duration 0.002 --out " + out + " --fingers rh_nope");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("--fingers (entry 1): no body named 'rh_nope'"));
}
