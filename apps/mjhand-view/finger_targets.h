// Cartesian fingertip targets for the joint panel: the DH chains embedded in a generated hand are read back from
// the model, any other model's fingers are read from its kinematic tree (hand/tree_chains.h); planar direct-drive
// fingers get appendix C's closed-form IK from (x_T, y_T, gamma) in the finger base
// frame, every other chain mjhand's damped-least-squares IK from a world position (x, y, z). A solution becomes
// joint targets through the controlling instance's setpoint key or a position actuator's ctrl (see send()).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <vector>

#include <mjhand/direct_drive/finger.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/hand/tree_chains.h>
#include <mjhand/kinematics/dls_ik.h>

namespace mjhand::view {

class Session;

struct FingerTarget {
  TreeChain tree;                  // what the DLS IK, send and set_pose use: a generated hand's embedded DH chain
                                   // (tree.dh), or a finger read from the kinematic tree
  bool planar = false;             // direct-drive closed form (x_T, y_T, gamma) instead of world (x, y, z)
  DirectDriveFinger dd;            // valid when planar
  std::unique_ptr<DlsWorkspace> ws;
  double input[3] = {0, 0, 0};     // planar: x_T [m], y_T [m], gamma [rad] in {F}; else x, y, z [m, world]
  std::vector<double> q;           // last solution (joint angles, chain order) [rad or m]
  bool solved = false;
  std::string status;              // result of the last solve / send, for the panel
};

class FingerTargets {
 public:
  // Reads the embedded chains of m, else its fingers from the kinematic tree (model_finger_chains); a model with
  // neither gives an empty list and a note.
  explicit FingerTargets(const mjModel* m);
  std::vector<FingerTarget>& fingers() { return fingers_; }
  const std::string& note() const { return note_; }

  // Sets finger k's input fields from d's current fingertip pose.
  void read_current(const mjModel* m, const mjData* d, int k);
  // Solves finger k's IK from its input (seeded with d's joint values); fills q, solved, status.
  bool solve(const mjModel* m, const mjData* d, int k);
  // Sends finger k's solution as joint targets: for each joint, (1) the setpoint/target/q1 entry of the enabled
  // instance that drives its actuator's ctrl (one override per instance), else (2) the ctrl of an unowned position
  // actuator (clamped to ctrlrange). Returns what was done or why a joint got no target.
  std::string send(Session& s, int k);
  // Writes finger k's solution straight into qpos (zero velocity) and runs mj_forward: a pose preview, e.g. for
  // torque-driven fingers that have no position target.
  void set_pose(Session& s, int k);

 private:
  std::vector<FingerTarget> fingers_;
  std::string note_;
};

}  // namespace mjhand::view
