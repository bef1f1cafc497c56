// The paper's scenarios on the four-finger gripper: precision grasps of fixed objects end with every fingertip in
// contact, the power grasp of a free sphere drags it toward fingers 1/3 without sideways motion, the density sweep
// runs, gravity + self-collision and two objects stay in the hand; each result carries the final grasp metrics.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "scenario.h"
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>
#include "test_util.h"

using mjhand_test::source_path;

namespace {

mjhand::ScenarioResult run(const std::string& scenario, double duration) {
  const mjhand::SceneSpec spec = mjhand::load_scene_spec(source_path("models/scenarios/" + scenario + ".yaml"));
  const mjhand::BuiltScene built = mjhand::build_scene(spec);
  mjhand::ScenarioOptions o;
  o.duration = duration;
  o.log_every = 50;
  return mjhand::run_scenario(built.model.get(), o);
}

int channel(const mjhand::ScenarioResult& r, const std::string& name) {
  for (size_t c = 0; c < r.channel_names.size(); ++c) {
    if (r.channel_names[c] == name) return static_cast<int>(c);
  }
  FAIL("no channel " << name);
  return -1;
}

}  // namespace

TEST_CASE("Precision grasps of fixed objects end with every fingertip in contact", "[scenario]") {
  for (const char* scenario : {"precision_sphere", "precision_cylinder", "precision_box", "precision_peanut"}) {
    CAPTURE(scenario);
    const mjhand::ScenarioResult r = run(scenario, 0.6);
    INFO(mjhand::scenario_report(r));
    REQUIRE_FALSE(r.diverged);
    for (const char* tip : {"f1_p3", "f2_p3", "f3_p3", "f4_p3"}) {
      CAPTURE(tip);
      CHECK(r.final_signals[channel(r, tip)] == 1.0);
    }
    // The object is welded: it has not moved; the final grasp was analysed with the fingertip contacts.
    CHECK(r.rows.front()[1] == r.final_pos[0].x());
    CHECK(r.metrics[0].contacts >= 4);
    CHECK(r.metrics[0].normal_force > 0);
    CHECK(r.metrics[0].sigma_min > 0);
  }
}

TEST_CASE("Power grasp of a free sphere: contact sequence and object motion", "[scenario]") {
  const mjhand::ScenarioResult r = run("power_sphere", 0.6);
  INFO(mjhand::scenario_report(r));
  REQUIRE_FALSE(r.diverged);
  // The sphere starts closer to fingers 2 and 4: their proximal phalanges touch first (paper: contacts 4 and 10).
  const double f2 = r.first_contact[channel(r, "f2_p1")], f4 = r.first_contact[channel(r, "f4_p1")];
  REQUIRE(f2 > 0);
  REQUIRE(f4 > 0);
  for (const char* other : {"f1_p1", "f1_p2", "f1_p3", "f3_p1", "f3_p2", "f3_p3"}) {
    const double t = r.first_contact[channel(r, other)];
    CHECK((t < 0 || t > std::min(f2, f4)));
  }
  // Dragged toward fingers 1/3 (+x); the gripper is symmetric in y, so no y motion and rotation only about y.
  const Eigen::Vector3d start(r.rows.front()[1], r.rows.front()[2], r.rows.front()[3]);
  CHECK(r.final_pos[0].x() > start.x() + 0.002);
  // Mirror symmetry holds to rounding (measured 5.7e-17 m, 3.5e-15 and 2.0e-15 rad after 0.6 s): 1e-12 leaves room
  // for summation-order differences between builds, far below any physical drift.
  CHECK(std::abs(r.final_pos[0].y() - start.y()) < 1e-12);
  CHECK(std::abs(r.final_euler_zyx[0].x()) < 1e-12);  // phi (about z)
  CHECK(std::abs(r.final_euler_zyx[0].z()) < 1e-12);  // psi (about x)
  // The time series holds 6 pose columns per object, the 13 signals and the 12 joints.
  CHECK(r.header().size() == 1 + 6 + 13 + 12);
  CHECK(r.metrics[0].contacts >= 4);
}

TEST_CASE("Density sweep of the power grasp gives a final pose per density", "[scenario]") {
  const mjhand::SceneSpec spec = mjhand::load_scene_spec(source_path("models/scenarios/power_sphere.yaml"));
  mjhand::ScenarioOptions o;
  o.duration = 0.5;
  o.log_every = 100;
  const std::vector<double> densities = {160, 700, 2300, 7860, 19250};
  const std::vector<mjhand::DensityRow> rows = mjhand::density_sweep(spec, 0, densities, o);
  WARN(mjhand::density_table_csv(rows));
  REQUIRE(rows.size() == densities.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    // MuJoCo's sphere mass from density: the same product, rounding; 1e-9 is loose
    CHECK(rows[i].mass == Approx(densities[i] * 4.0 / 3 * M_PI * 0.03 * 0.03 * 0.03).epsilon(1e-9));
    CHECK(std::isfinite(rows[i].pos.x()));
    // Every density ends caged: all four fingertips in contact and force closure (docs/scenes.md discusses why the
    // final pose, set by the palm and the fingertips, does not follow the paper's monotonic trend).
    CHECK(rows[i].fingertips_in_contact == 4);
    CHECK(rows[i].metrics.force_closure);
    CHECK(rows[i].peak_displacement > 0.001);
    CHECK(rows[i].min_z > 0.025);  // never pushed through the palm (ball radius 30 mm, palm face z = 0)
  }
}

TEST_CASE("Gravity with self-collision, and two objects, end grasped in the hand", "[scenario]") {
  for (const char* scenario : {"gravity_selfcollision", "two_objects"}) {
    CAPTURE(scenario);
    const mjhand::ScenarioResult r = run(scenario, 0.6);
    INFO(mjhand::scenario_report(r));
    REQUIRE_FALSE(r.diverged);
    for (size_t i = 0; i < r.object_names.size(); ++i) {
      CAPTURE(r.object_names[i]);
      CHECK(r.final_pos[i].z() > 0);               // above the palm face
      CHECK(std::abs(r.final_pos[i].x()) < 0.06);  // between the finger rows
      CHECK(r.metrics[i].contacts + r.metrics[i].other_contacts >= 1);
    }
  }
}

TEST_CASE("Committed scenario models are exactly what make-scene writes now", "[scenario]") {
  int checked = 0;
  const std::string dir = source_path("models/scenarios");
  for (const char* name : {"precision_sphere", "precision_cylinder", "precision_box", "precision_peanut", "power_sphere",
                           "gravity_selfcollision", "two_objects"}) {
    CAPTURE(name);
    INFO("regenerate with: mjhand make-scene models/scenarios/" << name << ".yaml -o models/scenarios/" << name << ".xml");
    mjhand::SceneWriteOptions o;
    o.output_dir = dir;
    const mjhand::BuiltScene built = mjhand::build_scene(mjhand::load_scene_spec(dir + "/" + name + ".yaml"), o);
    CHECK(built.xml == mjhand_test::read_all(dir + "/" + name + ".xml"));
    ++checked;
  }
  mjhand::SceneWriteOptions keep;
  keep.output_dir = dir;
  keep.keep_placeholders = true;
  for (const char* name : {"power_sphere"}) {
    CAPTURE(name);
    INFO("regenerate with: mjhand make-scene models/scenarios/" << name << ".yaml -o models/scenarios/" << name
                                                                << "_batch.xml --keep-placeholders");
    const std::string xml = mjhand::build_scene(mjhand::load_scene_spec(dir + "/" + name + ".yaml"), keep).xml;
    CHECK(xml == mjhand_test::read_all(dir + "/" + name + "_batch.xml"));
    CHECK(xml.find("density=\"${density}\"") != std::string::npos);
  }
  CHECK(checked == 7);
}
