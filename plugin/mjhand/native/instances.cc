#include <mjhand/native/instances.h>

#include <mjhand/host/config.h>
#include <mjhand/io/labels.h>
#include <mjhand/io/model_io.h>
#include <mjhand/native/native_plugins.h>

namespace mjhand {

std::string legacy_plugin_problem(const mjModel* m) {
  // mjhand installs no MuJoCo callbacks, so these would silently read 0 or act with MuJoCo's defaults.
  const std::string history = " (mjhand's plugins are native MuJoCo plugins now: docs/native-plugins.md, \"History\")";
  for (int i = 0; i < m->ntext; ++i) {
    const std::string name = m->names + m->name_textadr[i];
    if (name.rfind("mjhand:", 0) == 0) {
      return "<text name=\"" + name + "\"> declares an mjhand plugin instance the old way; nothing would run it" +
             history;
    }
  }
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] == mjSENS_USER) {
      return "sensor " + object_label(m, mjOBJ_SENSOR, s) + " is a <user> sensor, which nothing fills" + history;
    }
  }
  for (int a = 0; a < m->nu; ++a) {
    if (m->actuator_gaintype[a] == mjGAIN_USER || m->actuator_biastype[a] == mjBIAS_USER ||
        m->actuator_dyntype[a] == mjDYN_USER) {
      return "actuator " + object_label(m, mjOBJ_ACTUATOR, a) +
             " has user gain, bias or dynamics, which nothing computes" + history;
    }
  }
  return "";
}

InstanceList::InstanceList(const mjModel* m) {
  if (!m) throw ConfigError("InstanceList: model is null");
  if (const std::string problem = multi_io_actuator_problem(m); !problem.empty()) throw ConfigError(problem);
  if (const std::string problem = legacy_plugin_problem(m); !problem.empty()) throw ConfigError(problem);
  for (int i = 0; i < m->nplugin; ++i) {
    const std::string type = native_type(m, i);
    if (type.empty()) continue;
    Instance inst;
    inst.name = m->names + m->name_pluginadr[i];
    inst.type = type;
    inst.id = i;
    inst.plugin = create_native_plugin(m, i);
    inst.config = native_config(m, i);
    items_.push_back(std::move(inst));
  }
}

const Instance* InstanceList::find(const std::string& name) const {
  for (const Instance& inst : items_) {
    if (inst.name == name) return &inst;
  }
  return nullptr;
}

const Instance& InstanceList::at(const std::string& name) const {
  if (const Instance* inst = find(name)) return *inst;
  throw ConfigError("no mjhand plugin instance named '" + name + "' in the model (instances: " + names() + ")");
}

std::string InstanceList::names() const {
  std::string out;
  for (const Instance& inst : items_) out += (out.empty() ? "" : ", ") + inst.name;
  return out.empty() ? "none" : out;
}

}  // namespace mjhand
