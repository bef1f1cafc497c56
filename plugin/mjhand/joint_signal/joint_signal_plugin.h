// The sensor plugin "joint_signal": writes the BERUL actuator sensor's signal M (coupling/linear_sensor.h) into its
// sensor from the simulated joint angle.
#pragma once

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>
#include <mjhand/coupling/linear_sensor.h>

namespace mjhand {

// Keys: joint=J sensor=S (its own <sensor><plugin>, one value) gain=G (nonzero) offset=O
// angles=qpos|dh (as for "coupling": dh adds the joint's DH theta offset to qpos).
std::unique_ptr<Plugin> make_joint_signal_plugin(const mjModel* m, const Config& cfg);

// The plugin type "joint_signal" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType joint_signal_plugin_type();

}  // namespace mjhand
