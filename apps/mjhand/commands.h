// The mjhand CLI's subcommands. Each takes its own arguments (without the subcommand name) and returns an exit code.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mjhand::cli {

using Args = std::vector<std::string>;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args& args);
};

// The table of subcommands, in the order `mjhand --help` lists them.
const std::vector<Command>& commands();

int cmd_make_hand(const Args& args);  // mjhand make-hand SPEC.yaml -o MODEL.xml
int cmd_run(const Args& args);        // mjhand run MODEL.xml --duration S [--out DIR]
int cmd_analyze(const Args& args);    // mjhand analyze MODEL.xml [--keyframe K | --qpos ...] [--json]
int cmd_make_scene(const Args& args);  // mjhand make-scene SCENE.yaml -o SCENE.xml
int cmd_scenario(const Args& args);    // mjhand scenario SCENE.yaml [--density-sweep ...]
int cmd_plan(const Args& args);        // mjhand plan SCENE.yaml: grasp planning by simulation
int cmd_batch(const Args& args);     // mjhand batch CAMPAIGN.yaml [--threads N] [--shard I/N] (docs/batch.md)
int cmd_plot(const Args& args);      // mjhand plot ROLLOUT.csv|CAMPAIGN_DIR --out DIR
int cmd_current_study(const Args& args);  // mjhand current-study [--out DIR] (direct-drive hand, Figures 2-4)
int cmd_fit_coupling(const Args& args);  // mjhand fit-coupling DATA.csv [--x C --y C --order N --deg --supplement --mjcf]
int cmd_berul_poses(const Args& args);   // mjhand berul-poses [--model M --out DIR] (BERUL Fig. 7 fingertips)
int cmd_identify_coupling(const Args& args);  // mjhand identify-coupling --out DIR (coupling from rendered markers)
int cmd_synergies(const Args& args);  // mjhand synergies record|fit (docs/synergies.md)

// True when the CLI runs inside the Python package (python -m mjhand, mjhand.cli): set by the extension module.
bool embedded_in_python();
void set_embedded_in_python(bool on);

// A MODEL argument as a file: the argument itself when it exists (or is absolute), else NAME found in the folders of
// MJHAND_MODEL_PATH (colon-separated), then in the models that came with mjhand (the Python package's copy, else the
// installed share/mjhand/models and the source checkout's models/), so `mjhand analyze grasp_sensor_scene.xml` and
// `mjhand run real/allegro_scene.xml` work from any folder. Throws std::runtime_error listing every place it looked.
std::string resolve_model(const std::string& name);
// The folders resolve_model searches after the current one, each with what it is.
std::vector<std::pair<std::string, std::string>> model_search_dirs();
// Set by the Python package: its own copy of the models replaces the installed and the source folders.
void set_packaged_models_dir(const std::string& dir);

// Runs c with args; a UsageError gives exit code 2, any other exception 1, each printed to stderr with the command's
// name (the codes docs/mjhand-cli.md gives). Never throws.
int run_command(const Command& c, const Args& args);

// True when args contains -h or --help.
bool wants_help(const Args& args);

}  // namespace mjhand::cli
