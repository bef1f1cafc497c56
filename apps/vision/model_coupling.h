// The finger an image sweep drives, read from a model: its DH chain (joint addresses, theta offsets), its actuator,
// and the coupling laws its joint equalities impose, restated in DH angles for comparison with the images.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <string>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/hand/model_chains.h>

namespace mjhand::vision {

struct MarkerFinger {
  TreeChain chain;                 // three planar links theta_1..theta_3 (chain.dh: the table)
  std::array<int, 3> qpos_adr{};
  std::array<double, 3> offset{};  // DH theta offsets: theta = q + offset
  int actuator = -1;               // the actuator on joint 1
};

// The chain named `finger` ("" = the model's only chain) with three links and an actuator on its first joint;
// throws std::runtime_error naming what is missing.
MarkerFinger find_marker_finger(const mjModel* m, const std::string& finger);

// theta_(k+1) = law(theta_k) for k = 1, 2 (index 0, 1) from the model's joint equality between the two joints: MuJoCo
// constrains q_y - y0 = sum a_j (q_x - x0)^j, so theta_y = y0 + off_y + sum a_j (theta_x - x0 - off_x)^j, re-expanded
// in powers of theta_x. Throws std::runtime_error when no such equality exists.
CouplingLaw equality_law(const mjModel* m, const MarkerFinger& f, int k);

// The DH angles of the finger in d (theta = qpos + offset).
std::array<double, 3> finger_angles(const MarkerFinger& f, const mjData* d);

}  // namespace mjhand::vision
