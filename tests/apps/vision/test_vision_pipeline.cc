// The whole image pipeline on rendered frames of models/berul_finger_markers.xml: the couplings recovered from
// images only, and a frame with an occluded marker reported and skipped. Needs an X display: without DISPLAY the
// cases warn and return; ctest's vision_under_xvfb entry runs them under xvfb-run (tests/CMakeLists.txt).
#if __has_include("vision/marker_sweep.h")

#include <catch2/catch.hpp>

#include <cmath>

#include <mjhand/coupling/berul.h>
#include "render/gl_context.h"
#include "test_util.h"
#include "vision/coupling_identify.h"
#include "vision/marker_sweep.h"

using namespace mjhand::vision;

namespace {
bool have_display() {
  return !mjhand_test::skip_without(mjhand::render::display_available(),
                                    "an X display (ctest runs these cases under xvfb-run)");
}
mjhand::ModelPtr marker_model() {
  return mjhand_test::load_xml_file(mjhand_test::source_path("models/berul_finger_markers.xml"));
}
}  // namespace

TEST_CASE("vision: couplings recovered from rendered marker images match the model", "[vision]") {
  if (!have_display()) return;
  auto m = marker_model();
  SweepOptions opt;  // 20 frames over joint 1's range less 5 % per side, 640 x 480
  const std::vector<SweepFrame> frames = run_marker_sweep(m.get(), opt);
  REQUIRE(frames.size() == 20);
  double worst = 0.0;
  for (const SweepFrame& f : frames) {
    INFO("frame " << f.index << ": " << f.measured.problem);
    REQUIRE(f.measured.ok);
    for (int k = 0; k < 5; ++k) CHECK(f.measured.patches[k] == 1);  // one patch per colour, nothing else coloured
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(f.measured.theta[k] - f.truth[k]));
  }
  // Image angles against MuJoCo's joint angles at the same frame: centroids to a fraction of a pixel over
  // marker distances of 90-200 px.
  CHECK(worst < 0.01);
  const IdentifiedCoupling id = identify_coupling(frames);
  CHECK(id.used.size() == 20);
  CHECK(id.skipped.empty());
  const auto& l21 = id.theta2_of_theta1.law;
  const auto& l32 = id.theta3_of_theta2.law;
  WARN("theta_2 = " << l21.c[1] << " theta_1 + " << l21.c[0] << ", theta_3 = " << l32.c[1] << " theta_2 + " << l32.c[0]
                    << "; max |image - MuJoCo| = " << worst << " rad");
  CHECK(std::fabs(l21.c[1] / mjhand::kBerulTheta2.c[1] - 1.0) < 0.02);
  CHECK(std::fabs(l21.c[0] - mjhand::kBerulTheta2.c[0]) < 0.02);
  CHECK(std::fabs(l32.c[1] / mjhand::kBerulTheta3.c[1] - 1.0) < 0.02);
  CHECK(std::fabs(l32.c[0] - mjhand::kBerulTheta3.c[0]) < 0.02);
  CHECK(id.theta2_of_theta1.r2 > 0.999);
  CHECK(id.theta3_of_theta2.r2 > 0.999);
}

TEST_CASE("vision: a frame with an occluded marker is reported and skipped", "[vision]") {
  if (!have_display()) return;
  auto m = marker_model();
  SweepOptions opt;
  opt.frames = 6;
  opt.width = 480;
  opt.height = 360;
  opt.occlusions = {{2, 1}, {4, 4}};  // red in frame 2, yellow (the tip) in frame 4
  const std::vector<SweepFrame> frames = run_marker_sweep(m.get(), opt);
  REQUIRE(frames.size() == 6);
  CHECK_FALSE(frames[2].measured.ok);
  CHECK_FALSE(frames[2].measured.found[1]);
  CHECK(frames[2].measured.found[0]);
  CHECK(frames[2].measured.problem.find("missing red") == 0);
  CHECK_FALSE(frames[4].measured.ok);
  CHECK(frames[4].measured.problem.find("missing yellow") == 0);
  CHECK(frames[3].measured.ok);  // the occluder is parked again after its frame
  const IdentifiedCoupling id = identify_coupling(frames);
  CHECK(id.skipped == std::vector<int>{2, 4});
  CHECK(id.used == std::vector<int>{0, 1, 3, 5});
  CHECK(id.theta2_of_theta1.points == 4);
  CHECK(std::fabs(id.theta2_of_theta1.law.c[1] / mjhand::kBerulTheta2.c[1] - 1.0) < 0.02);
  // Too few usable frames is an error that says how many were usable, not a silent fit.
  SweepOptions few = opt;
  few.frames = 3;
  few.occlusions = {{0, 0}, {1, 2}};
  CHECK_THROWS_WITH(identify_coupling(run_marker_sweep(m.get(), few)), Catch::Contains("1 of 3 frames usable"));
  SweepOptions bad = opt;
  bad.camera = "nope";
  CHECK_THROWS_WITH(run_marker_sweep(m.get(), bad), Catch::Contains("nope"));
}

#endif
