// The plugin host: finds the mjhand plugin instances declared in a model's MJCF, validates them, and routes
// MuJoCo 2.2.2's process-global callbacks to them by model, keeping per-simulation state in d->userdata.
#pragma once

#include <mujoco/mujoco.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "host/config.h"
#include "host/faults.h"
#include "host/plugin.h"

namespace mjhand {

// A configuration value given outside the MJCF (e.g. `mjhand run --set close.tau=0.5`): replaces or adds `key`
// of instance `instance` before the instance is created and validated.
struct ConfigOverride {
  std::string instance, key, value;
  std::string origin;  // where it came from, for messages ("--set", "setpoints.txt:3")
};

struct AttachOptions {
  std::string xml_path;  // the MJCF the model came from: lets errors name the line of a bad instance
  std::vector<ConfigOverride> overrides;  // every one must name an existing instance, or attach fails
};

// Parses "INSTANCE.KEY=VALUE" into an override; throws ConfigError naming `origin` when malformed.
ConfigOverride parse_override(const std::string& text, const std::string& origin);

// One declared instance, as attached.
struct Instance {
  std::string name;  // the part after "mjhand:" in <text name="mjhand:NAME">
  std::string type;
  int state_adr = 0;  // first entry of its state in d->userdata
  std::unique_ptr<Plugin> plugin;
  // Its configuration as resolved (MJCF keys, then overrides), in declaration order: what a viewer shows and edits.
  std::vector<std::pair<std::string, std::string>> config;
  // >= 0: a native MuJoCo plugin instance (<extension>) with this id, run by MuJoCo itself; the host only lists it
  // (plugin is an inspection copy; its state is native_state(m, d, native_id), not d->userdata).
  int native_id = -1;
};

class Host {
 public:
  // Parses and validates every instance of m (throws ConfigError naming instance, key and value), then routes
  // m's callbacks to them until the Host is destroyed. A model without instances attaches as a pass-through.
  static std::unique_ptr<Host> attach(const mjModel* m, const AttachOptions& options = {});
  // Stops routing; restores the callbacks mjhand replaced once no model is attached.
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  const mjModel* model() const { return m_; }
  const std::vector<Instance>& instances() const { return instances_; }
  // The model's native mjhand plugin instances (<extension><plugin plugin="mjhand.TYPE">), in declaration order.
  const std::vector<Instance>& native_instances() const { return natives_; }
  // Both kinds, callback-host instances first: for programs that list or inspect instances.
  std::vector<const Instance*> all_instances() const;
  // The callback-host instance called `name`, or nullptr.
  const Instance* find(const std::string& name) const;
  // The instance called `name` of either kind (callback-host or native), or nullptr.
  const Instance* find_any(const std::string& name) const;
  // Switches instance `name` off or on for every mjData of this model (a model-wide switch, like MuJoCo's
  // eq_active). Off removes its effect: control and passive are skipped, its sensors read 0 and its user actuators
  // give zero force; its state is kept, so switching back on resumes. Throws ConfigError for an unknown name.
  void set_enabled(const std::string& name, bool on);
  // Whether instance `name` is on (every instance starts on). Throws ConfigError for an unknown name.
  bool enabled(const std::string& name) const;

  // Entries of d->userdata mjhand uses (header + every instance's state); 0 when nothing is stateful.
  int userdata_size() const { return userdata_size_; }
  // Initialises every instance's state in d now (otherwise done on the first callback after make/reset).
  void reset_state(mjData* d) const;
  // True once d's mjhand state has been initialised (false after mj_makeData / mj_resetData).
  bool state_ready(const mjData* d) const;
  // The state slice of instance `inst` in d.
  mjtNum* state(mjData* d, const Instance& inst) const { return d->userdata + inst.state_adr; }

  // Callback bodies, called by the global trampolines for this host's model.
  void run_control(mjData* d) const;
  void run_passive(mjData* d) const;
  void run_sensor(mjData* d, int stage) const;
  bool owns_actuator(int id) const { return actuator_owner_[id] >= 0; }
  mjtNum actuator_gain(const mjData* d, int id) const;
  mjtNum actuator_bias(const mjData* d, int id) const;
  mjtNum actuator_dyn(const mjData* d, int id) const;

  // Bad values (NaN, Inf, |x| > mjMAXVAL) the instances wrote into d since the last clear_faults(d); the host
  // replaced each by 0 before MuJoCo used it (docs/bad-input.md, "Faults during a simulation"). No allocation.
  FaultSummary faults(const mjData* d) const { return faults_.get(d); }
  // Forgets d's faults (e.g. before reusing or deleting d; mj_resetData keeps them). Not while d is stepping.
  void clear_faults(const mjData* d) const { faults_.clear(d); }
  // Faults of mjData beyond the FaultTable::kSlots that had faults at once: replaced, but only counted.
  long untracked_faults() const { return faults_.untracked(); }
  // One sentence naming instance, quantity and object, value and time, e.g. "instance 'close' (posture) wrote nan
  // into ctrl of actuator 'a1' at t = 0.05 s (replaced by 0)".
  std::string describe(const Fault& f) const;

 private:
  explicit Host(const mjModel* m) : m_(m) {}
  void ensure_state(const mjData* d) const;
  size_t index_of(const std::string& name) const;  // throws ConfigError naming the known instances
  bool is_on(const Instance* inst) const { return enabled_[inst - instances_.data()].load(std::memory_order_relaxed); }
  int index(const Instance* inst) const { return static_cast<int>(inst - instances_.data()); }
  // Notes one bad value written by instance k (the rare path; the caller replaces the value).
  void record_fault(const mjData* d, int k, FaultKind kind, int id, int component, mjtNum value) const;
  // Replaces every bad entry of v[0..n) by 0 and records it as written by instance k.
  void sanitize(const mjData* d, int k, FaultKind kind, mjtNum* v, int n) const;
  // The value an actuator callback of instance k returns: v, or 0 (recorded) when v is bad.
  mjtNum checked(const mjData* d, int k, FaultKind kind, int id, mjtNum v) const;

  const mjModel* m_;
  std::vector<Instance> instances_;
  std::vector<Instance> natives_;
  std::vector<const Instance*> control_, passive_, sensor_;
  std::vector<int> actuator_owner_;  // nu entries: index into instances_ or -1
  // One flag per instance; atomic because a viewer flips it while a simulation thread steps.
  std::unique_ptr<std::atomic<bool>[]> enabled_;
  int userdata_size_ = 0;
  bool registered_ = false;
  mutable FaultTable faults_;  // written from the (const) callbacks; per mjData, see faults.h
};

// Entries of d->userdata the mjhand instances of m need (what <size nuserdata> must be at least).
int required_userdata(const mjModel* m);

// The <user> sensors and user actuators (gain/bias/dyn "user") of m that no instance of host serves, as
// " sensor 'a' actuator 'b'" ("" when all are served): a program that installs no other callbacks would read zeros
// from them or act with MuJoCo's defaults, so `mjhand run` and `mjhand batch` refuse such models.
std::string unserved_user_objects(const mjModel* m, const Host& host);

// Number of <text name="mjhand:..."> instances declared in m (no validation).
int count_declared_instances(const mjModel* m);

// True while mjhand's trampolines are the installed MuJoCo callbacks (a program that overwrote them breaks routing).
bool callbacks_installed();

// Saves d->userdata on construction and puts it back on destruction: wrap mjd_transitionFD and other calls that
// step internally, which run mjcb_control and would otherwise advance the plugins' state.
class ScopedStateRestore {
 public:
  ScopedStateRestore(const mjModel* m, mjData* d);
  ~ScopedStateRestore();
  ScopedStateRestore(const ScopedStateRestore&) = delete;
  ScopedStateRestore& operator=(const ScopedStateRestore&) = delete;

 private:
  mjData* d_;
  std::vector<mjtNum> saved_;
};

}  // namespace mjhand
