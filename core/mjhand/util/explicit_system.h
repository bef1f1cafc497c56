// A plugin's explicit PD loops on the whole model at qpos0: each loop alone, then all of them together, as MuJoCo's
// step would integrate them linearised about qpos0 (mass matrix with armature, joint and tendon damping filed
// implicit or explicit by the integrator, joint and tendon stiffness explicit; explicit_stability.h has the scheme).
// Servos on neighbouring joints of one finger couple through the mass matrix: three servos that are each stable on
// their own joint can diverge together (the largest eigenvalue of M^-1 exceeds every diagonal entry), which a
// per-joint check cannot see. The verdict is the spectral radius of the step's linear map (dimension 2 n, 3 n for a
// pid, n the dofs of the kinematic trees the loops reach: M has no entry across trees, so a free object elsewhere
// does not enlarge it), computed by repeated squaring; checked against MuJoCo in tests/plugin/host/test_stability_grid.cc.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <mjhand/util/explicit_stability.h>

namespace mjhand {

// One explicit PD loop of a plugin: u = -kp y - kd y' on y = measure . qvel-space displacement, applied along
// `force` (a generalized force direction).
struct ExplicitPd {
  std::vector<double> force, measure;  // nv each: the actuator's moment row m_a (or a coupling's J), and J_y
  double kp = 0, kd = 0;
  std::string label;  // for the message, e.g. "servo actuator 'a' on joint 'j'"
};

// The loop of actuator a's force on y = joint `joint` (>= 0), else tendon `tendon` (>= 0), else its own length, at qpos0.
ExplicitPd actuator_pd(const mjModel* m, int actuator, int joint, int tendon, double kp, double kd, std::string label);

// The loop of a generalized force on joint `joint`'s (first) dof, measured there (a joint-torque loop).
ExplicitPd joint_pd(const mjModel* m, int joint, double kp, double kd, std::string label);

// The spectral radius of one step of m's integrator about qpos0 under `loops` (with gains kp scaled by kp_scale):
// above 1 the motion grows every step.
double loops_step_amplification(const mjModel* m, const std::vector<ExplicitPd>& loops, ForceTiming timing,
                                double kp_scale = 1.0);

// "" when no loop diverges alone and the loops do not diverge together; else a message naming the first loop that
// diverges alone (its gains, the timestep, its inertia and damping, the amplification, the largest stable kp) or,
// when only all together do, the number of loops, the amplification and the factor below which every kp is stable,
// then `ways_out`.
std::string explicit_loops_problem(const mjModel* m, const std::vector<ExplicitPd>& loops, ForceTiming timing,
                                   const std::string& kp_unit, const std::string& kd_unit,
                                   const std::string& ways_out);

}  // namespace mjhand
