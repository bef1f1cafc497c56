// The mjhand CLI as a user runs it: exit codes, files written, messages that name the culprit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <iterator>
#include <string>

#include "test_util.h"

using mjhand_test::source_path;

using mjhand_test::read_all;
using mjhand_test::run_cli;
using Result = mjhand_test::CliResult;

namespace {
std::string temp_dir(const std::string& name) { return mjhand_test::fresh_temp_dir("cli_" + name); }
}  // namespace

TEST_CASE("mjhand run writes a CSV of time, qpos, qvel, ctrl, sensors and a report", "[cli]") {
  const std::string out = temp_dir("run");
  const Result r = run_cli("run " + source_path("models/egrasp_scene.xml") + " --duration 0.5 --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("close (posture)") && Catch::Contains("tips (fingertip_kinematics)"));
  CHECK_THAT(r.output, Catch::Contains("cross-check: mjhand DH FK vs MuJoCo site_xpos, 4 fingertips x 250 steps"));
  const std::string csv = read_all(out + "/trajectory.csv");
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  CHECK(header.rfind("time,qpos:f1_j1,", 0) == 0);
  CHECK_THAT(header, Catch::Contains("qvel:ball_free[5]") && Catch::Contains("ctrl:f4_j3_plugin") &&
                         Catch::Contains("sensor:f1_fk[3]") && Catch::Contains("sensor:ball_pos[2]"));
  int rows = 0;
  std::string last;
  while (std::getline(lines, line)) {
    ++rows;
    last = line;
  }
  CHECK(rows == 251);  // initial state + 250 steps
  CHECK(last.rfind("0.5", 0) == 0);
  CHECK(std::filesystem::exists(out + "/summary.txt"));
  CHECK_FALSE(std::filesystem::exists(out + "/trajectory.csv.partial"));
}

TEST_CASE("mjhand-run is mjhand run alone: the same files, report and messages", "[cli]") {
  const std::string model = source_path("models/egrasp_scene.xml");
  const std::string a = temp_dir("run_cli"), b = temp_dir("run_alone");
  const Result cli = run_cli("run " + model + " --duration 0.2 --out " + a);
  const Result alone = mjhand_test::run_mjhand_run(model + " --duration 0.2 --out " + b);
  INFO(cli.output);
  INFO(alone.output);
  REQUIRE(cli.status == 0);
  REQUIRE(alone.status == 0);
  const std::string csv = read_all(a + "/trajectory.csv");
  CHECK(csv.size() > 1000);
  CHECK(read_all(b + "/trajectory.csv") == csv);  // one simulation, bit for bit
  // The report, but for the wall time and the output folder.
  const auto report = [](const std::string& dir) {
    std::istringstream in(read_all(dir + "/summary.txt"));
    std::string line, kept;
    while (std::getline(in, line)) {
      if (line.find(", wall ") != std::string::npos) continue;
      for (size_t at; (at = line.find(dir)) != std::string::npos;) line.replace(at, dir.size(), "OUT");
      kept += line + "\n";
    }
    return kept;
  };
  CHECK(report(a).find("cross-check: mjhand DH FK vs MuJoCo site_xpos") != std::string::npos);
  CHECK(report(b) == report(a));
  const Result bad = mjhand_test::run_mjhand_run(model + " --durration 1");
  CHECK(bad.status == 2);
  CHECK(bad.output == run_cli("run " + model + " --durration 1").output);
  CHECK_THAT(bad.output, Catch::Contains("mjhand run: unknown option '--durration'"));
}

TEST_CASE("mjhand run rejects bad command lines and bad models with a clear message", "[cli]") {
  const std::string scene = source_path("models/egrasp_scene.xml");
  Result r = run_cli("run " + scene + " --duration abc");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("'--duration'") && Catch::Contains("'abc'"));
  r = run_cli("run " + scene + " --durration 1");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("unknown option '--durration'"));
  r = run_cli("run " + scene + " --duration -1");
  CHECK(r.status == 2);
  r = run_cli("run /nonexistent/model.xml");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("/nonexistent/model.xml") && Catch::Contains("cannot open"));
  r = run_cli("run");
  CHECK(r.status == 2);
  r = run_cli("bogus-command");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("unknown command 'bogus-command'"));

  // A model whose plugin configuration is wrong: the message names file, line, instance, key and value.
  const std::string dir = temp_dir("badplugin");
  std::filesystem::copy_file(source_path("models/egrasp_hand_servo.xml"), dir + "/egrasp_hand_servo.xml");
  std::string xml = read_all(scene);
  const std::string good = "<config key=\"manipulability\" value=\"true\"/>";
  REQUIRE(xml.find(good) != std::string::npos);
  xml.replace(xml.find(good), good.size(), "<config key=\"manipulability\" value=\"maybe\"/>");
  std::ofstream(dir + "/scene.xml") << xml;
  int line = 1;
  for (char c : xml.substr(0, xml.find("<instance name=\"tips\""))) line += c == '\n';
  r = run_cli("run " + dir + "/scene.xml --out " + dir + "/out");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains(dir + "/scene.xml:" + std::to_string(line)) && Catch::Contains("'tips'") &&
                           Catch::Contains("key 'manipulability' = 'maybe'"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out/trajectory.csv"));

  // A sensor bound to an instance whose configuration does not name it would read zeros: refused at load.
  xml = read_all(scene);
  const std::string tips = "<config key=\"sensors\" value=\"f1_fk,f2_fk,f3_fk,f4_fk\"/>";
  REQUIRE(xml.find(tips) != std::string::npos);
  xml.replace(xml.find(tips), tips.size(), "<config key=\"sensors\" value=\"f1_fk,f2_fk,f3_fk\"/>");
  std::ofstream(dir + "/scene2.xml") << xml;
  r = run_cli("run " + dir + "/scene2.xml --out " + dir + "/out2");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("sensor 'f4_fk' is bound to this instance") && Catch::Contains("'tips'"));
}

TEST_CASE("mjhand run --set / --set-file change plugin configuration without editing the model", "[cli]") {
  const std::string dir = temp_dir("set");
  const std::string scene = source_path("models/egrasp_scene.xml");
  Result r = run_cli("run " + scene + " --duration 0.5 --out " + dir + "/a --set close.start=0 --set close.tau=0.01" +
                     " --set close.target=0.1");
  INFO(r.output);
  REQUIRE(r.status == 0);
  // The servos reached the overridden target: the abduction joint f1_j1 (about the vertical: no gravity torque).
  std::istringstream csv(read_all(dir + "/a/trajectory.csv"));
  std::string header, line, last;
  std::getline(csv, header);
  while (std::getline(csv, line)) last = line;
  std::vector<std::string> names;
  {
    std::istringstream h(header);
    std::string name;
    while (std::getline(h, name, ',')) names.push_back(name);
  }
  const auto it = std::find(names.begin(), names.end(), "qpos:f1_j1");
  REQUIRE(it != names.end());
  const size_t col = static_cast<size_t>(it - names.begin());
  std::istringstream fields(last);
  std::string value;
  for (size_t c = 0; c <= col; ++c) std::getline(fields, value, ',');
  // PD (kp 1 N m/rad, damping 0.05) on ~6e-4 kg m^2 about a gravity-free axis: near critical, ~e^(-40 t); 0.5 s
  // leave ~1e-8 rad (measured 9e-9 rad)
  CHECK(std::stod(value) == Approx(0.1).margin(1e-6));

  std::ofstream(dir + "/set.txt") << "# setpoints\nclose.tau=0.01\n\nclose.target=oops  # bad\n";
  r = run_cli("run " + scene + " --duration 0.2 --out " + dir + "/b --set-file " + dir + "/set.txt");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("key 'target' = 'oops'") && Catch::Contains("(from " + dir + "/set.txt:4)"));
}

TEST_CASE("every subcommand answers --help, and docs/mjhand-cli.md holds each help text verbatim", "[cli]") {
  const Result top = run_cli("--help");
  REQUIRE(top.status == 0);
  std::ifstream in(source_path("docs/mjhand-cli.md"));
  REQUIRE(in);
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("regenerate the page with scripts/make-cli-doc.sh build");
  CHECK_THAT(doc, Catch::Contains(top.output));
  std::istringstream lines(top.output.substr(top.output.find("commands:")));
  std::string line;
  std::getline(lines, line);
  int n = 0;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string cmd;
    if (!(words >> cmd)) continue;
    const Result r = run_cli(cmd + " --help");
    INFO(cmd);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("usage: mjhand " + cmd));
    ++n;
    // The page documents the full build; a CLI built without the viewer (the sanitizer builds) says instead that
    // identify-coupling needs the renderer, and that one-line help is all it has.
    if (!mjhand_test::cli_has_viewer() && cmd == "identify-coupling") {
      CHECK_THAT(r.output, Catch::Contains("built without MJHAND_BUILD_VIEWER"));
      continue;
    }
    CHECK_THAT(doc, Catch::Contains("## mjhand " + cmd + "\n\n```text\n" + r.output + "```"));
  }
  CHECK(n >= 10);
}

TEST_CASE("mjhand make-hand writes a loadable model, and names file, line and field of a bad spec", "[cli]") {
  const std::string dir = temp_dir("makehand");
  Result r = run_cli("make-hand " + source_path("models/egrasp_hand.yaml") + " -o " + dir + "/hand.xml");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(read_all(dir + "/hand.xml") == read_all(source_path("models/egrasp_hand.xml")));

  std::string spec = read_all(source_path("models/egrasp_hand.yaml"));
  const std::string good = "{a: 0.045, alpha_deg: 0,";
  REQUIRE(spec.find(good) != std::string::npos);
  int line = 1;
  for (char c : spec.substr(0, spec.find(good))) line += c == '\n';
  spec.replace(spec.find(good), good.size(), "{a: 0.045m, alpha_deg: 0,");
  std::ofstream(dir + "/bad.yaml") << spec;
  r = run_cli("make-hand " + dir + "/bad.yaml -o " + dir + "/bad.xml");
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Catch::Contains(dir + "/bad.yaml:" + std::to_string(line) + ":") &&
                           Catch::Contains("links[1].a"));
  CHECK_FALSE(std::filesystem::exists(dir + "/bad.xml"));
}

TEST_CASE("mjhand run starts from a keyframe preset or a qpos list, and rejects unknown or malformed ones", "[cli]") {
  const std::string hand = source_path("models/direct_drive_hand.xml");
  const std::string out = temp_dir("run_keyframe");
  // The direct-drive hand's point_finger preset: finger 2 (joints 4-6) straight, the others closed at 90 deg.
  Result r = run_cli("run " + hand + " --keyframe point_finger --duration 0.002 --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("start: keyframe 'point_finger' (#2)"));
  std::istringstream lines(read_all(out + "/trajectory.csv"));
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  std::vector<double> row;
  std::stringstream cells(first);
  for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
  REQUIRE(row.size() > 15);
  // the keyframe's value logged with %.17g before the first step: exact; Approx's default 1e-5 relative is loose
  CHECK(row[1] == Approx(1.5707963267948966));  // qpos columns follow time
  CHECK(row[4] == 0.0);
  CHECK(row[7] == Approx(1.5707963267948966));
  r = run_cli("run " + hand + " --keyframe 1 --duration 0.002 --out " + out);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("start: keyframe 'close_hand' (#1)"));
  r = run_cli("run " + hand + " --keyframe fist --duration 0.002 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("no keyframe 'fist'") && Catch::Contains("point_finger"));
  r = run_cli("run " + hand + " --qpos 0,0 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--qpos has 2 values but the model has nq = 15"));
  r = run_cli("run " + hand + " --qpos 0,0,0,0,0,0,0,0,0,0,0,0,0,0,nan --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("value 15 'nan' is not a finite number"));
  r = run_cli("run " + hand + " --keyframe 0 --qpos 0 --out " + out);
  CHECK(r.status == 2);
}

TEST_CASE("a model named without a path is found among mjhand's models, and the error lists where it looked", "[cli]") {
  // ctest runs in the build tree, where neither name exists: both resolve to the checkout's models/.
  Result r = run_cli("analyze grasp_sensor_scene.xml");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("mjhand analyze " + source_path("models/grasp_sensor_scene.xml")));
  const std::string out = mjhand_test::fresh_temp_dir("model_names");
  r = run_cli("run real/allegro_scene.xml --duration 0.002 --quiet --out " + out);
  CHECK(r.status == 0);
  CHECK(std::filesystem::exists(out + "/trajectory.csv"));
  r = run_cli("analyze no_such_hand.xml");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("no model 'no_such_hand.xml'; looked for it at") &&
                           Catch::Contains("no_such_hand.xml (the current folder)") &&
                           Catch::Contains(source_path("models/no_such_hand.xml") +
                                           " (the models of the checkout mjhand was built from)") &&
                           Catch::Contains("MJHAND_MODEL_PATH"));
  // MJHAND_MODEL_PATH's folders are searched too.
  std::ofstream(out + "/my_model.xml") << "<mujoco><worldbody><body><joint type='hinge'/><geom size='0.1'/></body>"
                                          "</worldbody></mujoco>";
  r = run_cli("run my_model.xml --duration 0.002 --quiet --out " + out + "/a");
  CHECK_THAT(r.output, Catch::Contains("no model 'my_model.xml'"));
  ::setenv("MJHAND_MODEL_PATH", ("/nonexistent:" + out).c_str(), 1);
  r = run_cli("run my_model.xml --duration 0.002 --quiet --out " + out + "/b");
  ::unsetenv("MJHAND_MODEL_PATH");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(std::filesystem::exists(out + "/b/trajectory.csv"));
}
