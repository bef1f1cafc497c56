// mjhand batch engine: determinism across thread counts, resume after a stop, failed rollouts recorded while the
// others complete, atomic result files under injected write failures, unwritable output folders, shards + merge.
#include <catch2/catch.hpp>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "engine.h"
#include "plots.h"
#include "test_util.h"

namespace fs = std::filesystem;
using mjhand_test::read_all;
using mjhand_test::source_path;
using namespace mjhand::batch;

namespace {

// A small campaign on the parameterised e_GRASP scene (ball density and gravity substituted, the posture
// controller's tau overridden), written into `dir` with results under dir/out.
Campaign small_campaign(const std::string& dir, const std::string& grid, const std::string& extra = "") {
  const std::string yaml = "name: small\noutput: " + dir + "/out\nduration: 0.3\nsample_period: 0.01\n" + extra +
                           "scenarios:\n  - name: ball\n    model: " +
                           source_path("models/campaigns/egrasp_scene_param.xml") +
                           "\n    object: ball\n    init_noise: 0.01\ngrid:\n" + grid;
  return parse_campaign(yaml, dir + "/small.yaml", dir);
}

const char* kGrid = "  density: [700, 19250]\n  gravity_z: [-9.81]\n  close.tau: [0.1, 0.3]\n";

// Every file under dir (relative path -> content).
std::map<std::string, std::string> files_under(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = read_all(e.path().string());
  }
  return out;
}

// summary.csv rows by rollout id, split into fields.
std::map<std::string, std::vector<std::string>> summary_rows(const std::string& path, std::vector<std::string>& head) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  head = split_csv_line(line);
  std::map<std::string, std::vector<std::string>> out;
  while (std::getline(in, line)) {
    auto f = split_csv_line(line);
    out[f[0]] = f;
  }
  return out;
}

int column(const std::vector<std::string>& head, const std::string& name) {
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == name) return static_cast<int>(i);
  }
  FAIL("no column " << name);
  return -1;
}

}  // namespace

TEST_CASE("batch rollouts are bit-identical with 1 and 2 worker threads", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_determinism");
  Campaign c = small_campaign(dir, kGrid, "seeds: 2\n");
  BatchOptions one;
  one.threads = 1;
  c.output = dir + "/one";
  const BatchReport a = run_campaign(c, one);
  REQUIRE(a.io_error.empty());
  CHECK(a.ok == 8);
  BatchOptions two;
  two.threads = 2;
  c.output = dir + "/two";
  const BatchReport b = run_campaign(c, two);
  CHECK(b.ok == 8);
  CHECK(b.threads == 2);
  const auto fa = files_under(dir + "/one/small"), fb = files_under(dir + "/two/small");
  REQUIRE(fa.size() == 9);  // 8 rollouts + summary
  REQUIRE(fa.size() == fb.size());
  for (const auto& [name, content] : fa) {
    INFO(name);
    REQUIRE(fb.count(name));
    CHECK(content == fb.at(name));
  }
  // The parameters reached the model and the plugins, and the seed reached the initial state: results differ.
  std::vector<std::string> head;
  const auto rows = summary_rows(dir + "/one/small/summary.csv", head);
  REQUIRE(rows.size() == 8);
  const int z = column(head, "obj_z");
  CHECK(rows.at("ball_000_s0")[z] != rows.at("ball_002_s0")[z]);  // density 700 vs 19250
  CHECK(rows.at("ball_000_s0")[z] != rows.at("ball_000_s1")[z]);  // seed 0 vs 1
  CHECK(fa.at("rollouts/ball_000_s0.csv") != fa.at("rollouts/ball_001_s0.csv"));  // close.tau 0.1 vs 0.3
  // The same seed perturbs the two tau values alike (common random numbers): identical first rows of qpos.
  auto first_row = [](const std::string& text) {
    std::istringstream s(text);
    std::string line;
    while (std::getline(s, line) && (line[0] == '#' || line[0] == 't')) {
    }
    return line;
  };
  CHECK(first_row(fa.at("rollouts/ball_000_s1.csv")) == first_row(fa.at("rollouts/ball_001_s1.csv")));
  CHECK(first_row(fa.at("rollouts/ball_000_s0.csv")) != first_row(fa.at("rollouts/ball_000_s1.csv")));
}

TEST_CASE("batch resumes after a stop and ends with the files of an uninterrupted run", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_resume");
  Campaign c = small_campaign(dir, kGrid);
  c.output = dir + "/full";
  BatchOptions plain;
  plain.threads = 1;
  REQUIRE(run_campaign(c, plain).ok == 4);

  c.output = dir + "/resumed";
  std::atomic<bool> stop{false};
  BatchOptions opt;
  opt.threads = 1;
  opt.stop = &stop;
  opt.on_progress = [&](const Progress& p) {
    if (p.done == 2) stop = true;  // as the SIGINT handler does
  };
  const BatchReport first = run_campaign(c, opt);
  CHECK(first.stopped);
  CHECK(first.ok == 2);
  CHECK(first.pending == 2);
  CHECK(first.summary.ok == 2);
  CHECK(first.summary.missing == 2);
  CHECK(files_under(dir + "/resumed/small").size() == 3);  // 2 rollouts + summary, no .tmp
  for (const auto& [name, content] : files_under(dir + "/resumed/small")) CHECK(name.find(".tmp") == std::string::npos);

  stop = false;
  opt.on_progress = nullptr;
  const BatchReport second = run_campaign(c, opt);
  CHECK_FALSE(second.stopped);
  CHECK(second.skipped == 2);
  CHECK(second.ok == 2);
  CHECK(files_under(dir + "/resumed/small") == files_under(dir + "/full/small"));

  // A changed parameter changes the spec hash: only the rollouts it touches rerun.
  Campaign changed = small_campaign(dir, "  density: [700, 19250]\n  gravity_z: [-9.81]\n  close.tau: [0.1, 0.4]\n");
  changed.output = dir + "/resumed";
  const BatchReport third = run_campaign(changed, opt);
  CHECK(third.skipped == 2);
  CHECK(third.ok == 2);
}

TEST_CASE("batch records a diverging rollout and a model error with their reasons and completes the others", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_broken");
  const std::string yaml = "name: broken\noutput: " + dir + "/out\nduration: 0.3\n"
                           "scenarios:\n  - name: ball\n    model: " +
                           source_path("models/campaigns/egrasp_scene_param.xml") +
                           "\n    object: ball\n  - name: nokey\n    model: " +
                           source_path("models/campaigns/egrasp_scene_param.xml") +
                           "\n    keyframe: missing\ngrid:\n  density: [700]\n  gravity_z: [-9.81, -1e12, 0]\n";
  const Campaign c = parse_campaign(yaml, dir + "/broken.yaml", dir);
  BatchOptions opt;
  opt.threads = 2;
  const BatchReport rep = run_campaign(c, opt);
  CHECK(rep.ok == 2);
  CHECK(rep.failed == 4);  // the diverging one and the 3 of the scenario without its keyframe
  std::vector<std::string> head;
  const auto rows = summary_rows(dir + "/out/broken/summary.csv", head);
  REQUIRE(rows.size() == 6);
  const int status = column(head, "status"), reason = column(head, "reason"), t = column(head, "final_time");
  CHECK(rows.at("ball_000_s0")[status] == "ok");
  CHECK(rows.at("ball_002_s0")[status] == "ok");
  CHECK(std::stod(rows.at("ball_000_s0")[t]) == Approx(0.3));  // 150 steps of 2 ms, %.17g: rounding
  CHECK(rows.at("ball_001_s0")[status] == "failed");
  CHECK_THAT(rows.at("ball_001_s0")[reason], Catch::Contains("diverged") && Catch::Contains("qacc"));
  CHECK(std::stod(rows.at("ball_001_s0")[t]) < 0.3);
  CHECK(rows.at("nokey_001_s0")[status] == "failed");
  CHECK_THAT(rows.at("nokey_001_s0")[reason], Catch::Contains("model error") && Catch::Contains("keyframe 'missing'"));
  // The grasp metrics of a finished rollout are there; the ball rests on the table under gravity.
  const int z = column(head, "obj_z"), contacts = column(head, "contacts");
  // the ball rests on the 0.4-m table top; default soft contacts sink < 1 mm under its 0.45 N (0.7 mm at 1 N,
  // docs/parallel-manipulator.md); 5 mm tells that from a fall (0.4 m) or a lift
  CHECK(std::stod(rows.at("ball_000_s0")[z]) == Approx(0.425).margin(0.005));
  CHECK_FALSE(rows.at("ball_000_s0")[contacts].empty());
  // A rerun does not repeat deterministic failures; --retry-failed does.
  CHECK(run_campaign(c, opt).skipped == 6);
  opt.retry_failed = true;
  CHECK(run_campaign(c, opt).failed == 4);
}

TEST_CASE("batch result files appear only when complete, and a failed write stops the batch cleanly", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_atomic");
  Campaign c = small_campaign(dir, kGrid);
  BatchOptions opt;
  opt.threads = 1;
  int renames = 0;
  opt.hooks.before_rename = [&](const std::string& tmp, const std::string& path) {
    ++renames;
    CHECK_FALSE(fs::exists(path));            // the final name appears only by the rename
    CHECK(tmp == path + ".tmp");
    const std::string text = read_all(tmp);   // and the data are already complete under the temporary name
    CHECK(text.rfind("# mjhand batch rollout v2\n", 0) == 0);
    CHECK(text.back() == '\n');
  };
  int writes = 0;
  opt.hooks.fail_errno = [&](const std::string&) { return ++writes == 3 ? ENOSPC : 0; };
  const BatchReport rep = run_campaign(c, opt);
  CHECK(renames == 2);
  CHECK(rep.ok == 2);
  CHECK(rep.stopped);
  CHECK_THAT(rep.io_error, Catch::Contains("ball_") && Catch::Contains("No space left on device"));
  CHECK(rep.pending == 1);
  const auto files = files_under(dir + "/out/small");
  CHECK(files.size() == 3);  // two complete rollouts + a summary listing only those
  for (const auto& [name, content] : files) CHECK(name.find(".tmp") == std::string::npos);
  CHECK(rep.summary.ok == 2);
  CHECK(rep.summary.missing == 2);

  // Without the fault the rerun completes the campaign.
  BatchOptions again;
  again.threads = 2;
  const BatchReport fixed = run_campaign(c, again);
  CHECK(fixed.skipped == 2);
  CHECK(fixed.ok == 2);
  CHECK(fixed.summary.ok == 4);
}

TEST_CASE("batch refuses an output folder it cannot create or write", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_unwritable");
  std::ofstream(dir + "/afile") << "x";
  Campaign c = small_campaign(dir, kGrid);
  c.output = dir + "/afile/sub";  // under a regular file: fails even for root
  try {
    run_campaign(c, BatchOptions{});
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("output folder '" + dir + "/afile/sub/small/rollouts'") &&
                             Catch::Contains("cannot be created"));
  }
  CHECK_THROWS_WITH(ensure_writable_dir("/proc/mjhand-batch"), Catch::Contains("/proc/mjhand-batch"));
}

TEST_CASE("batch shards cover the campaign once and merge into the full summary", "[batch]") {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_shards");
  Campaign c = small_campaign(dir, kGrid, "seeds: [3, 4]\n");
  c.output = dir + "/full";
  BatchOptions opt;
  opt.threads = 2;
  REQUIRE(run_campaign(c, opt).ok == 8);
  std::set<std::string> seen;
  for (int i = 0; i < 3; ++i) {
    c.output = dir + "/shard" + std::to_string(i);
    opt.shard_index = i;
    opt.shard_count = 3;
    const BatchReport r = run_campaign(c, opt);
    CHECK(r.selected == (i < 2 ? 3 : 2));
    for (const auto& e : fs::directory_iterator(dir + "/shard" + std::to_string(i) + "/small/rollouts")) {
      CHECK(seen.insert(e.path().filename().string()).second);  // no rollout in two shards
      fs::create_directories(dir + "/merged/small/rollouts");
      fs::copy_file(e.path(), dir + "/merged/small/rollouts/" + e.path().filename().string());
    }
  }
  CHECK(seen.size() == 8);
  c.output = dir + "/merged";
  const MergeReport m = write_summary(c, c.results_dir(), expand_campaign(c));
  CHECK(m.ok == 8);
  CHECK(m.missing == 0);
  CHECK(read_all(dir + "/merged/small/summary.csv") == read_all(dir + "/full/small/summary.csv"));
  opt.shard_index = 3;
  CHECK_THROWS_WITH(run_campaign(c, opt), Catch::Contains("shard 3/3"));
}
