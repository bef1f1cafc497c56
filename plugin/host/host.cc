#include "host/host.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "host/dispatch.h"
#include "host/registry.h"
#include "io/model_io.h"
#include "native/native_plugins.h"
#include "io/text_file.h"
#include "io/xml_text.h"

namespace mjhand {

namespace {
// d->userdata[0] holds this marker once the state is initialised; mj_resetData zeroes it, which re-triggers init.
constexpr mjtNum kStateMarker = 7.0411e15;
constexpr int kHeaderSize = 1;

std::string text_name(const mjModel* m, int i) { return m->names + m->name_textadr[i]; }

std::string text_data(const mjModel* m, int i) {
  return std::string(m->text_data + m->text_adr[i], m->text_size[i] > 0 ? m->text_size[i] - 1 : 0);
}

bool is_instance_text(const mjModel* m, int i) {
  return std::strncmp(m->names + m->name_textadr[i], kInstancePrefix, std::strlen(kInstancePrefix)) == 0;
}

// A text that was surely meant as an instance but is misspelt ("MJHAND:x", "mjhand_x"): an error, not ignored.
bool is_near_miss(const std::string& name) {
  if (name.size() < 6) return false;
  std::string head = name.substr(0, 6);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return head == "mjhand" && name.compare(0, std::strlen(kInstancePrefix), kInstancePrefix) != 0;
}

// The MJCF text with comments blanked out (newlines kept), read once per attach and only when an error needs it.
class SourceLocator {
 public:
  explicit SourceLocator(std::string path) : path_(std::move(path)) {}

  // "FILE:LINE" of name="FULL_NAME" in the MJCF, or a description of the declaration when it cannot be found
  // (no file given, or the instance sits in an <include>d file).
  std::string locate(const std::string& full_name) {
    const std::string fallback = "<custom><text name=\"" + full_name + "\">";
    if (path_.empty()) return fallback;
    if (!loaded_) load();
    for (const char quote : {'"', '\''}) {
      const std::string needle = std::string("name=") + quote + full_name + quote;
      size_t at = text_.find(needle);
      if (at != std::string::npos) {
        return path_ + ":" + std::to_string(1 + std::count(text_.begin(), text_.begin() + at, '\n'));
      }
    }
    return path_ + " (in an included file), " + fallback;
  }

 private:
  void load() {
    loaded_ = true;
    if (!text_file_problem(path_).empty()) return;  // no line numbers rather than a blocked open
    std::ifstream in(path_);
    std::stringstream ss;
    ss << in.rdbuf();
    text_ = blank_xml_comments(ss.str());
  }
  std::string path_, text_;
  bool loaded_ = false;
};

// Replaces or appends the keys that overrides give for instance `name`.
void apply_overrides(const std::string& name, const std::vector<ConfigOverride>& overrides,
                     std::vector<std::pair<std::string, std::string>>& values) {
  for (const ConfigOverride& o : overrides) {
    if (o.instance != name) continue;
    if (o.key == "type") throw ConfigError(o.origin + ": the type of instance '" + name + "' cannot be overridden");
    bool replaced = false;
    for (auto& kv : values) {
      if (kv.first == o.key) {
        kv.second = o.value;
        replaced = true;
      }
    }
    if (!replaced) values.emplace_back(o.key, o.value);
  }
}

// Resolves every declared instance: type lookup, factory (which validates keys), unknown-key check.
std::vector<Instance> create_instances(const mjModel* m, const AttachOptions& options) {
  std::vector<Instance> out;
  auto locator = std::make_shared<SourceLocator>(options.xml_path);
  for (int i = 0; i < m->ntext; ++i) {
    const std::string full = text_name(m, i);
    if (is_near_miss(full)) {
      throw ConfigError(locator->locate(full) + ": <custom><text name=\"" + full +
                        "\"> looks like an mjhand plugin instance, but instances are named \"" + kInstancePrefix +
                        "NAME\" (lower case, with a colon)");
    }
    if (!is_instance_text(m, i)) continue;
    const std::string name = full.substr(std::strlen(kInstancePrefix));
    auto locate = [locator, full] { return locator->locate(full); };
    if (name.empty()) {
      throw ConfigError(locate() + ": plugin instance has an empty name after '" + kInstancePrefix + "'");
    }
    auto values = parse_key_values(text_data(m, i), [&] { return "plugin instance '" + name + "' (" + locate() + ")"; });
    apply_overrides(name, options.overrides, values);
    std::string type;
    for (const auto& kv : values) {
      if (kv.first == "type") type = kv.second;
    }
    if (type.empty()) throw ConfigError("plugin instance '" + name + "' (" + locate() + "): missing required key 'type'");
    const PluginType* pt = PluginRegistry::global().find(type);
    if (!pt) {
      std::string known;
      for (const auto& n : PluginRegistry::global().names()) known += (known.empty() ? "" : ", ") + n;
      throw ConfigError("plugin instance '" + name + "' (" + locate() + "): key 'type' = '" + type +
                        "': unknown plugin type (registered: " + known + ")");
    }
    Config cfg(m, name, type, locate, values);  // values kept for Instance::config
    for (const ConfigOverride& o : options.overrides) {
      if (o.instance == name) cfg.set_origin(o.key, o.origin);
    }
    std::unique_ptr<Plugin> plugin = pt->factory(m, cfg);
    if (!plugin) cfg.fail("the factory returned no plugin");
    cfg.check_all_used();
    if (plugin->nstate() < 0) cfg.fail("negative state size");
    for (int id : plugin->owned_sensors()) {
      if (id < 0 || id >= m->nsensor) cfg.fail("claims sensor id " + std::to_string(id) + ", out of range");
      if (m->sensor_type[id] != mjSENS_USER) {
        cfg.fail("sensor " + object_label(m, mjOBJ_SENSOR, id) + " is not a <user> sensor, so MuJoCo would never ask for it");
      }
    }
    for (int id : plugin->owned_actuators()) {
      if (id < 0 || id >= m->nu) cfg.fail("claims actuator id " + std::to_string(id) + ", out of range");
      if (m->actuator_gaintype[id] != mjGAIN_USER && m->actuator_biastype[id] != mjBIAS_USER &&
          m->actuator_dyntype[id] != mjDYN_USER) {
        cfg.fail("actuator " + object_label(m, mjOBJ_ACTUATOR, id) +
                 " has no gaintype/biastype/dyntype=\"user\", so MuJoCo would never ask the plugin for it");
      }
    }
    Instance inst;
    inst.name = name;
    inst.type = type;
    inst.plugin = std::move(plugin);
    inst.config = values;
    out.push_back(std::move(inst));
  }
  return out;
}

// Records instance k as the owner of each id, or throws naming both instances when another got there first.
void claim_exclusively(const mjModel* m, const std::vector<Instance>& instances, size_t k, const std::vector<int>& ids,
                       mjtObj type, const char* what, std::vector<int>& owner) {
  for (int id : ids) {
    if (id < 0 || id >= static_cast<int>(owner.size())) {
      throw ConfigError("plugin instance '" + instances[k].name + "' claims " + object_type_name(type) + " id " +
                        std::to_string(id) + ", out of range");
    }
    if (owner[id] >= 0 && owner[id] != static_cast<int>(k)) {
      throw ConfigError("plugin instances '" + instances[owner[id]].name + "' and '" + instances[k].name +
                        "' would both " + what + " " + object_label(m, type, id) + ": only one may");
    }
    owner[id] = static_cast<int>(k);
  }
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

std::unique_ptr<Host> Host::attach(const mjModel* m, const AttachOptions& options) {
  if (!m) throw ConfigError("attach: model is null");
  if (const std::string problem = multi_io_actuator_problem(m); !problem.empty()) {
    throw ConfigError((options.xml_path.empty() ? "" : options.xml_path + ": ") + problem);
  }
  std::unique_ptr<Host> host(new Host(m));
  host->instances_ = create_instances(m, options);
  for (int i = 0; i < m->nplugin; ++i) {
    const std::string type = native_type(m, i);
    if (type.empty()) continue;
    Instance inst;
    inst.name = m->names + m->name_pluginadr[i];
    inst.type = type;
    inst.plugin = create_native_plugin(m, i);
    inst.config = native_config(m, i);
    inst.native_id = i;
    host->natives_.push_back(std::move(inst));
  }
  for (const ConfigOverride& o : options.overrides) {
    if (!host->find(o.instance)) {
      if (mj_name2id(m, mjOBJ_PLUGIN, o.instance.c_str()) >= 0) {
        throw ConfigError(o.origin + ": plugin instance '" + o.instance + "' is a native MuJoCo plugin (<extension>), " +
                          "configured when MuJoCo compiles the model: apply the override while loading " +
                          "(load_model_with_overrides), not when attaching");
      }
      std::string known;
      for (const Instance* inst : host->all_instances()) known += (known.empty() ? "" : ", ") + inst->name;
      throw ConfigError(o.origin + ": no plugin instance named '" + o.instance + "' in the model (instances: " +
                        (known.empty() ? "none" : known) + ")");
    }
  }
  host->enabled_.reset(new std::atomic<bool>[host->instances_.size()]);
  for (size_t k = 0; k < host->instances_.size(); ++k) host->enabled_[k].store(true);
  host->actuator_owner_.assign(m->nu, -1);
  std::vector<int> sensor_owner(m->nsensor, -1), ctrl_owner(m->nu, -1);
  int adr = 0;
  for (size_t k = 0; k < host->instances_.size(); ++k) {
    Instance& inst = host->instances_[k];
    const int caps = inst.plugin->capabilities();
    claim_exclusively(m, host->instances_, k, inst.plugin->owned_actuators(), mjOBJ_ACTUATOR,
                      "compute the force of user actuator", host->actuator_owner_);
    claim_exclusively(m, host->instances_, k, inst.plugin->owned_sensors(), mjOBJ_SENSOR, "write sensor", sensor_owner);
    claim_exclusively(m, host->instances_, k, inst.plugin->owned_ctrls(), mjOBJ_ACTUATOR, "write the ctrl of actuator",
                      ctrl_owner);
    if (!inst.plugin->owned_actuators().empty() && !(caps & kCapActuator)) {
      throw ConfigError("plugin instance '" + inst.name + "' owns actuators but lacks the actuator capability");
    }
    if (!inst.plugin->owned_sensors().empty() && !(caps & kCapSensor)) {
      throw ConfigError("plugin instance '" + inst.name + "' owns sensors but lacks the sensor capability");
    }
    inst.state_adr = kHeaderSize + adr;
    adr += inst.plugin->nstate();
  }
  host->userdata_size_ = adr > 0 ? kHeaderSize + adr : 0;
  if (host->userdata_size_ > m->nuserdata) {
    throw ConfigError((options.xml_path.empty() ? "" : options.xml_path + ": ") + "the mjhand plugin instances need " +
                      std::to_string(host->userdata_size_) +
                      " entries of d->userdata but the model declares nuserdata=" + std::to_string(m->nuserdata) +
                      ": add <size nuserdata=\"" + std::to_string(host->userdata_size_) + "\"/> to the MJCF");
  }
  for (const Instance& inst : host->instances_) {
    const int caps = inst.plugin->capabilities();
    if (caps & kCapControl) host->control_.push_back(&inst);
    if (caps & kCapPassive) host->passive_.push_back(&inst);
    if (caps & kCapSensor) host->sensor_.push_back(&inst);
  }
  if (!host->instances_.empty()) {
    dispatch::register_host(m, host.get());  // throws if m is already attached or the table is full
    host->registered_ = true;
  }
  return host;
}

Host::~Host() {
  if (registered_) dispatch::unregister_host(m_, this);
}

std::vector<const Instance*> Host::all_instances() const {
  std::vector<const Instance*> out;
  for (const Instance& i : instances_) out.push_back(&i);
  for (const Instance& i : natives_) out.push_back(&i);
  return out;
}

const Instance* Host::find(const std::string& name) const {
  for (const Instance& inst : instances_) {
    if (inst.name == name) return &inst;
  }
  return nullptr;
}

const Instance* Host::find_any(const std::string& name) const {
  if (const Instance* inst = find(name)) return inst;
  for (const Instance& inst : natives_) {
    if (inst.name == name) return &inst;
  }
  return nullptr;
}

size_t Host::index_of(const std::string& name) const {
  for (size_t k = 0; k < instances_.size(); ++k) {
    if (instances_[k].name == name) return k;
  }
  std::string known;
  for (const Instance& inst : instances_) known += (known.empty() ? "" : ", ") + inst.name;
  throw ConfigError("no plugin instance named '" + name + "' in the model (instances: " +
                    (known.empty() ? "none" : known) + ")");
}

void Host::set_enabled(const std::string& name, bool on) { enabled_[index_of(name)].store(on); }

bool Host::enabled(const std::string& name) const { return enabled_[index_of(name)].load(); }

bool Host::state_ready(const mjData* d) const {
  return userdata_size_ == 0 || d->userdata[0] == kStateMarker;
}

void Host::reset_state(mjData* d) const {
  if (userdata_size_ == 0) return;
  std::fill(d->userdata, d->userdata + userdata_size_, 0.0);
  for (const Instance& inst : instances_) {
    if (inst.plugin->nstate() > 0) inst.plugin->reset(m_, d, state(d, inst));
  }
  d->userdata[0] = kStateMarker;
}

void Host::ensure_state(const mjData* d) const {
  // The actuator callbacks receive a const mjData; the state they may initialise is still the caller's own memory.
  if (!state_ready(d)) reset_state(const_cast<mjData*>(d));
}

namespace {
// mju_isBad inlined: NaN, +-Inf or |x| > mjMAXVAL. The per-step checks run on every control call, and a call into
// libmujoco per element cost several percent of mj_step on a 12-joint hand; this branch-free form vectorises.
inline bool is_bad(mjtNum x) { return !(std::fabs(x) <= mjMAXVAL); }

bool any_bad(const mjtNum* v, int n) {
  bool bad = false;
  for (int i = 0; i < n; ++i) bad |= is_bad(v[i]);
  return bad;
}
}  // namespace

void Host::record_fault(const mjData* d, int k, FaultKind kind, int id, int component, mjtNum value) const {
  Fault f;
  f.instance = k;
  f.kind = kind;
  f.index = id;
  f.component = component;
  f.value = value;
  f.time = d->time;
  faults_.record(d, f);
}

void Host::sanitize(const mjData* d, int k, FaultKind kind, mjtNum* v, int n) const {
  if (!any_bad(v, n)) return;  // the common case: one vectorised pass
  for (int i = 0; i < n; ++i) {
    if (!is_bad(v[i])) continue;
    const bool xfrc = kind == FaultKind::kXfrcApplied;
    record_fault(d, k, kind, xfrc ? i / 6 : i, xfrc ? i % 6 : 0, v[i]);
    v[i] = 0;
  }
}

mjtNum Host::checked(const mjData* d, int k, FaultKind kind, int id, mjtNum v) const {
  if (!is_bad(v)) return v;
  record_fault(d, k, kind, id, 0, v);
  return 0;
}

void Host::run_control(mjData* d) const {
  ensure_state(d);
  if (control_.empty()) return;
  // Bad applied forces that were there before mjhand's controllers ran are not theirs: left to MuJoCo, which warns
  // and resets. Otherwise every bad value found after an instance ran is that instance's.
  const bool outside_bad = any_bad(d->qfrc_applied, m_->nv) || any_bad(d->xfrc_applied, 6 * m_->nbody);
  for (const Instance* inst : control_) {
    if (!is_on(inst)) continue;
    inst->plugin->control(m_, d, state(d, *inst));
    const int k = index(inst);
    for (int id : inst->plugin->owned_ctrls()) {
      if (!is_bad(d->ctrl[id])) continue;
      record_fault(d, k, FaultKind::kCtrl, id, 0, d->ctrl[id]);
      d->ctrl[id] = 0;
    }
    if (outside_bad) continue;
    sanitize(d, k, FaultKind::kQfrcApplied, d->qfrc_applied, m_->nv);
    sanitize(d, k, FaultKind::kXfrcApplied, d->xfrc_applied, 6 * m_->nbody);
  }
}

void Host::run_passive(mjData* d) const {
  ensure_state(d);
  if (passive_.empty()) return;
  const bool outside_bad = any_bad(d->qfrc_passive, m_->nv);  // MuJoCo's own springs/dampers: not ours to hide
  for (const Instance* inst : passive_) {
    if (!is_on(inst)) continue;
    inst->plugin->passive(m_, d, state(d, *inst));
    if (!outside_bad) sanitize(d, index(inst), FaultKind::kQfrcPassive, d->qfrc_passive, m_->nv);
  }
}

void Host::run_sensor(mjData* d, int stage) const {
  ensure_state(d);
  for (const Instance* inst : sensor_) {
    if (is_on(inst)) {
      inst->plugin->sensor(m_, d, stage, state(d, *inst));
      for (int id : inst->plugin->owned_sensors()) {
        if (m_->sensor_needstage[id] != stage) continue;
        mjtNum* v = d->sensordata + m_->sensor_adr[id];
        for (int c = 0; c < m_->sensor_dim[id]; ++c) {
          if (!is_bad(v[c])) continue;
          record_fault(d, index(inst), FaultKind::kSensor, id, c, v[c]);
          v[c] = 0;
        }
      }
      continue;
    }
    for (int id : inst->plugin->owned_sensors()) {  // a switched-off sensor reads 0, never a stale value
      if (m_->sensor_needstage[id] != stage) continue;
      std::fill_n(d->sensordata + m_->sensor_adr[id], m_->sensor_dim[id], 0.0);
    }
  }
}

mjtNum Host::actuator_gain(const mjData* d, int id) const {
  ensure_state(d);
  const Instance& inst = instances_[actuator_owner_[id]];
  if (!is_on(&inst)) return 0;  // switched off: no force (gain, bias) and frozen activation (dyn)
  return checked(d, index(&inst), FaultKind::kActuatorGain, id,
                 inst.plugin->actuator_gain(m_, d, id, d->userdata + inst.state_adr));
}

mjtNum Host::actuator_bias(const mjData* d, int id) const {
  ensure_state(d);
  const Instance& inst = instances_[actuator_owner_[id]];
  if (!is_on(&inst)) return 0;  // switched off: no force (gain, bias) and frozen activation (dyn)
  return checked(d, index(&inst), FaultKind::kActuatorBias, id,
                 inst.plugin->actuator_bias(m_, d, id, d->userdata + inst.state_adr));
}

mjtNum Host::actuator_dyn(const mjData* d, int id) const {
  ensure_state(d);
  const Instance& inst = instances_[actuator_owner_[id]];
  if (!is_on(&inst)) return 0;  // switched off: no force (gain, bias) and frozen activation (dyn)
  return checked(d, index(&inst), FaultKind::kActuatorDyn, id,
                 inst.plugin->actuator_dyn(m_, d, id, d->userdata + inst.state_adr));
}

std::string Host::describe(const Fault& f) const {
  std::string who = f.instance >= 0 && f.instance < static_cast<int>(instances_.size())
                        ? "instance '" + instances_[f.instance].name + "' (" + instances_[f.instance].type + ")"
                        : "an unknown instance";
  std::string what;
  const auto dof = [&](int i) {
    const int j = i >= 0 && i < m_->nv ? m_->dof_jntid[i] : -1;
    return std::to_string(i) + "] (joint " + (j >= 0 ? object_label(m_, mjOBJ_JOINT, j) : "?") + ")";
  };
  switch (f.kind) {
    case FaultKind::kCtrl: what = "ctrl of actuator " + object_label(m_, mjOBJ_ACTUATOR, f.index); break;
    case FaultKind::kQfrcApplied: what = "qfrc_applied[" + dof(f.index); break;
    case FaultKind::kQfrcPassive: what = "qfrc_passive[" + dof(f.index); break;
    case FaultKind::kXfrcApplied:
      what = "xfrc_applied of body " + object_label(m_, mjOBJ_BODY, f.index) + " component " +
             std::to_string(f.component);
      break;
    case FaultKind::kActuatorGain:
    case FaultKind::kActuatorBias:
    case FaultKind::kActuatorDyn:
      what = std::string(f.kind == FaultKind::kActuatorGain   ? "the gain"
                         : f.kind == FaultKind::kActuatorBias ? "the bias"
                                                              : "the activation derivative (dyn)") +
             " of user actuator " + object_label(m_, mjOBJ_ACTUATOR, f.index);
      break;
    case FaultKind::kSensor:
      what = "sensor " + object_label(m_, mjOBJ_SENSOR, f.index) + " element " + std::to_string(f.component);
      break;
  }
  char value[64];
  std::snprintf(value, sizeof(value), "%g", f.value);
  char time[64];
  std::snprintf(time, sizeof(time), "%.6g", f.time);
  return who + " wrote " + value + " into " + what + " at t = " + time + " s (replaced by 0)";
}

int required_userdata(const mjModel* m) {
  std::vector<Instance> instances = create_instances(m, {});
  int total = 0;
  for (const Instance& inst : instances) total += inst.plugin->nstate();
  return total > 0 ? kHeaderSize + total : 0;
}

std::string unserved_user_objects(const mjModel* m, const Host& host) {
  std::vector<bool> sensor(m->nsensor, false), actuator(m->nu, false);
  for (const auto& inst : host.instances()) {
    for (int s : inst.plugin->owned_sensors()) sensor[s] = true;
    for (int a : inst.plugin->owned_actuators()) actuator[a] = true;
  }
  std::string out;
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] == mjSENS_USER && !sensor[s]) out += " sensor " + object_label(m, mjOBJ_SENSOR, s);
  }
  for (int a = 0; a < m->nu; ++a) {
    const bool user = m->actuator_gaintype[a] == mjGAIN_USER || m->actuator_biastype[a] == mjBIAS_USER ||
                      m->actuator_dyntype[a] == mjDYN_USER;
    if (user && !actuator[a]) out += " actuator " + object_label(m, mjOBJ_ACTUATOR, a);
  }
  return out;
}

int count_declared_instances(const mjModel* m) {
  int n = 0;
  for (int i = 0; i < m->ntext; ++i) n += is_instance_text(m, i) ? 1 : 0;
  return n;
}

ScopedStateRestore::ScopedStateRestore(const mjModel* m, mjData* d)
    : d_(d), saved_(d->userdata, d->userdata + m->nuserdata) {}

ScopedStateRestore::~ScopedStateRestore() { std::copy(saved_.begin(), saved_.end(), d_->userdata); }

}  // namespace mjhand
