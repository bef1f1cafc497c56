// mjhand_vision without rendering: colour rules, patch centres of gravity on synthetic images (exact), eq (1) on
// synthetic marker positions, and the marker model's couplings read back from its joint equalities.
#if __has_include("vision/marker_frame.h")

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <mjhand/coupling/berul.h>
#include "render/image.h"
#include "test_util.h"
#include "vision/blobs.h"
#include "vision/colour_rules.h"
#include "vision/marker_angles.h"
#include "vision/marker_frame.h"
#include "vision/model_coupling.h"

using namespace mjhand::vision;
using mjhand::render::RgbImage;

namespace {
RgbImage black(int w, int h) {
  RgbImage img;
  img.resize(w, h);
  std::fill(img.rgb.begin(), img.rgb.end(), 0);
  return img;
}
void put(RgbImage& img, int x, int y, unsigned char r, unsigned char g, unsigned char b) {
  unsigned char* p = img.at(x, y);
  p[0] = r;
  p[1] = g;
  p[2] = b;
}
// Filled disc of radius rad around the integer pixel (cx, cy): symmetric, so its centre of gravity is (cx, cy).
void disc(RgbImage& img, int cx, int cy, int rad, unsigned char r, unsigned char g, unsigned char b) {
  for (int y = cy - rad; y <= cy + rad; ++y) {
    for (int x = cx - rad; x <= cx + rad; ++x) {
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad) put(img, x, y, r, g, b);
    }
  }
}
// Marker centres of a planar chain with joint angles theta (y-up maths, counter-clockwise positive), mapped to
// image pixels (y down).
std::array<Point2, 5> chain_points(double heading, const std::array<double, 3>& theta, const std::array<double, 4>& len) {
  std::array<Point2, 5> p{};
  double u = 300, v = -200, phi = heading;
  p[0] = {u, -v};
  for (int k = 0; k < 4; ++k) {
    if (k > 0) phi += theta[k - 1];
    u += len[k] * std::cos(phi);
    v += len[k] * std::sin(phi);
    p[k + 1] = {u, -v};
  }
  return p;
}
const unsigned char kColours[5][3] = {{0, 230, 0}, {230, 0, 0}, {0, 0, 230}, {230, 0, 230}, {230, 230, 0}};
}  // namespace

TEST_CASE("vision: HSV conversion and the five marker colour rules", "[vision]") {
  const Hsv red = to_hsv(255, 0, 0), yellow = to_hsv(200, 200, 0), blue = to_hsv(0, 0, 128);
  CHECK(red.h == Approx(0.0).margin(1e-12));  // g = b: exactly 0
  // A few divisions and products each: rounding, measured exactly 0 for all five; 1e-14 relative (~45 ulp).
  CHECK(red.s == Approx(1.0).epsilon(1e-14));
  CHECK(yellow.h == Approx(60.0).epsilon(1e-14));
  CHECK(yellow.v == Approx(200.0 / 255.0).epsilon(1e-14));
  CHECK(blue.h == Approx(240.0).epsilon(1e-14));
  CHECK(to_hsv(255, 0, 128).h == Approx(360.0 - 60.0 * 128.0 / 255.0).epsilon(1e-14));  // (g - b) / c = -128/255
  CHECK(to_hsv(90, 90, 90).s == 0.0);
  const auto& rules = berul_marker_rules();
  REQUIRE(rules[0].name == "green");
  REQUIRE(rules[4].name == "yellow");
  for (int k = 0; k < 5; ++k) {
    for (int j = 0; j < 5; ++j) {
      CHECK(rules[k].matches(kColours[j][0], kColours[j][1], kColours[j][2]) == (j == k));
    }
    CHECK_FALSE(rules[k].matches(140, 140, 140));  // grey finger
    CHECK_FALSE(rules[k].matches(0, 0, 0));        // background
    CHECK_FALSE(rules[k].matches(255, 255, 255));
    CHECK_FALSE(rules[k].matches(40, 0, 0));  // too dark (v < 0.25): an anti-aliased edge into black
  }
  CHECK(rules[1].matches(250, 30, 60));  // red wraps around 360 deg: hue 352
  CHECK_FALSE(rules[1].matches(217, 179, 153));  // skin-like (s = 0.29) is not red
}

TEST_CASE("vision: patches and exact centres of gravity on a synthetic image", "[vision]") {
  RgbImage img = black(120, 90);
  disc(img, 30, 40, 6, 0, 230, 0);             // 113 px disc centred at (30, 40)
  for (int y = 10; y < 15; ++y) {              // 8 x 5 rectangle, x 70..77, y 10..14: centre (73.5, 12)
    for (int x = 70; x < 78; ++x) put(img, x, y, 0, 200, 0);
  }
  put(img, 100, 80, 0, 255, 0);  // single-pixel noise
  put(img, 5, 5, 0, 255, 0);     // two pixels touching diagonally: one 8-connected patch
  put(img, 6, 6, 0, 255, 0);
  disc(img, 90, 60, 4, 230, 0, 0);  // red: not green
  BlobFinder finder;
  const auto& blobs = finder.find(img, berul_marker_rules()[0], 30);
  REQUIRE(blobs.size() == 2);
  CHECK(blobs[0].area == 113);
  CHECK(blobs[0].cx == 30.0);
  CHECK(blobs[0].cy == 40.0);
  CHECK(blobs[1].area == 40);
  CHECK(blobs[1].cx == 73.5);
  CHECK(blobs[1].cy == 12.0);
  CHECK(finder.largest_area() == 113);
  const auto& small = finder.find(img, berul_marker_rules()[0], 2);
  REQUIRE(small.size() == 3);
  CHECK(small[2].area == 2);  // the diagonal pair, not two single pixels
  CHECK(small[2].cx == 5.5);
  const auto& none = finder.find(img, berul_marker_rules()[2], 30);  // no blue
  CHECK(none.empty());
  CHECK(finder.largest_area() == 0);
}

TEST_CASE("vision: eq 1 recovers signed joint angles from marker positions", "[vision]") {
  // Straight chain: captured 180 deg, theta 0.
  // atan2 of exact integer vectors and pi minus it: within an ulp or two of the libm (measured exactly equal here,
  // and below); 1e-14 relative is room for a less accurate libm.
  CHECK(captured_angle({0, 0}, {10, 0}, {20, 0}) == Approx(M_PI).epsilon(1e-14));
  CHECK(angle_from_captured(M_PI) == Approx(0.0).margin(1e-15));  // pi - pi
  // Right angle, next link turned counter-clockwise on screen (image y down: "up" is -y): captured 90 deg, theta
  // = 180 - 90 = 90 deg.
  CHECK(captured_angle({0, 0}, {10, 0}, {10, -10}) == Approx(M_PI / 2).epsilon(1e-14));
  CHECK(angle_from_captured(captured_angle({0, 0}, {10, 0}, {10, -10})) == Approx(M_PI / 2).epsilon(1e-14));
  // Turned clockwise on screen: captured 270 deg, theta -90 deg.
  CHECK(captured_angle({0, 0}, {10, 0}, {10, 10}) == Approx(3 * M_PI / 2).epsilon(1e-14));
  CHECK(angle_from_captured(captured_angle({0, 0}, {10, 0}, {10, 10})) == Approx(-M_PI / 2).epsilon(1e-14));
  // A chain like the BERUL finger (theta_2, theta_3 > 57 deg) and one with a hyperextended joint, any heading.
  const std::array<double, 4> len{60, 90, 55, 40};
  for (const std::array<double, 3> theta : {std::array<double, 3>{0.2, 1.2189, 1.5821}, {-0.1, 0.9, -0.3}}) {
    for (double heading : {0.0, 2.0, -2.8}) {
      const std::array<double, 3> got = chain_angles(chain_points(heading, theta, len));
      // atan2 of ~100 px coordinates and back: rounding only.
      for (int k = 0; k < 3; ++k) CHECK(got[k] == Approx(theta[k]).margin(1e-12));
    }
  }
}

TEST_CASE("vision: markers drawn at a chain's joints give its angles, a missing one is named", "[vision]") {
  const std::array<double, 3> theta{0.15, 1.166, 1.509};
  std::array<Point2, 5> p = chain_points(3.0, theta, {70, 110, 66, 49});
  RgbImage img = black(400, 300);
  for (int k = 0; k < 5; ++k) {
    p[k] = {std::round(p[k].x), std::round(p[k].y)};  // integer centres: each disc's centroid is exact
    disc(img, static_cast<int>(p[k].x), static_cast<int>(p[k].y), 6, kColours[k][0], kColours[k][1], kColours[k][2]);
  }
  BlobFinder finder;
  const MarkerOptions opt;
  const MarkerMeasurement me = measure_markers(img, opt, finder);
  REQUIRE(me.ok);
  CHECK(me.problem.empty());
  const std::array<double, 3> exact = chain_angles(p);
  for (int k = 0; k < 3; ++k) {
    CHECK(me.blob[k].cx == p[k].x);
    CHECK(me.theta[k] == Approx(exact[k]).margin(1e-12));  // the same points: rounding
    // The rounded centres move the angles by 3.0e-3, 7.2e-3, 1.1e-3 rad here (chain_points above).
    CHECK(me.theta[k] == Approx(theta[k]).margin(0.02));  // rounding the centres to pixels
  }
  disc(img, static_cast<int>(p[1].x), static_cast<int>(p[1].y), 6, 120, 120, 120);  // paint red over in grey
  disc(img, static_cast<int>(p[1].x), static_cast<int>(p[1].y) - 20, 2, 230, 0, 0);  // a 13 px red speck
  const MarkerMeasurement miss = measure_markers(img, opt, finder);
  CHECK_FALSE(miss.ok);
  CHECK_FALSE(miss.found[1]);
  CHECK(miss.found[0]);
  CHECK(miss.largest_area[1] == 13);
  CHECK(miss.problem == "missing red (largest patch 13 px < 30 px)");
}

TEST_CASE("vision: the marker model carries eqs 4-5 in its joint equalities", "[vision]") {
  auto m = mjhand_test::load_xml_file(mjhand_test::source_path("models/berul_finger_markers.xml"));
  const MarkerFinger f = find_marker_finger(m.get(), "");  // read_model_chains checks the bodies realise the chain
  CHECK(f.chain.chain.name == "index");
  CHECK(f.offset[1] == Approx(1.0078).epsilon(1e-15));  // the model's "1.0078" parsed: exact here (measured)
  CHECK(m->actuator_trnid[2 * f.actuator] == f.chain.joint_ids[0]);
  const mjhand::CouplingLaw l21 = equality_law(m.get(), f, 0), l32 = equality_law(m.get(), f, 1);
  for (int k = 0; k < 2; ++k) {
    // polycoef and the DH offsets print the laws' digits: the round trip is rounding (loose).
    CHECK(l21.c[k] == Approx(mjhand::kBerulTheta2.c[k]).margin(1e-9));
    CHECK(l32.c[k] == Approx(mjhand::kBerulTheta3.c[k]).margin(1e-9));
  }
  // Cross-check the conversion against MuJoCo's own constraint residual off the coupling.
  auto d = mjhand_test::make_data(m.get());
  d->qpos[f.qpos_adr[0]] = 0.23;
  d->qpos[f.qpos_adr[1]] = 0.31;
  mj_forward(m.get(), d.get());
  const std::array<double, 3> t = finger_angles(f, d.get());
  // MuJoCo's residual of equality 0 is q2 - poly(q1); in DH angles the same number is theta_2 - law(theta_1).
  CHECK(d->efc_pos[0] == Approx(t[1] - l21.value(t[0])).margin(1e-12));  // the same residual
  CHECK_THROWS_WITH(find_marker_finger(m.get(), "thumb"),
                    Catch::Contains("no finger 'thumb'") && Catch::Contains("index"));
}

#endif
