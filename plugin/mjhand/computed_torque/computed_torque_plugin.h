// The "computed_torque" plugin type: the thin adapter that configures a computed_torque/computed_torque.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "computed_torque"; keys in docs/controllers.md and plugin/mjhand/computed_torque/README.md.
std::unique_ptr<Plugin> make_computed_torque_plugin(const mjModel* m, const Config& cfg);

// The plugin type "computed_torque" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType computed_torque_plugin_type();

}  // namespace mjhand
