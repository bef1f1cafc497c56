// BERUL Fig. 7 as rendered images: `mjhand berul-poses --images` (runs under xvfb-run through the render_under_xvfb
// ctest entry, which selects the [render] tag; without DISPLAY the case warns and returns).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "render/gl_context.h"
#include "render/image.h"
#include "test_util.h"

using mjhand_test::fresh_temp_dir;
using mjhand_test::run_cli;
using mjhand_test::source_path;

namespace {
// Share of pixels whose colour differs by more than 8 in some channel between two images of one size.
double fraction_different(const mjhand::render::RgbImage& a, const mjhand::render::RgbImage& b) {
  long n = 0;
  for (size_t i = 0; i < a.rgb.size(); i += 3) {
    for (int c = 0; c < 3; ++c) {
      if (std::abs(a.rgb[i + c] - b.rgb[i + c]) > 8) {
        ++n;
        break;
      }
    }
  }
  return static_cast<double>(n) / (a.rgb.size() / 3);
}
}  // namespace

TEST_CASE("berul-poses --images renders one picture of the whole hand per sensor value, Fig. 7", "[render]") {
  if (mjhand_test::skip_without(mjhand::render::display_available(),
                                 "an X display (ctest runs these cases under xvfb-run)")) {
    return;
  }
  const std::string dir = fresh_temp_dir("berul_images");
  const auto r = run_cli("berul-poses --model " + source_path("models/berul_hand.xml") + " --out " + dir + " --images");
  INFO(r.output);
  REQUIRE(r.status == 0);
  mjhand::render::RgbImage img[4];
  const char* names[4] = {"+0.000", "-0.200", "-0.400", "-0.600"};
  for (int k = 0; k < 4; ++k) {
    img[k] = mjhand::render::read_png(dir + "/fig7_M" + names[k] + ".png");
    CHECK(img[k].width == 800);
    CHECK(img[k].height == 600);
    CHECK(mjhand::render::fraction_unlike_corner(img[k]) > 0.02);  // the hand is in the picture
  }
  // The fingers move with M: successive images differ, and the extremes differ most.
  const double step = fraction_different(img[0], img[1]);
  const double span = fraction_different(img[0], img[3]);
  CHECK(step > 0.001);
  CHECK(span > step);
}
