// Hand descriptions: every bad spec names FILE:LINE:COLUMN and the field; good specs round-trip through YAML and
// MJCF; the committed models are exactly what the generator writes today.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <mjhand/generators/build_model.h>
#include <mjhand/hand/chain_encoding.h>
#include <mjhand/hand/hand_chains.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/mjcf_writer.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/native/native_plugins.h>
#include "test_util.h"

using namespace mjhand;
using Catch::Matchers::Contains;

namespace {
// A valid two-finger spec touching every feature; tests edit single lines and predict the reported position.
const std::vector<std::string> kGood = {
    "name: test_hand",                   // 1
    "convention: standard",              // 2
    "palm:",                             // 3
    "  pos: [0, 0, 0.3]",                // 4
    "  rpy_deg: [0, 0, 90]",             // 5
    "  mount: fixed",                    // 6
    "  half_size: [0.04, 0.04, 0.01]",   // 7
    "  box_pos: [-0.04, 0, 0]",          // 8
    "  mass: 0.3",                       // 9
    "fingers:",                          // 10
    "  - name: index",                   // 11
    "    base:",                         // 12
    "      pos: [0, 0.02, 0]",           // 13
    "    link_radius: 0.008",            // 14
    "    link_mass: 0.02",               // 15
    "    links:",                        // 16
    "      - a: 0.02",                   // 17
    "        alpha_deg: 90",             // 18
    "        d: 0",                      // 19
    "        theta_deg: 0",              // 20
    "        joint: revolute",           // 21
    "        range_deg: [-30, 30]",      // 22
    "      - a: 0.04",                   // 23
    "        alpha_deg: 0",              // 24
    "        d: 0",                      // 25
    "        theta_deg: 0",              // 26
    "        joint: revolute",           // 27
    "        range_deg: [0, 90]",        // 28
    "  - name: thumb",                   // 29
    "    base:",                         // 30
    "      pos: [-0.05, -0.02, 0]",      // 31
    "      axis: [0, 1, 0]",             // 32
    "      angle_deg: 40",               // 33
    "    link_radius: 0.009",            // 34
    "    link_mass: 0.03",               // 35
    "    damping: 0.1",                  // 36
    "    tool:",                         // 37
    "      pos: [0.01, 0, 0]",           // 38
    "      rpy_deg: [10, 20, 30]",       // 39
    "    links:",                        // 40
    "      - a: 0.03",                   // 41
    "        alpha_deg: -90",            // 42
    "        d: 0.005",                  // 43
    "        theta_deg: 10",             // 44
    "        joint: revolute",           // 45
    "      - a: 0.01",                   // 46
    "        alpha_deg: 0",              // 47
    "        d: 0.01",                   // 48
    "        theta_deg: 0",              // 49
    "        joint: prismatic",          // 50
    "        range: [0, 0.02]",          // 51
    "        radius: 0.006",             // 52
    "actuators:",                        // 53
    "  - type: position",                // 54
    "    joints: all",                   // 55
    "    kp: 2",                         // 56
    "  - type: plugin",                  // 57
    "    joints: [thumb_j1]",            // 58
    "    instance: grip",                // 59
    "    forcerange: [-0.5, 0.5]",       // 60
    "plugins:",                          // 61
    "  - name: grip",                    // 62
    "    type: pid",                     // 63
    "    config:",                       // 64
    "      kp: 3",                       // 65
    "      actuators: [thumb_j1_plugin]",  // 66
    "      setpoint: 0.1",               // 67
    "      period: 0.004",               // 68
};

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The good spec with 1-based line `line` replaced (the replacement may span several lines).
std::string with_line(int line, const std::string& replacement) {
  std::vector<std::string> lines = kGood;
  REQUIRE(line >= 1);
  REQUIRE(line <= static_cast<int>(lines.size()));
  lines[line - 1] = replacement;
  return join(lines);
}

std::string without_line(int line) {
  std::vector<std::string> lines = kGood;
  lines.erase(lines.begin() + (line - 1));
  return join(lines);
}

std::string error_of(const std::string& yaml) {
  try {
    parse_hand_spec(yaml, "bad.yaml");
  } catch (const SpecError& e) {
    return e.what();
  }
  FAIL("the spec was accepted:\n" << yaml);
  return "";
}

void check_error(const std::string& yaml, int line, const std::string& field, const std::string& fragment) {
  const std::string msg = error_of(yaml);
  INFO(msg);
  CHECK_THAT(msg, Contains("bad.yaml:" + std::to_string(line) + ":"));
  CHECK_THAT(msg, Contains(" " + field + ": "));
  CHECK_THAT(msg, Contains(fragment));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool same_pose(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b, double tol) {
  return (a.matrix() - b.matrix()).cwiseAbs().maxCoeff() < tol;
}

bool same_chain(const Chain& a, const Chain& b, double tol) {
  if (a.convention != b.convention || a.links.size() != b.links.size()) return false;
  if (!same_pose(a.base, b.base, tol) || !same_pose(a.tool, b.tool, tol)) return false;
  for (std::size_t k = 0; k < a.links.size(); ++k) {
    const DHLink &x = a.links[k], &y = b.links[k];
    const auto near = [tol](double u, double v) { return u == v || std::fabs(u - v) < tol; };
    if (!near(x.a, y.a) || !near(x.alpha, y.alpha) || !near(x.d, y.d) || !near(x.theta, y.theta) ||
        x.kind != y.kind || !near(x.lower, y.lower) || !near(x.upper, y.upper)) {
      return false;
    }
  }
  return true;
}
}  // namespace

TEST_CASE("the reference spec is valid", "[hand]") {
  const HandSpec s = parse_hand_spec(join(kGood), "good.yaml");
  REQUIRE(s.fingers.size() == 2);
  CHECK(s.fingers[1].links[1].dh.kind == JointKind::kPrismatic);
  CHECK(s.fingers[0].links[1].dh.upper == Approx(M_PI / 2));  // 90 x (pi/180): one rounding
  CHECK(s.fingers[1].links[1].radius == 0.006);
  CHECK(s.fingers[1].links[0].radius == 0.009);
  CHECK(std::isinf(s.fingers[1].links[0].dh.upper));
  REQUIRE(s.actuators.size() == 2);
  CHECK(s.actuators[0].joints.size() == 4);
  REQUIRE(s.plugins.size() == 1);
  CHECK(s.plugins[0].config[1].second == "thumb_j1_plugin");
}

TEST_CASE("bad specs name file, line, column and field", "[hand]") {
  SECTION("not a number, with the exact column") {
    const std::string msg = error_of(with_line(23, "      - a: abc"));
    CHECK_THAT(msg, Contains("bad.yaml:23:12: fingers[0].links[1].a: expected a number, got \"abc\""));
  }
  SECTION("missing DH parameter") {
    check_error(without_line(19), 17, "fingers[0].links[0].d", "missing required key");
  }
  SECTION("missing top-level key") { check_error(without_line(1), 1, "name", "missing required key"); }
  SECTION("wrong type: list where a number belongs") {
    check_error(with_line(14, "    link_radius: [1, 2]"), 14, "fingers[0].link_radius", "expected a number, got a list");
  }
  SECTION("wrong type: number where a list belongs") {
    check_error(with_line(7, "  half_size: 0.04"), 7, "palm.half_size", "expected a list of 3 numbers");
  }
  SECTION("unknown key in a DH row") {
    check_error(with_line(21, "        joint: revolute\n        lenght: 0.1"), 22, "fingers[0].links[0].lenght",
                "unknown key");
  }
  SECTION("unknown top-level key") { check_error(with_line(68, "      period: 0.004\nfingerz: 1"), 69, "fingerz", "unknown key"); }
  SECTION("zero-length link without opt-out") {
    check_error(with_line(23, "      - a: 0"), 23, "fingers[0].links[1]", "zero-length link");
  }
  SECTION("inverted joint range") {
    check_error(with_line(28, "        range_deg: [90, 0]"), 28, "fingers[0].links[1].range_deg", "inverted");
  }
  SECTION("inverted prismatic range") {
    check_error(with_line(51, "        range: [0.02, 0.02]"), 51, "fingers[1].links[1].range", "inverted");
  }
  SECTION("non-positive link radius") {
    check_error(with_line(14, "    link_radius: 0"), 14, "fingers[0].link_radius", "must be positive");
  }
  SECTION("non-positive per-link radius") {
    check_error(with_line(52, "        radius: -0.006"), 52, "fingers[1].links[1].radius", "must be positive");
  }
  SECTION("non-positive link mass") {
    check_error(with_line(35, "    link_mass: -1"), 35, "fingers[1].link_mass", "must be positive");
  }
  SECTION("non-positive palm mass") { check_error(with_line(9, "  mass: 0"), 9, "palm.mass", "must be positive"); }
  SECTION("non-positive palm half size") {
    check_error(with_line(7, "  half_size: [0.04, -1, 0.01]"), 7, "palm.half_size[1]", "must be positive");
  }
  SECTION("duplicate finger names") {
    check_error(with_line(29, "  - name: index"), 29, "fingers[1].name", "duplicate finger name");
  }
  SECTION("empty finger list") {
    std::vector<std::string> lines(kGood.begin(), kGood.begin() + 9);
    lines.push_back("fingers: []");
    check_error(join(lines), 10, "fingers", "at least one finger");
  }
  SECTION("finger without links") {
    std::vector<std::string> lines(kGood.begin(), kGood.begin() + 16);
    lines.back() = "    links: []";
    check_error(join(lines), 16, "fingers[0].links", "at least one link");
  }
  SECTION("unknown convention") {
    check_error(with_line(2, "convention: craig"), 2, "convention", "expected standard or modified");
  }
  SECTION("unknown joint kind") {
    check_error(with_line(27, "        joint: hinge"), 27, "fingers[0].links[1].joint", "expected revolute or prismatic");
  }
  SECTION("metres range on a revolute joint") {
    check_error(with_line(22, "        range: [-0.5, 0.5]"), 22, "fingers[0].links[0].range", "range_deg");
  }
  SECTION("rotation given twice") {
    check_error(with_line(33, "      angle_deg: 40\n      rpy_deg: [0, 0, 0]"), 34, "fingers[1].base.rpy_deg",
                "either as rpy_deg or as axis + angle_deg");
  }
  SECTION("duplicate key") {
    check_error(with_line(15, "    link_mass: 0.02\n    link_mass: 0.03"), 16, "fingers[0].link_mass", "duplicate key");
  }
  SECTION("actuator on a joint that does not exist") {
    check_error(with_line(58, "    joints: [thumb_j9]"), 58, "actuators[1].joints[0]", "no joint named \"thumb_j9\"");
  }
  SECTION("ctrlrange in radians on a revolute position actuator") {
    check_error(with_line(56, "    kp: 2\n    ctrlrange: [-1, 1]"), 57, "actuators[0].ctrlrange", "split the entry");
  }
  SECTION("plugin value that would break the key=value format") {
    check_error(with_line(65, "      kp: 'a b'"), 65, "plugins[0].config.kp", "must not contain spaces");
  }
  SECTION("palm mount typo") { check_error(with_line(6, "  mount: welded"), 6, "palm.mount", "expected fixed or free"); }
  SECTION("non-finite number") {
    check_error(with_line(13, "      pos: [0, .inf, 0]"), 13, "fingers[0].base.pos[1]", "finite");
  }
  SECTION("YAML syntax error") {
    const std::string msg = error_of(with_line(14, "    link_radius: [0.008"));
    CHECK_THAT(msg, Contains("bad.yaml:"));
    CHECK_THAT(msg, Contains("YAML syntax error"));
  }
}

TEST_CASE("missing file is reported with its path", "[hand]") {
  CHECK_THROWS_WITH(load_hand_spec("/nonexistent/hand.yaml"), Contains("/nonexistent/hand.yaml"));
}

TEST_CASE("zero-length link opt-out gives a sphere MuJoCo accepts", "[hand]") {
  const HandSpec s = parse_hand_spec(with_line(23, "      - a: 0\n        allow_zero_length: true"), "z.yaml");
  const std::string xml = write_mjcf(s, "z.yaml");
  CHECK_THAT(xml, Contains("name=\"index_link2_geom\" type=\"sphere\""));
  auto m = mjhand_test::load_xml_string(xml);
  CHECK(read_model_chains(m.get()).size() == 2);
}

TEST_CASE("a good spec round-trips through YAML", "[hand]") {
  const HandSpec a = parse_hand_spec(join(kGood), "good.yaml");
  const std::string yaml = hand_spec_to_yaml(a);
  INFO(yaml);
  const HandSpec b = parse_hand_spec(yaml, "roundtrip.yaml");
  CHECK(b.name == a.name);
  // rotations written as axis-angle in degrees and read back: rounding of the trig and the degree factor (~1e-15)
  CHECK(b.convention == a.convention);
  CHECK(same_pose(a.palm.pose, b.palm.pose, 1e-12));
  CHECK(b.palm.mount == a.palm.mount);
  CHECK(b.palm.half_size == a.palm.half_size);
  CHECK(b.palm.box_pos == a.palm.box_pos);
  CHECK(b.palm.mass == a.palm.mass);
  const std::vector<Chain> ca = hand_chains(a), cb = hand_chains(b);
  REQUIRE(ca.size() == cb.size());
  for (std::size_t i = 0; i < ca.size(); ++i) {
    CHECK(cb[i].name == ca[i].name);
    CHECK(same_chain(ca[i], cb[i], 1e-12));  // DH angles in degrees and poses as above
    CHECK(b.fingers[i].damping == a.fingers[i].damping);
    CHECK(b.fingers[i].armature == a.fingers[i].armature);
    for (std::size_t k = 0; k < a.fingers[i].links.size(); ++k) {
      CHECK(b.fingers[i].links[k].radius == a.fingers[i].links[k].radius);
      CHECK(b.fingers[i].links[k].mass == a.fingers[i].links[k].mass);
    }
  }
  REQUIRE(b.actuators.size() == a.actuators.size());
  for (std::size_t i = 0; i < a.actuators.size(); ++i) {
    CHECK(b.actuators[i].type == a.actuators[i].type);
    CHECK(b.actuators[i].joints == a.actuators[i].joints);
    CHECK(b.actuators[i].gain == a.actuators[i].gain);
    CHECK(b.actuators[i].ctrllimited == a.actuators[i].ctrllimited);
    // ctrlrange written in degrees and read back: x / kDeg * kDeg, rounding
    CHECK(b.actuators[i].ctrl_lower == Approx(a.actuators[i].ctrl_lower).margin(1e-12));
    CHECK(b.actuators[i].ctrl_upper == Approx(a.actuators[i].ctrl_upper).margin(1e-12));
    CHECK(b.actuators[i].forcelimited == a.actuators[i].forcelimited);
  }
  REQUIRE(b.plugins.size() == 1);
  CHECK(b.plugins[0].config == a.plugins[0].config);
  CHECK(b.self_collision == a.self_collision);
}

TEST_CASE("a good spec round-trips through MJCF: the model carries its chains", "[hand]") {
  const HandSpec spec = parse_hand_spec(join(kGood), "good.yaml");
  auto m = mjhand_test::load_xml_string(write_mjcf(spec, "good.yaml"));
  std::vector<TreeChain> chains = read_model_chains(m.get());
  const std::vector<Chain> in_palm = hand_chains_in_palm(spec), in_world = hand_chains(spec);
  REQUIRE(chains.size() == in_palm.size());
  set_world_bases(m.get(), nullptr, chains);  // fixed palm: model constants suffice
  for (std::size_t i = 0; i < chains.size(); ++i) {
    CHECK(chains[i].dh.name == in_palm[i].name);
    CHECK(chains[i].root_body == mj_name2id(m.get(), mjOBJ_BODY, "palm"));
    // the written body quaternion/pos (shortest round trip) back to a matrix: rounding of a few O(1) products
    CHECK(same_pose(chains[i].base_in_root, in_palm[i].base, 1e-15));
    CHECK(same_chain(chains[i].dh, in_world[i], 1e-12));  // with the palm pose composed: rounding
  }
  CHECK(m->nu == 5);
  CHECK(m->nuserdata == 0);
  const int grip = mj_name2id(m.get(), mjOBJ_PLUGIN, "grip");
  REQUIRE(grip >= 0);
  CHECK(native_type(m.get(), grip) == "pid");
  using KV = std::vector<std::pair<std::string, std::string>>;
  CHECK(native_config(m.get(), grip) == KV{{"actuators", "thumb_j1_plugin"}, {"setpoint", "0.1"}, {"kp", "3"}, {"period", "0.004"}});
  const int act = mj_name2id(m.get(), mjOBJ_ACTUATOR, "thumb_j2_position");
  REQUIRE(act >= 0);  // position on a prismatic joint, ctrlrange taken from the joint range
  CHECK(m->actuator_ctrlrange[2 * act + 1] == 0.02);
}

TEST_CASE("malformed embedded chains are reported by field name", "[hand]") {
  const HandSpec spec = parse_hand_spec(join(kGood), "good.yaml");
  const std::string xml = write_mjcf(spec, "good.yaml");
  const std::string tag = "name=\"mjhand:chain:index\" size=\"31\" data=\"1 0 2";
  REQUIRE(xml.find(tag) != std::string::npos);
  const auto broken = [&](const std::string& replacement) {
    std::string x = xml;
    x.replace(x.find(tag), tag.size(), replacement);
    auto m = mjhand_test::load_xml_string(x);
    try {
      read_model_chains(m.get());
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(broken("name=\"mjhand:chain:index\" size=\"31\" data=\"7 0 2"),
             Contains("'mjhand:chain:index': element 0 (format version"));
  CHECK_THAT(broken("name=\"mjhand:chain:index\" size=\"31\" data=\"1 3 2"), Contains("'mjhand:chain:index': element 1"));
  CHECK_THAT(broken("name=\"mjhand:chain:index\" size=\"31\" data=\"1 0 3"),
             Contains("'mjhand:chain:index' has 31 values; 3 links need 38"));
  CHECK_THAT(broken("name=\"mjhand:chain:nosuch\" size=\"31\" data=\"1 0 2"),
             Contains("'mjhand:chain:nosuch' describes a finger, but the model has no body named 'nosuch_link1'"));
}

TEST_CASE("committed models are exactly what the generator writes now", "[hand]") {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(mjhand_test::source_path("models"))) {
    if (entry.path().extension() != ".yaml") continue;
    const std::filesystem::path xml_path = std::filesystem::path(entry.path()).replace_extension(".xml");
    INFO("regenerate with: mjhand make-hand models/" << entry.path().filename().string() << " -o models/"
                                                     << xml_path.filename().string());
    REQUIRE(std::filesystem::exists(xml_path));
    const HandSpec spec = load_hand_spec(entry.path().string());
    CHECK(build_hand_model(spec).xml == read_text(xml_path.string()));  // what make-hand writes
    ++checked;
  }
  CHECK(checked >= 1);
}

namespace {
// The committed e_GRASP model with one edit; what read_model_chains says about it ("no error" when it accepts it).
std::string chains_error_after_edit(const std::string& from, const std::string& to) {
  std::string xml = read_text(mjhand_test::source_path("models/egrasp_hand.xml"));
  REQUIRE(xml.find(from) != std::string::npos);
  xml.replace(xml.find(from), from.size(), to);
  auto m = mjhand_test::load_xml_string(xml);
  try {
    read_model_chains(m.get());
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a generated model edited by hand no longer passes as its embedded chains", "[hand]") {
  const std::string unchanged = "<body name=\"f1_link2\" pos=\"0.02 0 0\"";
  CHECK(chains_error_after_edit(unchanged, unchanged) == "no error");
  const auto check = [](const std::string& from, const std::string& to, const std::string& finger,
                        const std::string& fragment) {
    const std::string msg = chains_error_after_edit(from, to);
    INFO(from << " -> " << to << "\n" << msg);
    CHECK_THAT(msg, Contains("finger '" + finger + "': "));
    CHECK_THAT(msg, Contains(fragment));
    CHECK_THAT(msg, Contains("custom numeric field 'mjhand:chain:" + finger + "'"));
    CHECK_THAT(msg, Contains("regenerate"));
  };
  SECTION("a body moved off its joint axis") {
    check("<body name=\"f1_link2\" pos=\"0.02 0 0\"", "<body name=\"f1_link2\" pos=\"0.021 0 0\"", "f1",
          "joint 'f1_j2' turns about an axis through");
  }
  SECTION("a body moved along its own joint axis: only the fingertip shows it") {
    check("<body name=\"f1_link3\" pos=\"0.045 0 0\"", "<body name=\"f1_link3\" pos=\"0.045 0 0.001\"", "f1",
          "site 'f1_tip' is at");
  }
  SECTION("a body turned") {
    check("<body name=\"f2_link2\" pos=\"0.02 0 0\" quat=\"0.7071067811865476 0.7071067811865475 0 0\"",
          "<body name=\"f2_link2\" pos=\"0.02 0 0\" quat=\"1 0 0 0\"", "f2", "joint 'f2_j2' moves along");
  }
  SECTION("the fingertip site moved") {
    check("<site name=\"f3_tip\" pos=\"0.03 0 0\" quat=\"1 0 0 0\"",
          "<site name=\"f3_tip\" pos=\"0.03 0 0\" quat=\"0 0 0 1\"", "f3", "site 'f3_tip' is oriented differently");
  }
  SECTION("a joint with a ref") {
    check("<joint name=\"f2_j1\" type=\"hinge\"", "<joint name=\"f2_j1\" type=\"hinge\" ref=\"0.3\"", "f2",
          "joint 'f2_j1' has qpos0 = 0.3 (a ref attribute?)");
  }
  SECTION("a joint axis other than the body's z") {
    check("<joint name=\"f3_j3\" type=\"hinge\" pos=\"0 0 0\" axis=\"0 0 1\"",
          "<joint name=\"f3_j3\" type=\"hinge\" pos=\"0 0 0\" axis=\"0 1 0\"", "f3", "joint 'f3_j3' has axis (0 1 0)");
  }
  SECTION("a joint off the body origin") {
    check("<joint name=\"f1_j3\" type=\"hinge\" pos=\"0 0 0\"",
          "<joint name=\"f1_j3\" type=\"hinge\" pos=\"0.002 0 0\"", "f1", "joint 'f1_j3' sits at (0.002 0 0)");
  }
}

TEST_CASE("the fingertip sensor plugin refuses a hand whose bodies disagree with its chains", "[hand]") {
  std::vector<std::string> lines(kGood.begin(), kGood.begin() + 56);  // without the pid and its actuator
  std::string xml = write_mjcf(parse_hand_spec(join(lines), "good.yaml"), "good.yaml");
  xml.insert(xml.rfind("<custom>"),
             "<extension><plugin plugin=\"mjhand.fingertip_kinematics\"><instance name=\"tips\">"
             "<config key=\"sensors\" value=\"tip\"/></instance></plugin></extension>"
             "<sensor><plugin name=\"tip\" instance=\"tips\" objtype=\"site\" objname=\"index_tip\"/></sensor>");
  CHECK(mjhand_test::attach_error(xml).empty());
  const std::string joint = "<joint name=\"thumb_j2\" type=\"slide\"";
  REQUIRE(xml.find(joint) != std::string::npos);
  xml.replace(xml.find(joint), joint.size(), joint + " ref=\"0.01\"");
  CHECK_THAT(mjhand_test::attach_error(xml), Contains("plugin instance 'tips'") && Contains("finger 'thumb': joint 'thumb_j2' has qpos0 = 0.01"));
}

TEST_CASE("actuator joints are resolved once, when parsed", "[hand]") {
  const HandSpec s = parse_hand_spec(join(kGood), "good.yaml");
  for (const ActuatorSpec& a : s.actuators) {
    REQUIRE(a.joint_refs.size() == a.joints.size());
    for (std::size_t i = 0; i < a.joints.size(); ++i) {
      const JointRef r = a.joint_refs[i];
      CHECK(joint_name(s.fingers[r.finger].name, r.link) == a.joints[i]);
      CHECK(&actuator_link(s, a, i) == &s.fingers[r.finger].links[r.link]);
      CHECK(find_joint(s, a.joints[i]).finger == r.finger);
      CHECK(find_joint(s, a.joints[i]).link == r.link);
    }
  }
  CHECK(s.actuators[1].joint_refs.at(0).finger == 1);
  CHECK(s.actuators[1].joint_refs.at(0).link == 0);
  CHECK(find_joint(s, "thumb_j3").finger == -1);

  // A spec edited in code whose refs no longer name the joints is refused, not written with the wrong ranges.
  HandSpec edited = s;
  edited.actuators[0].joint_refs.clear();
  CHECK_THROWS_AS(write_mjcf(edited, "edited.yaml"), std::invalid_argument);
  edited = s;
  edited.actuators[0].ctrl_from_joint_range = false;  // an explicit ctrlrange: its unit depends on the joint kind
  edited.actuators[0].ctrllimited = true;
  edited.actuators[0].joint_refs[0] = {1, 1};
  CHECK_THROWS_WITH(hand_spec_to_yaml(edited), Contains("'index_j1'"));
}

TEST_CASE("shared geometry helpers: link segments and quaternion signs", "[hand]") {
  const HandSpec s = parse_hand_spec(with_line(23, "      - a: 0\n        allow_zero_length: true"), "z.yaml");
  CHECK(link_to_next(s.convention, s.fingers[0], 1).translation().norm() < kZeroLinkLength);
  // |(0.02, 0, 0)| from a DH product: rounding
  CHECK(link_to_next(s.convention, s.fingers[0], 0).translation().norm() == Approx(0.02));
  // The last link ends at the tool point.
  const FingerSpec& thumb = s.fingers[1];
  Eigen::Isometry3d pre, post;
  dh_split(s.convention, thumb.links[1].dh, &pre, &post);
  // the same product of the same doubles: equal (1e-300 turns the strict < into equality)
  CHECK(same_pose(link_to_next(s.convention, thumb, 1), post * thumb.tool, 1e-300));

  const Eigen::Matrix3d r = Eigen::AngleAxisd(150 * kDeg, Eigen::Vector3d(-3, 1, 1).normalized()).toRotationMatrix();
  REQUIRE(Eigen::Quaterniond(r).w() < 0);  // the case the helper exists for
  const Eigen::Quaterniond q = canonical_quaternion(r);
  CHECK(q.w() >= 0);
  // quaternion -> matrix: rounding of a few O(1) products
  CHECK((q.toRotationMatrix() - r).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(kDeg == M_PI / 180.0);
}

TEST_CASE("a description path that is not a regular file is named as such", "[hand]") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK_THROWS_WITH(load_hand_spec(dir), Contains(dir) && Contains("is a directory") && !Contains("empty"));
  CHECK_THROWS_WITH(load_hand_spec("/nonexistent/hand.yaml"), Contains("no such file"));
}
