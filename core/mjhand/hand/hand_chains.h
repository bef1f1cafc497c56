// Spec -> kinematic chains, so mjhand's DH FK of a described hand can be compared with MuJoCo's.
#pragma once

#include <vector>

#include <mjhand/hand/hand_spec.h>
#include <mjhand/kinematics/dh_chain.h>

namespace mjhand {

// One chain per finger, in spec order, with the base in the palm frame (what the MJCF embeds).
std::vector<Chain> hand_chains_in_palm(const HandSpec& spec);

// One chain per finger with the base in the world: palm pose (initial pose for a free palm) * finger base.
std::vector<Chain> hand_chains(const HandSpec& spec);

}  // namespace mjhand
