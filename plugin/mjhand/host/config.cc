#include <mjhand/host/config.h>
#include <mjhand/io/csv_fields.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace mjhand {

namespace {
bool is_separator(char c) { return c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string quoted(const std::string& s) { return "'" + s + "'"; }

bool parse_number(const std::string& s, double* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

std::string fmt(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

std::vector<std::pair<std::string, std::string>> parse_key_values(const std::string& text,
                                                                  const std::function<std::string()>& where) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_separator(text[i])) ++i;
    if (i >= text.size()) break;
    size_t j = i;
    while (j < text.size() && !is_separator(text[j])) ++j;
    const std::string token = text.substr(i, j - i);
    i = j;
    const size_t eq = token.find('=');
    if (eq == std::string::npos) throw ConfigError(where() + ": " + quoted(token) + " is not of the form key=value");
    const std::string key = token.substr(0, eq), value = token.substr(eq + 1);
    if (key.empty()) throw ConfigError(where() + ": " + quoted(token) + " has an empty key");
    if (value.empty()) throw ConfigError(where() + ": key " + quoted(key) + " has an empty value");
    for (const auto& kv : out) {
      if (kv.first == key) throw ConfigError(where() + ": key " + quoted(key) + " is given twice");
    }
    out.emplace_back(key, value);
  }
  return out;
}

Config::Config(const mjModel* m, std::string instance, std::string type, std::function<std::string()> locate,
               std::vector<std::pair<std::string, std::string>> values)
    : m_(m), instance_(std::move(instance)), type_(std::move(type)), locate_(std::move(locate)) {
  for (auto& kv : values) {
    order_.push_back(kv.first);
    values_[kv.first] = std::move(kv.second);
  }
}

void Config::fail(const std::string& message) const {
  throw ConfigError("plugin instance " + quoted(instance_) + " (type " + quoted(type_) + ", " + locate_() +
                    "): " + message);
}

void Config::fail(const std::string& key, const std::string& message) const {
  auto it = values_.find(key);
  std::string value = it == values_.end() ? "" : " = " + quoted(it->second);
  auto origin = origins_.find(key);
  if (origin != origins_.end()) value += " (from " + origin->second + ")";
  fail("key " + quoted(key) + value + ": " + message);
}

const std::string& Config::raw(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) fail("missing required key " + quoted(key));
  used_.insert(key);
  return it->second;
}

std::string Config::get_string(const std::string& key) const { return raw(key); }

std::string Config::get_string(const std::string& key, const std::string& fallback) const {
  return has(key) ? raw(key) : fallback;
}

double Config::get_double(const std::string& key, double lo, double hi) const {
  const std::string& s = raw(key);
  double v;
  if (!parse_number(s, &v)) fail(key, "not a finite number");
  if (v < lo || v > hi) fail(key, "must lie in [" + fmt(lo) + ", " + fmt(hi) + "]");
  return v;
}

double Config::get_double_or(const std::string& key, double fallback, double lo, double hi) const {
  return has(key) ? get_double(key, lo, hi) : fallback;
}

int Config::get_int(const std::string& key, int lo, int hi) const {
  const double v = get_double(key, lo, hi);
  if (v != std::floor(v)) fail(key, "must be an integer");
  return static_cast<int>(v);
}

int Config::get_int_or(const std::string& key, int fallback, int lo, int hi) const {
  return has(key) ? get_int(key, lo, hi) : fallback;
}

bool Config::get_bool_or(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const std::string& s = raw(key);
  if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "0" || s == "no" || s == "off") return false;
  fail(key, "must be true or false");
}

std::vector<double> Config::get_doubles(const std::string& key, int count) const {
  std::vector<double> out;
  for (const std::string& item : split_commas(raw(key))) {
    double v;
    if (!parse_number(item, &v)) fail(key, "item " + quoted(item) + " is not a finite number");
    out.push_back(v);
  }
  if (count >= 0 && static_cast<int>(out.size()) != count) {
    fail(key, "needs " + std::to_string(count) + " comma-separated numbers, got " + std::to_string(out.size()));
  }
  return out;
}

std::vector<double> Config::get_per_joint(const std::string& key, size_t count, double lo, double hi) const {
  return get_per_joint_or(key, count, get_doubles(key), lo, hi);
}

std::vector<double> Config::get_per_joint_or(const std::string& key, size_t count, std::vector<double> fallback,
                                             double lo, double hi) const {
  std::vector<double> v = has(key) ? get_doubles(key) : std::move(fallback);
  if (v.size() == 1) v.assign(count, v[0]);
  if (v.size() != count) {
    fail(key, "needs 1 or " + std::to_string(count) + " values (one per joint), got " + std::to_string(v.size()));
  }
  for (double x : v) {
    if (x < lo || x > hi) {
      fail(key, "value " + std::to_string(x) + " must lie in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
  }
  return v;
}

std::string Config::get_choice(const std::string& key, const std::vector<std::string>& choices) const {
  const std::string& s = raw(key);
  std::string list;
  for (const auto& c : choices) {
    if (c == s) return s;
    list += (list.empty() ? "" : ", ") + c;
  }
  fail(key, "must be one of: " + list);
}

std::string Config::get_choice_or(const std::string& key, const std::string& fallback,
                                  const std::vector<std::string>& choices) const {
  return has(key) ? get_choice(key, choices) : fallback;
}

namespace {
// Native instances own the sensors and actuators bound to them; "" when id may be used, else the reason.
// By name, an actuator bound to another plugin instance is allowed too: a controller may drive the input of an
// actuator model (e.g. pid -> dc_motor); the native adapter checks which kind the other instance is.
std::string binding_problem(const mjModel* m, mjtObj type, int id, int instance, bool by_name = true) {
  if (instance < 0) return "";
  const int* bound = type == mjOBJ_SENSOR ? m->sensor_plugin : type == mjOBJ_ACTUATOR ? m->actuator_plugin : nullptr;
  if (!bound || bound[id] == instance) return "";
  if (by_name && type == mjOBJ_ACTUATOR && bound[id] >= 0) return "";
  const std::string what = type == mjOBJ_SENSOR ? "sensor" : "actuator";
  return what + " " + object_label(m, type, id) + " is not bound to this instance (declare it as <" + what +
         "><plugin instance=\"" + (m->names + m->name_pluginadr[instance]) + "\" .../>)";
}
}  // namespace

int Config::get_object(const std::string& key, mjtObj type) const {
  const std::string& name = raw(key);
  const int id = mj_name2id(m_, type, name.c_str());
  if (id < 0) fail(key, std::string("no ") + object_type_name(type) + " named " + quoted(name) + " in the model");
  const std::string problem = binding_problem(m_, type, id, native_instance_);
  if (!problem.empty()) fail(key, problem);
  return id;
}

std::vector<int> Config::get_objects(const std::string& key, mjtObj type, bool allow_all) const {
  const std::string& value = raw(key);
  std::vector<int> ids;
  if (allow_all && value == "all") {
    int n = 0;
    switch (type) {
      case mjOBJ_JOINT: n = m_->njnt; break;
      case mjOBJ_ACTUATOR: n = m_->nactuator; break;
      case mjOBJ_SITE: n = m_->nsite; break;
      case mjOBJ_BODY: n = m_->nbody; break;
      case mjOBJ_SENSOR: n = m_->nsensor; break;
      default: fail(key, "'all' is not supported for this kind of object");
    }
    for (int i = 0; i < n; ++i) {
      if (binding_problem(m_, type, i, native_instance_, false).empty()) ids.push_back(i);  // native: bound to it
    }
    if (ids.empty() && native_instance_ >= 0 && (type == mjOBJ_ACTUATOR || type == mjOBJ_SENSOR)) {
      const std::string what = object_type_name(type);
      fail(key, "'all' means every " + what + " bound to this instance, and none is (declare them as <" + what +
                    "><plugin instance=\"" + (m_->names + m_->name_pluginadr[native_instance_]) + "\" .../>)");
    }
    return ids;
  }
  for (const std::string& name : split_commas(value)) {
    if (name.empty()) fail(key, "empty name in the list");
    const int id = mj_name2id(m_, type, name.c_str());
    if (id < 0) fail(key, std::string("no ") + object_type_name(type) + " named " + quoted(name) + " in the model");
    for (int other : ids) {
      if (other == id) fail(key, quoted(name) + " is listed twice");
    }
    const std::string problem = binding_problem(m_, type, id, native_instance_);
    if (!problem.empty()) fail(key, problem);
    ids.push_back(id);
  }
  return ids;
}

void Config::check_all_used() const {
  for (const auto& key : order_) {
    if (!used_.count(key) && key != "type") fail(key, "unknown key for plugin type " + quoted(type_));
  }
}


}  // namespace mjhand
