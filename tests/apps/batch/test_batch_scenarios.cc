// mjhand batch on the contact-rich grasp scenarios (the 4 x 3 gripper with contact_detection and hand_closure):
// determinism across thread counts with a broken rollout in the campaign, resume, readable contact columns that agree
// with the summary's contact sequence, object pose columns consistent with the free joint, plots, shipped campaigns.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "engine.h"
#include "plots.h"
#include "test_util.h"

namespace fs = std::filesystem;
using mjhand_test::read_all;
using mjhand_test::source_path;
using namespace mjhand::batch;

namespace {

// The paper's power grasp (free sphere, gravity off) with two seeds of +-1 mm on the sphere's start position and a
// density of -5 kg/m^3 that MuJoCo refuses to compile. 0.25 s: first contacts at ~0.09 s, the palm at ~0.13 s.
Campaign power_campaign(const std::string& dir) {
  const std::string yaml = "name: power\noutput: " + dir + "/out\nduration: 0.25\nsample_period: 0.0005\nseeds: 2\n"
                           "scenarios:\n  - name: power\n    model: " +
                           source_path("models/scenarios/power_sphere_batch.xml") +
                           "\n    object: ball\n    init_noise: 0.001\ngrid:\n  density: [700, 19250, -5]\n";
  return parse_campaign(yaml, dir + "/power.yaml", dir);
}

std::map<std::string, std::string> files_under(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = read_all(e.path().string());
  }
  return out;
}

struct Series {
  std::vector<std::string> head;
  std::vector<std::vector<double>> rows;
  std::map<std::string, std::string> meta;  // "# key: value" header lines
  int col(const std::string& name) const {
    for (std::size_t i = 0; i < head.size(); ++i) {
      if (head[i] == name) return static_cast<int>(i);
    }
    FAIL("no column " << name);
    return -1;
  }
};

Series parse_rollout(const std::string& text) {
  Series s;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && line[0] == '#') {
    const std::size_t colon = line.find(": ");
    if (colon != std::string::npos) s.meta[line.substr(2, colon - 2)] = line.substr(colon + 2);
  }
  s.head = split_csv_line(line);
  while (std::getline(in, line)) {
    std::vector<double> row;
    for (const std::string& f : split_csv_line(line)) row.push_back(std::stod(f));
    REQUIRE(row.size() == s.head.size());
    s.rows.push_back(std::move(row));
  }
  return s;
}

// summary.csv rows by id.
std::map<std::string, std::map<std::string, std::string>> summary(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  const auto head = split_csv_line(line);
  std::map<std::string, std::map<std::string, std::string>> out;
  while (std::getline(in, line)) {
    const auto f = split_csv_line(line);
    REQUIRE(f.size() == head.size());
    for (std::size_t i = 0; i < f.size(); ++i) out[f[0]][head[i]] = f[i];
  }
  return out;
}

}  // namespace

TEST_CASE("batch power-grasp campaign is bit-identical on 1 and 2 threads and completes around a broken rollout",
          "[batch][batch_scenarios]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_power_threads");
  Campaign c = power_campaign(dir);
  BatchOptions one, two;
  one.threads = 1;
  two.threads = 2;
  c.output = dir + "/one";
  const BatchReport a = run_campaign(c, one);
  c.output = dir + "/two";
  const BatchReport b = run_campaign(c, two);
  REQUIRE(a.io_error.empty());
  REQUIRE(b.io_error.empty());
  CHECK(a.ok == 4);
  CHECK(a.failed == 2);  // density -5, both seeds
  CHECK(b.ok == 4);
  CHECK(b.failed == 2);
  CHECK(b.threads == 2);
  const auto fa = files_under(dir + "/one/power"), fb = files_under(dir + "/two/power");
  REQUIRE(fa.size() == 7);  // 6 rollouts + summary
  REQUIRE(fa.size() == fb.size());
  for (const auto& [name, content] : fa) {
    INFO(name);
    REQUIRE(fb.count(name));
    CHECK(content == fb.at(name));
  }
  const auto rows = summary(dir + "/one/power/summary.csv");
  REQUIRE(rows.size() == 6);
  CHECK(rows.at("power_002_s0").at("status") == "failed");
  CHECK_THAT(rows.at("power_002_s1").at("reason"), Catch::Contains("model error") && Catch::Contains("mass"));
  // The seeds and the densities reached the simulation.
  CHECK(rows.at("power_000_s0").at("obj_x") != rows.at("power_000_s1").at("obj_x"));
  CHECK(rows.at("power_000_s0").at("obj_x") != rows.at("power_001_s0").at("obj_x"));
  for (const char* id : {"power_000_s0", "power_000_s1", "power_001_s0", "power_001_s1"}) {
    INFO(id);
    const auto& r = rows.at(id);
    CHECK(r.at("status") == "ok");
    // Fingers 2 and 4 stand closer to the sphere: their proximal phalanges touch first (the paper's Fig. 10).
    CHECK_THAT(r.at("contact_sequence"), Catch::StartsWith("f2_p1@") || Catch::StartsWith("f4_p1@"));
    CHECK_THAT(r.at("contact_sequence"), Catch::Contains("palm@"));
    CHECK(std::stoi(r.at("contacts")) >= 4);
    CHECK(std::stod(r.at("normal_force")) > 0);
  }
}

TEST_CASE("batch rollout CSV of a grasp scenario names every contact channel and agrees with the summary",
          "[batch][batch_scenarios]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_power_columns");
  Campaign c = power_campaign(dir);
  BatchOptions opt;
  opt.threads = 2;
  REQUIRE(run_campaign(c, opt).ok == 4);
  const auto rows = summary(dir + "/out/power/summary.csv");
  const Series s = parse_rollout(read_all(dir + "/out/power/rollouts/power_001_s1.csv"));
  REQUIRE(s.rows.size() > 400);
  // 4 fingers x 3 phalanges + palm, by name; the where-sensor by channel and component; no anonymous indices.
  std::vector<std::string> channels;
  for (const char* f : {"f1", "f2", "f3", "f4"}) {
    for (int k = 1; k <= 3; ++k) channels.push_back(std::string(f) + "_p" + std::to_string(k));
  }
  channels.push_back("palm");
  for (const std::string& ch : channels) {
    s.col("contact:" + ch);
    for (const char* k : {"px", "py", "pz", "nx", "ny", "nz"}) s.col("contact_where:" + ch + ":" + k);
  }
  for (const std::string& h : s.head) CHECK(h.find("sensor:contact") == std::string::npos);

  // The summary's contact sequence is the first logged time of each signal, up to one sample period (0.5 ms).
  std::istringstream seq(rows.at("power_001_s1").at("contact_sequence"));
  int listed = 0;
  for (std::string item; seq >> item; ++listed) {
    const std::size_t at = item.find('@');
    const std::string ch = item.substr(0, at);
    const double t = std::stod(item.substr(at + 1));
    const int col = s.col("contact:" + ch);
    double logged = -1;
    for (const auto& r : s.rows) {
      if (r[col] > 0.5) {
        logged = r[0];
        break;
      }
    }
    INFO(ch);
    CHECK(logged >= t - 5e-5);  // %.4f in the summary
    CHECK(logged <= t + 5e-4 + 5e-5);  // + one 0.5-ms sample period
  }
  int ever_on = 0;
  for (const std::string& ch : channels) {
    const int col = s.col("contact:" + ch);
    for (const auto& r : s.rows) {
      if (r[col] > 0.5) {
        ++ever_on;
        break;
      }
    }
  }
  CHECK(listed == ever_on);
  CHECK(ever_on >= 7);  // f2/f4 proximal and middle, f1/f3 middle, palm
  // The final state's signals (the detector's state at the end of the last step; the final mj_forward takes no
  // sample) match the last logged row.
  std::istringstream on(rows.at("power_001_s1").at("contact_signals"));
  int final_on = 0;
  for (std::string ch; on >> ch; ++final_on) CHECK(s.rows.back()[s.col("contact:" + ch)] == 1.0);
  int last_row_on = 0;
  for (const std::string& ch : channels) last_row_on += s.rows.back()[s.col("contact:" + ch)] > 0.5;
  CHECK(final_on == last_row_on);

  // Object columns: translation equals the free joint's, ZYX Euler angles reproduce the quaternion's rotation.
  const int x = s.col("object:x"), qx = s.col("qpos:ball_free[0]");
  double moved = 0;
  for (const auto& r : s.rows) {
    CHECK(r[x] == r[qx]);
    CHECK(r[x + 1] == r[qx + 1]);
    CHECK(r[x + 2] == r[qx + 2]);
    const double w = r[s.col("object:qw")], i = r[s.col("object:qx")], j = r[s.col("object:qy")],
                 k = r[s.col("object:qz")];
    // %.17g columns: the identities hold to rounding of a few products of unit-quaternion entries (~1e-16)
    const double rz = r[s.col("object:rz")], ry = r[s.col("object:ry")], rx = r[s.col("object:rx")];
    // R(q) entries against Rz(rz) Ry(ry) Rx(rx): R20 = -sin(ry), R10 = cos(ry) sin(rz), R21 = cos(ry) sin(rx).
    CHECK(2 * (i * k - w * j) == Approx(-std::sin(ry)).margin(1e-12));
    CHECK(2 * (i * j + w * k) == Approx(std::cos(ry) * std::sin(rz)).margin(1e-12));
    CHECK(2 * (j * k + w * i) == Approx(std::cos(ry) * std::sin(rx)).margin(1e-12));
    moved = std::max(moved, std::abs(r[x] - s.rows.front()[x]));
  }
  CHECK(moved > 0.003);  // the sphere is pushed toward fingers 1 and 3
  CHECK(std::abs(s.rows.back()[s.col("object:ry")]) > 1e-3);  // and rolls about y
}

TEST_CASE("batch power-grasp campaign resumes after a stop into the files of an uninterrupted run",
          "[batch][batch_scenarios]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_power_resume");
  Campaign c = power_campaign(dir);
  c.output = dir + "/full";
  BatchOptions plain;
  plain.threads = 2;
  REQUIRE(run_campaign(c, plain).failed == 2);

  c.output = dir + "/resumed";
  std::atomic<bool> stop{false};
  BatchOptions opt;
  opt.threads = 2;
  opt.stop = &stop;
  opt.on_progress = [&](const Progress& p) {
    if (p.done == 2) stop = true;  // as the SIGINT handler does; the other worker's rollout is abandoned
  };
  const BatchReport first = run_campaign(c, opt);
  CHECK(first.stopped);
  CHECK(first.ok + first.failed >= 2);
  CHECK(first.ok + first.failed < 6);
  for (const auto& [name, content] : files_under(dir + "/resumed/power")) CHECK(name.find(".tmp") == std::string::npos);
  stop = false;
  opt.on_progress = nullptr;
  const BatchReport second = run_campaign(c, opt);
  CHECK_FALSE(second.stopped);
  CHECK(second.skipped == first.ok + first.failed);
  CHECK(second.ok + second.failed + second.skipped == 6);
  CHECK(files_under(dir + "/resumed/power") == files_under(dir + "/full/power"));
}

TEST_CASE("batch plots of a grasp rollout label the contact channels and the campaign plot shows the final pose",
          "[batch][batch_scenarios]") {
  if (mjhand_test::skip_without(std::system("command -v gnuplot >/dev/null 2>&1") == 0, "gnuplot (Debian gnuplot-nox)")) {
    return;
  }
  const std::string dir = mjhand_test::fresh_temp_dir("batch_power_plots");
  Campaign c = power_campaign(dir);
  c.duration = 0.12;
  BatchOptions opt;
  opt.threads = 2;
  REQUIRE(run_campaign(c, opt).ok == 4);
  const auto pngs = plot_rollout(dir + "/out/power/rollouts/power_000_s0.csv", dir + "/plots");
  REQUIRE(pngs.size() == 3);  // joints, contacts, object
  const std::string gp = read_all(dir + "/plots/power_000_s0.gp");
  CHECK_THAT(gp, Catch::Contains("set multiplot layout 4,3"));  // fingers x phalanges
  CHECK_THAT(gp, Catch::Contains("'f1_p1' 18") && Catch::Contains("'palm' 0"));  // 13 labelled traces, 1.5 apart
  CHECK_THAT(gp, !Catch::Contains("contact_where"));
  for (const std::string& p : pngs) CHECK(read_all(p).rfind("\x89PNG", 0) == 0);
  const auto summary_pngs = plot_campaign(dir + "/out/power", dir + "/plots", "", {});
  CHECK(summary_pngs.size() == 7);  // 6 pose coordinates + both panels together
  CHECK(read_all(dir + "/plots/summary_pose_vs_density.png").rfind("\x89PNG", 0) == 0);
  CHECK_THAT(read_all(dir + "/plots/summary.gp"), Catch::Contains("set logscale x"));  // 700 .. 19250
}

TEST_CASE("shipped grasp campaigns load and expand with their grids", "[batch][batch_scenarios]") {
  const std::map<std::string, std::size_t> expected = {{"precision_grasps", 4}, {"power_density", 5},
                                                       {"power_density_gravity", 5}, {"two_objects", 2},
                                                       {"density_sweep", 10}, {"closure_gains", 12}};
  for (const auto& [name, n] : expected) {
    INFO(name);
    const Campaign c = load_campaign(source_path("models/campaigns/" + name + ".yaml"));
    CHECK(expand_campaign(c).size() == n);
    for (const Scenario& s : c.scenarios) CHECK(fs::exists(s.model_path));
  }
}

TEST_CASE("batch builds a scene-description model per grid value with the contact mapping of each density",
          "[batch][batch_scenarios]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_scene_model");
  auto campaign = [&](const std::string& model, const std::string& densities) {
    const std::string yaml = "name: c\noutput: " + dir + "/" + model + "\nduration: 0.05\nsample_period: 0.001\n"
                             "scenarios:\n  - name: power\n    model: " + source_path("models/scenarios/" + model) +
                             "\n    object: ball\ngrid:\n  density: " + densities + "\n";
    return parse_campaign(yaml, dir + "/c.yaml", dir);
  };
  const Campaign scene = campaign("power_sphere.yaml", "[700, 19250, -5]");
  const std::vector<RolloutSpec> specs = expand_campaign(scene);
  REQUIRE(specs.size() == 3);
  // The default density builds exactly the committed MJCF; another density its own solref: s0 = (1 - d) K / m with
  // m the sphere's mass, so s0 scales with 1 / density.
  CHECK(specs[0].model_error.empty());
  CHECK(specs[0].model_text == read_all(source_path("models/scenarios/power_sphere.xml")));
  auto s0 = [](const std::string& xml) {
    const std::size_t geom = xml.find("name=\"ball_geom\"");
    const std::size_t at = xml.find("solref=\"", geom);
    REQUIRE(at != std::string::npos);
    return -std::stod(xml.substr(at + 8));
  };
  CHECK_THAT(specs[1].model_text, Catch::Contains("density=\"19250\""));
  // solref printed exactly (format_exact): (1 - d) K / m at two masses, rounding; 1e-9 is loose
  CHECK(s0(specs[1].model_text) / s0(specs[0].model_text) == Approx(700.0 / 19250).epsilon(1e-9));
  CHECK(specs[2].model_text.find("<mujoco") == std::string::npos);
  CHECK_THAT(specs[2].model_error, Catch::Contains("power_sphere.yaml:") && Catch::Contains("objects[0].density"));

  BatchOptions opt;
  opt.threads = 2;
  const BatchReport rep = run_campaign(scene, opt);
  CHECK(rep.ok == 2);
  CHECK(rep.failed == 1);
  const auto rows = summary(dir + "/power_sphere.yaml/c/summary.csv");
  CHECK_THAT(rows.at("power_002_s0").at("reason"), Catch::StartsWith("model error: ") &&
                                                         Catch::Contains("objects[0].density"));
  // At the default density the description and the placeholder MJCF are the same model: identical time series.
  REQUIRE(run_campaign(campaign("power_sphere_batch.xml", "[700]"), opt).ok == 1);
  auto series = [](const std::string& text) { return text.substr(text.find("\ntime,")); };
  CHECK(series(read_all(dir + "/power_sphere.yaml/c/rollouts/power_000_s0.csv")) ==
        series(read_all(dir + "/power_sphere_batch.xml/c/rollouts/power_000_s0.csv")));
}
