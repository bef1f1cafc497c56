// mjhand's plugin types as MuJoCo engine plugins (mjpPlugin): every registered type with a key list becomes
// "mjhand.<type>", declared in MJCF with <extension><plugin plugin="mjhand.TYPE"><instance name=...><config .../>.
// One adapter serves every type: the type's factory validates the configuration in init (errors become MuJoCo's
// load error), the Plugin object lives in d->plugin_data, its state in d->plugin_state (so mj_copyData, resets and
// finite differences see it). docs/native-plugins.md.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <vector>

#include <mjhand/host/plugin.h>

namespace mjhand {

// Registers every type of PluginRegistry::global() that lists its keys with MuJoCo (once per process; later calls
// register only types added since). Returns how many mjhand types MuJoCo knows. libmjhand_plugins.so calls it when
// loaded; programs that link mjhand call it once before loading models.
int register_native_plugins();

// The file (program or shared library) whose copy of mjhand registered the "mjhand.*" plugins with the libmujoco this
// copy is linked to, or "" when none are registered. Two copies (libmjhand_plugins.so and the Python package, say)
// must not both be used in one process: only the registering copy's instances can be inspected.
std::string native_plugins_registrant();

// True when this copy of mjhand registered the "mjhand.*" plugins (register_native_plugins() ran here first).
bool native_plugins_registered_here();

// Name prefix of mjhand's native plugins.
inline constexpr const char* kNativePrefix = "mjhand.";

// The mjhand type of plugin instance `instance` of m ("pid"), or "" when it is not an mjhand plugin.
std::string native_type(const mjModel* m, int instance);

// A fresh, validated object for native instance `instance` of m, independent of any mjData: for programs that
// inspect an instance (its hand, its configuration), not for computing. Throws ConfigError like init's message.
std::unique_ptr<Plugin> create_native_plugin(const mjModel* m, int instance);

// The configured object of instance `instance` in d (created by init), or nullptr when it is not an mjhand plugin.
const Plugin* native_plugin(const mjModel* m, const mjData* d, int instance);

// The instance's own state slice in d (after mjhand's two header entries), and the length MuJoCo gave it (at least
// Plugin::nstate(); more when the instance could not be sized while MuJoCo compiled, docs/native-plugins.md).
mjtNum* native_state(const mjModel* m, mjData* d, int instance);
int native_state_size(const mjModel* m, int instance);

// Zeroes the state of instance `instance` in d and makes its next compute start it from Plugin::reset, as after
// mj_resetData (the on/off switch is kept): for programs that carry state into a changed model.
void reset_native_state(const mjModel* m, mjData* d, int instance);

// Switches instance `instance` of d off (no force, sensors read 0, state kept) or on. Per mjData, part of its state.
void set_native_enabled(const mjModel* m, mjData* d, int instance, bool on);
bool native_enabled(const mjModel* m, const mjData* d, int instance);

// Bad values (NaN, Inf, |x| > mjMAXVAL) mjhand instances produced in d since it was made or reset: each was
// replaced by 0 before MuJoCo used it. `first` describes the earliest one (instance, quantity, object, value, time).
struct NativeFaults {
  long count = 0;
  std::string first;       // the earliest fault, described
  double first_time = 0;   // its d->time [s]
  double last_time = 0;    // d->time of the latest fault [s]
};
NativeFaults native_faults(const mjModel* m, const mjData* d);

// The configuration of instance `instance` as written in the model: (key, value) for every non-empty key.
std::vector<std::pair<std::string, std::string>> native_config(const mjModel* m, int instance);

}  // namespace mjhand
