// The hand as mjhand's grasp tools first inferred it, kept as the reference the structure inference
// (infer_hand_structure, core/mjhand/grasp/hand_structure.h) is tested against: no tool uses it any more.
#pragma once

#include <mujoco/mujoco.h>

#include <mjhand/grasp/contact_frames.h>

namespace mjhand_test {

// One finger per moving root, i.e. every body with joints whose parent is static (welded to the world), except the
// object's subtree and other free-jointed bodies (those are objects, not fingers). A palm welded to the world
// therefore gives one finger per palm child; a hand on a jointed arm or slide base is one finger, and palm contacts
// are not counted. Throws GraspError when no such body exists.
mjhand::HandModel hand_from_moving_roots(const mjModel* m, int object_body);

}  // namespace mjhand_test
