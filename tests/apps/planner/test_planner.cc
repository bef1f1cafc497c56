// The grasp planner (apps/planner, `mjhand plan`, docs/planner.md): the annealing formulas against their closed forms,
// determinism across thread counts, a tiny planning run whose best grasp an independent re-simulation confirms, and
// bad options.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>
#include <mjhand/grasp/force_closure_lp.h>

#include "annealing.h"
#include "grasp_planner.h"
#include "test_util.h"

using Catch::Matchers::Contains;
using mjhand_test::fresh_temp_dir;
using mjhand_test::read_all;
using mjhand_test::run_cli;
using mjhand_test::source_path;
namespace planner = mjhand::planner;

namespace {

// Splits one CSV line (no quoting in the planner's CSV).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string f;
  while (std::getline(s, f, ',')) out.push_back(f);
  return out;
}

int column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  FAIL("no column " << name);
  return -1;
}

}  // namespace

TEST_CASE("planner: Ingber schedule, neighbour distribution and Metropolis acceptance follow their formulas",
          "[planner]") {
  // Acceptance: 1 for a lower energy, exp((e_old - e_new) / T) otherwise; exp(-1) = 0.36787944117144233 (Python).
  CHECK(planner::acceptance_probability(0.5, 0.2, 0.3) == 1.0);
  CHECK(planner::acceptance_probability(0.2, 0.5, 0.3) == Approx(0.36787944117144233).epsilon(1e-14));  // rounding
  CHECK(planner::acceptance_probability(0.2, 0.2, 0.3) == 1.0);  // exp(0): equal energies always accepted
  // Ingber cooling T0 exp(-c k^(1/d)): k = 0 gives T0; T0 = 10, c = 0.72, k = 16, d = 2: 10 exp(-2.88) (Python).
  CHECK(planner::ingber_temperature(10, 0.72, 0, 2) == 10.0);
  CHECK(planner::ingber_temperature(10, 0.72, 16, 2) == Approx(0.5613476283413372).epsilon(1e-14));  // rounding
  // Neighbour y(u) = sign(u - 1/2) T ((1 + 1/T)^|2u-1| - 1): -1 at u = 0, 0 at u = 1/2.
  CHECK(planner::ingber_neighbour(0.05, 0.0) == Approx(-1.0).epsilon(1e-14));  // rounding of pow
  CHECK(planner::ingber_neighbour(0.05, 0.5) == 0.0);
  // Its distribution, from inverting y(v) with v uniform: P(|y| <= Y) = log(1 + Y/T) / log(1 + 1/T);
  // T = 0.05, Y = 0.1: log 3 / log 21 = 0.3608488 (Python). 20000 draws of the planner's own random stream.
  planner::Rng rng(7, 3);
  const int n = 20000;
  int inside = 0;
  double mean = 0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    mean += u / n;
    if (std::fabs(planner::ingber_neighbour(0.05, u)) <= 0.1) ++inside;
  }
  // Binomial standard deviation sqrt(0.36 * 0.64 / 20000) = 0.0034: 0.015 is 4.4 sigma.
  CHECK(static_cast<double>(inside) / n == Approx(0.3608488067145302).margin(0.015));
  // Uniform mean 1/2, standard deviation of the mean sqrt(1/12/20000) = 0.002: 0.01 is 5 sigma.
  CHECK(mean == Approx(0.5).margin(0.01));
}

TEST_CASE("planner: the same seed gives the same ranked CSV with 1 and 2 threads", "[planner]") {
  const mjhand::SceneSpec spec = mjhand::load_scene_spec(source_path("models/planner/gripper_sphere.yaml"));
  const mjhand::BuiltScene built = mjhand::build_scene(spec);
  const mjModel* m = built.model.get();
  planner::PlanProblem p = planner::default_problem(m, "object", planner::scene_closure_increments(m, spec));
  p.duration = 0.05;  // 500 steps a candidate: enough to reach contacts, keeps the test short
  planner::PlanOptions o;
  o.samples = 6;
  o.chains = 2;
  o.steps = 3;
  o.seed = 11;
  o.jobs = 1;
  const std::string one = planner::ranked_csv(m, p, planner::plan_grasps(m, p, o));
  o.jobs = 2;
  const std::string two = planner::ranked_csv(m, p, planner::plan_grasps(m, p, o));
  CHECK(one == two);
  CHECK(std::count(one.begin(), one.end(), '\n') == 1 + 6 + 2 * 3);  // header + every evaluation
  o.seed = 12;
  CHECK(planner::ranked_csv(m, p, planner::plan_grasps(m, p, o)) != one);  // the seed matters
}

TEST_CASE("planner: a tiny run finds a force-closure grasp of a sphere that re-simulating its saved start confirms",
          "[planner]") {
  const std::string out = fresh_temp_dir("planner_sphere");
  const auto r = run_cli("plan " + source_path("models/planner/gripper_sphere.yaml") +
                         " --samples 8 --chains 1 --steps 2 --jobs 2 --seed 1 --quiet --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);  // 0: a force-closure grasp was found
  std::ifstream csv(out + "/ranked.csv");
  std::string header_line, best_line;
  std::getline(csv, header_line);
  std::getline(csv, best_line);
  const std::vector<std::string> header = csv_fields(header_line), best = csv_fields(best_line);
  REQUIRE(best.size() == header.size());
  CHECK(best[column(header, "force_closure")] == "1");
  const double epsilon = std::stod(best[column(header, "epsilon")]);
  CHECK(epsilon > 0);

  // 1. The saved start state, simulated again in this process from the written scene file (a fresh model and
  //    mjData, the keyframe path instead of the planner's), ends in the saved final state.
  const mjhand::ModelPtr m = mjhand::load_model(out + "/scene.xml");
  const int start = mj_name2id(m.get(), mjOBJ_KEY, "best_start"), final = mj_name2id(m.get(), mjOBJ_KEY, "best");
  REQUIRE(start >= 0);
  REQUIRE(final >= 0);
  mjhand::DataPtr d = mjhand::make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), start);
  const long steps = std::lround(0.3 / m->opt.timestep);  // the planner's default --duration
  for (long s = 0; s < steps; ++s) mj_step(m.get(), d.get());
  mj_forward(m.get(), d.get());
  double diff = 0;
  for (int i = 0; i < m->nq; ++i) diff = std::max(diff, std::fabs(d->qpos[i] - m->key_qpos[final * m->nq + i]));
  CHECK(diff <= 1e-12);  // the same deterministic simulation; the keyframe holds 17 significant digits
  // Force closure of that state decided by the phase-1 simplex of the grasp_analysis sensor (an algorithm the planner
  // does not use: it takes the wrench-space hull).
  const int object = mj_name2id(m.get(), mjOBJ_BODY, "object");
  const mjhand::HandModel hand = mjhand::infer_hand_structure(m.get(), object);  // the planner's hand
  std::vector<mjhand::Contact> contacts;
  contacts.reserve(64);
  mjhand::collect_contacts(m.get(), d.get(), hand, contacts);
  mjhand::ForceClosureLP lp(64, 8);
  CHECK(lp.evaluate(contacts.data(), static_cast<int>(contacts.size()), mjhand::object_center(d.get(), hand)) ==
        mjhand::ForceClosureLP::Result::kClosure);

  // 2. `mjhand analyze` re-simulates the saved start in another process and agrees.
  const auto a = run_cli("analyze " + out + "/scene.xml --keyframe best_start --settle 0.3 --object object --json");
  INFO(a.output);
  REQUIRE(a.status == 0);
  const std::size_t fc = a.output.find("\"force_closure\":");  // the first is the top-level verdict
  REQUIRE(fc != std::string::npos);
  CHECK(a.output.substr(fc, 21) == "\"force_closure\": true");
  char eps[40];
  std::snprintf(eps, sizeof(eps), "%.6g", epsilon);
  CHECK_THAT(a.output, Contains("\"epsilon\": " + std::string(eps).substr(0, 6)));  // the CSV's epsilon, 5 digits
  CHECK_THAT(read_all(out + "/best_qpos.txt"), Contains(","));
}

TEST_CASE("planner: bad options and inputs are named errors", "[planner]") {
  const std::string scene = source_path("models/planner/gripper_sphere.yaml");
  const std::string out = fresh_temp_dir("planner_bad");
  auto r = run_cli("plan " + scene + " --samples 0 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--samples"));
  r = run_cli("plan " + scene + " --standoff 0.1 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--standoff: give MIN,MAX"));
  r = run_cli("plan " + scene + " --z-min 0 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--z-min: give 2 values"));
  r = run_cli("plan " + scene + " --object cup --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("no object 'cup'"));
  r = run_cli("plan " + scene + " --approach 0,0,0 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--approach"));
  r = run_cli("plan " + scene + " --jobs 0 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--jobs"));

  // --pictures without a display is refused before planning.
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const std::string saved = display ? display : "", saved_wayland = wayland ? wayland : "";
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  r = run_cli("plan " + scene + " --pictures 2 --out " + out);
  if (!saved.empty()) setenv("DISPLAY", saved.c_str(), 1);
  if (!saved_wayland.empty()) setenv("WAYLAND_DISPLAY", saved_wayland.c_str(), 1);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--pictures"));

  // A scene without the grasp: section, and a synergy file naming a joint the hand does not have.
  const std::string no_grasp = out + "/no_grasp.yaml";
  std::ofstream(no_grasp) << "name: ng\nhand: " << source_path("models/gripper4x3.yaml")
                          << "\nobjects:\n  - {name: ball, shape: sphere, size: [0.03], pos: [0, 0, 0.1]}\n";
  r = run_cli("plan " + no_grasp + " --out " + out);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains("no grasp: section"));
  const std::string syn = out + "/syn.csv";
  std::ofstream(syn) << "row,f1_j1,thumb_j9\nq0,0,0\ns1,1,1\n";
  r = run_cli("plan " + scene + " --synergies " + syn + " --out " + out);
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains("thumb_j9"));

  // The library: no threads, an object that is not in the model.
  const mjhand::SceneSpec spec = mjhand::load_scene_spec(scene);
  const mjhand::BuiltScene built = mjhand::build_scene(spec);
  const std::vector<double> inc = planner::scene_closure_increments(built.model.get(), spec);
  CHECK_THROWS_WITH(planner::default_problem(built.model.get(), "cup", inc), Contains("no object body 'cup'"));
  const planner::PlanProblem p = planner::default_problem(built.model.get(), "object", inc);
  planner::PlanOptions o;
  o.jobs = 0;
  CHECK_THROWS_WITH(planner::plan_grasps(built.model.get(), p, o), Contains("jobs must be >= 1"));
}
