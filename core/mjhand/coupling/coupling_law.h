// A joint coupling law theta_y = c0 + c1 theta_x + ... + c4 theta_x^4 (an underactuated finger's linkage, e.g.
// BERUL eqs 4-5), its conversion to MuJoCo's joint-equality polycoef, and the check that it respects joint ranges.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace mjhand {

// Highest polynomial order MuJoCo's joint equality (polycoef, 5 numbers) can represent.
constexpr int kMaxCouplingOrder = 4;

struct CouplingLaw {
  std::array<double, kMaxCouplingOrder + 1> c{};  // c[k] multiplies theta_x^k; unused orders are 0

  // theta_y for a driver angle theta_x (Horner).
  double value(double x) const;
  // d theta_y / d theta_x.
  double slope(double x) const;
};

// Builds a law from 1..5 coefficients (c0 first); throws std::invalid_argument for more than 5 or none.
CouplingLaw coupling_law(const std::vector<double>& coef);

// The law written in joint angles q, where theta = q + offset (a DH row's theta offset; 0 for plain joints):
// q_y = law(q_x + x_offset) - y_offset.
CouplingLaw law_in_joint_angles(const CouplingLaw& law, double x_offset, double y_offset);

// MuJoCo's polycoef a0..a4 for the law, since MuJoCo constrains q_y - y0 = sum a_k (q_x - x0)^k with y0, x0 the
// joints' qpos0 (their `ref`): binomial re-expansion about theta_x = x0 + x_offset, minus y0 + y_offset.
std::array<double, kMaxCouplingOrder + 1> mujoco_polycoef(const CouplingLaw& law, double x_qpos0, double y_qpos0,
                                                          double x_offset = 0.0, double y_offset = 0.0);

// Where a law leaves the driven joint's range while the driver sweeps its range (all in joint angles q).
struct RangeViolation {
  bool violated = false;
  double driver = 0.0;  // driver angle at the worst violation
  double value = 0.0;   // driven angle there
};

// Checks q_y = law(q_x) against [y_lo, y_hi] for q_x in [x_lo, x_hi]: endpoints plus the stationary points of the
// polynomial (roots of its derivative, found on a dense grid then bisected), so the extremes are exact to ~1e-12.
// A driver without limits (infinite bounds) and a non-constant law always violates a finite driven range.
RangeViolation check_coupling_range(const CouplingLaw& law, double x_lo, double x_hi, double y_lo, double y_hi);

// "theta_y = 1.0078 + 1.0552 theta_x" style rendering for messages and reports.
std::string format_law(const CouplingLaw& law, const std::string& x, const std::string& y);

}  // namespace mjhand
