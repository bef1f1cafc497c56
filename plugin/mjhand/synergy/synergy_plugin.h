// The "synergy" plugin type: the thin adapter that configures a synergy/synergy.h controller from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>
#include <mjhand/synergy/synergy.h>

namespace mjhand {

// Plugin type "synergy" (plugin/mjhand/synergy/README.md): file=SYNERGIES.csv, or joints=J1,...,Jn q0=... S=... (the
// file's rows inline: S holds s1 then s2 ... sk, n values each); inputs=Z1,...,Zk (actuators bound to the instance
// whose ctrl is z; they give no force); actuators=all|A1,... (default all: every other actuator bound to the
// instance, one per synergy joint, matched by the joint it drives); kq=K|K1,...,Kn [N m/rad]; kd=D|D1,... (default 0).
std::unique_ptr<Plugin> make_synergy_plugin(const mjModel* m, const Config& cfg);

// The controller configured in a "synergy" plugin object (e.g. the plugin of an InstanceList entry: its
// options().synergies hold joints, q0 and S as the instance read them, file or inline; joints() their ids and dof
// addresses in the model), or nullptr for a plugin of another type.
const SynergyController* synergy_controller(const Plugin& plugin);

// The plugin type "synergy" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType synergy_plugin_type();

}  // namespace mjhand
