// The paper's Kelvin-Voigt contact (F = K delta + D delta', smoothed over a transition width) expressed as MuJoCo
// 2.2.2 solref/solimp, and the closed-form predictions the tests compare MuJoCo against (docs/scenes.md derives it).
#pragma once

#include <string>

namespace mjhand {

// Kelvin-Voigt parameters as a multibody tool (Simscape's Spatial Contact Force) takes them.
struct KelvinVoigt {
  double stiffness = 1e5;          // K [N/m]
  double damping = 30;             // D [N s/m]
  double transition_width = 1e-4;  // w [m]: indentation over which the force ramps up
  double impedance = 0.9;          // MuJoCo's d beyond the transition (solimp dmax), in [0.0001, 0.9999]
};

// MuJoCo parameters of one contact: solref="-s0 -s1" (direct form) and solimp="dmin dmax width 0.5 2".
struct MujocoContact {
  double solref[2] = {0, 0};   // both negative (direct stiffness/damping)
  double solimp[5] = {0, 0, 0, 0.5, 2};
  double time_scale = 1;       // MuJoCo's contact transient lasts time_scale times the Kelvin-Voigt one
};

// Mapping for a contact whose effective mass (as MuJoCo's diagApprox sees it) is `mass` [kg]. Beyond the transition
// MuJoCo's normal dynamics are delta'' = (1-d) a_ext - s1 delta' - s0 delta (s = -solref, d = dmax); choosing
// s0 = (1-d) K/m and s1 = sqrt(1-d) D/m makes them the Kelvin-Voigt equation m delta'' = m a_ext - D delta' - K delta
// in the time tau = sqrt(1-d) t: same static penetration, same restitution, transients 1/sqrt(1-d) longer.
// Throws std::invalid_argument naming the parameter when a value is out of range.
MujocoContact kelvin_voigt_to_mujoco(const KelvinVoigt& kv, double mass);

// Kelvin-Voigt static penetration of a body of mass m resting under acceleration g: m g / K [m].
double kv_static_penetration(const KelvinVoigt& kv, double mass, double gravity);
// Damping ratio zeta = D / (2 sqrt(K m)).
double kv_damping_ratio(const KelvinVoigt& kv, double mass);
// Coefficient of restitution of a linear spring-damper impact without gravity: exp(-zeta pi / sqrt(1 - zeta^2))
// for zeta < 1, 0 (no rebound) otherwise.
double kv_restitution(const KelvinVoigt& kv, double mass);
// Rebound velocity of a Kelvin-Voigt impact at speed v0 under gravity g, by integrating the contact ODE (RK4, fine
// step) until the indentation returns to 0; exact up to the integration error (< 1e-9 relative).
double kv_rebound_speed(const KelvinVoigt& kv, double mass, double gravity, double v0);

}  // namespace mjhand
