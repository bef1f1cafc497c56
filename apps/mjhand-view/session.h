// The simulation behind the viewer: model, data and its mjhand plugin instances, with reload, reset, keyframes, real-time stepping,
// mouse perturbation and run-time edits of plugin keys and on/off switches. No UI code, so headless mode and the
// interactive window step the same way.
#pragma once

#include <mujoco/mujoco.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <mjhand/io/model_io.h>
#include <mjhand/native/instances.h>
#include <mjhand/native/native_overrides.h>

namespace mjhand::view {

class Session {
 public:
  // Loads path (MuJoCo's message on failure, which carries mjhand's for a bad instance); throws std::runtime_error /
  // ConfigError.
  explicit Session(const std::string& path);

  const std::string& path() const { return path_; }
  mjModel* m() const { return m_.get(); }
  mjData* d() const { return d_.get(); }
  const InstanceList& instances() const { return *instances_; }

  // Reads and recompiles the file; on success replaces model and data (the edits are kept when they all still apply
  // to the new text, else all dropped with a note in `log`) and returns "".
  // On failure keeps everything and returns MuJoCo's message.
  std::string reload();
  // mj_resetData, or the selected keyframe; plugins restart from their reset state.
  void reset();
  // Keyframe index by name (or index text); throws std::runtime_error listing the model's keyframes.
  int find_keyframe(const std::string& name) const;
  // Selects keyframe k (-1: none, qpos0) and resets to it.
  void select_keyframe(int k);
  int keyframe() const { return keyframe_; }

  // Advances the simulation towards wall_dt * speed of simulated time (at most max_wall_s of compute), applying
  // the mouse perturbation. Returns the number of steps taken.
  int advance(double wall_dt, double max_wall_s = 1.0 / 30);
  // Exactly one mj_step (single-step key).
  void step_once();
  // mj_forward after a state edit while paused; applies a pose perturbation too.
  void forward_paused();

  bool paused = false;
  double speed = 1.0;  // simulated seconds per wall second
  mjvPerturb pert;     // mouse perturbation (simulate's ctrl+drag)

  // Plugin edits. Applies instance.key = value by recompiling the model with every edit so far (MuJoCo compiles an
  // instance's configuration into the model) and carrying the simulation over; "" or the error (nothing changes then).
  std::string set_key(const std::string& instance, const std::string& key, const std::string& value);
  // Replaces the whole edit list (e.g. several keys at once); same contract as set_key.
  std::string set_overrides(const std::vector<ConfigOverride>& overrides);
  const std::vector<ConfigOverride>& overrides() const { return overrides_; }
  // Switches an instance on/off; remembered across edits, resets and reload.
  void set_enabled(const std::string& instance, bool on);
  bool enabled(const std::string& instance) const;

  // Messages from the last operations (divergence warnings, dropped edits), newest last.
  std::vector<std::string> log;

 private:
  // Makes m and d the session's model and data, with the instance list of m.
  void replace(ModelPtr m, DataPtr d, std::unique_ptr<InstanceList> instances);
  void apply_enabled();
  void note(const std::string& s);

  std::string path_;
  std::map<std::string, std::string> sources_;  // the model's files as loaded: edits recompile these
  ModelPtr m_;
  DataPtr d_;
  std::unique_ptr<InstanceList> instances_;
  std::vector<ConfigOverride> overrides_;
  std::set<std::string> disabled_;
  int keyframe_ = -1;
  double sim_lag_ = 0;  // simulated time still owed to real time [s]
};

}  // namespace mjhand::view
