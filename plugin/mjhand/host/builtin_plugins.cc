// The plugin types mjhand ships, one line each (like mujoco_mpc's task registry). Each type's name, summary,
// factory, keys and capabilities are declared beside its factory (plugin/mjhand/<type>/<type>_plugin.cc,
// <type>_plugin_type()).
#include <mjhand/direct_drive/dynamic_model.h>
#include <mjhand/host/registry.h>
#include <mjhand/coil_actuator/coil_actuator_plugin.h>
#include <mjhand/computed_torque/computed_torque_plugin.h>
#include <mjhand/contact_detection/contact_detection_plugin.h>
#include <mjhand/coupling/coupling_plugin.h>
#include <mjhand/dc_motor/dc_motor_plugin.h>
#include <mjhand/fingertip_kinematics/fingertip_kinematics_plugin.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>
#include <mjhand/hand_closure/hand_closure_plugin.h>
#include <mjhand/hand_object/hand_object_plugin.h>
#include <mjhand/joint_signal/joint_signal_plugin.h>
#include <mjhand/pid/pid_plugin.h>
#include <mjhand/posture/posture_plugin.h>
#include <mjhand/synergy/synergy_plugin.h>
#include <mjhand/torque_control/torque_control_plugin.h>

namespace mjhand {

void register_builtin_plugins(PluginRegistry& registry) {
  registry.add(posture_plugin_type());
  registry.add(fingertip_kinematics_plugin_type());
  registry.add(grasp_analysis_plugin_type());
  registry.add(pid_plugin_type());
  registry.add(dc_motor_plugin_type());
  registry.add(coil_actuator_plugin_type());
  registry.add(torque_control_plugin_type());
  registry.add(computed_torque_plugin_type());
  registry.add(hand_object_plugin_type());
  registry.add(coupling_plugin_type());
  registry.add(joint_signal_plugin_type());
  registry.add(contact_detection_plugin_type());
  registry.add(hand_closure_plugin_type());
  registry.add(synergy_plugin_type());
  register_direct_drive_model();  // computed_torque's model=direct_drive (closed-form M, V, G of the direct-drive hand)
}

}  // namespace mjhand
