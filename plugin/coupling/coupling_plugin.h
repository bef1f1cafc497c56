// Plugin type "coupling": an underactuated finger's linkage as a stiff passive spring-damper that pulls a driven
// joint onto theta_joint = law(theta_driver) (kCapPassive, adds into qfrc_passive). The force is the gradient of
// V = k/2 e^2 with e = q_joint - law(q_driver), i.e. J^T of the coupling map, so it does no net work and
// loads the driver with the reaction the linkage would carry. The alternative mechanism is MuJoCo's joint equality
// (hand description `couplings:`); docs/berul-coupling.md compares the two.
#pragma once

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

// Keys: joint=J (driven) driver=J coef=c0,c1[,c2,c3,c4] (theta_joint = sum c_k theta_driver^k, rad)
// stiffness=K [N m/rad] damping=B [N m s/rad] (default 0) angles=qpos|dh (default qpos: theta = qpos; dh: theta =
// qpos + the joint's DH theta offset, read from the chains a generated hand embeds, so the law is the paper's).
// Attach fails when, over the driver's range, the law drives the joint outside its range.
std::unique_ptr<Plugin> make_coupling_plugin(const mjModel* m, const Config& cfg);

// Offset between a joint's DH angle and its qpos (the DH row's theta) in a generated hand; throws
// std::runtime_error when the joint belongs to no embedded chain.
double dh_angle_offset(const mjModel* m, int joint);

}  // namespace mjhand
