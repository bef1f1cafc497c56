// Serial chains read from any MJCF model's kinematic tree: a finger between a root body (the palm) and a tip (a
// body, a site, or a point on a body), with any joint axes, offsets, qpos0 (ref) and names. FK, Jacobian, IK and
// singularity measures then come from the kinematics core (forward_kinematics.h, dls_ik.h, singularity.h) on
// TreeChain::chain; identify_dh (kinematics/dh_identification.h) gives its DH table, serial_obstruction what makes a
// finger more than a serial chain (loops, couplings).
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <mjhand/kinematics/serial_chain.h>

namespace mjhand {

// Where a chain ends: a site, or a point fixed on a body (its origin by default).
struct ChainTip {
  int site = -1;                                             // >= 0: the site (its body and pose are used)
  int body = -1;                                             // with site < 0: the body carrying the tip
  Eigen::Isometry3d in_body = Eigen::Isometry3d::Identity();  // with site < 0: tip frame in the body frame
};

// A finger as a serial chain over MuJoCo's joints. Link i is the i-th hinge/slide joint on the tree path from
// root_body (excluded) to the tip body (included), in tree order; the joint variable is MuJoCo's qpos itself (qpos0
// is folded into the links), so q = qpos[qpos_adr[i]] and the limits are jnt_range (+-inf when unlimited).
struct TreeChain {
  SerialChain chain;          // base = base_in_root (root frame) until set_world_base moves it to the world
  Eigen::Isometry3d base_in_root = Eigen::Isometry3d::Identity();  // identity, or a DH chain's base (read_model_chains)
  int root_body = -1;
  int tip_body = -1;          // body carrying the tip
  int tip_site = -1;          // the tip site, or -1 (a point on tip_body)
  Eigen::Isometry3d tip_in_body = Eigen::Isometry3d::Identity();  // tool frame in tip_body's frame
  std::vector<int> joint_ids, qpos_adr, dof_adr;  // per link
  // A generated hand's finger (read_model_chains, hand/model_chains.h): the DH table it embeds, as the paper prints
  // it, with chain = to_serial_chain(dh) (the same FK bit for bit) and dh.base = chain.base; no links otherwise.
  Chain dh;

  bool embedded_dh() const { return dh.dof() > 0; }  // read from a generated hand's embedded DH table, not the tree
};

// The chain from root_body to tip. Throws std::invalid_argument naming the bodies when root_body is not a proper
// ancestor of the tip's body, when a ball or free joint lies on the path (only 1-dof joints make a serial chain),
// or when no hinge/slide joint does; out-of-range ids are refused likewise. chain.name = the tip's name.
TreeChain tree_chain(const mjModel* m, int root_body, const ChainTip& tip);

// By names: tip is a site name, else a body name (its origin). Throws naming an unknown name.
TreeChain tree_chain(const mjModel* m, const std::string& root_body, const std::string& tip);

// The default tip of a leaf (or any) body, documented in docs/kinematics.md: a site on the body whose name ends in
// "tip" if there is one, else the body's first site, else the point of the body's geoms farthest along the finger's
// last link direction (from the last joint's axis point toward the body's geoms' centre, at qpos0); a body without
// geoms: its origin. The direction needs the body's nearest joint at or above it (none: the body's own z axis).
ChainTip default_fingertip(const mjModel* m, int body);

// The nearest proper ancestor of `body` from which more than one child body hangs (where fingers branch off a
// palm), or the world (0) when there is none: the default root of a finger chain.
int finger_branch_body(const mjModel* m, int body);

// Candidate finger chains from a palm body: one per leaf body below palm_body (a body without children) whose path
// from the palm holds at least one hinge/slide joint and no ball/free joint, ending at default_fingertip(leaf),
// named after the leaf, in body order. palm_body = 0 (the world) lists every such leaf of the model.
std::vector<TreeChain> finger_chains(const mjModel* m, int palm_body);

// Every finger of a model whose palm is not known: finger_chains(m, 0), each re-rooted at finger_branch_body of its
// leaf (a leaf with no hinge/slide below that body is dropped), chains over kMaxStackChainDof (32) joints dropped.
std::vector<TreeChain> model_finger_chains(const mjModel* m);

// The finger chain ending at `tip`, as the fingertip_kinematics sensor and the tools resolve a fingertip: a generated
// hand's embedded DH chain (the paper's table) when the tip is that chain's tip site and root is -1 or its palm body;
// else the tree chain from root (-1: finger_branch_body of the tip's body) to the tip. `embedded` is
// read_model_chains(m), read once by the caller. Throws std::invalid_argument as tree_chain does.
TreeChain resolve_finger_chain(const mjModel* m, const std::vector<TreeChain>& embedded, const ChainTip& tip, int root);

// Why the chain is not a free serial mechanism in this model, "" when it is: the equality constraints that act on
// it (a connect or weld on a body its joints move closes a kinematic loop, as in a 4-bar finger; a joint or tendon
// equality couples its joints). The chain's FK, Jacobian and DH table (identify_dh) describe the open tree path
// without these constraints; the message names each constraint, its type and the bodies or joints involved.
std::string serial_obstruction(const mjModel* m, const TreeChain& tc);

// Sets chain.base (and dh.base) = the root body's world pose (xpos/xmat of d, valid after mj_kinematics) *
// base_in_root.
void set_world_base(const mjData* d, TreeChain& tc);

// Copies the chain's joint values out of qpos (q must hold chain.dof() values).
void gather_joint_positions(const TreeChain& tc, const mjtNum* qpos, double* q);

// The world pose of the chain's tip as MuJoCo computes it (site_xpos/xmat, or the body pose times tip_in_body):
// what the chain's FK must reproduce.
Eigen::Isometry3d mujoco_tip_pose(const mjData* d, const TreeChain& tc);

}  // namespace mjhand
