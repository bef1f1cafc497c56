// The planning problem of any MJCF scene with a hand and a free object (`mjhand plan MODEL.xml`, docs/planner.md,
// "Any MJCF hand"): the hand inferred as everywhere else (infer_hand_structure), its closing directions probed in
// MuJoCo itself, the hand closed through its own actuators' ctrl (CtrlClosure) instead of mjhand's hand_closure plugin.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include "grasp_planner.h"

namespace mjhand::planner {

// Which way each actuator closes the hand, checked in MuJoCo with contacts and gravity off. The closing side of an
// actuator is the side of its ctrlrange with the larger share from its hold value at qpos0 (a length target: the
// actuator's length there; a motor: 0), at least 2:1, as robot hands' flexion ranges are (docs/planner.md); an
// actuator counts when, driven to that end for `duration` with the others holding, it moves a finger joint by more
// than 1 mrad (the wrist alone does not count).
struct ActuatorProbe {
  std::vector<double> sign;       // per actuator: +1 rising ctrl closes, -1 falling ctrl closes, 0 neither
  std::vector<char> position;     // per actuator: ctrl is a length target (gain kp, bias -kp length)
  std::vector<std::vector<double>> closing_qpos;  // per actuator: qpos at its closing end (empty when sign 0)
};
ActuatorProbe probe_actuators(const mjModel* m, const HandModel& hand, double duration = 0.3);

// The free-jointed body to grasp: `name` if given (it must have one free joint), else the only free-jointed body
// outside the hand. Throws std::invalid_argument naming the candidates otherwise.
int mjcf_object(const mjModel* m, const std::string& name);

// The default problem of an MJCF scene (default_problem's search box) with the hand closed by ctrl: closing signs
// from probe_actuators, eigengrasps "close" and "proximal_distal" over the joint-driven closing actuators
// (closure_eigengrasps) or, for a hand driven through tendons or linkages only, one "close" column: the probed
// closing motion of every closing actuator, scaled so that no joint moves more than 1 rad per unit. Throws
// std::invalid_argument when no actuator closes the hand.
PlanProblem mjcf_problem(const mjModel* m, int object);

}  // namespace mjhand::planner
