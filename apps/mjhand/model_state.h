// Model states given on the command line (keyframe by name or index, a qpos list), shared by the subcommands.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

namespace mjhand::cli {

// Keyframe by name, else by index; an unknown one throws UsageError listing what the model has.
int find_keyframe(const mjModel* m, const std::string& k);

// Throws std::runtime_error naming `origin` (e.g. "model.xml: keyframe 'grasp' (#0)"), the array, index and joint
// or actuator when the state a keyframe set holds NaN/Inf (MuJoCo would warn and reset at the first step).
void check_state_finite(const mjModel* m, const mjData* d, const std::string& origin);

// nq comma-separated finite numbers, else UsageError naming the bad value or the length mismatch.
std::vector<double> parse_qpos(const mjModel* m, const std::string& text);

// nu comma-separated finite numbers for d->ctrl, else UsageError naming the bad value, the length mismatch or the
// actuator whose ctrlrange the value leaves (MuJoCo would clamp it silently).
std::vector<double> parse_ctrl(const mjModel* m, const std::string& text);

}  // namespace mjhand::cli
