// The "posture" plugin type: the thin adapter that configures a posture/posture.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "posture": actuators=all|a,b,...  target=v|v1,v2,...  [tau=0.2] [start=0]; natively (mjhand.posture)
// also kp=K [kv=0]: its own actuators are the servos.
std::unique_ptr<Plugin> make_posture_plugin(const mjModel* m, const Config& cfg);

// The plugin type "posture" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType posture_plugin_type();

}  // namespace mjhand
