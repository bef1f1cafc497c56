// A batch campaign: scenarios x parameter grid x seeds, read from YAML (errors name FILE:LINE:COLUMN and the key),
// and its expansion into rollouts, each with a spec hash that decides whether a stored result is still valid.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mjhand::batch {

struct Scenario {
  std::string name;
  std::string model_path;  // absolute or relative to the working directory (resolved from the campaign's folder)
  std::string model_text;  // the MJCF file's (or scene description's) text before ${param} substitution
  // model_path is a scene description (.yaml/.yml, docs/scenes.md): each grid point's substituted description is
  // built into MJCF, so quantities derived from a parameter (the Kelvin-Voigt solref from the object's mass) follow it.
  bool scene = false;
  std::string keyframe;    // optional: name or index
  std::string object;      // optional: body whose pose and grasp metrics are reported
  // Optional hand structure for the grasp metrics (hand_structure.h; default: inferred from the tree): the palm
  // body, the finger root bodies and tip bodies (comma-joined), and whether the wrist/arm dofs are columns of J_H.
  std::string palm, fingers, finger_tips;
  bool with_wrist = false;
  double init_noise = 0;   // half-width of the uniform perturbation of joint qpos [rad or m]
  std::vector<std::pair<std::string, std::string>> overrides;  // INSTANCE.KEY -> value, in file order
};

struct Campaign {
  std::string file;      // the campaign file as given
  std::string name;
  std::string output;    // results go to OUTPUT/NAME (relative outputs are relative to the working directory)
  double duration = 0;   // simulated seconds per rollout
  double timestep = 0;   // 0: the model's own
  double sample_period = 0;  // 0: every step
  double timeout = 600;  // wall-clock seconds per rollout (0: none)
  std::vector<Scenario> scenarios;
  std::vector<std::pair<std::string, std::vector<std::string>>> grid;  // parameter -> values, in file order
  std::vector<long> seeds{0};

  std::string results_dir() const { return output + "/" + name; }
};

// One rollout of the expanded campaign.
struct RolloutSpec {
  int index = 0;            // position in the full expansion (shards take index % N == I)
  std::string id;           // SCENARIO_GGG_sSEED: file name of its result
  int scenario = 0;         // into Campaign::scenarios
  int grid_point = 0;       // index of the grid combination
  long seed = 0;
  std::vector<std::pair<std::string, std::string>> params;  // grid parameter -> value of this rollout
  std::string model_text;   // after ${param} substitution (a scene description: the MJCF built from it)
  std::string model_error;  // why a scene description could not be built into MJCF ("" when it was)
  std::vector<std::pair<std::string, std::string>> overrides;  // scenario overrides, then dotted grid params
  std::string variant_key;  // equal for rollouts that share one compiled model + plugin configuration
  std::string hash;         // 16 hex digits over everything that determines the result
};

// Parses a campaign file; throws mjhand::SpecError ("FILE:LINE:COLUMN: key: message") for anything wrong, including
// a ${token} in a model that no grid parameter provides and a grid parameter that no model uses.
Campaign load_campaign(const std::string& path);
// The same from YAML text; `file` names it in messages and relative model paths resolve against `base_dir`.
Campaign parse_campaign(const std::string& yaml, const std::string& file, const std::string& base_dir);

// Scenarios x grid (cartesian product, last parameter fastest) x seeds, in a fixed order.
std::vector<RolloutSpec> expand_campaign(const Campaign& c);

// Replaces every ${name} in text by params' value; unknown tokens are left for the caller's check.
std::string substitute(const std::string& text, const std::vector<std::pair<std::string, std::string>>& params);

// 64-bit FNV-1a of text, as 16 hex digits.
std::string hash_hex(const std::string& text);
uint64_t fnv1a(const std::string& text);

}  // namespace mjhand::batch
