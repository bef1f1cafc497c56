#include <mjhand/native/native_overrides.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <mjhand/host/config.h>
#include <mjhand/io/staged_files.h>
#include <mjhand/host/registry.h>
#include <mjhand/io/text_file.h>
#include <mjhand/io/xml_text.h>
#include <mjhand/native/native_plugins.h>

namespace mjhand {

namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  const std::string problem = text_file_problem(path);
  if (!problem.empty()) throw std::runtime_error(path + ": " + problem + ", not an MJCF file");
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `s` as a regular expression that matches exactly s.
std::string regex_literal(const std::string& s) {
  return std::regex_replace(s, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
}

// Adds `file` and everything it includes (recursively; paths relative to the main model's folder, as MuJoCo
// resolves them) to `files`, read from disk unless already there.
void collect_includes(const std::string& dir, const std::string& text, std::map<std::string, std::string>& files) {
  static const std::regex include(R"(<include\s+file\s*=\s*["']([^"']+)["'])");
  const std::string clean = blank_xml_comments(text);
  for (std::sregex_iterator it(clean.begin(), clean.end(), include), end; it != end; ++it) {
    const std::string name = (*it)[1].str();
    const std::string path = fs::path(name).is_absolute() ? name : (fs::path(dir) / name).string();
    if (files.count(path)) continue;
    files[path] = read_text(path);
    collect_includes(dir, files[path], files);
  }
}

// Sets key `key` of <instance name="instance"> in `text` to `value`; false when the instance is not declared there.
bool edit_instance(std::string& text, const std::string& instance, const std::string& key, const std::string& value) {
  const std::string clean = blank_xml_comments(text);
  const std::regex open("<instance\\s+name\\s*=\\s*[\"']" + regex_literal(instance) + "[\"']\\s*>");
  std::smatch m;
  if (!std::regex_search(clean, m, open)) {
    const std::regex empty("<instance\\s+name\\s*=\\s*[\"']" + regex_literal(instance) + "[\"']\\s*/>");
    if (!std::regex_search(clean, m, empty)) return false;
    // <instance name="x"/>: the value becomes its first config
    text.replace(m.position(0), m.length(0), "<instance name=\"" + xml_escape(instance) + "\"><config key=\"" +
                                               xml_escape(key) + "\" value=\"" + xml_escape(value) + "\"/></instance>");
    return true;
  }
  const size_t begin = m.position(0) + m.length(0);
  const size_t end = clean.find("</instance>", begin);
  if (end == std::string::npos) return false;
  const std::regex config(R"(<config\s+key\s*=\s*["']([^"']*)["']\s+value\s*=\s*["']([^"']*)["'])");
  const std::string body = clean.substr(begin, end - begin);
  for (std::sregex_iterator it(body.begin(), body.end(), config), stop; it != stop; ++it) {
    if ((*it)[1].str() != key) continue;
    text.replace(begin + it->position(2), it->length(2), xml_escape(value));
    return true;
  }
  text.insert(end, "<config key=\"" + xml_escape(key) + "\" value=\"" + xml_escape(value) + "\"/>");
  return true;
}

// "FILE:LINE" of <instance name="NAME"> in the main file or the files it includes, or "".
std::string locate_instance(const std::string& name, const std::string& path,
                            std::map<std::string, std::string> files) {
  collect_includes(fs::path(path).parent_path().string(), files.at(path), files);
  const std::regex open("<instance\\s+name\\s*=\\s*[\"']" + regex_literal(name) + "[\"']");
  for (const auto& [file, text] : files) {
    const std::string clean = blank_xml_comments(text);
    std::smatch m;
    if (std::regex_search(clean, m, open)) {
      return file + ":" + std::to_string(1 + std::count(clean.begin(), clean.begin() + m.position(0), '\n'));
    }
  }
  return "";
}

// MuJoCo's load error, with the file and line of the mjhand instance it names (MuJoCo's engine errors have none).
std::string load_error(const std::string& path, const std::string& message,
                       const std::map<std::string, std::string>& files) {
  static const std::regex instance(R"(plugin instance '([A-Za-z0-9_.:-]+)')");
  std::smatch m;
  std::string where;
  if (std::regex_search(message, m, instance)) {
    try {
      where = locate_instance(m[1].str(), path, files);
    } catch (const std::exception&) {
      where.clear();  // an unreadable include: MuJoCo's message stands alone
    }
  }
  // MuJoCo does not know the plugin: say what mjhand's are called (an unprefixed or misspelt type is the usual cause).
  static const std::regex unknown(R"(plugin (\S+) not found)");
  std::string hint;
  if (std::regex_search(message, m, unknown)) {
    const std::string name = m[1].str();
    const PluginRegistry& registry = PluginRegistry::global();
    if (registry.find(name)) {
      hint = " (mjhand's plugins are named mjhand.TYPE: write plugin=\"mjhand." + name + "\")";
    } else if (name.rfind(kNativePrefix, 0) == 0 || registry.find(name.substr(name.find('.') + 1))) {
      std::string known;
      for (const std::string& t : registry.names()) known += (known.empty() ? "" : ", ") + std::string(kNativePrefix) + t;
      hint = " (mjhand's plugins: " + known + ")";
    }
  }
  std::string text = message;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return (where.empty() ? path : where) + ": MuJoCo cannot load " + (where.empty() ? "it" : path) + ": " + text + hint;
}

ModelPtr compile_files(const std::string& path, const std::map<std::string, std::string>& files) {
  register_native_plugins();  // a library user who never called it still gets the "mjhand.*" plugins
  StagedFiles staged;
  for (const auto& [name, text] : files) {
    if (!staged.add(name, text)) {
      throw std::runtime_error(path + ": cannot stage " + name + " in MuJoCo's virtual file system");
    }
  }
  std::string error;
  ModelPtr m = staged.compile(path, error);
  if (!m) throw std::runtime_error(load_error(path, error, files));
  return m;
}

}  // namespace

ConfigOverride parse_override(const std::string& text, const std::string& origin) {
  const size_t dot = text.find('.'), eq = text.find('=');
  if (dot == std::string::npos || eq == std::string::npos || dot > eq || dot == 0 || eq == dot + 1 ||
      eq + 1 == text.size()) {
    throw ConfigError(origin + ": '" + text + "' is not of the form INSTANCE.KEY=VALUE");
  }
  const std::string value = text.substr(eq + 1);
  if (value.find_first_of(" \t;") != std::string::npos) {
    throw ConfigError(origin + ": the value in '" + text + "' may not contain spaces or ';'");
  }
  return {text.substr(0, dot), text.substr(dot + 1, eq - dot - 1), value, origin};
}

ModelPtr compile_with_overrides(const std::string& path, const std::string& text,
                                const std::vector<ConfigOverride>& overrides) {
  std::map<std::string, std::string> files{{path, text}};
  if (!overrides.empty()) collect_includes(fs::path(path).parent_path().string(), text, files);
  return compile_sources_with_overrides(path, std::move(files), overrides);
}

ModelPtr compile_sources_with_overrides(const std::string& path, std::map<std::string, std::string> files,
                                        const std::vector<ConfigOverride>& overrides) {
  // An override names a native instance when some file of the model declares <instance name="...">: decided on the
  // text, so an override may supply a key the file lacks (the file alone need not compile).
  std::vector<ConfigOverride> native;
  for (const ConfigOverride& o : overrides) {
    bool done = false;
    for (auto& [name, content] : files) done = done || edit_instance(content, o.instance, o.key, o.value);
    if (!done) {
      std::string known;
      static const std::regex declared("<instance\\s+name\\s*=\\s*\"([^\"]*)\"");
      for (const auto& [name, content] : files) {
        for (auto it = std::sregex_iterator(content.begin(), content.end(), declared); it != std::sregex_iterator();
             ++it) {
          known += (known.empty() ? "" : ", ") + (*it)[1].str();
        }
      }
      throw ConfigError(o.origin + ": no plugin instance named '" + o.instance + "' in " + path + " (instances: " +
                        (known.empty() ? "none" : known) + ")");
    }
    native.push_back(o);
  }
  try {
    return compile_files(path, files);
  } catch (const std::exception& e) {
    if (native.empty()) throw;
    // The override the message is about (its instance and key), else all of them.
    const std::string message = e.what();
    for (const ConfigOverride& o : native) {
      if ((message.find("plugin instance '" + o.instance + "'") != std::string::npos ||
           message.find("Element name '" + o.instance + "'") != std::string::npos) &&
          (message.find("key '" + o.key + "'") != std::string::npos ||
           message.find("'plugin:" + o.key + "'") != std::string::npos)) {
        throw ConfigError(message + " (from " + o.origin + ")");
      }
    }
    std::string origins;
    for (const ConfigOverride& o : native) origins += (origins.empty() ? "" : ", ") + o.origin;
    throw ConfigError(message + " (with " + origins + ")");
  }
}

std::map<std::string, std::string> model_sources(const std::string& path, const std::string& text) {
  std::map<std::string, std::string> files{{path, text}};
  collect_includes(fs::path(path).parent_path().string(), text, files);
  return files;
}

ModelPtr compile_sources(const std::string& path, const std::map<std::string, std::string>& sources) {
  return compile_files(path, sources);
}

ModelPtr load_model_with_overrides(const std::string& path, const std::vector<ConfigOverride>& overrides) {
  return compile_with_overrides(path, read_text(path), overrides);
}

std::map<std::string, std::string> load_sources(const std::string& path) { return model_sources(path, read_text(path)); }

}  // namespace mjhand
