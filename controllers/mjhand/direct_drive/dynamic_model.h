// The direct-drive hand's closed-form dynamics as a computed_torque DynamicModel (`model=direct_drive`): fingers are
// read from a generated model (embedded DH chain, link bodies' mass, centre of mass and I_zz, joint armature, the
// fixed palm's orientation and the model's gravity) and evaluated with section 3.2's M, V, G instead of MuJoCo's
// CRB/RNE. Fingers on a fixed palm do not couple, so M is block diagonal.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <vector>

#include <mjhand/computed_torque/computed_torque.h>
#include <mjhand/direct_drive/finger.h>
#include <mjhand/hand/model_chains.h>

namespace mjhand {

// A finger of a compiled model in closed-form terms; throws std::invalid_argument naming the finger and what does
// not fit section 3.2's planar model (convention, twists, offsets along Z, tool, centre of mass off the link's X
// axis, inertia not principal about Z).
DirectDriveFinger finger_from_model(const mjModel* m, const TreeChain& chain);

// The gravity vector of a model (m->opt.gravity, zero when disabled) in the frame of a fixed palm body; throws
// std::invalid_argument when the palm moves (section 3.2 assumes a stationary palm).
Eigen::Vector3d model_gravity_in_palm(const mjModel* m, int palm_body);

class DirectDriveDynamicModel : public DynamicModel {
 public:
  // fingers[k] drives joints 3k..3k+2; gravity_base[k] is the gravity vector in that finger's frame {0}.
  DirectDriveDynamicModel(std::vector<DirectDriveFinger> fingers, std::vector<Eigen::Vector3d> gravity_base);
  // Three joints per finger.
  int dof() const override { return 3 * static_cast<int>(fingers_.size()); }
  // M block diagonal (one 3 x 3 block per finger), h = V + G.
  void evaluate(const double* q, const double* qd, double* M, double* h) const override;

 private:
  std::vector<DirectDriveFinger> fingers_;
  std::vector<Eigen::Vector3d> gravity_;
};

// Factory behind model=direct_drive: the joints must be whole fingers of a generated hand, each as its three
// joints in order (e.g. joints=all on the direct-drive hand). Throws std::invalid_argument saying what is wrong.
std::unique_ptr<DynamicModel> make_direct_drive_model(const mjModel* m, const std::vector<int>& joints);

// Registers make_direct_drive_model as `direct_drive` with computed_torque; safe to call more than once.
void register_direct_drive_model();

}  // namespace mjhand
