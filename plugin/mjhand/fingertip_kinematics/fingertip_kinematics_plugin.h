// Sensor plugin "fingertip_kinematics": fingertip position from mjhand's own forward kinematics, optionally with the
// finger's manipulability: the DH chains embedded in a generated hand model, or for any other model a serial chain
// read from its kinematic tree (hand/tree_chains.h). Running it live next to MuJoCo's site_xpos / xpos is the
// in-simulation form of mjhand's FK cross-check.
#pragma once

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// sensors=S1,S2,...: plugin sensors with objtype="site" (a fingertip site) or objtype="body" (the body's origin), 3
// values (tip position, world frame, m) or 4 with manipulability=true (plus sqrt(det(Jp Jp^T)) of the position
// Jacobian). A site that ends an embedded DH chain uses that chain; any other tip the tree chain from root=BODY
// (default: the nearest ancestor where bodies branch, finger_branch_body) over its hinge and slide joints.
std::unique_ptr<Plugin> make_fingertip_kinematics_plugin(const mjModel* m, const Config& cfg);

// The plugin type "fingertip_kinematics" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType fingertip_kinematics_plugin_type();

}  // namespace mjhand
