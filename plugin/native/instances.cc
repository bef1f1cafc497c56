#include <mjhand/native/instances.h>

#include <mjhand/host/config.h>
#include <mjhand/io/model_io.h>
#include <mjhand/native/native_plugins.h>

namespace mjhand {

InstanceList::InstanceList(const mjModel* m) {
  if (!m) throw ConfigError("InstanceList: model is null");
  if (const std::string problem = multi_io_actuator_problem(m); !problem.empty()) throw ConfigError(problem);
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
