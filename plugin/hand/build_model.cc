#include "hand/build_model.h"

#include <cstring>
#include <memory>

#include "hand/mjcf_writer.h"
#include "hand/model_chains.h"
#include "host/host.h"

namespace mjhand {

namespace {
std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

ModelPtr compile(const std::string& xml, const std::string& file) {
  std::string error;
  ModelPtr m = compile_xml_string(xml, file, error);
  if (!m) throw ModelRejectedError("MuJoCo rejected the generated model: " + error, xml);
  return m;
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

// The host words every instance error as "plugin instance 'NAME' ... key 'KEY' ..." (or, for two instances claiming
// one object, "plugin instances 'A' and 'B'"); that is enough to find the YAML entry and key it came from.
[[noreturn]] void fail_at_plugin(const HandSpec& spec, const ConfigError& e) {
  std::string message = e.what();
  std::string name = quoted_after(message, "plugin instance '");
  const std::size_t pair = message.find("plugin instances '");
  if (name.empty() && pair != std::string::npos) name = quoted_after(message, "' and '", pair);  // the later claim
  int index = -1;
  for (std::size_t i = 0; i < spec.plugins.size(); ++i) {
    if (spec.plugins[i].name == name) index = static_cast<int>(i);
  }
  if (index < 0) {
    fail_at(spec, spec.plugins.empty() ? YAML::Mark::null_mark() : spec.plugins.front().mark, "plugins", message);
  }
  const PluginSpec& p = spec.plugins[index];
  // The host cites the generated <text> element, which means nothing to someone editing the YAML.
  const std::string element = std::string("<custom><text name=\"") + kInstancePrefix + p.name + "\">";
  erase_all(message, " (" + element + ")");
  erase_all(message, ", " + element);
  const std::string path = "plugins[" + std::to_string(index) + "]";
  const std::string key = quoted_after(message, "key '");
  if (key == "type") fail_at(spec, p.type_mark, path + ".type", message);
  for (const auto& kv : p.config) {
    if (kv.first != key) continue;
    const auto it = p.config_marks.find(key);
    fail_at(spec, it != p.config_marks.end() ? it->second : p.mark, path + ".config." + key, message);
  }
  fail_at(spec, p.mark, path, message);
}
}  // namespace

BuiltHand build_hand_model(const HandSpec& description) {
  HandSpec spec = description;
  const std::string comment_name =
      spec.source_name.empty() ? "a HandSpec built in code" : base_name(spec.source_name);
  const std::string vfs_name = spec.name + ".xml";
  BuiltHand out;
  out.xml = write_mjcf(spec, comment_name);
  out.model = compile(out.xml, vfs_name);
  try {
    const int needed = required_userdata(out.model.get());
    if (needed > kMaxNuserdata) {
      fail_at(spec, spec.plugins.front().mark, "plugins",
              "the plugin instances need " + std::to_string(needed) + " entries of d->userdata, more than the " +
                  std::to_string(kMaxNuserdata) + " a hand may have");
    }
    if (spec.nuserdata == 0 && needed > 0) {
      spec.nuserdata = needed;
      out.xml = write_mjcf(spec, comment_name);
      out.model = compile(out.xml, vfs_name);
    } else if (spec.nuserdata < needed) {
      fail_at(spec, spec.nuserdata_mark, "nuserdata",
              "the plugin instances need " + std::to_string(needed) + " entries of d->userdata but nuserdata is " +
                  std::to_string(spec.nuserdata) + ": set it to at least " + std::to_string(needed) +
                  ", or leave it out to have it sized automatically");
    }
    Host::attach(out.model.get());  // the remaining checks (two instances claiming one object); detached at once
  } catch (const ConfigError& e) {
    fail_at_plugin(spec, e);
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
  out.nuserdata = spec.nuserdata;
  return out;
}

}  // namespace mjhand
