// Campaign files (errors name FILE:LINE:COLUMN and the key), their expansion into rollouts, and the CLI front end:
// mjhand batch (--dry-run, --merge, SIGINT) and mjhand plot.
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "campaign.h"
#include <mjhand/hand/yaml_fields.h>
#include "plots.h"
#include "test_util.h"

namespace fs = std::filesystem;
using mjhand_test::read_all;
using mjhand_test::run_cli;
using mjhand_test::source_path;
using namespace mjhand::batch;

namespace {
const std::string kModel = "models/campaigns/egrasp_scene_param.xml";

// The error message of parsing `yaml` as FILE "c.yaml" with relative models resolved in the source tree, or "".
std::string campaign_error(const std::string& yaml) {
  try {
    parse_campaign(yaml, "c.yaml", source_path(""));
  } catch (const mjhand::SpecError& e) {
    return e.what();
  }
  return "";
}

std::string header(const std::string& grid = "  density: [700]\n  gravity_z: [0]\n") {
  return "name: t\nduration: 0.1\nscenarios:\n  - name: a\n    model: " + kModel + "\ngrid:\n" + grid;
}

bool is_png(const std::string& path) { return read_all(path).rfind("\x89PNG", 0) == 0; }
}  // namespace

TEST_CASE("campaign files with mistakes are refused with file, line, column and key", "[batch]") {
  CHECK(campaign_error(header()).empty());
  CHECK(campaign_error("name: t\nscenarios: []\n") == "c.yaml:1:1: duration: missing required key (found: name, scenarios)");
  CHECK(campaign_error(header() + "durration: 1\n").rfind("c.yaml:9:1: durration: unknown key", 0) == 0);
  CHECK_THAT(campaign_error("name: t\nduration: -1\nscenarios: []\n"),
             Catch::StartsWith("c.yaml:2:11: duration:") && Catch::Contains("must be positive"));
  CHECK_THAT(campaign_error(header("  density: [700]\n")),
             Catch::StartsWith("c.yaml:5:12: scenarios[0].model:") &&
                 Catch::Contains("egrasp_scene_param.xml:7 uses ${gravity_z}, which no grid parameter provides"));
  CHECK_THAT(campaign_error(header("  density: [700]\n  gravity_z: [0]\n  dens1ty: [1]\n")),
             Catch::StartsWith("c.yaml:9:12: grid.dens1ty:") && Catch::Contains("no scenario model contains ${dens1ty}"));
  CHECK_THAT(campaign_error(header("  density: []\n  gravity_z: [0]\n")),
             Catch::StartsWith("c.yaml:7:12: grid.density:") && Catch::Contains("non-empty list"));
  CHECK_THAT(campaign_error(header("  density: [700, 700]\n  gravity_z: [0]\n")),
             Catch::StartsWith("c.yaml:7:18: grid.density[1]:") && Catch::Contains("duplicate value '700'"));
  CHECK_THAT(campaign_error(header() + "seeds: 0\n"), Catch::StartsWith("c.yaml:9:8: seeds:"));
  CHECK_THAT(campaign_error(header() + "seeds: [1, x]\n"), Catch::StartsWith("c.yaml:9:12: seeds[1]:"));
  CHECK_THAT(campaign_error("name: t\nduration: 1\nscenarios:\n  - name: a\n    model: nothere.xml\n"),
             Catch::StartsWith("c.yaml:5:12: scenarios[0].model:") && Catch::Contains("cannot open model file"));
  CHECK_THAT(campaign_error("name: t\nduration: 1\nscenarios:\n  - name: a b\n    model: x.xml\n"),
             Catch::StartsWith("c.yaml:4:11: scenarios[0].name:"));
  CHECK_THAT(campaign_error(header() + "  - name: a\n    model: " + kModel + "\n"),
             Catch::StartsWith("c.yaml:9:3: YAML syntax error"));  // a list item where the grid mapping goes on
  CHECK_THAT(campaign_error("name: t\nduration: 1\nscenarios:\n  - name: a\n    model: " + kModel +
                            "\n    overrides: {tau: 1}\n"),
             Catch::StartsWith("c.yaml:6:22: scenarios[0].overrides.tau:") && Catch::Contains("INSTANCE.KEY"));
  CHECK_THAT(campaign_error("name: t\nduration: [1\n"), Catch::StartsWith("c.yaml:3:1: YAML syntax error"));
  CHECK_THAT(campaign_error(header("  density: [700]\n  gravity_z: [0]\n  seed: [1]\n")),
             Catch::Contains("grid.seed:") && Catch::Contains("reserved"));
}

TEST_CASE("campaigns expand into the cartesian product of the grid times the seeds", "[batch]") {
  const Campaign c = parse_campaign(header("  density: [160, 700, 2300]\n  gravity_z: [0, -9.81]\n  close.tau: [0.2]\n") +
                                        "seeds: 2\n",
                                    "c.yaml", source_path(""));
  const auto specs = expand_campaign(c);
  REQUIRE(specs.size() == 12);
  CHECK(specs[0].id == "a_000_s0");
  CHECK(specs[1].id == "a_000_s1");
  CHECK(specs[2].id == "a_001_s0");
  CHECK(specs[2].params[0].second == "160");
  CHECK(specs[2].params[1].second == "-9.81");  // the last parameter varies fastest
  CHECK(specs[11].params[0].second == "2300");
  CHECK(specs[0].variant_key == specs[1].variant_key);  // seeds share the compiled model
  CHECK(specs[0].variant_key != specs[2].variant_key);
  CHECK(specs[0].hash != specs[1].hash);
  CHECK(specs[2].model_text.find("gravity=\"0 0 -9.81\"") != std::string::npos);
  CHECK(specs[2].model_text.find("density=\"160\"") != std::string::npos);
  CHECK(specs[2].model_text.find("${") == std::string::npos);
  REQUIRE(specs[2].overrides.size() == 1);
  CHECK(specs[2].overrides[0] == std::make_pair(std::string("close.tau"), std::string("0.2")));
  std::set<std::string> hashes;
  for (const auto& s : specs) hashes.insert(s.hash);
  CHECK(hashes.size() == 12);
  CHECK(substitute("a${x}b${y}${z", {{"x", "1"}, {"y", "2"}}) == "a1b2${z");
  CHECK(hash_hex("") == "cbf29ce484222325");  // FNV-1a 64 offset basis: the published test vector
  CHECK(hash_hex("a") == "af63dc4c8601ec8c");
}

TEST_CASE("mjhand batch lists, runs, merges and stops on SIGINT leaving a resumable campaign", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_cli");
  const std::string campaign = dir + "/c.yaml";
  std::ofstream(campaign) << "name: cli\noutput: " << dir << "/out\nduration: 0.2\nsample_period: 0.02\n"
                          << "scenarios:\n  - name: ball\n    model: " << source_path(kModel)
                          << "\n    object: ball\ngrid:\n  density: [160, 19250]\n  gravity_z: [-9.81]\n";
  auto r = run_cli("batch " + campaign + " --dry-run");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("ball_001_s0") && Catch::Contains("to-run") &&
                           Catch::Contains("density=19250") && Catch::Contains("2 rollouts (0 done, 2 to run)"));
  r = run_cli("batch " + campaign + " --threads 2");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("[2/2]") && Catch::Contains("2 with a result (2 ok, 0 failed)"));
  r = run_cli("batch " + campaign + " --dry-run");
  CHECK_THAT(r.output, Catch::Contains("2 rollouts (2 done, 0 to run)"));
  fs::remove(dir + "/out/cli/rollouts/ball_000_s0.csv");
  r = run_cli("batch " + campaign + " --merge");
  CHECK(r.status == 4);
  CHECK_THAT(r.output, Catch::Contains("1 of 2 rollouts") && Catch::Contains("1 missing"));
  r = run_cli("batch " + campaign + " --shard 2/2");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--shard 2/2"));

  // SIGINT while running: exit status 3, no partial file, a message saying how many are done.
  const std::string slow = dir + "/slow.yaml";
  std::ofstream(slow) << "name: slow\noutput: " << dir << "/out\nduration: 4\nsample_period: 0.5\nseeds: 200\n"
                      << "scenarios:\n  - name: ball\n    model: " << source_path(kModel)
                      << "\n    init_noise: 0.001\ngrid:\n  density: [700]\n  gravity_z: [-9.81]\n";
  r = run_cli("batch " + slow + " --threads 1 2>&1 & pid=$!; sleep 1.5; kill -INT $pid; wait $pid; echo status=$?");
  CHECK_THAT(r.output, Catch::Contains("interrupted:") && Catch::Contains("rerun the same command to resume") &&
                           Catch::Contains("status=3"));
  int complete = 0;
  for (const auto& e : fs::directory_iterator(dir + "/out/slow/rollouts")) {
    CHECK(e.path().extension() == ".csv");
    ++complete;
  }
  CHECK(complete < 200);
  CHECK_THAT(r.output, Catch::Contains("interrupted: " + std::to_string(complete) + " of 200"));
}

TEST_CASE("mjhand plot draws a rollout and a campaign summary with gnuplot", "[batch]") {
  if (mjhand_test::skip_without(std::system("command -v gnuplot >/dev/null 2>&1") == 0, "gnuplot (Debian gnuplot-nox)")) {
    return;
  }
  const std::string dir = mjhand_test::fresh_temp_dir("batch_plot");
  const std::string campaign = dir + "/c.yaml";
  std::ofstream(campaign) << "name: p\noutput: " << dir << "/out\nduration: 0.2\nsample_period: 0.02\n"
                          << "scenarios:\n  - name: ball\n    model: " << source_path(kModel)
                          << "\n    object: ball\ngrid:\n  density: [160, 2300, 19250]\n  gravity_z: [0]\n";
  REQUIRE(run_cli("batch " + campaign + " --quiet").status == 0);
  auto r = run_cli("plot " + dir + "/out/p/rollouts/ball_001_s0.csv --out " + dir + "/plots");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(is_png(dir + "/plots/ball_001_s0_joints.png"));
  CHECK(is_png(dir + "/plots/ball_001_s0_object.png"));
  r = run_cli("plot " + dir + "/out/p --out " + dir + "/plots");
  CHECK(r.status == 0);
  CHECK(is_png(dir + "/plots/summary_obj_z_vs_density.png"));
  const std::string dat = read_all(dir + "/plots/summary_obj_z_vs_density.dat");
  CHECK(std::count(dat.begin(), dat.end(), '\n') == 5);  // 3 points + the block separator
  r = run_cli("plot " + dir + "/out/p --out " + dir + "/plots --y nosuch");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("no column 'nosuch'"));
  r = run_cli("plot " + campaign + " --out " + dir + "/plots");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("not a rollout time series"));
}
