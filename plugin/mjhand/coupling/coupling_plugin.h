// Plugin type "coupling": an underactuated finger's linkage as a stiff passive spring-damper that pulls a driven
// joint onto theta_joint = law(theta_driver) (kCapPassive, adds into qfrc_passive; the force is the core's
// CouplingSpring, core/mjhand/coupling/coupling_spring.h). The force is the gradient of
// V = k/2 e^2 with e = q_joint - law(q_driver), i.e. J^T of the coupling map, so it does no net work and
// loads the driver with the reaction the linkage would carry. The alternative mechanism is MuJoCo's joint equality
// (hand description `couplings:`); docs/berul-coupling.md compares the two.
#pragma once

#include <memory>

#include <mjhand/coupling/coupling_spring.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Keys: joint=J (driven) driver=J coef=c0,c1[,c2,c3,c4] (theta_joint = sum c_k theta_driver^k, rad)
// angles=qpos|dh (default qpos: theta = qpos; dh: theta = qpos + the joint's DH theta offset, read from the chains a
// generated hand embeds, so the law is the paper's). Gains, absolute or scale-free: stiffness=K [N m/rad] or
// frequency=F [Hz] (K = I (2 pi F)^2), damping=B [N m s/rad] (default 0) or damping_ratio=Z (B = 2 Z sqrt(K I)),
// I = 1 / (J M^-1 J^T) the coupling coordinate's inertia at qpos0. integration=explicit (default; refused when
// (h^2 K + 2 h B) / I > 2, half the stability limit) | implicit (backward Euler on the coupling coordinate: stable for
// any gains, static stiffness K / (1 + h (B + h K) / I)).
// Attach fails when, over the driver's range, the law drives the joint outside its range.
std::unique_ptr<Plugin> make_coupling_plugin(const mjModel* m, const Config& cfg);

// The plugin type "coupling" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType coupling_plugin_type();

}  // namespace mjhand
