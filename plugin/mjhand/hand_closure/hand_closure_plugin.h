// The "hand_closure" plugin type: the thin adapter that configures a hand_closure/hand_closure.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "hand_closure": detector=CONTACT_DETECTION_INSTANCE (required), actuators=all|a,b,... (position
// actuators on finger joints <finger>_j<k>; default all), increment=v|v1,v2,... [rad/step] (required), start=0 [s].
// The signal sensor is read with the delay of one step: the detector samples at the end of a step, the controller
// runs in the next step's actuation stage.
std::unique_ptr<Plugin> make_hand_closure_plugin(const mjModel* m, const Config& cfg);

// The plugin type "hand_closure" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType hand_closure_plugin_type();

}  // namespace mjhand
