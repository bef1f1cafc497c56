// `mjhand analyze` as a user runs it: the JSON parses and carries the library's G and J_H for the same state; every
// degenerate input gets the documented exit status and message and never a NaN or infinity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_robustness.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/manipulability.h>
#include <mjhand/native/instances.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>
#include <mjhand/util/dense_decompositions.h>
#include "moving_roots_hand.h"
#include "test_util.h"

using namespace mjhand;
using mjhand_test::run_cli;
using mjhand_test::source_path;

namespace {

// A minimal strict JSON reader, independent of the CLI's writer, so that "it parses" means something.
struct Json {
  enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  bool has(const std::string& k) const {
    for (const auto& m : members) {
      if (m.first == k) return true;
    }
    return false;
  }
  const Json& operator[](const std::string& k) const {
    for (const auto& m : members) {
      if (m.first == k) return m.second;
    }
    throw std::runtime_error("JSON has no key '" + k + "'");
  }
  const Json& operator[](size_t i) const { return items.at(i); }
  size_t size() const { return type == kArray ? items.size() : members.size(); }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  Json parse() {
    Json v = value();
    space();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    throw std::runtime_error("JSON error at offset " + std::to_string(i_) + ": " + why);
  }
  void space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool take(const char* word) {
    const size_t n = std::char_traits<char>::length(word);
    if (s_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }
  std::string str() {
    if (s_[i_] != '"') fail("expected a string");
    std::string out;
    for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_) {
      const char c = s_[i_];
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = s_.at(++i_);
      const std::map<char, char> simple{{'"', '"'}, {'\\', '\\'}, {'/', '/'}, {'b', '\b'},
                                        {'f', '\f'}, {'n', '\n'}, {'r', '\r'}, {'t', '\t'}};
      if (simple.count(e)) {
        out += simple.at(e);
      } else if (e == 'u') {
        out += static_cast<char>(std::stoi(s_.substr(i_ + 1, 4), nullptr, 16));  // tests only see ASCII escapes
        i_ += 4;
      } else {
        fail("bad escape");
      }
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  Json value() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.type = Json::kObject;
      ++i_;
      space();
      if (s_[i_] == '}') return ++i_, v;
      while (true) {
        space();
        std::string k = str();
        space();
        if (s_[i_++] != ':') fail("expected ':'");
        v.members.emplace_back(k, value());
        space();
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (s_[i_++] != '}') fail("expected ',' or '}'");
        return v;
      }
    }
    if (c == '[') {
      v.type = Json::kArray;
      ++i_;
      space();
      if (s_[i_] == ']') return ++i_, v;
      while (true) {
        v.items.push_back(value());
        space();
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (s_[i_++] != ']') fail("expected ',' or ']'");
        return v;
      }
    }
    if (c == '"') {
      v.type = Json::kString;
      v.string = str();
      return v;
    }
    if (take("true")) return v.type = Json::kBool, v.boolean = true, v;
    if (take("false")) return v.type = Json::kBool, v;
    if (take("null")) return v;
    // Numbers: JSON grammar only (no NaN, Infinity, hex, leading '+').
    const std::regex number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)");
    std::smatch mt;
    const std::string rest = s_.substr(i_, 40);
    if (!std::regex_search(rest, mt, number, std::regex_constants::match_continuous)) fail("bad value");
    v.type = Json::kNumber;
    v.number = std::strtod(mt.str().c_str(), nullptr);
    i_ += mt.length();
    return v;
  }
  const std::string& s_;
  size_t i_ = 0;
};

Json parse_json(const std::string& text) { return JsonParser(text).parse(); }

// True when the output shows a NaN or an infinity as a number ("nan", "inf", "-inf", "infinity"; not "L-inf").
bool shows_non_finite(const std::string& out) {
  static const std::regex bad(R"((^|[^A-Za-z0-9_-])-?(nan|inf|infinity)([^A-Za-z0-9_]|$))", std::regex::icase);
  return std::regex_search(out, bad);
}

constexpr double kBallR = 0.03;
constexpr double kTipR = 0.01;

// Fingers on slide joints from a static palm, tips touching a ball at the given azimuths on its equator (zero net
// force, no gravity: the state is what the test sets). Options: a welded ball, a second free ball resting on it, a
// grasp_analysis instance with `grasp` as its data, a keyframe "open" with every finger pulled back.
std::string pinch_model(const std::string& name, const std::vector<double>& azimuths, int condim, bool free_ball,
                        bool second_ball = false, const std::string& grasp = "") {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco><option timestep=\"0.002\" gravity=\"0 0 0\"/><worldbody><body name=\"palm\">";
  for (size_t i = 0; i < azimuths.size(); ++i) {
    const double a = azimuths[i] * M_PI / 180;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0);
    const Eigen::Vector3d p = Eigen::Vector3d(0, 0, 0.3) + (kBallR + kTipR - 2e-4) * u;
    x << "<body name=\"f" << i << "\" pos=\"" << p.transpose() << "\"><joint name=\"s" << i
      << "\" type=\"slide\" axis=\"" << (-u).transpose() << "\"/><geom name=\"tip" << i << "\" type=\"sphere\" size=\""
      << kTipR << "\" mass=\"0.01\" condim=\"" << condim << "\"/></body>";
  }
  x << "</body><body name=\"ball\" pos=\"0 0 0.3\">" << (free_ball ? "<freejoint/>" : "")
    << "<geom name=\"ball\" type=\"sphere\" size=\"" << kBallR << "\" mass=\"0.1\" condim=\"" << condim << "\"/></body>";
  if (second_ball) {
    x << "<body name=\"ball2\" pos=\"0 0 " << 0.3 + 2 * kBallR - 2e-4 << "\"><freejoint/><geom type=\"sphere\" size=\""
      << kBallR << "\" mass=\"0.1\"/></body>";
  }
  std::ostringstream key;  // MuJoCo counts a trailing space as one more value
  key.precision(17);
  for (size_t i = 0; i < azimuths.size(); ++i) key << (i ? " " : "") << -0.01;
  if (free_ball) key << " 0 0 0.3 1 0 0 0";
  if (second_ball) key << " 0 0 " << 0.3 + 2 * kBallR - 2e-4 << " 1 0 0 0";
  x << "</worldbody><keyframe><key name=\"open\" qpos=\"" << key.str() << "\"/></keyframe>";
  if (!grasp.empty()) {
    x << "<extension><plugin plugin=\"mjhand.grasp_analysis\"><instance name=\"g\">";
    std::istringstream in(grasp);
    for (std::string kv; in >> kv;) {
      const size_t eq = kv.find('=');
      if (kv.substr(0, eq) != "type") x << "<config key=\"" << kv.substr(0, eq) << "\" value=\"" << kv.substr(eq + 1) << "\"/>";
    }
    x << "</instance></plugin></extension><sensor><plugin name=\"g\" instance=\"g\"/></sensor>";
  }
  x << "</mujoco>";
  const std::string path = mjhand_test::fresh_temp_dir("analyze_" + name) + "/" + name + ".xml";
  std::ofstream(path) << x.str();
  return path;
}

// Runs analyze; the output never shows NaN or infinity.
mjhand_test::CliResult analyze(const std::string& args) {
  const mjhand_test::CliResult r = run_cli("analyze " + args);
  INFO("mjhand analyze " << args << "\n" << r.output);
  CHECK_FALSE(shows_non_finite(r.output));
  return r;
}

bool note_contains(const Json& j, const std::string& text) {
  for (const Json& n : j["notes"].items) {
    if (n.string.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("analyze --json parses and its G and J_H equal the library's for the same state", "[analyze]") {
  const std::string scene = source_path("models/grasp_sensor_scene.xml");
  const auto r = analyze(scene + " --settle 1 --json");
  REQUIRE(r.status == 0);
  const Json j = parse_json(r.output);
  CHECK(j["schema_version"].number == 2);
  CHECK(j["state"]["settle_steps"].number == 500);
  CHECK(j["object"]["body"].string == "ball");
  CHECK(j["object"]["free_joint"].boolean);
  CHECK(j["analysed"].boolean);
  const Json& contacts = j["contacts"];
  REQUIRE(contacts.size() == 4);
  CHECK(j["ignored_contacts"].size() == 1);  // the ball on the table
  CHECK(j["ignored_contacts"][0]["reason"].string.find("belongs to no finger") != std::string::npos);
  CHECK(j["hand"]["dofs"].size() == 12);

  // The same state in this process: load, forward, 500 steps, forward (what analyze does).
  auto m = mjhand_test::load_xml_file(scene);
  const InstanceList instances(m.get());
  auto d = mjhand_test::make_data(m.get());
  mj_forward(m.get(), d.get());
  for (int i = 0; i < 500; ++i) mj_step(m.get(), d.get());
  mj_forward(m.get(), d.get());
  const HandModel& hand = *grasp_analysis_hand(*instances.at("grasp").plugin);
  std::vector<Contact> all;
  all.reserve(64);
  collect_contacts(m.get(), d.get(), hand, all);
  REQUIRE(all.size() == 4);
  std::vector<Contact> ordered;  // in the order the JSON lists them
  for (const Json& c : contacts.items) {
    for (const Contact& k : all) {
      if (k.mj_contact == static_cast<int>(c["mj_index"].number)) ordered.push_back(k);
    }
  }
  REQUIRE(ordered.size() == 4);
  const Eigen::Vector3d p = object_center(d.get(), hand);
  const Eigen::MatrixXd G = grasp_matrix(ordered, p);
  const Eigen::MatrixXd JH = hand_jacobian(m.get(), d.get(), hand, ordered);
  const Json& jg = j["G"];
  REQUIRE(jg.size() == 6);
  double worst = 0;
  for (int r = 0; r < 6; ++r) {
    REQUIRE(jg[r].size() == static_cast<size_t>(G.cols()));
    for (int c = 0; c < G.cols(); ++c) worst = std::max(worst, std::abs(jg[r][c].number - G(r, c)));
  }
  const Json& jh = j["JH"];
  REQUIRE(jh.size() == static_cast<size_t>(JH.rows()));
  for (int r = 0; r < JH.rows(); ++r) {
    REQUIRE(jh[r].size() == 12);
    for (int c = 0; c < 12; ++c) worst = std::max(worst, std::abs(jh[r][c].number - JH(r, c)));
  }
  std::printf("[analyze] max |JSON - library| over G (6 x %d) and J_H (%d x 12): %.3g\n", static_cast<int>(G.cols()),
              static_cast<int>(JH.rows()), worst);
  // shortest round-trip JSON of the same functions on the same 500 steps: equal; 1e-12 ~ rounding of O(1) entries
  CHECK(worst < 1e-12);
  for (int k = 0; k < 3; ++k) CHECK(j["reference_m"][k].number == Approx(p(k)).margin(1e-15));  // the same double
  const GraspQuality q = grasp_quality(G, JH);
  CHECK(j["quality"]["sigma_min_G"].number == Approx(q.sigma_min_G).epsilon(1e-12));  // the same G: rounding at most
  CHECK(j["quality"]["rank_G"].number == 6);
  // The manipulability ellipsoids are the library's for the same G and J_H (tests/core/grasp/test_manipulability.cc checks the
  // library itself); JSON prints %.17g, so the numbers agree to rounding of the SVDs' order of operations.
  const Eigen::MatrixXd I12 = Eigen::MatrixXd::Identity(12, 12);
  const ManipulabilityEllipsoid ke = kinematic_manipulability(G, JH, I12);
  const ManipulabilityEllipsoid fe = force_manipulability(G, JH, I12);
  const Json& jm = j["manipulability"];
  REQUIRE(jm["kinematic"]["semi_axes"].size() == 6);
  for (int k = 0; k < 6; ++k) {
    CHECK(jm["kinematic"]["semi_axes"][k].number == Approx(ke.full.semi_axes(k)).margin(1e-12));
    if (std::isinf(fe.full.semi_axes(k))) {
      CHECK(jm["force"]["semi_axes"][k].type == Json::kNull);  // unbounded: JSON null
    } else {
      CHECK(jm["force"]["semi_axes"][k].number == Approx(fe.full.semi_axes(k)).epsilon(1e-12));
    }
  }
  for (int k = 0; k < 3; ++k) {
    CHECK(jm["kinematic"]["linear_semi_axes"][k].number == Approx(ke.linear.semi_axes(k)).margin(1e-12));
  }
  CHECK(jm["kinematic"]["indeterminate"].number == 0);
  CHECK(ke.full.semi_axes(0) > 0);
  CHECK(j["force_closure"].boolean);
  CHECK(j["epsilon"]["L1"]["epsilon"].number > 0);
  CHECK(j["epsilon"]["Linf"]["status"].string == "too_many_points");  // 4 soft fingers: 83521 points by default
  CHECK_THAT(j["epsilon"]["Linf"]["message"].string, Catch::Contains("needs 83521 Minkowski-sum points"));
  // The optimal forces hold the weight (0.05 kg) inside the cones.
  CHECK(j["optimal_forces"]["status"].string == "optimal");
  // GLPK's basis solve (rounding) plus the round-off entries of G it drops (< 1e-12 max|G| each, 16 columns, lambda
  // ~1 N: < 2e-11)
  CHECK(j["optimal_forces"]["wrench_residual"].number < 1e-9);
  // |f| <= sqrt(1 + mu^2) f_n with MuJoCo's default mu = 1: sum f_n >= W / sqrt 2 = 0.71 W > 0.5 W
  CHECK(j["optimal_forces"]["total_normal_force_N"].number > 0.05 * 9.81 * 0.5);
  CHECK(j["parallel"]["Jp"].size() == 16);
  CHECK(j["parallel"]["JTheta"].size() == 16);
  // J_Theta from MuJoCo's joint twists and J_p from the n, t, o screws reproduce the grasp side (section 2.3).
  // identical in exact arithmetic (section 2.3): rounding ~ eps cond(J_H) ~ 82 eps, measured 1.6e-15 (tests/python)
  CHECK(j["parallel"]["relative_residual"].number < 1e-12);
  CHECK(j["parallel"]["jtheta_vs_jh"].number < 1e-12);
  CHECK(j["parallel"]["jp_vs_gt"].number < 1e-12);
  // Robustness on the hard-finger rows: the Vcost forces balance the weight and, below 3/k^2, lie in the cones (both
  // checked here with G and the cone test of the hard-finger contacts); PCR equals the library's for those contacts.
  const Json& rb = j["robustness"];
  REQUIRE(rb["computed"].boolean);
  std::vector<Contact> hard = ordered;
  for (Contact& c : hard) c.model = ContactModel::kHardFinger;
  const Eigen::MatrixXd Gh = grasp_matrix(hard, p);
  Eigen::VectorXd lv(12);
  REQUIRE(rb["vcost_lambda"].size() == 12);
  for (int i = 0; i < 12; ++i) lv(i) = rb["vcost_lambda"][i].number;
  Wrench W;
  for (int i = 0; i < 6; ++i) W(i) = j["gravity_wrench"][i].number;
  CHECK((Gh * lv + W).norm() < 1e-9);  // printed with 17 digits; rounding of a 6 x 12 product
  CHECK(rb["vcost"].number < rb["vcost_threshold"].number);
  CHECK(in_friction_cones(hard, lv));
  RobustnessOptions o;
  const double pcr = potential_contact_robustness(
      hard, pseudo_inverse(Gh), controllable_internal_force_basis(Gh, hand_jacobian(m.get(), d.get(), hand, hard)), o);
  std::printf("[analyze] PCR from the CLI %.9g, from the library %.9g\n", rb["pcr"].number, pcr);
  CHECK(rb["pcr"].number == Approx(pcr).epsilon(1e-6));  // E's basis may differ by a rotation: Nelder-Mead f_tol 1e-12
}

TEST_CASE("analyze prints readable sections and answers --help", "[analyze]") {
  const auto r = analyze(source_path("models/grasp_sensor_scene.xml") + " --settle 1");
  REQUIRE(r.status == 0);
  for (const char* section : {"contacts: 4 between the object and the hand", "grasp matrix G (6 x 16)",
                              "hand Jacobian J_H (16 x 12)", "quality:", "mobility: Grubler", "force closure",
                              "epsilon L1 =", "min-norm lambda", "optimal (GLPK", "parallel manipulator", "notes:"}) {
    CHECK_THAT(r.output, Catch::Contains(section));
  }
  const auto h = run_cli("analyze --help");
  CHECK(h.status == 0);
  for (const char* opt :
       {"--keyframe", "--qpos", "--settle", "--object", "--json", "--linf-max-points", "--linf-time-limit"}) {
    CHECK_THAT(h.output, Catch::Contains(opt));
  }
  CHECK_THAT(run_cli("--help").output, Catch::Contains("analyze"));
}

TEST_CASE("analyze: degenerate grasps get an answer, not a NaN or a crash", "[analyze]") {
  SECTION("no contacts") {
    const auto r = analyze(source_path("models/grasp_sensor_scene.xml") + " --json");  // hand still open
    REQUIRE(r.status == 0);
    const Json j = parse_json(r.output);
    CHECK_FALSE(j["analysed"].boolean);
    CHECK(j["contacts"].size() == 0);
    CHECK(j["G"].size() == 6);
    CHECK(j["G"][0].size() == 0);
    CHECK(j["quality"].type == Json::kNull);
    CHECK(note_contains(j, "no contact between the object 'ball' and the hand"));
    const auto t = analyze(source_path("models/grasp_sensor_scene.xml"));
    CHECK_THAT(t.output, Catch::Contains("contacts: 0") && Catch::Contains("no contact between"));
  }
  SECTION("one contact: rank G = 3") {
    const auto r = analyze(pinch_model("one", {0}, 3, true) + " --json");
    REQUIRE(r.status == 0);
    const Json j = parse_json(r.output);
    CHECK(j["contacts"].size() == 1);
    CHECK(j["quality"]["rank_G"].number == 3);
    CHECK(j["quality"]["sigma_min_G"].number == 0);
    CHECK(j["epsilon"]["L1"]["status"].string == "rank_deficient");
    CHECK_FALSE(j["force_closure"].boolean);
    CHECK(j["mobility"]["indeterminate"].number == 3);
    CHECK(note_contains(j, "rank G = 3 < 6"));
    // uniformity of a singular H_O is infinite: written as null and explained.
    CHECK(j["quality"]["uniformity_HO"].type == Json::kNull);
    CHECK(note_contains(j, "quality.uniformity_HO is not finite"));
    const auto t = analyze(pinch_model("one", {0}, 3, true));
    CHECK_THAT(t.output, Catch::Contains("uniformity n/a"));
  }
  SECTION("two antipodal hard fingers: rank G = 5, not force closure") {
    const auto r = analyze(pinch_model("two", {0, 180}, 3, true) + " --json");
    REQUIRE(r.status == 0);
    const Json j = parse_json(r.output);
    CHECK(j["quality"]["rank_G"].number == 5);
    CHECK(j["mobility"]["internal_forces"].number == 1);
    CHECK_FALSE(j["force_closure"].boolean);
    CHECK(note_contains(j, "rank G = 5 < 6"));
  }
  SECTION("a contact on a link of no finger is listed as ignored") {
    const std::string model = pinch_model("nofinger", {0, 120, 240}, 3, true, false,
                                          "type=grasp_analysis object=ball sensor=g fingers=f0,f1");
    const auto r = analyze(model + " --json");
    REQUIRE(r.status == 0);
    const Json j = parse_json(r.output);
    CHECK(j["hand"]["fingers"].size() == 2);
    CHECK(j["contacts"].size() == 2);
    REQUIRE(j["ignored_contacts"].size() == 1);
    CHECK(j["ignored_contacts"][0]["other_body"].string == "f2");
    CHECK(j["ignored_contacts"][0]["reason"].string == "body 'f2' belongs to no finger");
    CHECK(j["object"]["source"].string == "object of grasp_analysis instance 'g'");
  }
  SECTION("an object without a free joint is analysed, with a note") {
    const auto r = analyze(pinch_model("welded", {0, 120, 240}, 3, false) + " --object ball --json");
    REQUIRE(r.status == 0);
    const Json j = parse_json(r.output);
    CHECK_FALSE(j["object"]["free_joint"].boolean);
    CHECK(j["contacts"].size() == 3);
    CHECK(j["quality"]["rank_G"].number == 6);
    CHECK(note_contains(j, "has no free joint"));
  }
  SECTION("keyframes by name and index") {
    const std::string model = pinch_model("key", {0, 120, 240}, 3, true);
    auto r = analyze(model + " --keyframe open --object ball --json");
    REQUIRE(r.status == 0);
    Json j = parse_json(r.output);
    CHECK(j["state"]["keyframe"].string == "open");
    CHECK(j["contacts"].size() == 0);  // fingers pulled back 1 cm
    r = analyze(model + " --keyframe 0 --object ball --json");
    REQUIRE(r.status == 0);
    CHECK(parse_json(r.output)["state"]["keyframe_index"].number == 0);
  }
}

TEST_CASE("analyze --linf-time-limit stops the L-infinity hull and says so", "[analyze]") {
  // The settled scene's four soft fingers with the budget raised: 83521 points, ~30 s of hull without the limit.
  const auto r = analyze(source_path("models/grasp_sensor_scene.xml") +
                         " --settle 1 --json --linf-max-points 100000 --linf-time-limit 0.2");
  REQUIRE(r.status == 0);
  const Json j = parse_json(r.output);
  const Json& linf = j["epsilon"]["Linf"];
  CHECK(linf["status"].string == "time_limit");
  CHECK(linf["epsilon"].number == 0);
  CHECK(linf["points"].number == 83521);
  CHECK_THAT(linf["message"].string, Catch::Contains("time limit (0.2 s") && Catch::Contains("--linf-time-limit"));
  CHECK(j["epsilon"]["L1"]["status"].string == "force_closure");  // the L1 epsilon is not affected
}

TEST_CASE("analyze: bad command lines exit 2 with a message naming the problem", "[analyze]") {
  const std::string scene = source_path("models/grasp_sensor_scene.xml");
  const std::string pinch = pinch_model("bad", {0, 120, 240}, 3, true);
  struct Bad {
    std::string args;
    int status;
    std::vector<std::string> expect;
  };
  const std::vector<Bad> bad = {
      {scene + " --keyframe grasped", 2, {"--keyframe: no keyframe 'grasped'", "it has no keyframes"}},
      {pinch + " --keyframe 3", 2, {"no keyframe '3'", "1 keyframe(s): open", "index 0..0"}},
      {scene + " --qpos 0,0,0", 2, {"--qpos has 3 values but the model has nq = 19"}},
      {scene + " --qpos 0,x", 2, {"--qpos: value 2 'x' is not a finite number"}},
      {scene + " --object nope", 2, {"--object: no body named 'nope'"}},
      {scene + " --object world", 2, {"the world body cannot be the object"}},
      {scene + " --keyframe 0 --qpos 1", 2, {"give --keyframe or --qpos, not both"}},
      {scene + " --settle -1", 2, {"'--settle'"}},
      {scene + " --linf-time-limit -1", 2, {"'--linf-time-limit'"}},
      {scene + " --linf-time-limit 1s", 2, {"'--linf-time-limit'"}},
      {scene + " --jsn", 2, {"unknown option '--jsn'"}},
      {"/nonexistent/model.xml", 1, {"/nonexistent/model.xml"}},
      {pinch_model("ambiguous", {0, 120, 240}, 3, true, true), 2,
       {"cannot choose the object: 2 free bodies touch something ('ball' 'ball2'); pass --object BODY"}},
      {pinch + " --keyframe open", 2, {"no free-jointed body touches anything", "--object BODY"}},
  };
  for (const Bad& b : bad) {
    const auto r = analyze(b.args);
    INFO(b.args << "\n" << r.output);
    CHECK(r.status == b.status);
    for (const std::string& e : b.expect) CHECK_THAT(r.output, Catch::Contains(e));
  }
}

namespace {
// A JSON array of rows as a matrix.
Eigen::MatrixXd json_matrix(const Json& rows) {
  Eigen::MatrixXd A(rows.size(), rows.size() > 0 ? rows[0].size() : 0);
  for (Eigen::Index a = 0; a < A.rows(); ++a)
    for (Eigen::Index b = 0; b < A.cols(); ++b) A(a, b) = rows[static_cast<size_t>(a)][static_cast<size_t>(b)].number;
  return A;
}
}  // namespace

TEST_CASE("analyze --contact-stiffness and --joint-stiffness report K_O = G K G^T of the printed G and J_H", "[analyze]") {
  const std::string scene = source_path("models/grasp_sensor_scene.xml");
  const auto r = analyze(scene + " --settle 1 --json --contact-stiffness 1000,400 --joint-stiffness 3");
  REQUIRE(r.status == 0);
  const Json j = parse_json(r.output);
  const Json& s = j["grasp_stiffness"];
  REQUIRE(s.has("KO"));
  CHECK(s["message"].string.empty());
  // Rebuild K_O from the JSON's own G and J_H with the documented row meaning (n: KN, t and o: KT, moments:
  // KR = KN * 1e-4 by default) and K = (K_c^-1 + J_H J_H^T / k_q)^-1, by an explicit inverse.
  const Eigen::MatrixXd G = json_matrix(j["G"]), JH = json_matrix(j["JH"]);
  const int m = static_cast<int>(JH.rows());
  Eigen::VectorXd kc(m);
  int row = 0;
  for (const Json& c : j["contacts"].items) {
    const int rows = static_cast<int>(c["rows"].number);
    for (int k = 0; k < rows; ++k) kc(row + k) = k == 0 ? 1000 : k < 3 ? 400 : 1000 * 1e-4;
    row += rows;
  }
  REQUIRE(row == m);
  const Eigen::MatrixXd C = Eigen::MatrixXd(kc.cwiseInverse().asDiagonal()) + JH * JH.transpose() / 3.0;
  const Eigen::MatrixXd KO = G * C.inverse() * G.transpose();
  const Json& jk = s["KO"];
  REQUIRE(jk.size() == 6);
  double worst = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) worst = std::max(worst, std::abs(jk[a][b].number - KO(a, b)));
  std::printf("[analyze] max |K_O JSON - rebuilt| = %.3g against max |K_O| = %.3g\n", worst, KO.cwiseAbs().maxCoeff());
  CHECK(worst < 1e-9 * KO.cwiseAbs().maxCoeff());  // rounding of two inversion routes (condition ~1e6: 1 vs 0.1 N m/rad)
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(KO).eigenvalues();
  REQUIRE(s["eigenvalues"].size() == 6);
  for (int a = 0; a < 6; ++a) CHECK(s["eigenvalues"][a].number == Approx(ev(a)).epsilon(1e-8));  // same rounding
  CHECK(ev(0) > 0);  // 4 soft fingers restrain every object motion
  // Text: the section is printed; without the options there is no stiffness in the JSON.
  CHECK_THAT(analyze(scene + " --settle 1 --contact-stiffness 1000").output, Catch::Contains("grasp stiffness K_O = G K G^T"));
  // Bad values exit 2 naming the option.
  const auto zero = analyze(scene + " --contact-stiffness 0");
  CHECK(zero.status == 2);
  CHECK_THAT(zero.output, Catch::Contains("--contact-stiffness: '0' is not a stiffness > 0"));
  const auto four = analyze(scene + " --contact-stiffness 1,2,3,4");
  CHECK(four.status == 2);
  CHECK_THAT(four.output, Catch::Contains("at most 3 values"));
  const auto neg = analyze(scene + " --joint-stiffness -3");
  CHECK(neg.status == 2);
  CHECK_THAT(neg.output, Catch::Contains("'--joint-stiffness'"));
}

namespace {

// A copy of models/DIR/FILE (with the files it includes, `includes`, from the same folder) in a fresh folder, with
// native grasp_analysis instances added: each {name, configuration "k=v ..."} with its sensor of the same name.
std::string with_grasp_sensors(const std::string& dir, const std::string& file, const std::vector<std::string>& includes,
                               const std::vector<std::pair<std::string, std::string>>& instances, const std::string& tag) {
  std::string xml = mjhand_test::read_all(source_path("models/" + dir + "/" + file));
  REQUIRE(!xml.empty());
  std::ostringstream inst, sensors;
  inst << "<plugin plugin=\"mjhand.grasp_analysis\">";
  for (const auto& [name, config] : instances) {
    inst << "<instance name=\"" << name << "\">";
    std::istringstream in(config);
    for (std::string kv; in >> kv;) {
      const size_t eq = kv.find('=');
      inst << "<config key=\"" << kv.substr(0, eq) << "\" value=\"" << kv.substr(eq + 1) << "\"/>";
    }
    inst << "</instance>";
    sensors << "<plugin name=\"" << name << "\" instance=\"" << name << "\"/>";
  }
  inst << "</plugin>";
  auto insert_into = [&](const std::string& element, const std::string& what) {
    const size_t close = xml.rfind("</" + element + ">");
    if (close != std::string::npos) {
      xml.insert(close, what);
    } else {
      xml.insert(xml.rfind("</mujoco>"), "<" + element + ">" + what + "</" + element + ">");
    }
  };
  insert_into("extension", inst.str());
  insert_into("sensor", sensors.str());
  const std::string out = mjhand_test::fresh_temp_dir("analyze_sensor_" + tag);
  std::ofstream(out + "/" + file) << xml;
  for (const std::string& f : includes) {
    std::ofstream(out + "/" + f) << mjhand_test::read_all(source_path("models/" + dir + "/" + f));
  }
  return out + "/" + file;
}

std::vector<double> sensor_of(const mjModel* m, const mjData* d, const char* name) {
  const int s = mj_name2id(m, mjOBJ_SENSOR, name);
  REQUIRE(s >= 0);
  return std::vector<double>(d->sensordata + m->sensor_adr[s], d->sensordata + m->sensor_adr[s] + m->sensor_dim[s]);
}

bool below(const mjModel* m, int body, int root) {
  for (int b = body; b > 0; b = m->body_parentid[b]) {
    if (b == root) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("grasp_analysis: its default hand is analyze's, palm contacts included, on the Allegro and a generated hand",
          "[analyze][grasp_sensor]") {
  struct Case {
    const char *dir, *file, *include, *palm, *state;
    int settle_steps;  // analyze's lround(settle / timestep)
  };
  // The Allegro grasp keyframe (no palm contact) and the generated power grasp after 0.2 s of closing (the
  // hand_closure plugin), when the ball also lies on the palm.
  const Case cases[] = {{"real", "allegro_scene.xml", "allegro_hand.xml", "base_link", "--keyframe grasp", 0},
                        {"scenarios", "power_sphere.xml", "", "palm", "--settle 0.2", 2000}};
  int palm_seen = 0;
  for (const Case& c : cases) {
    INFO(c.file);
    // Two sensors on the same run: the default, and palm contacts as frictionless points. Epsilon is evaluated at
    // the first and the last state only (a hull per step would cost seconds).
    const std::string every = " epsilon_every=" + std::to_string(std::max(1, c.settle_steps));
    const std::vector<std::string> includes = *c.include ? std::vector<std::string>{c.include} : std::vector<std::string>{};
    const std::string path = with_grasp_sensors(c.dir, c.file, includes,
                                                {{"ga", "object=ball sensor=ga epsilon=l1" + every},
                                                 {"gp", "object=ball sensor=gp epsilon=l1 palm_contact=pwof" + every}},
                                                std::string(c.file).substr(0, 8));
    // The same state here, on the copy with the sensors: forward, the settle steps, forward (what analyze does).
    auto m = mjhand_test::load_xml_file(path);
    auto d = mjhand_test::make_data(m.get());
    if (c.settle_steps == 0) mj_resetDataKeyframe(m.get(), d.get(), mj_name2id(m.get(), mjOBJ_KEY, "grasp"));
    mj_forward(m.get(), d.get());
    for (int i = 0; i < c.settle_steps; ++i) mj_step(m.get(), d.get());
    mj_forward(m.get(), d.get());

    // Independent count: MuJoCo's contacts (penetrating, so force-carrying) between the ball and the palm or a body
    // below it; which of them touch the palm body itself.
    const int ball = mj_name2id(m.get(), mjOBJ_BODY, "ball"), palm = mj_name2id(m.get(), mjOBJ_BODY, c.palm);
    int hand_contacts = 0, palm_contacts = 0;
    for (int i = 0; i < d->ncon; ++i) {
      const int b1 = m->geom_bodyid[d->contact[i].geom[0]], b2 = m->geom_bodyid[d->contact[i].geom[1]];
      if ((b1 != ball && b2 != ball) || d->contact[i].dist > 0) continue;
      const int other = b1 == ball ? b2 : b1;
      hand_contacts += below(m.get(), other, palm);
      palm_contacts += other == palm;
    }
    palm_seen += palm_contacts;
    // The former default (one finger per moving root) leaves the palm contacts out: what the sensor counted before.
    const HandModel old_hand = mjhand_test::hand_from_moving_roots(m.get(), ball);
    GraspData old(m.get(), old_hand, 64);
    compute_grasp(m.get(), d.get(), old_hand, old);
    CHECK(static_cast<int>(old.contacts.size()) == hand_contacts - palm_contacts);

    for (const char* palm_model : {"", "pwof"}) {
      INFO("palm contacts: " << (*palm_model ? palm_model : "from condim"));
      // analyze on the original model, which declares no grasp_analysis: it infers the hand itself.
      const auto r = analyze(source_path(std::string("models/") + c.dir + "/" + c.file) + " " + c.state +
                             (*palm_model ? std::string(" --palm-contact ") + palm_model : "") +
                             " --json --linf-max-points 1");
      REQUIRE(r.status == 0);
      const Json j = parse_json(r.output);
      CHECK(j["hand"]["source"].string.rfind("inferred", 0) == 0);
      const std::vector<double> v = sensor_of(m.get(), d.get(), *palm_model ? "gp" : "ga");
      REQUIRE(v.size() == 7);
      int json_palm = 0;
      for (const Json& k : j["contacts"].items) json_palm += k["finger"].string == "palm";
      CHECK(v[0] == hand_contacts);
      CHECK(j["contacts"].size() == static_cast<size_t>(hand_contacts));
      CHECK(json_palm == palm_contacts);
      const Json& q = j["quality"];
      // sigma_min from G G^T's eigenvalues (sensor) vs the SVD (analyze): ~eps cond(G)^2 relative, 1e-9.
      CHECK(v[1] == Approx(q["sigma_min_G"].number).epsilon(1e-9));
      CHECK(v[2] == Approx(q["isotropy_G"].number).epsilon(1e-9));
      // The LP and the hull decide alike off the boundary (tests above: their tolerances are < 3e-7).
      const Json& e1 = j["epsilon"]["L1"];
      REQUIRE(std::abs(e1["signed_margin"].number) > 1e-6);
      CHECK(v[3] == (j["force_closure"].boolean ? 1 : 0));
      // The same mj_contactForce values summed in another order: rounding on O(1..100) N.
      CHECK(v[4] == Approx(j["load"]["contact_normal_force_N"].number).epsilon(1e-12));
      // Same contacts, another column order (analyze lists palm contacts last): the hull's rounding.
      CHECK(v[6] == Approx(e1["epsilon"].number).epsilon(1e-9));
      std::printf("[grasp_sensor] %s, palm %s: %d contacts (%d on the palm; %d before), sigma_min %.6g, closure %g, "
                  "normal %.6g N, epsilon %.6g\n", c.file, *palm_model ? palm_model : "condim", static_cast<int>(v[0]),
                  palm_contacts, static_cast<int>(old.contacts.size()), v[1], v[3], v[4], v[6]);
    }
  }
  CHECK(palm_seen >= 1);  // the power grasp really has a palm contact, so the comparison covers them
}

TEST_CASE("grasp_analysis: with_wrist puts the Shadow hand's wrist joints into the hand analyze takes from it",
          "[analyze][grasp_sensor]") {
  const std::string path = with_grasp_sensors("real", "shadow_scene.xml", {"shadow_hand.xml"},
                                              {{"ga", "object=ball sensor=ga with_wrist=true"}}, "shadow");
  auto m = mjhand_test::load_xml_file(path);
  const InstanceList instances(m.get());
  const HandModel& hand = *grasp_analysis_hand(*instances.at("ga").plugin);
  // Independent: the model's own names. The palm is rh_palm; its wrist joints are rh_WRJ1 (on the palm) and rh_WRJ2.
  CHECK(hand.palm_body == mj_name2id(m.get(), mjOBJ_BODY, "rh_palm"));
  CHECK(hand.num_fingers() == 5);
  std::vector<int> wrist;
  for (const char* jn : {"rh_WRJ2", "rh_WRJ1"}) wrist.push_back(m->jnt_dofadr[mj_name2id(m.get(), mjOBJ_JOINT, jn)]);
  std::sort(wrist.begin(), wrist.end());
  CHECK(hand.wrist_dofs == wrist);
  for (int w : wrist) CHECK(std::find(hand.dofs.begin(), hand.dofs.end(), w) != hand.dofs.end());
  CHECK(hand.num_hand_dofs() == m->nv - 6);  // every dof but the ball's free joint: the 24 joints of the arm-less hand
  // analyze takes the instance's hand when no structure is given: J_H has the wrist columns.
  // (the keyframe presses ~75 object weights: the load warning on stderr would mix into the JSON)
  const auto r = analyze(path + " --keyframe grasp --json --linf-max-points 1 --force-warning-factor 1000");
  REQUIRE(r.status == 0);
  const Json j = parse_json(r.output);
  CHECK(j["hand"]["wrist_in_JH"].boolean);
  CHECK(j["hand"]["dofs"].size() == hand.dofs.size());
}

TEST_CASE("analyze --wrist-stiffness adds the base's spring J_w K_w^-1 J_w^T to the contact compliance", "[analyze][wrist]") {
  const std::string scene = source_path("models/grasp_sensor_scene.xml");
  const std::string base = scene + " --settle 1 --json --contact-stiffness 1000,400 --joint-stiffness 3";
  const auto r = analyze(base + " --wrist-stiffness 500,2");
  REQUIRE(r.status == 0);
  const Json j = parse_json(r.output);
  const Json& s = j["grasp_stiffness"];
  REQUIRE(s.has("KO"));
  CHECK(s["message"].string.empty());
  const Json& w = s["wrist_stiffness"];
  REQUIRE(w.size() > 0);
  CHECK(w["k"][0].number == 500);
  CHECK(w["k"][1].number == 2);
  const Eigen::Vector3d p(w["point_m"][0].number, w["point_m"][1].number, w["point_m"][2].number);
  // The base is the e_GRASP hand's fixed palm, at its place in the model (MuJoCo's xpos; the palm does not move).
  CHECK(w["body"].string == "palm");
  {
    mjhand::ModelPtr model = mjhand_test::load_xml_file(scene);
    mjhand::DataPtr data = mjhand_test::make_data(model.get());
    mj_forward(model.get(), data.get());
    const int palm = mj_name2id(model.get(), mjOBJ_BODY, "palm");
    REQUIRE(palm > 0);
    CHECK((p - Eigen::Map<const Eigen::Vector3d>(data->xpos + 3 * palm)).norm() < 1e-12);  // copied: rounding only
  }
  // Rebuild from the JSON: G, J_H, and J_w row by row from each contact's point and frame (a force row f . (v + w x
  // (c - p)) = [f, (c - p) x f] . (v, w); a moment row [0, axis]).
  const Eigen::MatrixXd G = json_matrix(j["G"]), JH = json_matrix(j["JH"]);
  const int m = static_cast<int>(JH.rows());
  Eigen::MatrixXd Jw = Eigen::MatrixXd::Zero(m, 6);
  Eigen::VectorXd kc(m);
  int row = 0;
  for (const Json& c : j["contacts"].items) {
    const int rows = static_cast<int>(c["rows"].number);
    auto vec = [&](const char* key) { return Eigen::Vector3d(c[key][0].number, c[key][1].number, c[key][2].number); };
    const Eigen::Vector3d axes[3] = {vec("n"), vec("t"), vec("o")};
    const Eigen::Vector3d arm = vec("point_m") - p;
    for (int k = 0; k < rows; ++k) {
      kc(row + k) = k == 0 ? 1000 : k < 3 ? 400 : 1000 * 1e-4;
      if (k < 3) {
        Jw.block<1, 3>(row + k, 0) = axes[k].transpose();
        Jw.block<1, 3>(row + k, 3) = arm.cross(axes[k]).transpose();
      } else {
        Jw.block<1, 3>(row + k, 3) = axes[k - 3].transpose();
      }
    }
    row += rows;
  }
  REQUIRE(row == m);
  Eigen::VectorXd cw(6);
  cw << 1.0 / 500, 1.0 / 500, 1.0 / 500, 0.5, 0.5, 0.5;
  const Eigen::MatrixXd C0 = Eigen::MatrixXd(kc.cwiseInverse().asDiagonal()) + JH * JH.transpose() / 3.0;
  const Eigen::MatrixXd C = C0 + Jw * cw.asDiagonal() * Jw.transpose();
  const Eigen::MatrixXd KO = G * C.inverse() * G.transpose();
  const double worst = (json_matrix(s["KO"]) - KO).cwiseAbs().maxCoeff();
  std::printf("[analyze] --wrist-stiffness: max |K_O JSON - rebuilt| = %.3g against max |K_O| = %.3g\n", worst,
              KO.cwiseAbs().maxCoeff());
  CHECK(worst < 1e-9 * KO.cwiseAbs().maxCoeff());  // rounding of two inversion routes, as in the case above
  // A compliant base makes the grasp softer in every direction (more compliance in series): K_O(wrist) <= K_O.
  const Eigen::MatrixXd KO0 = G * C0.inverse() * G.transpose();
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(KO0 - KO).eigenvalues()(0) > -1e-9 * KO0.norm());
  CHECK((KO0 - KO).norm() > 1e-3 * KO0.norm());  // and noticeably so with these values
  // Text and errors.
  CHECK_THAT(analyze(scene + " --settle 1 --contact-stiffness 1000 --wrist-stiffness 500,2").output,
             Catch::Contains("wrist: "));
  const auto one = analyze(scene + " --wrist-stiffness 500");
  CHECK(one.status == 2);
  CHECK_THAT(one.output, Catch::Contains("--wrist-stiffness: expected 2 values"));
  const auto both = analyze(scene + " --wrist-stiffness 500,2 --with-wrist");
  CHECK(both.status == 2);
  CHECK_THAT(both.output, Catch::Contains("not both"));
  // Two slide fingers straight on the world squeezing a ball: no base a wrist spring could hold.
  const std::string world = mjhand_test::fresh_temp_dir("analyze_world_fingers") + "/world_fingers.xml";
  std::ofstream(world) << "<mujoco><worldbody>"
                          "<body name=\"a\" pos=\"-0.03 0 0\"><joint type=\"slide\" axis=\"1 0 0\"/>"
                          "<geom type=\"box\" size=\"0.01 0.02 0.02\"/></body>"
                          "<body name=\"b\" pos=\"0.03 0 0\"><joint type=\"slide\" axis=\"1 0 0\"/>"
                          "<geom type=\"box\" size=\"0.01 0.02 0.02\"/></body>"
                          "<body name=\"ball\"><freejoint/><geom type=\"sphere\" size=\"0.021\"/></body>"
                          "</worldbody></mujoco>";
  const auto on_world = analyze(world + " --contact-stiffness 1000 --wrist-stiffness 500,2");
  CHECK(on_world.status == 2);
  CHECK_THAT(on_world.output, Catch::Contains("the fingers hang from the world"));
  CHECK(analyze(world + " --contact-stiffness 1000").status == 0);  // the same grasp analyses without the wrist
}
