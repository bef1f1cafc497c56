// Sensor plugin "fingertip_kinematics": fingertip position from mjhand's own DH forward kinematics (the chains
// embedded in a generated hand model), optionally with the finger's manipulability. Running it live next to
// MuJoCo's site_xpos is the in-simulation form of mjhand's FK cross-check.
#pragma once

#include <memory>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

// sensors=S1,S2,...: <user> sensors with objtype="site" on a finger's tip site, needstage="pos", dim 3
// (tip position, world frame, m) or 4 (plus manipulability sqrt(det(Jp Jp^T)) of the position Jacobian).
std::unique_ptr<Plugin> make_fingertip_kinematics_plugin(const mjModel* m, const Config& cfg);

}  // namespace mjhand
