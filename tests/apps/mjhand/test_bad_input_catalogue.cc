// What mjhand does with bad input: one line per malformed input across every entry point (the real CLI binary, the
// files it reads, the library calls), each with the exact message (substrings naming what and where) or the
// documented safe result. docs/bad-input.md lists the same entries; the last test case keeps the two in step.
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_robustness.h>
#include <mjhand/grasp/force_closure_cost.h>
#include <mjhand/grasp/force_optimization.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/native/instances.h>
#include <mjhand/native/native_overrides.h>
#include <mjhand/host/registry.h>
#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/egrasp_ik.h>
#include <mjhand/kinematics/singularity.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::read_all;
using mjhand_test::run_cli;
using mjhand_test::source_path;

namespace {

// A command line: {S} is the source tree, {T} the folder with the fixture files written by write_fixtures.
struct CliEntry {
  const char* input;    // what is wrong (also the row in docs/bad-input.md)
  const char* command;  // mjhand arguments
  int status;           // exit status: 1 error, 2 bad command line, 0 safe result
  const char* expect1;  // substrings the output must contain ({T}, {S} expanded)
  const char* expect2;
};

// clang-format off
const CliEntry kCli[] = {
  // input                                    | command                                                             | status | expected message
  {"no subcommand",                             "",                                                                   2, "usage: mjhand <command>", ""},
  {"unknown subcommand",                        "frobnicate",                                                         2, "unknown command 'frobnicate'", ""},
  {"run: no model given",                       "run",                                                                2, "expected exactly one MODEL.xml", ""},
  {"run: unknown option",                       "run {S}/models/pid_finger.xml --durration 1",                       2, "unknown option '--durration'", ""},
  {"run: --duration nan",                       "run {S}/models/pid_finger.xml --duration nan",                      2, "option '--duration': 'nan' is not a finite number", ""},
  {"run: --duration inf",                       "run {S}/models/pid_finger.xml --duration inf",                      2, "option '--duration': 'inf' is not a finite number", ""},
  {"run: --log-every 0",                        "run {S}/models/pid_finger.xml --log-every 0",                       2, "option '--log-every': 0 is outside [1,", ""},
  {"run: --duration below one timestep",        "run {S}/models/pid_finger.xml --duration 1e-9",                     2, "--duration 1e-09 s is shorter than one timestep (0.001 s)", ""},
  {"run: --set without =",                      "run {S}/models/pid_finger.xml --set hold.kp",                       1, "--set hold.kp: 'hold.kp' is not of the form INSTANCE.KEY=VALUE", ""},
  {"run: --set of an unknown instance",         "run {S}/models/pid_finger.xml --set nosuch.kp=1",                   1, "--set nosuch.kp=1: no plugin instance named 'nosuch' in {S}/models/pid_finger.xml (instances: hold)", ""},
  {"run: --set value out of range",             "run {S}/models/pid_finger.xml --set hold.kp=-1",                    1, "pid_finger.xml:8: MuJoCo cannot load", "key 'kp' = '-1': value -1.000000 must lie in [0.000000, 10000000000.000000] (from --set hold.kp=-1)"},
  {"run: --set-file that does not exist",       "run {S}/models/pid_finger.xml --set-file {T}/none.txt",             2, "--set-file: cannot open '{T}/none.txt'", ""},
  {"run: unknown --keyframe",                   "run {S}/models/pid_finger.xml --keyframe nope",                     2, "--keyframe: no keyframe 'nope' in the model (it has no keyframes)", ""},
  {"run: --qpos of the wrong length",           "run {S}/models/pid_finger.xml --qpos 1,2",                          2, "--qpos has 2 values but the model has nq = 3", ""},
  {"run: --qpos with nan",                      "run {S}/models/pid_finger.xml --qpos nan,0,0",                      2, "--qpos: value 1 'nan' is not a finite number", ""},
  {"run: --qpos with inf",                      "run {S}/models/pid_finger.xml --qpos 0,inf,0",                      2, "--qpos: value 2 'inf' is not a finite number", ""},
  {"run: --keyframe and --qpos together",       "run {S}/models/pid_finger.xml --keyframe 0 --qpos 0,0,0",           2, "give --keyframe or --qpos, not both", ""},
  {"run: --out that cannot be created",         "run {S}/models/pid_finger.xml --duration 0.01 --out /proc/mjhand_x", 1, "--out '/proc/mjhand_x': cannot create the directory", ""},
  {"model file that does not exist",            "run {T}/none.xml",                                                   1, "{T}/none.xml: cannot open file", ""},
  {"model path that is a directory",            "run {T}",                                                            1, "{T}: is a directory, not an MJCF file", ""},
  {"model path that is a FIFO (would block)",   "run {T}/fifo.xml",                                                   1, "{T}/fifo.xml: is not a regular file (a FIFO, socket or device), not an MJCF file", ""},
  {"model path that is a device (/dev/zero)",   "run /dev/zero",                                                      1, "/dev/zero: is not a regular file (a FIFO, socket or device), not an MJCF file", ""},
  {"run: --set-file that is a device",          "run {S}/models/pid_finger.xml --set-file /dev/zero",                2, "--set-file: cannot read '/dev/zero': it is not a regular file", ""},
  {"model file that is not XML",                "run {S}/README.md",                                                  1, "README.md: MuJoCo cannot load it: XML parse error", ""},
  {"model MuJoCo rejects (unknown element)",    "run {T}/unknown_element.xml",                                        1, "unknown_element.xml: MuJoCo cannot load it: XML Error: Schema violation: unrecognized element", "'bodyy'"},
  {"keyframe with qpos = inf (run)",            "run {T}/key_inf.xml --keyframe bad --out {T}/o",                    1, "key_inf.xml: keyframe 'bad' (#0): qpos[0] = inf is not finite (joint 'j')", ""},
  {"keyframe with qvel = nan (run)",            "run {T}/key_inf.xml --keyframe badv --out {T}/o",                   1, "key_inf.xml: keyframe 'badv' (#1): qvel[0] = nan is not finite (joint 'j')", ""},
  {"keyframe with qpos = inf (analyze)",        "analyze {T}/key_inf.xml --keyframe bad",                            1, "key_inf.xml: keyframe 'bad' (#0): qpos[0] = inf is not finite (joint 'j')", ""},
  {"analyze: --qpos with nan",                  "analyze {S}/models/grasp_sensor_scene.xml --qpos nan",              2, "--qpos: value 1 'nan' is not a finite number", ""},
  {"analyze: unknown --object",                 "analyze {S}/models/grasp_sensor_scene.xml --object nosuch",         2, "--object: no body named 'nosuch' in the model", ""},
  {"analyze: negative --settle",                "analyze {S}/models/grasp_sensor_scene.xml --settle -1",             2, "option '--settle': -1 is outside [0,", ""},
  {"analyze: empty contact set (safe result)",  "analyze {S}/models/grasp_sensor_scene.xml",                         0, "contacts: 0", "no contact between the object 'ball' and the hand"},
  {"plugin config: type without mjhand. prefix", "run {T}/p_noprefix.xml",                                         1, "p_noprefix.xml: MuJoCo cannot load it: XML Error: plugin posture not found", "write plugin=\"mjhand.posture\""},
  {"plugin config: unknown type",               "run {T}/p_unktype.xml",                                              1, "plugin mjhand.postur not found", "(mjhand's plugins: mjhand.coil_actuator"},
  {"plugin config: unknown (misspelt) key",     "run {T}/p_unkkey.xml",                                               1, "unrecognized attribute 'plugin:taux' for plugin mjhand.posture", ""},
  {"plugin config: key given twice",            "run {T}/p_dupkey.xml",                                               1, "duplicate config key: tau", ""},
  {"plugin config: empty value",                "run {T}/p_emptyval.xml",                                             1, "p_emptyval.xml:5: MuJoCo cannot load {T}/p_emptyval.xml: Error: engine error: mjhand: plugin instance 'c' (type 'posture', <instance name=\"c\">): missing required key 'actuators'", ""},
  {"plugin config: nan value",                  "run {T}/p_nan.xml",                                                  1, "p_nan.xml:5: MuJoCo cannot load {T}/p_nan.xml: Error: engine error: mjhand: plugin instance 'c' (type 'posture', <instance name=\"c\">): key 'target' = 'nan': item 'nan' is not a finite number", ""},
  {"plugin config: value out of range",         "run {T}/p_range.xml",                                                1, "p_range.xml:5: MuJoCo cannot load {T}/p_range.xml: Error: engine error: mjhand: plugin instance 'c' (type 'posture', <instance name=\"c\">): key 'tau' = '-1': must lie in [1e-06, 1e+06]", ""},
  {"plugin config: object that does not exist", "run {T}/p_noobj.xml",                                                1, "p_noobj.xml:5: MuJoCo cannot load {T}/p_noobj.xml: Error: engine error: mjhand: plugin instance 'c' (type 'posture', <instance name=\"c\">): key 'actuators' = 'a9': no actuator named 'a9' in the model", ""},
  {"plugin config: list of the wrong length",   "run {T}/p_len.xml",                                                  1, "key 'target' = '0.5,0.1,0.2': needs 1 or 2 values (one per actuator), got 3", ""},
  {"plugin config: required key missing",       "run {T}/p_missing.xml",                                              1, "p_missing.xml:5: MuJoCo cannot load {T}/p_missing.xml: Error: engine error: mjhand: plugin instance 'c' (type 'posture', <instance name=\"c\">): missing required key 'target'", ""},
  {"plugin config: actuator bound to another instance", "run {T}/p_two.xml",                                          1, "p_two.xml:5: MuJoCo cannot load {T}/p_two.xml: Error: engine error: mjhand: plugin instance 'd' (type 'posture', <instance name=\"d\">): actuator 'a1' is neither bound to this instance", ""},
  {"plugin config: bound actuator not named",   "run {T}/p_unnamed.xml",                                              1, "plugin instance 'c' (type 'posture', <instance name=\"c\">): actuator 'a2' is bound to this instance, but its configuration does not name it", ""},
  {"plugin config: old callback-host declaration", "run {T}/p_legacy.xml",                                           1, "p_legacy.xml: <text name=\"mjhand:c\"> declares an mjhand plugin instance the old way; nothing would run it", "docs/native-plugins.md"},
  {"plugin config: <user> sensor nothing fills", "run {T}/p_user.xml",                                                1, "p_user.xml: sensor 'u' is a <user> sensor, which nothing fills", ""},
  {"plugin config: FK plugin, root not above the tip", "run {T}/p_fkroot.xml", 1, "p_fkroot.xml:5: MuJoCo cannot load {T}/p_fkroot.xml: Error: engine error: mjhand: plugin instance 's' (type 'fingertip_kinematics', <instance name=\"s\">): key 'sensors' = 'tip': sensor 'tip': no finger chain to its body 'l2': tree_chain: root body 'l2' is not an ancestor of the tip's body 'l2'", ""},
  {"hand description: YAML syntax error",       "make-hand {T}/bad_syntax.yaml -o {T}/o.xml",                        1, "bad_syntax.yaml:3:1: YAML syntax error", ""},
  {"hand description: empty file",              "make-hand {T}/empty.yaml -o {T}/o.xml",                             1, "empty.yaml:1:1: the description is empty", ""},
  {"hand description: file that does not exist", "make-hand {T}/none.yaml -o {T}/o.xml",                             1, "cannot open hand description {T}/none.yaml: no such file", ""},
  {"hand description: a FIFO",                  "make-hand {T}/fifo.xml -o {T}/o.xml",                               1, "cannot read hand description {T}/fifo.xml: it is not a regular file", ""},
  {"hand description: text for a number",       "make-hand {T}/spec_text.yaml -o {T}/o.xml",                         1, "spec_text.yaml:30:13: fingers[0].links[1].a: expected a number, got \"abc\"", ""},
  {"hand description: .nan for a number",       "make-hand {T}/spec_nan.yaml -o {T}/o.xml",                          1, "spec_nan.yaml:30:13: fingers[0].links[1].a: expected a finite number, got \".nan\"", ""},
  {"hand description: inverted joint range",    "make-hand {T}/spec_range.yaml -o {T}/o.xml",                        1, "fingers[0].links[0].range_deg: range is inverted or empty", ""},
  {"hand description: misspelt key",            "make-hand {T}/spec_typo.yaml -o {T}/o.xml",                         1, "fingers[0].links[0].alpha_deg: missing required key (found: a, alpah_deg", ""},
  {"make-hand: no -o",                          "make-hand {S}/models/egrasp_hand.yaml",                             2, "no output given", ""},
  {"scene: unknown object shape",               "make-scene {T}/scene_shape.yaml -o {T}/s.xml",                      1, "scene_shape.yaml:12:12: objects[0].shape: unknown shape \"torus\" (sphere, cylinder, box, mesh)", ""},
  {"scene: negative object size",               "make-scene {T}/scene_size.yaml -o {T}/s.xml",                       1, "scene_size.yaml:13:12: objects[0].size[0]: must be positive, got \"-0.03\"", ""},
  {"scene: infinite contact stiffness",         "make-scene {T}/scene_inf.yaml -o {T}/s.xml",                        1, "scene_inf.yaml:9:22: contact.stiffness: expected a finite number, got \".inf\"", ""},
  {"scene: hand description that does not exist", "make-scene {T}/scene_hand.yaml -o {T}/s.xml",                     1, "scene_hand.yaml:6:7: hand: no such hand description", ""},
  {"scenario: scene file that does not exist",  "scenario {T}/none.yaml --out {T}/o",                                1, "cannot read scene description {T}/none.yaml: no such file", ""},
  {"campaign: empty grid axis",                 "batch {T}/camp_grid.yaml --dry-run",                                1, "camp_grid.yaml:8:12: grid.density: expected a non-empty list of values", ""},
  {"campaign: model that does not exist",       "batch {T}/camp_model.yaml --dry-run",                               1, "camp_model.yaml:6:12: scenarios[0].model: cannot open model file '/nonexistent.xml'", ""},
  {"campaign: model that is a FIFO",            "batch {T}/camp_fifo.yaml --dry-run",                                1, "camp_fifo.yaml:6:12: scenarios[0].model: cannot read model file '{T}/fifo.xml': it is not a regular file", ""},
  {"campaign file that is a device",            "batch /dev/zero --dry-run",                                         1, "/dev/zero", "cannot read campaign file: it is not a regular file"},
  {"campaign: negative duration",               "batch {T}/camp_duration.yaml --dry-run",                            1, "camp_duration.yaml:3:11: duration: must be positive, got \"-1\"", ""},
  {"campaign: misspelt required key",           "batch {T}/camp_typo.yaml --dry-run",                                1, "camp_typo.yaml:1:1: duration: missing required key (found: name, output, duraton, scenarios)", ""},
  {"batch: --threads 0",                        "batch {T}/camp_typo.yaml --threads 0",                              2, "option '--threads': 0 is outside [1, 1024]", ""},
  {"batch: --shard I/N with I >= N",            "batch {T}/camp_typo.yaml --shard 3/2",                              2, "--shard 3/2: need N >= 1 and 0 <= I < N", ""},
  {"coupling CSV: text in a number column",     "fit-coupling {T}/text.csv",                                         1, "text.csv:3: 'y' is not a number: 'abc'", ""},
  {"coupling CSV: nan in a number column",      "fit-coupling {T}/nan.csv",                                          1, "nan.csv:2: 'y' is not a number: 'nan'", ""},
  {"coupling CSV: too few rows for the order",  "fit-coupling {T}/short.csv --order 3",                              1, "1 data points for an order-3 fit, which has 4 coefficients: need at least 4", ""},
  {"fit-coupling: --order out of range",        "fit-coupling {T}/short.csv --order 9",                              2, "option '--order': 9 is outside [1, 4]", ""},
  {"coupling CSV that is a device",             "fit-coupling /dev/zero",                                            1, "/dev/zero: cannot read the file: it is not a regular file", ""},
  {"plot: CSV that does not exist",             "plot {T}/none.csv --out {T}/p",                                     1, "{T}/none.csv: cannot open", ""},
  {"plot: CSV that is a device",                "plot /dev/zero --out {T}/p",                                        1, "/dev/zero: cannot read: it is not a regular file", ""},
  {"plot: rollout CSV with a text cell",        "plot {T}/cells.csv --out {T}/p",                                    1, "{T}/cells.csv:4: 'qpos:f1_j1' is not a number: 'abc'", ""},
  {"plot: rollout CSV with a short row",        "plot {T}/fields.csv --out {T}/p",                                   1, "{T}/fields.csv:3: expected 2 fields as in the header, got 1", ""},
  {"current-study: unknown --kt",               "current-study --kt cubic",                                          2, "--kt must be poly or sin2, not 'cubic'", ""},
  {"berul-poses: nan in --signals",             "berul-poses --signals 1,nan",                                       2, "--signals: 'nan' is not a number", ""},
};
// clang-format on

// A library call with bad or degenerate input: what it returns or throws, as text.
struct LibEntry {
  const char* input;
  const char* entry_point;
  std::function<std::string()> observe;
  const char* expect;  // substring of the observation
};

std::string thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
  return "no exception";
}

// DLS IK of the e_GRASP finger from the centre posture: status text plus whether q stayed finite.
std::string dls(const Eigen::Vector3d& target, DlsOptions options = {}) {
  const Chain c = egrasp_chain(EGraspFinger{});
  DlsWorkspace ws(c);
  double q[3] = {0.1, 0.2, 0.3};
  std::string out;
  try {
    out = to_string(dls_ik_position(c, target, q, ws, options).status);
  } catch (const std::exception& e) {
    out = std::string("threw: ") + e.what();
  }
  const bool finite = std::isfinite(q[0]) && std::isfinite(q[1]) && std::isfinite(q[2]);
  return out + (finite ? "; q finite" : "; q NOT finite");
}

std::string measures(const Eigen::MatrixXd& J) {
  const SingularityMeasures s = singularity_measures(J);
  return "rank " + std::to_string(s.rank) + ", valid " + (s.valid() ? "yes" : "no") + ", condition " +
         (std::isinf(s.condition) ? "inf" : std::isnan(s.condition) ? "nan" : "finite");
}

std::vector<LibEntry> library_entries() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const EGraspFinger f;
  const Wrench weight = (Wrench() << 0, 0, -1, 0, 0, 0).finished();
  const std::vector<Contact> none;
  const std::vector<Contact> one = {analytic_contact({0.03, 0, 0}, {-1, 0, 0}, ContactModel::kHardFinger, 0.8)};
  const double reach = f.l1 + f.l2 + f.l3;
  Eigen::MatrixXd straight(3, 3);  // e_GRASP position Jacobian at q = (0, 0, 0): links 2 and 3 aligned
  {
    const Chain c = egrasp_chain(f);
    ChainData d(c);
    const double q[3] = {0, 0, 0};
    fk_and_jacobian(c, q, d);
    straight = d.jacobian.topRows<3>();
  }
  Eigen::MatrixXd Jnan = straight;
  Jnan(1, 1) = nan;
  return {
      {"IK target beyond reach", "dls_ik_position", [=] { return dls({2 * reach, 0, 0}); }, "; q finite"},
      {"IK target NaN", "dls_ik_position", [=] { return dls({nan, 0, 0}); }, "invalid input (NaN/inf seed or target"},
      {"IK damping NaN", "dls_ik_position", [=] { DlsOptions o; o.damping = nan; return dls({0.05, 0, 0}, o); },
       "threw: DlsOptions::damping"},
      {"closed-form IK target beyond reach", "egrasp_ik_position",
       [=] { return std::string(to_string(egrasp_ik_position(f, {2 * reach, 0, 0}).status)); }, "target beyond reach"},
      {"closed-form IK target NaN", "egrasp_ik_position",
       [=] { return std::string(to_string(egrasp_ik_position(f, {nan, 0, 0}).status)); }, "invalid input"},
      {"singular Jacobian (straight finger)", "singularity_measures", [=] { return measures(straight); },
       "rank 2, valid yes, condition inf"},
      {"Jacobian with a NaN", "singularity_measures", [=] { return measures(Jnan); }, "rank -1, valid no"},
      {"empty contact set: quality", "grasp_quality",
       [=] {
         const GraspQuality q = grasp_quality(grasp_matrix(none, Eigen::Vector3d::Zero()), Eigen::MatrixXd(0, 3));
         return std::string("valid ") + (q.valid ? "yes" : "no") + ", sigma_min " + std::to_string(q.sigma_min_G);
       },
       "valid no, sigma_min 0.000000"},
      {"empty contact set: epsilon", "ferrari_canny",
       [=] { return std::string(to_string(ferrari_canny(none, Eigen::Vector3d::Zero()).status)); }, "no contacts"},
      {"empty contact set: forces for a weight", "optimal_forces",
       [=] { return std::string(to_string(optimal_forces(none, Eigen::MatrixXd(6, 0), weight).status)); },
       "infeasible"},
      {"one contact: rank-deficient G, epsilon", "ferrari_canny",
       [=] { return std::string(to_string(ferrari_canny(one, Eigen::Vector3d::Zero()).status)); },
       "span fewer than 6 dimensions"},
      {"friction coefficient NaN", "optimal_forces",
       [=] {
         std::vector<Contact> bad = one;
         bad[0].mu = nan;
         return std::string(to_string(optimal_forces(bad, grasp_matrix(one, Eigen::Vector3d::Zero()), weight).status));
       },
       "invalid"},
      {"complete-constraint contact: epsilon", "ferrari_canny",
       [=] {
         std::vector<Contact> welded = one;
         welded[0].model = ContactModel::kCompleteConstraint;
         return ferrari_canny(welded, Eigen::Vector3d::Zero()).message;
       },
       "contact 0 is a complete constraint: its moments have no friction limit"},
      {"complete-constraint contact: primitive wrenches", "primitive_wrenches",
       [=] {
         Contact welded = one[0];
         welded.model = ContactModel::kCompleteConstraint;
         Eigen::Matrix<double, 6, Eigen::Dynamic> out(6, 16);
         return thrown([&] { primitive_wrenches(welded, Eigen::Vector3d::Zero(), 8, 1.0, out); });
       },
       "threw: primitive_wrenches: a complete-constraint contact has no friction limit on its moments"},
      {"soft-finger contact: force-closure cost", "force_closure_cost",
       [=] {
         std::vector<Contact> soft = one;
         soft[0].model = ContactModel::kSoftFinger;
         return thrown([&] { force_closure_cost(soft, Eigen::VectorXd::Zero(4), VcostParams{}); });
       },
       "threw: force_closure_cost: contact 0 is a soft finger contact"},
      {"force-closure cost with k = 0", "force_closure_cost",
       [=] {
         VcostParams p;
         p.k = 0;
         return thrown([&] { force_closure_cost(one, Eigen::VectorXd::Zero(3), p); });
       },
       "threw: force_closure_cost: need a finite barrier k > 0"},
      {"one contact: weighted pseudo-inverse of G", "stiffness_weighted_pseudo_inverse",
       [=] {
         return thrown([&] {
           stiffness_weighted_pseudo_inverse(grasp_matrix(one, Eigen::Vector3d::Zero()), Eigen::MatrixXd::Identity(3, 3));
         });
       },
       "has rank 3 < 6"},
      {"PGR with more contacts than max_contacts", "potential_grasp_robustness",
       [=] {
         std::vector<Contact> nine(9, one[0]);
         return thrown([&] { potential_grasp_robustness(nine, QuasiStaticGrasp{}); });
       },
       "threw: potential_grasp_robustness: 9 contacts give 3^9 state combinations; max_contacts is 8"},
      {"null model", "InstanceList", [] { return thrown([] { InstanceList list(nullptr); }); },
       "threw: InstanceList: model is null"},
      {"override without =", "parse_override",
       [] { return thrown([] { parse_override("close.tau", "--set close.tau"); }); },
       "threw: --set close.tau: 'close.tau' is not of the form INSTANCE.KEY=VALUE"},
      {"plugin type name with a space", "register_plugin_type",
       [] { return thrown([] { register_plugin_type("bad name", "", nullptr); }); }, "may only hold letters"},
  };
}

std::string expand(std::string s, const std::string& tmp) {
  const std::pair<std::string, std::string> fields[] = {{"{S}", mjhand_test::source_dir()}, {"{T}", tmp}};
  for (const auto& [key, value] : fields) {
    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size())) {
      s.replace(at, key.size(), value);
    }
  }
  return s;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// `source` with the first `from` replaced by `to` (REQUIREs that `from` is there, so a fixture never goes stale).
std::string derived(const std::string& source, const std::string& from, const std::string& to) {
  std::string s = read_all(source_path(source));
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// Two hinges with plugin actuators a1, a2 bound to instance `bound`, a jointpos sensor q1, and the <extension>
// `plugins` on line 5, as the messages' FILE:5 expects.
std::string plugin_model(const std::string& plugins, const std::string& bound = "c",
                         const std::string& sensors = "<jointpos name=\"q1\" joint=\"j1\"/>") {
  return "<mujoco><worldbody><body name=\"l1\"><joint name=\"j1\" axis=\"0 1 0\"/>"
         "<geom type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.01\"/>\n"
         "<body name=\"l2\" pos=\"0.1 0 0\"><joint name=\"j2\" axis=\"0 1 0\"/>"
         "<geom type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.01\"/></body></body></worldbody>\n"
         "<actuator><plugin name=\"a1\" joint=\"j1\" instance=\"" + bound + "\"/><plugin name=\"a2\" joint=\"j2\" "
         "instance=\"" + bound + "\"/></actuator>\n"
         "<sensor>" + sensors + "</sensor>\n"
         "<extension>" + plugins + "</extension></mujoco>\n";
}

// One <plugin plugin="TYPE"><instance name="NAME"> with the "k=v k2=v2" keys as <config> elements.
std::string instance(const std::string& type, const std::string& name, const std::string& data) {
  std::string out = "<plugin plugin=\"" + type + "\"><instance name=\"" + name + "\">";
  std::istringstream in(data);
  for (std::string kv; in >> kv;) {
    const size_t eq = kv.find('=');
    out += "<config key=\"" + kv.substr(0, eq) + "\" value=\"" + kv.substr(eq + 1) + "\"/>";
  }
  return out + "</instance></plugin>";
}

void write_fixtures(const std::string& t) {
  const std::string posture = "actuators=all target=0.5 tau=0.1 kp=2";
  write(t + "/p_noprefix.xml", plugin_model(instance("posture", "c", posture)));
  write(t + "/p_unktype.xml", plugin_model(instance("mjhand.postur", "c", posture)));
  write(t + "/p_unkkey.xml", plugin_model(instance("mjhand.posture", "c", posture + " taux=1")));
  write(t + "/p_dupkey.xml", plugin_model(instance("mjhand.posture", "c", posture + " tau=0.2")));
  write(t + "/p_emptyval.xml", plugin_model(instance("mjhand.posture", "c", "actuators= target=0.5 tau=0.1 kp=2")));
  write(t + "/p_nan.xml", plugin_model(instance("mjhand.posture", "c", "actuators=all target=nan tau=0.1 kp=2")));
  write(t + "/p_range.xml", plugin_model(instance("mjhand.posture", "c", "actuators=all target=0.5 tau=-1 kp=2")));
  write(t + "/p_noobj.xml", plugin_model(instance("mjhand.posture", "c", "actuators=a9 target=0.5 tau=0.1 kp=2")));
  write(t + "/p_len.xml", plugin_model(instance("mjhand.posture", "c", "actuators=all target=0.5,0.1,0.2 kp=2")));
  write(t + "/p_missing.xml", plugin_model(instance("mjhand.posture", "c", "actuators=all tau=0.1 kp=2")));
  write(t + "/p_two.xml", plugin_model(instance("mjhand.posture", "c", posture) +
                                       instance("mjhand.posture", "d", "actuators=a1 target=0.5 kp=2")));
  write(t + "/p_unnamed.xml", plugin_model(instance("mjhand.posture", "c", "actuators=a1 target=0.5 kp=2")));
  write(t + "/p_legacy.xml", "<mujoco><worldbody><body><joint name=\"j\"/><geom size=\"0.01\"/></body></worldbody>"
                             "<custom><text name=\"mjhand:c\" data=\"type=posture actuators=all target=0\"/></custom>"
                             "</mujoco>\n");
  write(t + "/p_user.xml", "<mujoco><worldbody><body><joint name=\"j\"/><geom size=\"0.01\"/></body></worldbody>"
                           "<sensor><user name=\"u\" dim=\"1\" needstage=\"pos\"/></sensor></mujoco>\n");
  write(t + "/p_fkroot.xml", plugin_model(instance("mjhand.fingertip_kinematics", "s", "sensors=tip root=l2") +
                                                instance("mjhand.posture", "c", posture),
                                            "c", "<plugin name=\"tip\" instance=\"s\" objtype=\"body\" objname=\"l2\"/>"));
  write(t + "/unknown_element.xml", "<mujoco><worldbody><bodyy/></worldbody></mujoco>\n");
  write(t + "/key_inf.xml",
        "<mujoco><worldbody><body><joint name=\"j\" axis=\"0 1 0\"/>"
        "<geom type=\"capsule\" fromto=\"0 0 0 0.1 0 0\" size=\"0.01\"/></body></worldbody>\n"
        "<keyframe><key name=\"bad\" qpos=\"inf\"/><key name=\"badv\" qvel=\"nan\"/></keyframe></mujoco>\n");
  write(t + "/bad_syntax.yaml", "name: x\nfingers: [\n");
  write(t + "/empty.yaml", "");
  write(t + "/spec_text.yaml", derived("models/egrasp_hand.yaml", "{a: 0.045,", "{a: abc,"));
  write(t + "/spec_nan.yaml", derived("models/egrasp_hand.yaml", "{a: 0.045,", "{a: .nan,"));
  write(t + "/spec_range.yaml", derived("models/egrasp_hand.yaml", "range_deg: [-45, 45]}  # abduction",
                                        "range_deg: [45, -45]}  # abduction"));
  write(t + "/spec_typo.yaml", derived("models/egrasp_hand.yaml", "alpha_deg: 90,", "alpah_deg: 90,"));
  const std::string hand = "hand: ../gripper4x3.yaml", abs_hand = "hand: " + source_path("models/gripper4x3.yaml");
  const std::string scene = "models/scenarios/precision_sphere.yaml";
  const auto scene_with = [&](const std::string& from, const std::string& to) {
    std::string s = derived(scene, hand, abs_hand);
    const size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
  };
  write(t + "/scene_shape.yaml", scene_with("shape: sphere", "shape: torus"));
  write(t + "/scene_size.yaml", scene_with("size: [0.03]", "size: [-0.03]"));
  write(t + "/scene_inf.yaml", scene_with("stiffness: 1.0e5", "stiffness: .inf"));
  write(t + "/scene_hand.yaml", derived(scene, hand, "hand: ../nosuch.yaml"));
  const std::string model = source_path("models/campaigns/egrasp_scene_param.xml");
  const std::string head = "name: c\noutput: " + t + "/campaigns\n";
  write(t + "/camp_grid.yaml", head + "duration: 0.1\nscenarios:\n  - name: s\n    model: " + model +
                                   "\ngrid:\n  density: []\n");
  write(t + "/camp_model.yaml", head + "duration: 0.1\nscenarios:\n  - name: s\n    model: /nonexistent.xml\n");
  write(t + "/camp_duration.yaml", head + "duration: -1\nscenarios:\n  - name: s\n    model: " + model + "\n");
  write(t + "/camp_typo.yaml", head + "duraton: 1\nscenarios:\n  - name: s\n    model: " + model + "\n");
  write(t + "/text.csv", "x,y\n1,2\n2,abc\n");
  write(t + "/nan.csv", "x,y\n1,nan\n2,3\n3,4\n");
  write(t + "/short.csv", "x,y\n1,2\n");
  ::mkfifo((t + "/fifo.xml").c_str(), 0600);  // nothing ever writes to it: opening it for reading would block
  write(t + "/camp_fifo.yaml", head + "duration: 0.1\nscenarios:\n  - name: s\n    model: " + t + "/fifo.xml\n");
  write(t + "/cells.csv", "# mjhand rollout\ntime,qpos:f1_j1\n0,0.1\n0.001,abc\n");
  write(t + "/fields.csv", "time,qpos:f1_j1\n0,0.1\n0.001\n");
}
}  // namespace

TEST_CASE("bad-input catalogue: every command-line entry stops with its message, never a crash", "[bad_input]") {
  const std::string t = mjhand_test::fresh_temp_dir("bad_input");
  write_fixtures(t);
  STATIC_REQUIRE(sizeof(kCli) / sizeof(kCli[0]) >= 40);
  for (const CliEntry& e : kCli) {
    const mjhand_test::CliResult r = run_cli(expand(e.command, t));
    INFO(e.input << "\n  mjhand " << expand(e.command, t) << "\n  status " << r.status << ", output:\n" << r.output);
    CHECK(r.status == e.status);
    CHECK_THAT(r.output, Catch::Contains(expand(e.expect1, t)) && Catch::Contains(expand(e.expect2, t)));
    if (e.status != 0) {
      CHECK_THAT(r.output, !Catch::Contains("terminate called") && !Catch::Contains("Segmentation"));
    }
  }
}

TEST_CASE("bad-input catalogue: library calls give a clear error or a documented finite result", "[bad_input]") {
  for (const LibEntry& e : library_entries()) {
    const std::string seen = e.observe();
    INFO(e.input << " -> " << e.entry_point << ": " << seen);
    CHECK_THAT(seen, Catch::Contains(e.expect));
  }
}

TEST_CASE("bad-input catalogue: docs/bad-input.md lists every entry of the table", "[bad_input]") {
  const std::string doc = read_all(source_path("docs/bad-input.md"));
  REQUIRE_FALSE(doc.empty());
  for (const CliEntry& e : kCli) {
    INFO(e.input);
    CHECK_THAT(doc, Catch::Contains(std::string("| ") + e.input + " |"));
  }
  for (const LibEntry& e : library_entries()) {
    INFO(e.input);
    CHECK_THAT(doc, Catch::Contains(std::string("| ") + e.input + " | `" + e.entry_point + "`"));
  }
}
