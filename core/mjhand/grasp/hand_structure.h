// Hand structure of any MJCF hand: which bodies are the wrist/arm, the palm and each finger, inferred from the
// kinematic tree and the loop-closing equality constraints (docs/grasp-analysis.md, "Hand structure and actuation").
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>

namespace mjhand {

// What the caller fixes; everything left at its default is inferred.
struct HandStructureOptions {
  int palm = -1;                 // palm body id; -1: the body where the fingers branch
  std::vector<int> fingers;      // finger root body ids; empty: one finger per (loop-merged) branch below the palm
  bool include_wrist = false;    // the wrist/arm dofs (base .. palm) become columns of J_H too
  std::vector<int> finger_tips;  // optional tip bodies, one per finger (any order; each inside a different finger)
};

// The hand around `object_body` (-1: no object, e.g. `mjhand run` without one):
// - palm: given, else found by walking down from the world while exactly one branch holds joints (those bodies are
//   the wrist/arm/free or mocap base); the first body with two or more branches is the palm. A branch is a child
//   subtree with a hinge, slide or ball joint, outside the object and outside loose free bodies (a free body with no
//   joint below it); branches joined by a connect or weld equality (a closed loop, e.g. a 4-bar finger) are one
//   branch. When the branching body is the world, there is no palm (palm_body = -1, fingers = the branches); when no
//   body branches (a single chain), the chain below its last jointless ancestor is the one finger.
// - fingers: given roots (each root's subtree), else the palm's branches; a body below the palm outside every given
//   finger joins the finger its subtree is loop-connected to. A finger's name is its root with the most dofs.
// - palm_of_body: the palm and the bodies fixed to it (no joint between) that belong to no finger.
// - dofs: the fingers' dofs and those between the palm and a finger root; wrist_dofs: those of the palm and above
//   (added to dofs with include_wrist). The object's dofs are never hand dofs.
// - finger_tip: the given tip bodies by finger (-1 where none was given; chains/IK choose their own then).
// Throws GraspError naming the body for: a bad id, a tip outside every finger or two tips in one finger, the world or the object (or its subtree) as palm or finger, a
// finger root listed twice or inside another, a finger root outside the given palm's subtree or at/above the palm,
// a palm with no branch below it, a model with no joint outside the object.
HandModel infer_hand_structure(const mjModel* m, int object_body, const HandStructureOptions& options = {});

// Options from body names as a user gives them: palm (empty: inferred) and fingers (comma-separated root bodies,
// empty: inferred). Throws GraspError "<origin_palm>: no body named 'X'" / "<origin_fingers>: ... entry K ..." for an
// unknown or empty name; the structural checks are infer_hand_structure's.
HandStructureOptions hand_structure_options(const mjModel* m, const std::string& palm, const std::string& fingers,
                                            bool include_wrist, const std::string& origin_palm = "palm",
                                            const std::string& origin_fingers = "fingers");

// Adds tip bodies (comma-separated names, "" for none) to o.finger_tips; unknown names throw GraspError
// "<origin>: ...".
void add_finger_tips(const mjModel* m, const std::string& tips, HandStructureOptions& o,
                     const std::string& origin = "finger_tips");

// One line for reports: "palm 'P', wrist dofs [..], fingers: 'F1' (roots ...), ...".
std::string describe_hand_structure(const mjModel* m, const HandModel& hand);

}  // namespace mjhand
