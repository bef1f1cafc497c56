// Plugin type "coil_actuator": the direct-drive hand's coil actuator (Ebner & Wallace 1994, 4.1/5.5/5.6) as an
// actuator plugin. ctrl is the coil current command [A]; the joint torque is K_T(phi) I with I the command clipped by
// the driver (I_max, V_max through R(dT) and back-EMF); the coil's temperature rise dT [K] is the actuator's
// activation d->act, integrated by MuJoCo from C d(dT)/dt = I^2 R(dT) - dT / R_th. See docs/coil-actuator.md.
//
// MJCF, per coil: <actuator><plugin joint=".." instance=".." [actdim="1" with the thermal model]/> (gear 1; no
// ctrllimited/forcelimited/actlimited). The plugin returns gain 0 and puts the whole torque into the bias, so the
// temperature (act) never multiplies it. Optional sensors <sensor><plugin instance=..> (4 values, acceleration
// stage), one per actuator: dT [K], applied current [A], clipped flag (CoilLimit: 0, 1 clipped, 2 non-finite
// command), electrical power [W].
#pragma once

#include <memory>

#include <mjhand/coil_actuator/coil_model.h>
#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Factory of plugin type "coil_actuator". Keys (one value, or one per actuator, unless noted):
//   actuators=a1,..  [link=1|2|3 (preset from the paper's tables)]  [kt_model=sin2|poly]  [kt_max= N m/A]
//   [kt_poly=c0,..,c4 (5, or 5 per actuator)]  [phi_offset= rad]  [R0= ohm]  [alpha_R=0.00393 1/K]  [I_max=3 A]
//   [V_max=0 V (none)]  [thermal=true]  [C= J/K]  [R_th= K/W]  [sensors=s1,..]
// Without `link`, kt_max (kt_poly for poly), R0 and (thermal) C, R_th are required; given keys override the preset.
std::unique_ptr<Plugin> make_coil_actuator_plugin(const mjModel* m, const Config& cfg);

// The parameters of the coil that drives actuator `actuator` of m (as configured in d's instances), or nullptr when
// no coil_actuator instance owns it: controllers use it for the inverse map (CoilParams::current_for_torque).
const CoilParams* find_coil(const mjModel* m, const mjData* d, int actuator);

// The state of a coil in d as the plugin sees it: actuator angle, its rate, temperature rise (0 without the thermal
// model), and the current the driver applies for the present ctrl. Valid once qpos/qvel/act/ctrl are set.
struct CoilState {
  double phi = 0, phidot = 0, dT = 0;
  CoilCurrent current;
};
// Throws std::invalid_argument if `actuator` is not driven by a coil_actuator instance of m.
CoilState coil_state(const mjModel* m, const mjData* d, int actuator);

// The plugin type "coil_actuator" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType coil_actuator_plugin_type();

}  // namespace mjhand
