// Reads the DH chains a generated model carries (<custom> numeric "mjhand:chain:<finger>") back out of a compiled
// mjModel as TreeChains (hand/tree_chains.h) whose `dh` holds the table: the MuJoCo addresses needed to feed them qpos
// and compare them with sites and mj_jacSite come with them.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <mjhand/hand/tree_chains.h>

namespace mjhand {

// Every embedded finger chain in field order, each a TreeChain with: dh = the table (name = the finger), chain =
// to_serial_chain(dh), root_body = the palm (parent of <finger>_link1), base_in_root = dh.base = chain.base = the
// embedded base in the palm frame (until set_world_bases), tip_site = <finger>_tip, joint_ids/qpos_adr/dof_adr per
// link (joints <finger>_j<k>). Throws std::runtime_error naming the malformed numeric field or the
// missing/mismatched joint, body or site, or naming the finger and the discrepancy (> 1e-9) when the model does not
// realise its chain: a joint axis other than the body's z, a joint off the body origin, a nonzero qpos0 (ref), or
// joint axes and tip site pose at qpos0 (one mj_kinematics on a scratch mjData) that differ from the chain's FK.
std::vector<TreeChain> read_model_chains(const mjModel* m);

// Offset between a joint's DH angle and its qpos (the DH row's theta) in a generated hand; throws
// std::runtime_error when the joint belongs to no embedded chain.
double dh_angle_offset(const mjModel* m, int joint);

// True when no joint or mocap moves the body, i.e. its world pose is a model constant.
bool body_is_fixed(const mjModel* m, int body);

// World pose of a body from model constants; only meaningful when body_is_fixed().
Eigen::Isometry3d fixed_body_pose(const mjModel* m, int body);

// World pose of a body from mjData (xpos/xmat, valid after mj_kinematics).
Eigen::Isometry3d body_pose(const mjData* d, int body);

// Sets chain.base and dh.base = palm world pose * base_in_root. d may be null only when every palm is fixed (model
// constants suffice then); a moving palm without d throws.
void set_world_bases(const mjModel* m, const mjData* d, std::vector<TreeChain>& chains);

}  // namespace mjhand
