// The paper's last step: least-squares lines theta_2(theta_1) and theta_3(theta_2) through the angles measured in
// the frames where all five markers were found (core/mjhand/coupling/fit.h).
#pragma once

#include <vector>

#include <mjhand/coupling/fit.h>
#include "vision/marker_sweep.h"

namespace mjhand::vision {

struct IdentifiedCoupling {
  CouplingFit theta2_of_theta1;  // eq 4's counterpart
  CouplingFit theta3_of_theta2;  // eq 5's counterpart
  std::vector<int> used, skipped;  // frame indices
};

// Fits both laws (polynomial order 1..4) from the measured angles only; frames with a missing marker are skipped.
// Throws FitError ("image sweep: ...") when too few frames remain.
IdentifiedCoupling identify_coupling(const std::vector<SweepFrame>& frames, int order = 1);

}  // namespace mjhand::vision
