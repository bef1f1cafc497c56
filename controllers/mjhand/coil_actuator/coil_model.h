// The direct-drive hand's coil actuator (Ebner & Wallace 1994, sections 4.1, 5.5, 5.6) as plain functions:
// torque constant K_T(phi), torque, current limits, resistance R(T), lumped thermal model and the inverse map
// torque -> current that a controller needs. Units: A, V, ohm, N m, rad, K (temperature *rise* over ambient), s.
//
// Angles. phi is the actuator angle of the paper (phi_i in [0, 90 deg], section B.3): the angle at which the torque
// tables of section 5.5 were measured and the theta of "tau = K_Tmax I r(theta) sin(theta + 45 deg)" in 4.1, whose
// range the paper gives as 0..90 deg. It is the DH joint angle shifted by alpha for links 1 and 3
// (theta_1 = phi_1 + alpha, theta_3 = phi_3 - alpha). The plugin computes phi = q - phi_offset from the MJCF joint
// angle q: phi_offset = 0 when the MJCF joint already measures phi (models/direct_drive_hand.xml), alpha (link 1)
// or -alpha (link 3) when it measures the DH angle theta.
#pragma once

#include <array>
#include <string>

namespace mjhand {

// How K_T depends on the actuator angle.
enum class KtModel {
  kSin2,  // K_Tmax sin^2(phi + 45 deg): section 4.1 with r(phi) = sin(phi + 45 deg) (David Max's approximation)
  kPoly,  // 4th-order polynomial in phi [rad] fitted to the section 5.5 tables (Figure 6's thick line)
};

// Torque constant K_T(phi) [N m / A].
class TorqueConstant {
 public:
  // K_Tmax sin^2(phi + pi/4); valid at every angle (the dipole-in-a-field model is periodic).
  static TorqueConstant sin2(double kt_max);
  // c0 + c1 phi + ... + c4 phi^4 [N m/A/rad^k]. Only fitted on [0, pi/2]: outside, phi is clamped to the nearer end
  // (no extrapolation of a quartic). Throws std::invalid_argument if K_T <= 0 somewhere on [0, pi/2].
  static TorqueConstant polynomial(const std::array<double, 5>& c);

  // K_T at actuator angle phi [rad].
  double operator()(double phi) const;
  // max |K_T| over [0, pi/2]: the scale for the singularity test of the inverse map.
  double peak() const { return peak_; }
  KtModel model() const { return model_; }
  double kt_max() const { return kt_max_; }
  const std::array<double, 5>& poly() const { return poly_; }

 private:
  KtModel model_ = KtModel::kSin2;
  double kt_max_ = 0.0;
  std::array<double, 5> poly_{};
  double peak_ = 0.0;
};

// What the driver did with a current command.
enum CoilLimit : int {
  kCoilNotClipped = 0,   // applied = commanded
  kCoilClipped = 1,      // clipped to the current limit I_max or to the voltage limit V_max
  kCoilBadCommand = 2,   // command not finite: 0 A applied
};

// The current a coil actually carries for a command, and whether it was clipped.
struct CoilCurrent {
  double current = 0.0;  // [A]
  int limit = kCoilNotClipped;  // a CoilLimit
};

// Result of the inverse map torque -> current.
struct CurrentForTorque {
  enum Status {
    kOk,        // `current` produces the torque exactly
    kLimited,   // the torque needs more than the driver can give: `current` is the limit in the torque's direction
    kSingular,  // |K_T(phi)| <= kSingularFraction * peak: no current produces torque here; `current` is 0
    kBadInput,  // torque, angle or state not finite; `current` is 0
  };
  double current = 0.0;  // [A] the command to write into ctrl
  double kt = 0.0;       // K_T(phi) [N m / A] used
  Status status = kOk;
};

// Below this fraction of the peak K_T the inverse map reports kSingular instead of dividing by ~0
// (sin2 model: within 1.8 deg of phi = 135 deg or -45 deg).
inline constexpr double kSingularFraction = 1e-3;

// Temperature coefficient of copper's resistance used by the paper (section 5.6 footnote) [1/K].
inline constexpr double kCopperAlpha = 0.00393;

// One coil actuator. Thermal model (lumped, first order, dT = coil temperature rise over ambient):
//   C d(dT)/dt = I^2 R(dT) - dT / R_th,   R(dT) = R0 (1 + alpha_R dT).
// Driver limits: |I| <= I_max and, when V_max > 0, |I R(dT) + e| <= V_max with back-EMF e = K_T(phi) phidot (the
// coil voltage an H-bridge on a V_max supply can reach).
struct CoilParams {
  TorqueConstant kt = TorqueConstant::sin2(1.0);
  double phi_offset = 0.0;       // phi = q - phi_offset [rad]
  double R0 = 1.0;               // coil resistance at ambient temperature (dT = 0) [ohm]
  double alpha_R = kCopperAlpha; // temperature coefficient of resistance [1/K]
  double I_max = 3.0;            // driver current limit [A]
  double V_max = 0.0;            // driver voltage limit [V]; 0 = none
  bool thermal = true;           // false: dT stays 0 (no heating, R = R0)
  double C = 1.0;                // heat capacity [J/K]
  double R_th = 1.0;             // thermal resistance to ambient [K/W]

  // Actuator angle of MJCF joint angle q.
  double phi(double q) const { return q - phi_offset; }
  // R(dT) [ohm].
  double resistance(double dT) const { return R0 * (1.0 + alpha_R * dT); }
  // Back-EMF K_T(phi) phidot [V]: the torque constant is the flux linkage's slope, so the same K_T appears here.
  double back_emf(double phi, double phidot) const { return kt(phi) * phidot; }
  // Lowest and highest current the driver can give at this state (I_max, and V_max through R(dT) and back-EMF).
  void current_range(double phi, double phidot, double dT, double* lo, double* hi) const;
  // The current that flows for `command` [A]: clipped to current_range; 0 A for a non-finite command.
  CoilCurrent apply(double command, double phi, double phidot, double dT) const;
  // Joint torque K_T(phi) I [N m] (the paper's tau = K_Tmax I r(phi) sin(phi + 45 deg) for the sin2 model).
  double torque(double current, double phi) const { return kt(phi) * current; }
  // Electrical power into the coil I (I R(dT) + e) [W]: Joule heat plus the mechanical power tau phidot.
  double electrical_power(double current, double phi, double phidot, double dT) const;
  // d(dT)/dt [K/s] of the thermal model (0 when thermal is false).
  double heating_rate(double current, double dT) const;
  // Steady temperature rise for a constant current: solves dT = I^2 R0 (1 + alpha dT) R_th; infinite when
  // I^2 R0 alpha R_th >= 1 (thermal runaway: the resistance grows faster than the losses).
  double steady_rise(double current) const;
  // Inverse map: the current command that yields joint torque `tau` at (phi, phidot, dT), I = tau / K_T(phi),
  // clipped to the driver's range (status kLimited), or kSingular where K_T ~ 0.
  CurrentForTorque current_for_torque(double tau, double phi, double phidot = 0.0, double dT = 0.0) const;
};

// Throws std::invalid_argument naming the parameter when the thermal parameters are not physical
// (C or R_th <= 0 or not finite), e.g. when a fit to heating data produced them.
void check_thermal_params(double C, double R_th);

// The fitted numbers mjhand ships for one link of the paper's finger 1 (tables of sections 5.5 and 5.6;
// coil_presets.cc, reproduced by fit_coil_link() in coil_fit.h and checked by tests/controllers/coil_actuator/test_coil_actuator.cc).
struct CoilLinkPreset {
  int link = 0;
  double kt_max = 0.0;              // K_T at phi = 45 deg [N m/A]
  std::array<double, 5> kt_poly{};  // 4th-order K_T(phi) [N m/A/rad^k]
  double R0 = 0.0;                  // the table's coil resistance [ohm]
  double C = 0.0;                   // heat capacity [J/K]
  double R_th = 0.0;                // thermal resistance [K/W]
};

// Preset of link 1, 2 or 3 (throws std::invalid_argument otherwise).
const CoilLinkPreset& coil_link_preset(int link);

}  // namespace mjhand
