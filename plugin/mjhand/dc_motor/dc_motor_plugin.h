// The "dc_motor" plugin type: the thin adapter that configures a dc_motor/dc_motor.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "dc_motor": actuators=a1,..  R=  ki=  kb=  Jm=  [Ja=0] [Bm=0] [Ba=0]  n=  [check_armature=true].
// The actuators are the instance's own <actuator><plugin instance=...> with a joint transmission, gear 1, no
// activation, and (unless check_armature=false) joint armature (Ja + Jm) / n^2.
std::unique_ptr<Plugin> make_dc_motor_plugin(const mjModel* m, const Config& cfg);

// The plugin type "dc_motor" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType dc_motor_plugin_type();

}  // namespace mjhand
