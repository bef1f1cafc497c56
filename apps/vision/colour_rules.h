// Colour classification of marker pixels: RGB -> HSV and per-colour hue windows with saturation/value floors, the
// software counterpart of RoboRealm's RGB Filter module (BERUL paper, section 3).
#pragma once

#include <array>
#include <string>

namespace mjhand::vision {

struct Hsv {
  double h = 0.0;  // hue [deg, 0..360), 0 for greys
  double s = 0.0;  // saturation (max - min) / max, 0..1
  double v = 0.0;  // value max / 255, 0..1
};

// HSV of one 8-bit RGB pixel.
Hsv to_hsv(unsigned char r, unsigned char g, unsigned char b);

// A pixel belongs to a colour when its hue is within hue_tol of hue (on the circle) and s, v reach their floors:
// greys (s ~ 0), the black background (v ~ 0) and anti-aliased edges mixed with them are rejected.
struct ColourRule {
  std::string name;
  double hue = 0.0;      // [deg]
  double hue_tol = 25.0;  // [deg]
  double min_s = 0.5;
  double min_v = 0.25;

  // True when the pixel is of this colour.
  bool matches(unsigned char r, unsigned char g, unsigned char b) const;
};

// The paper's five markers in chain order (base, joints 1-3, tip): green, red, blue, magenta, yellow, with hue
// windows of +-25 deg (the nearest pair, red/magenta/yellow, is 60 deg apart).
const std::array<ColourRule, 5>& berul_marker_rules();

}  // namespace mjhand::vision
