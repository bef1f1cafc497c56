#include "vision/marker_angles.h"

#include <cmath>

namespace mjhand::vision {

double captured_angle(Point2 from, Point2 vertex, Point2 to) {
  const double ax = from.x - vertex.x, ay = from.y - vertex.y;
  const double bx = to.x - vertex.x, by = to.y - vertex.y;
  double a = std::atan2(ax * by - ay * bx, ax * bx + ay * by);  // (-pi, pi], positive = clockwise with y down
  if (a < 0) a += 2.0 * M_PI;
  return a;
}

double angle_from_captured(double captured) {
  double t = M_PI - captured;
  while (t <= -M_PI) t += 2.0 * M_PI;
  while (t > M_PI) t -= 2.0 * M_PI;
  return t;
}

std::array<double, 3> chain_angles(const std::array<Point2, 5>& p) {
  std::array<double, 3> out{};
  for (int k = 0; k < 3; ++k) out[k] = angle_from_captured(captured_angle(p[k], p[k + 1], p[k + 2]));
  return out;
}

}  // namespace mjhand::vision
