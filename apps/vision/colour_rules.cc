#include "vision/colour_rules.h"

#include <algorithm>
#include <cmath>

namespace mjhand::vision {

Hsv to_hsv(unsigned char r, unsigned char g, unsigned char b) {
  const int mx = std::max({r, g, b}), mn = std::min({r, g, b});
  Hsv out;
  out.v = mx / 255.0;
  if (mx == 0) return out;
  const double c = mx - mn;
  out.s = c / mx;
  if (c == 0) return out;
  double h;
  if (mx == r) {
    h = (g - b) / c;  // in [-1, 1]
  } else if (mx == g) {
    h = 2.0 + (b - r) / c;
  } else {
    h = 4.0 + (r - g) / c;
  }
  h *= 60.0;
  if (h < 0) h += 360.0;
  out.h = h;
  return out;
}

bool ColourRule::matches(unsigned char r, unsigned char g, unsigned char b) const {
  const Hsv p = to_hsv(r, g, b);
  if (p.s < min_s || p.v < min_v) return false;
  double d = std::fabs(p.h - hue);
  if (d > 180.0) d = 360.0 - d;
  return d <= hue_tol;
}

const std::array<ColourRule, 5>& berul_marker_rules() {
  static const std::array<ColourRule, 5> rules = {{
      {"green", 120.0, 25.0, 0.5, 0.25},
      {"red", 0.0, 25.0, 0.5, 0.25},
      {"blue", 240.0, 25.0, 0.5, 0.25},
      {"magenta", 300.0, 25.0, 0.5, 0.25},
      {"yellow", 60.0, 25.0, 0.5, 0.25},
  }};
  return rules;
}

}  // namespace mjhand::vision
