#include "vision/coupling_identify.h"

namespace mjhand::vision {

IdentifiedCoupling identify_coupling(const std::vector<SweepFrame>& frames, int order) {
  IdentifiedCoupling out;
  std::vector<double> t1, t2, t3;
  for (const SweepFrame& f : frames) {
    if (!f.measured.ok) {
      out.skipped.push_back(f.index);
      continue;
    }
    out.used.push_back(f.index);
    t1.push_back(f.measured.theta[0]);
    t2.push_back(f.measured.theta[1]);
    t3.push_back(f.measured.theta[2]);
  }
  const std::string what = "image sweep (" + std::to_string(out.used.size()) + " of " +
                           std::to_string(frames.size()) + " frames usable)";
  out.theta2_of_theta1 = fit_polynomial(t1, t2, order, what + ", theta_2 vs theta_1");
  out.theta3_of_theta2 = fit_polynomial(t2, t3, order, what + ", theta_3 vs theta_2");
  return out;
}

}  // namespace mjhand::vision
