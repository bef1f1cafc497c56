// mjhand_render: offscreen rendering (needs an X display: under ctest these run through xvfb-run, see the viewer
// block of tests/CMakeLists.txt; without DISPLAY the rendering cases warn and return) and PNG input/output.
#if __has_include("render/offscreen_renderer.h")

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "render/image.h"
#include "render/offscreen_renderer.h"
#include "test_util.h"

using namespace mjhand::render;

namespace {
// A red box on a vertical slide in front of camera "front" (at y = -1 looking along +y, z up), black background.
const char* kScene = R"(
<mujoco>
  <visual><headlight ambient="0.6 0.6 0.6" diffuse="0.4 0.4 0.4"/></visual>
  <worldbody>
    <camera name="front" pos="0 -1 0" xyaxes="1 0 0 0 0 1" fovy="45"/>
    <body name="box" pos="0 0 0">
      <joint name="lift" type="slide" axis="0 0 1"/>
      <geom type="box" size="0.1 0.1 0.1" rgba="1 0 0 1"/>
    </body>
  </worldbody>
</mujoco>)";

// Share of red pixels (R high, G and B low) in rows [y0, y1).
double red_share(const RgbImage& img, int y0, int y1) {
  long red = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const unsigned char* p = img.at(x, y);
      red += p[0] > 150 && p[0] - p[1] > 80 && p[0] - p[2] > 80;  // the lit red box is about (255, 64, 64)
    }
  }
  return static_cast<double>(red) / (static_cast<double>(y1 - y0) * img.width);
}

bool have_display() {
  return !mjhand_test::skip_without(display_available(), "an X display (ctest runs these cases under xvfb-run)");
}
}  // namespace

TEST_CASE("render: the image follows the state and is stored top row first", "[render]") {
  if (!have_display()) return;
  auto m = mjhand_test::load_xml_string(kScene);
  auto d = mjhand_test::make_data(m.get());
  OffscreenRenderer r(m.get(), 160, 120);
  RgbImage img;
  d->qpos[0] = 0.15;  // box centre 0.15 m above the camera axis: upper half of the image
  mj_forward(m.get(), d.get());
  r.render(d.get(), CameraView::named("front"), img);
  REQUIRE(img.width == 160);
  REQUIRE(img.height == 120);
  REQUIRE(img.rgb.size() == 3u * 160 * 120);
  const double top_up = red_share(img, 0, 60), bottom_up = red_share(img, 60, 120);
  // The box spans z in [0.05, 0.25] m at 1 m: about 0.24 of the view's height (tan 22.5 deg = 0.414 half-height).
  // the front face alone (0.2 m at 0.9 m) covers 0.2/(0.9 x 0.828 x 4/3) x 0.2/(0.9 x 0.414) = 0.20 x 0.54 = 0.11
  // of the top half: > 0.05 is half of it
  CHECK(top_up > 0.05);
  // The box's lower edge projects >= 6 px above the middle row (0.05 m at 0.9-1.1 m: 0.11-0.13 of the 60-px
  // half-height) and multisampling blends one pixel at most: no red below (measured 0).
  CHECK(bottom_up == 0.0);
  d->qpos[0] = -0.15;  // now below the axis
  mj_forward(m.get(), d.get());
  r.render(d.get(), CameraView::named("front"), img);
  CHECK(red_share(img, 0, 60) == 0.0);  // mirrored: as above (measured 0)
  CHECK(red_share(img, 60, 120) > 0.05);  // mirrored: as above
  // mirror images up to rasterisation: a horizontal edge (32 px wide) a row either way is 32/9600 = 0.0033 of
  // the half; 0.02 is a few such rows
  // Symmetric positions give mirror-image red areas.
  CHECK(red_share(img, 60, 120) == Approx(top_up).margin(0.02));
}

TEST_CASE("render: free cameras and sizes beyond the model's offscreen buffer", "[render]") {
  if (!have_display()) return;
  auto m = mjhand_test::load_xml_string(kScene);
  auto d = mjhand_test::make_data(m.get());
  mj_forward(m.get(), d.get());
  const int offwidth = m->vis.global.offwidth;
  REQUIRE(offwidth < 1000);
  OffscreenRenderer r(m.get(), 1000, 700);
  CHECK(m->vis.global.offwidth == offwidth);  // the caller's model is not modified
  RgbImage a, b, named;
  // The free camera at (0, -1, 0) looking along +y (azimuth 90, elevation 0) with the default fovy (45 deg) is the
  // named camera's pose: the two images are the same.
  r.render(d.get(), CameraView::free({0, 0, 0}, 1.0, 90, 0), a);
  r.render(d.get(), CameraView::named("front"), named);
  REQUIRE(a.width == 1000);
  REQUIRE(a.height == 700);
  int differ = 0;
  for (size_t i = 0; i < a.rgb.size(); ++i) differ += std::abs(int(a.rgb[i]) - int(named.rgb[i])) > 8;
  // Measured 0 (Mesa llvmpipe); the free camera's pose is the named one's up to rounding, which may flip a few edge
  // pixels on another renderer: 30 channel values = at most 10 pixels of 700 000.
  CHECK(differ < 30);
  // Pinhole projection: the box's front face (0.2 m wide, 0.9 m away) covers 0.2 / (0.9 * 2 tan(22.5 deg) * 1000/700)
  // of the image width; rows 300..400 lie inside the face (its height covers rows 256..444).
  // pixel quantisation: each vertical edge may fall a column either way (1/1000 of the width each), plus the
  // shaded edge column under the red threshold: 3 columns
  const double expected = 0.2 / (0.9 * 2 * std::tan(M_PI / 8) * 1000.0 / 700.0);
  CHECK(red_share(a, 300, 400) == Approx(expected).margin(3.0 / 1000));
  CHECK(red_share(a, 0, 240) == 0.0);  // 16 rows above the face's top edge (row 256): none (measured 0)
  // The same view 5 m higher has the box far below its field of view: no red at all.
  r.render(d.get(), CameraView::free({0, 0, 5}, 1.0, 90, 0), b);
  CHECK(red_share(b, 0, 700) == 0.0);  // measured 0
  CHECK(fraction_unlike_corner(a) > 0.02);  // the face alone covers 0.188 x 0.268 = 0.05 of the image
}

TEST_CASE("render: bad cameras and sizes are reported by name", "[render]") {
  auto m = mjhand_test::load_xml_string(kScene);
  mjvCamera cam;
  try {
    apply_camera(m.get(), CameraView::named("nosuch"), cam);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    CHECK(msg.find("nosuch") != std::string::npos);
    CHECK(msg.find("front") != std::string::npos);  // the model's cameras are listed
  }
  CHECK_THROWS_AS(apply_camera(m.get(), CameraView::free({0, 0, 0}, -1, 0, 0), cam), std::invalid_argument);
  CHECK_THROWS_AS(apply_camera(m.get(), CameraView::free({0, NAN, 0}, 1, 0, 0), cam), std::invalid_argument);
  apply_camera(m.get(), CameraView::named("front"), cam);
  CHECK(cam.type == mjCAMERA_FIXED);
  CHECK(cam.fixedcamid == 0);
  CHECK_THROWS_AS(OffscreenRenderer(m.get(), 0, 10), std::invalid_argument);
}

TEST_CASE("render: PNG round trip and write errors", "[render]") {
  RgbImage img;
  img.resize(7, 5);
  for (size_t i = 0; i < img.rgb.size(); ++i) img.rgb[i] = static_cast<unsigned char>((i * 37) % 256);
  const std::string path = mjhand_test::binary_dir() + "/test_render_roundtrip.png";
  write_png(path, img);
  const RgbImage back = read_png(path);
  CHECK(back.width == 7);
  CHECK(back.height == 5);
  CHECK(back.rgb == img.rgb);
  std::remove(path.c_str());
  try {
    write_png("/nonexistent-dir/x.png", img);
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("/nonexistent-dir/x.png") != std::string::npos);
  }
  CHECK_THROWS_AS(read_png(mjhand_test::source_path("README.md")), std::runtime_error);
  RgbImage empty;
  CHECK_THROWS_AS(write_png(path, empty), std::runtime_error);
  // fraction_unlike_corner: one differing pixel of 35.
  RgbImage flat;
  flat.resize(7, 5);
  *flat.at(3, 2) = 200;
  CHECK(fraction_unlike_corner(flat) == Approx(1.0 / 35));  // one pixel of 35: rounding
}

#endif
