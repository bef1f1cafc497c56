// The "torque_control" plugin type: the thin adapter that configures a torque_control/torque_control.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "torque_control": sensor_joints=s1,..  actuators=a1,..  kps=  torque_ref=
// (alpha_deg= beta_deg= chi=) or k_theta=   [u_min= u_max=] [fault_ctrl=0].
std::unique_ptr<Plugin> make_torque_control_plugin(const mjModel* m, const Config& cfg);

// The plugin type "torque_control" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType torque_control_plugin_type();

}  // namespace mjhand
