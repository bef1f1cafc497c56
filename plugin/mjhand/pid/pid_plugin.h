// The "pid" plugin type: the thin adapter that configures a pid/pid.h object from an instance's keys.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Plugin type "pid": joints=j1,.. and/or actuators=a1,..  setpoint=  kp=  [ki=0] [kd=0]  period=  [tf=0]
// [derivative=error|measurement] [u_min= u_max=] [dac_bits=0] [encoder_cpr=0] [fault_ctrl=0].
std::unique_ptr<Plugin> make_pid_plugin(const mjModel* m, const Config& cfg);

// Resolves "joints" and/or "actuators" keys into matching joint and actuator lists (shared by the joint
// controllers): each actuator must drive its joint through a joint transmission; hinge and slide joints only.
// With `tendons` given, an actuator named without joints= may instead drive a tendon: its entry measures the
// tendon (joints[j] = -1, (*tendons)[j] = tendon id; tendons stays empty when every entry is a joint). Site, body
// and slider-crank transmissions have no coordinate to measure: a named error asks for joints=.
void resolve_joint_actuators(const mjModel* m, const Config& cfg, std::vector<int>* joints, std::vector<int>* actuators,
                             std::vector<int>* tendons = nullptr);

// Output saturation of the joint controllers: keys u_min/u_max (both or neither, one or one per actuator), else
// each actuator's ctrlrange when it has one (so anti-windup knows the real limit), else unbounded.
void output_limits(const mjModel* m, const Config& cfg, const std::vector<int>& actuators, std::vector<double>* u_min,
                   std::vector<double>* u_max);

// The plugin type "pid" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType pid_plugin_type();

}  // namespace mjhand
