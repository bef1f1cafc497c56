// Joint angles from marker centres, the BERUL paper's eq (1): RoboRealm's Calculate Angle module gives the angle at
// the middle of three patches measured clockwise (on screen) from the first to the third, and
//     theta = 180 deg - captured angle.
// Derivation (docs/coupling-from-images.md): with a = P_prev - P_vertex, b = P_next - P_vertex in pixel coordinates
// (y down), captured = atan2(a x b, a . b) wrapped to [0, 2 pi) is clockwise on screen. A straight chain gives pi, so
// theta = 0; a next link turned by phi counter-clockwise on screen (right-handed about an axis pointing at the
// camera) gives captured = pi - phi, so theta = phi: the signed relative rotation of the two marker lines.
#pragma once

#include <array>

namespace mjhand::vision {

struct Point2 {
  double x = 0.0, y = 0.0;  // [px], y down
};

// Clockwise-on-screen angle at `vertex` from ray vertex->from to ray vertex->to, in [0, 2 pi) [rad].
double captured_angle(Point2 from, Point2 vertex, Point2 to);

// Eq (1) in radians: pi - captured, wrapped to (-pi, pi].
double angle_from_captured(double captured);

// theta_1..theta_3 from five marker centres in chain order (green, red, blue, magenta, yellow): theta_k is eq (1)
// at marker k (green-red-blue, red-blue-magenta, blue-magenta-yellow).
std::array<double, 3> chain_angles(const std::array<Point2, 5>& markers);

}  // namespace mjhand::vision
