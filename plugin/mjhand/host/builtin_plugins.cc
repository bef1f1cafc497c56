// The plugin types mjhand ships. Each feature adds its line here (like mujoco_mpc's task registry): name, summary,
// factory, every configuration key the factory reads (the native plugin's attributes) and, for sensors, their stage.
#include <mjhand/coil_actuator/coil_actuator_plugin.h>
#include <mjhand/coupling/coupling_plugin.h>
#include <mjhand/coupling/joint_signal_plugin.h>
#include <mjhand/computed_torque/computed_torque_plugin.h>
#include <mjhand/dc_motor/dc_motor_plugin.h>
#include <mjhand/direct_drive/dynamic_model.h>
#include <mjhand/hand_closure/hand_closure_plugin.h>
#include <mjhand/hand_object/hand_object_plugin.h>
#include <mjhand/host/registry.h>
#include <mjhand/pid/pid_plugin.h>
#include <mjhand/posture/posture_plugin.h>
#include <mjhand/sensors/contact_detection.h>
#include <mjhand/sensors/fingertip_kinematics.h>
#include <mjhand/sensors/grasp_analysis.h>
#include <mjhand/synergy/synergy_plugin.h>
#include <mjhand/torque_control/torque_control_plugin.h>

namespace mjhand {

namespace {
// Adds `type` with the capabilities its instances use (PluginType::capabilities).
void add(PluginRegistry& registry, int capabilities, PluginType type) {
  type.capabilities = capabilities;
  registry.add(std::move(type));
}
}  // namespace

void register_builtin_plugins(PluginRegistry& registry) {
  add(registry, kCapControl, {"posture", "moves actuator setpoints to a target posture (first-order, time constant tau)",
                make_posture_plugin,
                {"actuators", "target", "tau", "start", "kp", "kv"}});
  add(registry, kCapSensor, {"fingertip_kinematics", "fingertip position (+ manipulability) from mjhand's DH forward kinematics",
                make_fingertip_kinematics_plugin,
                {"sensors", "manipulability", "root"}, mjSTAGE_POS});
  add(registry, kCapSensor, {"grasp_analysis", "per-step grasp metrics: sigma_min(G), closure, forces", make_grasp_analysis_plugin,
                {"object", "sensor", "fingers", "palm", "finger_tips", "with_wrist", "palm_contact", "epsilon", "epsilon_every", "cone_edges", "max_contacts", "max_points", "outputs"}, mjSTAGE_ACC});
  add(registry, kCapControl, {"pid", "digital PID joint controller: own sample period, zero-order hold, anti-windup, D/A + encoder",
                make_pid_plugin,
                {"joints", "actuators", "setpoint", "kp", "ki", "kd", "period", "tf", "derivative", "u_min", "u_max", "dac_bits", "encoder_cpr", "fault_ctrl"}});
  add(registry, kCapActuator, {"dc_motor", "DC-motor joint actuator (voltage in, gear n): gain ki/(R n), back-EMF + friction bias",
                make_dc_motor_plugin,
                {"actuators", "n", "kb", "ki", "R", "Ja", "Jm", "Ba", "Bm", "check_armature"}, mjSTAGE_POS, true});
  add(registry, kCapActuator | kCapSensor, {"coil_actuator", "direct-drive coil actuator (current in): K_T(phi) I, I/V limits, R(T), heating as act",
                make_coil_actuator_plugin,
                {"actuators", "sensors", "thermal", "link", "kt_model", "kt_max", "kt_poly", "phi_offset", "R0", "alpha_R", "R_th", "C", "I_max", "V_max"}, mjSTAGE_ACC, true, 4});
  add(registry, kCapControl, {"torque_control", "joint torque control tau_a = k_ps (tau_r - tau_f) with a compliant torque sensor",
                make_torque_control_plugin,
                {"actuators", "sensor_joints", "torque_ref", "kps", "k_theta", "chi", "alpha_deg", "beta_deg", "fault_ctrl"}});
  add(registry, kCapControl, {"computed_torque", "computed-torque / feed-forward joint control on quintic, cosine or via-point paths",
                make_computed_torque_plugin,
                {"joints", "actuators", "finger", "law", "model", "trajectory", "start", "q0", "q1", "T", "durations", "points", "blend", "root", "posture_gain", "amplitude_deg", "offset_deg", "rate_deg", "kp", "kv", "compensate_passive", "e_p", "e_v", "e_a", "e_tau", "e_p_scale", "error_period", "error_hold", "seed"}});
  add(registry, kCapControl, {"hand_object", "grasped-object pose control: Cartesian PID, G^+ W + squeeze", make_hand_object_plugin,
                {"object", "fingers", "tips", "palm", "trajectory", "start", "center", "amplitude", "frequency", "phase_deg", "rot_axis", "rot_amplitude_deg", "rot_phase_deg", "ramp", "kp", "kd", "ki", "kp_rot", "kd_rot", "ki_rot", "integral_limit", "integral_limit_rot", "approach_force", "min_normal_force", "friction_scale", "finger_acceleration", "compensate_passive", "lp_fallback"}});
  add(registry, kCapPassive, {"coupling", "underactuated linkage as a stiff passive spring-damper toward theta_y = poly(theta_x)", make_coupling_plugin,
                {"driver", "joint", "coef", "angles", "stiffness", "damping", "frequency", "damping_ratio", "integration"}});
  add(registry, kCapSensor, {"joint_signal", "linear actuator-sensor model: writes M = (theta - offset) / gain into a user sensor", make_joint_signal_plugin,
                {"joint", "sensor", "gain", "offset", "angles"}, mjSTAGE_POS, false, 1});
  // Samples the step's contact forces in advance, so it needs no acceleration stage (docs/scenes.md).
  add(registry, kCapSensor | kCapAdvance, {"contact_detection", "phalanx/palm contact 0/1 after N samples above a force threshold, + where", make_contact_detection_plugin,
                {"sensor", "where", "fingers", "palm", "threshold", "samples"}, mjSTAGE_POS});
  add(registry, kCapControl, {"hand_closure", "closes position-controlled fingers by an increment per step until each phalanx touches", make_hand_closure_plugin,
                {"actuators", "detector", "increment", "start", "kp", "kv"}});
  add(registry, kCapControl, {"synergy", "soft postural synergies: k inputs z drive n joints, tau = K_q (q0 + S z - q) - D qdot", make_synergy_plugin,
                {"file", "joints", "q0", "S", "inputs", "actuators", "kq", "kd"}});
  register_direct_drive_model();  // computed_torque's model=direct_drive (closed-form M, V, G of the direct-drive hand)
}

}  // namespace mjhand
