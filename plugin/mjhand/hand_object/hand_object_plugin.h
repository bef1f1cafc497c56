// The "hand_object" plugin type: the thin adapter that configures a hand_object/hand_object.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "hand_object"; keys in docs/controllers.md and plugin/mjhand/hand_object/README.md.
std::unique_ptr<Plugin> make_hand_object_plugin(const mjModel* m, const Config& cfg);

// The plugin type "hand_object" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType hand_object_plugin_type();

}  // namespace mjhand
