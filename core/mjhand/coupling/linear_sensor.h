// Actuator sensor mapping (BERUL section 5): the actuated joint's angle is linear in the sensor signal M,
// theta_1 = gain * M + offset (thumb: gain -0.2924, offset -0.0419). The model converts both ways.
#pragma once

namespace mjhand {

struct LinearSensorModel {
  double gain = -0.2924;   // d theta / d M [rad per signal unit]
  double offset = -0.0419;  // theta at M = 0 [rad]

  // theta from the signal (the paper's direction).
  double angle(double signal) const { return gain * signal + offset; }
  // The signal a joint angle produces (the inverse; gain is nonzero by construction in the plugin).
  double signal(double angle) const { return (angle - offset) / gain; }
};

// BERUL thumb's published mapping (theta_1 = -0.2924 M - 0.0419).
constexpr LinearSensorModel kBerulThumbSensor{-0.2924, -0.0419};

}  // namespace mjhand
