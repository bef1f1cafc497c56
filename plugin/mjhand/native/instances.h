// The mjhand plugin instances a model declares (<extension><plugin plugin="mjhand.TYPE"><instance>), as programs
// inspect them: name, type, configuration and an inspection copy of the configured object. MuJoCo runs the
// instances; this list only describes them (the viewer's plugin panel, `mjhand run`'s listing, analyze, batch).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mjhand/host/plugin.h>

namespace mjhand {

// One declared instance.
struct Instance {
  std::string name;
  std::string type;  // the mjhand type, without the "mjhand." prefix
  int id = -1;       // MuJoCo's plugin instance id: native_state(m, d, id), set_native_enabled(m, d, id, ...)
  // Built from the model alone, independent of any mjData: for reading the configuration (objects, sizes), never
  // for computing (the running object is native_plugin(m, d, id)).
  std::unique_ptr<Plugin> plugin;
  // Its configuration as compiled into the model, in the type's key order: what a viewer shows and edits.
  std::vector<std::pair<std::string, std::string>> config;
};

// "" or a sentence naming the first thing in m written for mjhand's retired callback host that nothing serves now:
// a <text name="mjhand:..."> instance, a <user> sensor, an actuator with user gain, bias or dynamics. mjhand installs
// no MuJoCo callbacks, so such a model would run with zeros in their place.
std::string legacy_plugin_problem(const mjModel* m);

class InstanceList {
 public:
  // Every mjhand instance of m, in declaration order (instances of other plugin libraries are skipped). Throws
  // ConfigError when m's actuators do not map one to one onto controls and forces (multi_io_actuator_problem:
  // programs that list instances assume actuator id = ctrl index = force index), and for what only the retired
  // callback host served (legacy_plugin_problem).
  explicit InstanceList(const mjModel* m);

  const std::vector<Instance>& all() const { return items_; }
  std::vector<Instance>::const_iterator begin() const { return items_.begin(); }
  std::vector<Instance>::const_iterator end() const { return items_.end(); }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // The instance called `name`, or nullptr.
  const Instance* find(const std::string& name) const;
  // The instance called `name`; throws ConfigError naming the known instances when there is none.
  const Instance& at(const std::string& name) const;
  // "a, b, c" (or "none"): for messages.
  std::string names() const;

 private:
  std::vector<Instance> items_;
};

}  // namespace mjhand
