// The "torque_control" plugin type: the thin adapter that configures a torque_control/torque_control.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

// Plugin type "torque_control": sensor_joints=s1,..  actuators=a1,..  kps=  torque_ref=
// (alpha_deg= beta_deg= chi=) or k_theta=   [u_min= u_max=] [fault_ctrl=0].
std::unique_ptr<Plugin> make_torque_control_plugin(const mjModel* m, const Config& cfg);

}  // namespace mjhand
