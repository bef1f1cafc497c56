// Registry of plugin types: name -> factory. Built-in types are listed in builtin_plugins.cc; users add their own.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

// Builds a validated instance from its configuration (or throws ConfigError via cfg.fail).
using PluginFactory = std::function<std::unique_ptr<Plugin>(const mjModel* m, const Config& cfg)>;

struct PluginType {
  std::string name;
  std::string summary;  // one line for `--help` listings
  PluginFactory factory;
  // For the native registration as MuJoCo plugin "mjhand.<name>" (plugin/native): every configuration key the
  // factory may read (MuJoCo rejects any other <config key>), and the stage its sensors are computed at.
  std::vector<std::string> keys;
  int sensor_stage = mjSTAGE_POS;
  // An actuator model (user gain/bias/dyn: dc_motor, coil_actuator) whose actuators' ctrl a native controller
  // instance may drive (pid -> dc_motor voltage): the controller's output becomes their ctrl.
  bool actuator_model = false;
  // > 0: every sensor of this type has this many values, known without building the instance (MuJoCo sizes sensors
  // while the model's actuator data is not there yet, which an actuator model's factory needs).
  int sensor_width = 0;
  // The Capability flags instances of this type may use. The native registration offers MuJoCo only these (a sensor
  // type is never called at the actuation or passive stage, a controller never at a sensor stage); an instance using
  // another is refused when it is created. Only types with kCapAdvance get MuJoCo's per-step advance callback.
  int capabilities = kCapControl | kCapPassive | kCapActuator | kCapSensor | kCapAdvance;
};

class PluginRegistry {
 public:
  // The process-wide registry, with the built-in types already added.
  static PluginRegistry& global();

  // Adds a type; throws std::invalid_argument if the name is empty, taken, or has characters other than [A-Za-z0-9_.-].
  void add(PluginType type);
  // The type called `name`, or nullptr.
  const PluginType* find(const std::string& name) const;
  // All registered type names, sorted.
  std::vector<std::string> names() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<PluginType>> types_;  // stable addresses for find()
};

// Registers a user-defined plugin type with the global registry; register_native_plugins() then offers it to MuJoCo
// as native plugin "mjhand.<name>" with `keys` as its configuration attributes (call both before loading models
// that use it). A type without keys is not offered: MuJoCo needs every attribute an instance may set declared.
void register_plugin_type(const std::string& name, const std::string& summary, PluginFactory factory,
                          std::vector<std::string> keys = {}, int sensor_stage = mjSTAGE_POS);

// Adds mjhand's own plugin types; defined in builtin_plugins.cc, where later features list theirs.
void register_builtin_plugins(PluginRegistry& registry);

}  // namespace mjhand
