#include <mjhand/host/registry.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace mjhand {

PluginRegistry& PluginRegistry::global() {
  static PluginRegistry* registry = [] {
    auto* r = new PluginRegistry();  // never destroyed: callbacks may run during static destruction
    register_builtin_plugins(*r);
    return r;
  }();
  return *registry;
}

void PluginRegistry::add(PluginType type) {
  if (type.name.empty()) throw std::invalid_argument("plugin type name is empty");
  for (char c : type.name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) {
      throw std::invalid_argument("plugin type name '" + type.name + "' may only hold letters, digits, _ - .");
    }
  }
  if (!type.factory) throw std::invalid_argument("plugin type '" + type.name + "' has no factory");
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& t : types_) {
    if (t->name == type.name) throw std::invalid_argument("plugin type '" + type.name + "' is already registered");
  }
  types_.push_back(std::make_unique<PluginType>(std::move(type)));
}

const PluginType* PluginRegistry::find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& t : types_) {
    if (t->name == name) return t.get();
  }
  return nullptr;
}

std::vector<std::string> PluginRegistry::names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto& t : types_) out.push_back(t->name);
  std::sort(out.begin(), out.end());
  return out;
}

void register_plugin_type(const std::string& name, const std::string& summary, PluginFactory factory,
                          std::vector<std::string> keys, int sensor_stage) {
  PluginRegistry::global().add({name, summary, std::move(factory), std::move(keys), sensor_stage});
}

}  // namespace mjhand
