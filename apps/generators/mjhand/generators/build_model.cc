#include <mjhand/generators/build_model.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include <mjhand/hand/mjcf_writer.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/host/registry.h>
#include <mjhand/native/native_plugins.h>

namespace mjhand {

namespace {
std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

[[noreturn]] void fail_at(const HandSpec& spec, const YAML::Mark& mark, const std::string& path,
                          const std::string& message) {
  const std::string file = spec.source_name.empty() ? "hand description" : spec.source_name;
  if (mark.is_null()) throw SpecError(file, 0, 0, path, message);
  throw SpecError(file, mark.line + 1, mark.column + 1, path, message);
}

// The text between the quotes that follow the first `prefix` at or after `from`, or "" when there is none.
std::string quoted_after(const std::string& text, const std::string& prefix, std::size_t from = 0) {
  const std::size_t start = text.find(prefix, from);
  if (start == std::string::npos) return "";
  const std::size_t begin = start + prefix.size();
  const std::size_t end = text.find('\'', begin);
  return end == std::string::npos ? "" : text.substr(begin, end - begin);
}

void erase_all(std::string& text, const std::string& part) {
  for (std::size_t i; (i = text.find(part)) != std::string::npos;) text.erase(i, part.size());
}

// mjhand words every instance error as "plugin instance 'NAME' ... key 'KEY' ..." (MuJoCo passes it on as its load
// error); that is enough to find the YAML entry and key it came from.
[[noreturn]] void fail_at_plugin(const HandSpec& spec, std::string message) {
  const std::string name = quoted_after(message, "plugin instance '");
  int index = -1;
  for (std::size_t i = 0; i < spec.plugins.size(); ++i) {
    if (spec.plugins[i].name == name) index = static_cast<int>(i);
  }
  if (index < 0) {
    fail_at(spec, spec.plugins.empty() ? YAML::Mark::null_mark() : spec.plugins.front().mark, "plugins", message);
  }
  const PluginSpec& p = spec.plugins[index];
  // mjhand cites the generated <instance> element, which means nothing to someone editing the YAML.
  erase_all(message, ", <instance name=\"" + p.name + "\">");
  const std::string path = "plugins[" + std::to_string(index) + "]";
  const std::string key = quoted_after(message, "key '");
  for (const auto& kv : p.config) {
    if (kv.first != key) continue;
    const auto it = p.config_marks.find(key);
    fail_at(spec, it != p.config_marks.end() ? it->second : p.mark, path + ".config." + key, message);
  }
  fail_at(spec, p.mark, path, message);
}

// Type and keys are checked against the registry before MuJoCo sees them: MuJoCo's own messages for these ("unknown
// plugin", "unrecognized attribute") cite the generated XML, not the YAML.
void check_plugin_keys(const HandSpec& spec) {
  const PluginRegistry& registry = PluginRegistry::global();
  for (std::size_t i = 0; i < spec.plugins.size(); ++i) {
    const PluginSpec& p = spec.plugins[i];
    const std::string path = "plugins[" + std::to_string(i) + "]";
    const PluginType* type = registry.find(p.type);
    if (!type) {
      std::string known;
      for (const std::string& n : registry.names()) known += (known.empty() ? "" : ", ") + n;
      fail_at(spec, p.type_mark, path + ".type", "unknown plugin type '" + p.type + "' (known: " + known + ")");
    }
    for (const auto& kv : p.config) {
      if (std::find(type->keys.begin(), type->keys.end(), kv.first) != type->keys.end()) continue;
      std::string keys;
      for (const std::string& k : type->keys) keys += (keys.empty() ? "" : ", ") + k;
      const auto it = p.config_marks.find(kv.first);
      fail_at(spec, it != p.config_marks.end() ? it->second : p.mark, path + ".config." + kv.first,
              "plugin instance '" + p.name + "' (type '" + p.type + "'): unknown key '" + kv.first + "' (" +
                  p.type + " takes: " + keys + ")");
    }
  }
}
}  // namespace

BuiltHand build_hand_model(const HandSpec& spec) {
  register_native_plugins();
  check_plugin_keys(spec);
  const std::string comment_name =
      spec.source_name.empty() ? "a HandSpec built in code" : base_name(spec.source_name);
  BuiltHand out;
  out.xml = write_mjcf(spec, comment_name);
  std::string error;
  out.model = compile_xml_string(out.xml, spec.name + ".xml", error);
  if (!out.model) {
    if (error.find("mjhand: plugin instance '") != std::string::npos) {
      fail_at_plugin(spec, error.substr(error.find("plugin instance '")));
    }
    throw ModelRejectedError("MuJoCo rejected the generated model: " + error, out.xml);
  }
  std::size_t fingers = 0;
  try {
    fingers = read_model_chains(out.model.get()).size();
  } catch (const std::exception& e) {
    throw std::logic_error(std::string("the generated model fails its own chain check (an mjhand bug): ") + e.what());
  }
  if (fingers != spec.fingers.size()) {
    throw std::logic_error("the generated model carries " + std::to_string(fingers) + " finger chains, expected " +
                           std::to_string(spec.fingers.size()) + " (an mjhand bug)");
  }
  return out;
}

}  // namespace mjhand
