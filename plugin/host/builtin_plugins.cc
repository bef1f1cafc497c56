// The plugin types mjhand ships. Each feature adds its line here (like mujoco_mpc's task registry).
#include "host/registry.h"
#include "posture/posture.h"
#include "sensors/fingertip_kinematics.h"

namespace mjhand {

void register_builtin_plugins(PluginRegistry& registry) {
  registry.add({"posture", "moves actuator setpoints to a target posture (first-order, time constant tau)",
                make_posture_plugin});
  registry.add({"fingertip_kinematics", "fingertip position (+ manipulability) from mjhand's DH forward kinematics",
                make_fingertip_kinematics_plugin});
}

}  // namespace mjhand
