// mjhand make-hand as a user runs it: command-line handling, which files are (not) written, where errors point.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "test_util.h"

using Catch::Matchers::Contains;
using mjhand_test::source_path;

namespace {
using Run = mjhand_test::CliResult;
using mjhand_test::read_all;

Run make_hand(const std::string& args) { return mjhand_test::run_cli("make-hand " + args); }

std::string fresh_dir(const std::string& name) { return mjhand_test::fresh_temp_dir("hand_cli_" + name); }

const char* kPlugged = R"(name: plugged
convention: standard
palm: {pos: [0, 0, 0.3], half_size: [0.04, 0.04, 0.01], mass: 0.3}
fingers:
  - name: f1
    base: {pos: [0, 0.02, 0]}
    link_radius: 0.008
    link_mass: 0.02
    links:
      - {a: 0.02, alpha_deg: 90, d: 0, theta_deg: 0, joint: revolute, range_deg: [-30, 30]}
      - {a: 0.04, alpha_deg: 0, d: 0, theta_deg: 0, joint: revolute, range_deg: [0, 90]}
actuators:
  - {type: plugin, instance: close, joints: all}
plugins:
  - name: close
    type: posture
    config:
      actuators: all
      target: 0.3
      tau: 0.2
      kp: 2
)";
}  // namespace

TEST_CASE("make-hand command line: one output, --output=FILE, usage errors exit 2", "[cli]") {
  const std::string dir = fresh_dir("args");
  const std::string spec = source_path("models/egrasp_hand.yaml");

  Run r = make_hand(spec + " -o " + dir + "/a.xml -o " + dir + "/b.xml");
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("given twice"));
  CHECK_FALSE(std::filesystem::exists(dir + "/a.xml"));
  CHECK_FALSE(std::filesystem::exists(dir + "/b.xml"));

  r = make_hand(spec + " --output=" + dir + "/c.xml");
  CHECK(r.status == 0);
  CHECK(read_all(dir + "/c.xml") == read_all(source_path("models/egrasp_hand.xml")));

  r = make_hand(spec + " --output " + dir + "/d.xml");
  CHECK(r.status == 0);
  CHECK(std::filesystem::exists(dir + "/d.xml"));

  for (const std::string& bad : {spec, "-o " + dir + "/e.xml", spec + " " + spec + " -o " + dir + "/e.xml",
                                 spec + " -o", spec + " -x -o " + dir + "/e.xml"}) {
    r = make_hand(bad);
    INFO(bad << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("mjhand make-hand --help"));
  }
  CHECK_FALSE(std::filesystem::exists(dir + "/e.xml"));
}

TEST_CASE("make-hand: a description path that is a directory is named as such", "[cli]") {
  const std::string dir = fresh_dir("dir");
  const Run r = make_hand(dir + " -o " + dir + "/x.xml");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains(dir) && Contains("is a directory"));
  CHECK_THAT(r.output, !Contains("empty"));
  CHECK_FALSE(std::filesystem::exists(dir + "/x.xml"));
}

TEST_CASE("make-hand: a model MuJoCo rejects is kept as .rejected and the output is left alone", "[cli]") {
  const std::string dir = fresh_dir("rejected");
  std::string spec = kPlugged;
  spec.replace(spec.find("link_mass: 0.02"), 15, "link_mass: 1e-20");
  std::ofstream(dir + "/light.yaml") << spec;
  std::ofstream(dir + "/hand.xml") << "previous model";
  const Run r = make_hand(dir + "/light.yaml -o " + dir + "/hand.xml");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains("MuJoCo rejected") && Contains(dir + "/hand.xml.rejected"));
  CHECK(read_all(dir + "/hand.xml") == "previous model");
  CHECK_THAT(read_all(dir + "/hand.xml.rejected"), Contains("<mujoco model=\"plugged\">"));
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    CHECK((name == "light.yaml" || name == "hand.xml" || name == "hand.xml.rejected"));
  }
}

TEST_CASE("make-hand: plugins are written natively, and their config errors point at the YAML line", "[cli]") {
  const std::string dir = fresh_dir("plugins");
  std::string spec = kPlugged;
  std::ofstream(dir + "/good.yaml") << spec;
  Run r = make_hand(dir + "/good.yaml -o " + dir + "/good.xml");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("1 plugin instances"));
  auto m = mjhand_test::load_xml_file(dir + "/good.xml");
  CHECK(m->nuserdata == 0);
  CHECK(m->nplugin == 1);

  spec.replace(spec.find("tau: 0.2"), 8, "tau: -1");
  std::ofstream(dir + "/bad.yaml") << spec;
  r = make_hand(dir + "/bad.yaml -o " + dir + "/bad.xml");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains(dir + "/bad.yaml:20:12: plugins[0].config.tau: plugin instance 'close'") &&
                           Contains("key 'tau' = '-1'"));
  CHECK_FALSE(std::filesystem::exists(dir + "/bad.xml"));

  std::ofstream(dir + "/old.yaml") << kPlugged << "nuserdata: 10\n";
  r = make_hand(dir + "/old.yaml -o " + dir + "/old.xml");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains(dir + "/old.yaml:22:12: nuserdata: is no longer used"));
  CHECK_FALSE(std::filesystem::exists(dir + "/old.xml"));
}
