// Reads the DH chains a generated model carries (<custom> numeric "mjhand:chain:<finger>") back out of a compiled
// mjModel, with the MuJoCo addresses needed to feed them qpos and compare them with sites and mj_jacSite.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <mjhand/kinematics/dh_chain.h>

namespace mjhand {

struct ModelChain {
  Chain chain;                     // base in the palm body frame until set_world_bases() moves it to the world
  Eigen::Isometry3d base_in_palm;  // the embedded base, kept so the world base can be recomputed every step
  int palm_body = -1;              // body the finger hangs from (parent of <finger>_link1)
  int tip_site = -1;               // <finger>_tip
  std::vector<int> joint_ids, qpos_adr, dof_adr;  // per link, joints <finger>_j<k>
};

// Every embedded finger chain in field order; throws std::runtime_error naming the malformed numeric field or the
// missing/mismatched joint, body or site, or naming the finger and the discrepancy (> 1e-9) when the model does not
// realise its chain: a joint axis other than the body's z, a joint off the body origin, a nonzero qpos0 (ref), or
// joint axes and tip site pose at qpos0 (one mj_kinematics on a scratch mjData) that differ from the chain's FK.
std::vector<ModelChain> read_model_chains(const mjModel* m);

// Offset between a joint's DH angle and its qpos (the DH row's theta) in a generated hand; throws
// std::runtime_error when the joint belongs to no embedded chain.
double dh_angle_offset(const mjModel* m, int joint);

// True when no joint or mocap moves the body, i.e. its world pose is a model constant.
bool body_is_fixed(const mjModel* m, int body);

// World pose of a body from model constants; only meaningful when body_is_fixed().
Eigen::Isometry3d fixed_body_pose(const mjModel* m, int body);

// World pose of a body from mjData (xpos/xmat, valid after mj_kinematics).
Eigen::Isometry3d body_pose(const mjData* d, int body);

// Sets chain.base = palm world pose * base_in_palm. d may be null only when every palm is fixed (model constants
// suffice then); a moving palm without d throws.
void set_world_bases(const mjModel* m, const mjData* d, std::vector<ModelChain>& chains);

// Copies the chain's joint values out of qpos (q must hold chain.dof() values).
void gather_joint_positions(const ModelChain& mc, const mjtNum* qpos, double* q);

}  // namespace mjhand
