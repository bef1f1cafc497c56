#include <mjhand/native/native_plugins.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <mjhand/host/config.h>
#include <mjhand/host/registry.h>
#include <mjhand/io/model_io.h>

namespace mjhand {

namespace {

// plugin_state of an instance: [0] 1 once its own state was initialised from mjData (a reset sets 0, so the next
// compute or advance initialises it from the reset mjData, as Plugin::reset needs d), [1] 1 = on, then Plugin::nstate() entries.
constexpr int kHeader = 2;

// What init builds per mjData (d->plugin_data[instance]); never shared between mjData, so no locks.
struct NativeInstance {
  std::unique_ptr<Plugin> plugin;
  const PluginType* type = nullptr;
  int caps = 0;
  std::vector<int> sensors;    // owned sensors (bound to this instance)
  std::vector<int> ctrl_ids;   // actuators whose ctrl a control-capability plugin writes: its force outputs
  std::vector<mjtNum> saved;   // the user's ctrl of ctrl_ids, kept while the controller runs (sized once)
  std::vector<char> drives;    // per ctrl_ids entry: 1 = the actuator belongs to an actuator model (its ctrl is the input)
  std::vector<int> drivers;    // actuator models: the controller instances that drive their ctrl (run first)
  bool drivers_found = false;  // drivers is filled at the first compute, when every instance of d exists
  std::vector<int> actuators;  // user-actuator (gain/bias/dyn) plugins: the actuators they serve
  bool has_activation = false;  // one of `actuators` has an activation (act_dot has work to do)
  long faults = 0;
  std::string first_fault;
  double first_time = 0, last_time = 0;  // d->time of the first and the latest fault
};

std::string instance_name(const mjModel* m, int instance) { return m->names + m->name_pluginadr[instance]; }

const PluginType* type_of(const mjModel* m, int instance) {
  const mjpPlugin* p = mjp_getPluginAtSlot(m->plugin[instance]);
  const size_t n = std::strlen(kNativePrefix);
  if (!p || !p->name || std::strncmp(p->name, kNativePrefix, n) != 0) return nullptr;
  return PluginRegistry::global().find(p->name + n);
}

bool is_bad(mjtNum v) { return !(std::fabs(v) <= mjMAXVAL); }  // NaN fails every comparison

// Whether any of v[0..n) is bad. Every sensor value is checked after every computation and almost none is ever bad,
// so this all-good pass is branch-free and (with SSE2) two values wide, four per iteration: about a third of the
// instructions of checking one by one (the campaign scene checks 91 values twice per step). Which one is bad and
// what it was is left to the slow path.
bool any_bad(const mjtNum* v, int n) {
  int i = 0;
#if defined(__SSE2__)
  static_assert(sizeof(mjtNum) == sizeof(double), "mjtNum is double");
  const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
  const __m128d limit = _mm_set1_pd(mjMAXVAL);
  __m128d a = _mm_setzero_pd(), b = _mm_setzero_pd();
  for (; i + 4 <= n; i += 4) {  // cmpnle: not (|x| <= limit), true for NaN as is_bad
    a = _mm_or_pd(a, _mm_cmpnle_pd(_mm_and_pd(_mm_loadu_pd(v + i), magnitude), limit));
    b = _mm_or_pd(b, _mm_cmpnle_pd(_mm_and_pd(_mm_loadu_pd(v + i + 2), magnitude), limit));
  }
  if (_mm_movemask_pd(_mm_or_pd(a, b))) return true;
#endif
  bool bad = false;
  for (; i < n; ++i) bad |= is_bad(v[i]);
  return bad;
}

// Depth of create() calls on this thread. A factory may make a scratch mjData of the same model (e.g. to check a
// chain against MuJoCo's kinematics); MuJoCo then calls init again, which must not create again (endless
// recursion): such nested mjData get an inert instance (no object, computes nothing).
thread_local int creating = 0;

struct Creating {
  Creating() { ++creating; }
  ~Creating() { --creating; }
};

// Creates and validates the instance's Plugin; throws ConfigError naming instance, key, value and reason.
// `nested`: created to inspect another instance's claims, which skips the checks that would create others again.
std::unique_ptr<Plugin> create(const mjModel* m, int instance, const PluginType& type, bool sizing = false,
                               bool nested = false) {
  const Creating guard;
  const std::string name = instance_name(m, instance);
  Config cfg(m, name, type.name, [name] { return "<instance name=\"" + name + "\">"; }, native_config(m, instance));
  cfg.set_native_instance(instance);
  cfg.set_sizing(sizing);
  // Multi-input actuators break "actuator id = ctrl index" (every factory indexes so): refused before any factory
  // runs. While sizing only the counts exist yet; init names the actuator.
  if (sizing ? (m->nu != m->nactuator || m->nout != m->nactuator) : !multi_io_actuator_problem(m).empty()) {
    cfg.fail(sizing ? std::string("the model has multi-input actuators") : multi_io_actuator_problem(m));
  }
  std::unique_ptr<Plugin> plugin;
  try {
    plugin = type.factory(m, cfg);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {  // e.g. a core class's std::invalid_argument: still name the instance
    cfg.fail(e.what());
  }
  if (!plugin) cfg.fail("the factory returned no plugin");
  cfg.check_all_used();
  if (sizing) return plugin;  // the model is incomplete: bindings are checked by init
  // What MuJoCo sized while compiling must be what the configured object uses (else it would write out of bounds).
  if (m->plugin_statenum[instance] < kHeader + plugin->nstate()) {
    cfg.fail("needs " + std::to_string(plugin->nstate()) + " state values but MuJoCo sized " +
             std::to_string(m->plugin_statenum[instance] - kHeader) + " while compiling (an mjhand bug)");
  }
  for (int s : plugin->owned_sensors()) {
    if (s >= 0 && s < m->nsensor && m->sensor_plugin[s] == instance && m->sensor_dim[s] != plugin->sensor_width(s)) {
      cfg.fail("sensor " + object_label(m, mjOBJ_SENSOR, s) + " has " + std::to_string(m->sensor_dim[s]) +
               " values but the configuration writes " + std::to_string(plugin->sensor_width(s)) +
               " (an mjhand bug: they were sized while compiling)");
    }
  }
  if (plugin->nstate() < 0) cfg.fail("negative state size");
  const int caps = plugin->capabilities();
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_plugin[s] != instance) continue;
    bool owned = false;
    for (int id : plugin->owned_sensors()) owned = owned || id == s;
    if (!owned) {
      cfg.fail("sensor " + object_label(m, mjOBJ_SENSOR, s) + " is bound to this instance, but its configuration " +
               "does not name it (so nothing would write it)");
    }
  }
  for (int a = 0; a < m->nu; ++a) {
    if (m->actuator_plugin[a] != instance) continue;
    bool owned = false;
    for (int id : plugin->owned_ctrls()) owned = owned || id == a;
    for (int id : plugin->owned_actuators()) owned = owned || id == a;
    if (!owned) {
      cfg.fail("actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " is bound to this instance, but its " +
               "configuration does not name it (it would give no force)");
    }
  }
  for (int a : plugin->owned_actuators()) {
    if (a < 0 || a >= m->nu || m->actuator_plugin[a] != instance) {
      cfg.fail("actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " is not bound to this instance (declare it as " +
               "<actuator><plugin instance=\"" + name + "\" .../>)");
    }
  }
  std::vector<int> driven;  // actuator model inputs this instance drives
  for (int a : plugin->owned_ctrls()) {  // its own actuators (force output), or an actuator model's (ctrl = input)
    const int other = a >= 0 && a < m->nu ? m->actuator_plugin[a] : -1;
    if (other == instance) continue;
    const PluginType* model = other >= 0 ? type_of(m, other) : nullptr;
    if (!model || !model->actuator_model) {
      cfg.fail("actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " is neither bound to this instance (<actuator>" +
               "<plugin instance=\"" + name + "\" .../>) nor to an mjhand actuator model (dc_motor, coil_actuator) " +
               "whose input it could drive");
    }
    driven.push_back(a);
  }
  // One input, one driver: another controller driving the same input (named in `actuators`, or found through its
  // `joints`) would fight over it. Each other controller is built once, for its claims.
  for (int c = 0; !nested && !driven.empty() && c < m->nplugin; ++c) {
    const PluginType* ct = c == instance ? nullptr : type_of(m, c);
    if (!ct || !(ct->capabilities & kCapControl)) continue;
    std::unique_ptr<Plugin> them;
    try {
      them = create(m, c, *ct, false, true);
    } catch (const std::exception&) {
      continue;  // its own init reports what is wrong with it
    }
    for (int a : driven) {
      const std::vector<int>& theirs = them->owned_ctrls();
      if (std::find(theirs.begin(), theirs.end(), a) == theirs.end()) continue;
      const std::string why = "actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " is also driven by instance '" +
                              instance_name(m, c) + "': one controller per actuator model input";
      for (const char* key : {"actuators", "joints"}) {
        if (cfg.has(key)) cfg.fail(key, why);  // the key through which this instance claims it
      }
      cfg.fail(why);
    }
  }
  for (int s : plugin->owned_sensors()) {
    if (s < 0 || s >= m->nsensor || m->sensor_plugin[s] != instance) {
      cfg.fail("sensor " + object_label(m, mjOBJ_SENSOR, s) + " is not bound to this instance (declare it as " +
               "<sensor><plugin instance=\"" + name + "\" .../>)");
    }
  }
  if ((caps & kCapControl) && (caps & kCapActuator)) cfg.fail("a type may not both control and serve actuators");
  if (caps & ~type.capabilities) cfg.fail("uses a capability its type does not declare (PluginType::capabilities)");
  return plugin;
}

// Runs f, turning any exception into `error` (MuJoCo's C frames must never see one).
template <typename F>
bool guarded(char* error, size_t size, F&& f) {
  try {
    f();
    return true;
  } catch (const std::exception& e) {
    std::snprintf(error, size, "mjhand: %s", e.what());
  } catch (...) {
    std::snprintf(error, size, "mjhand: unknown error");
  }
  return false;
}

NativeInstance* get(const mjData* d, int instance) {
  return reinterpret_cast<NativeInstance*>(d->plugin_data[instance]);
}

bool make_instance(const mjModel* m, mjData* d, int instance, char* error, size_t size) {
  return guarded(error, size, [&] {
    const PluginType* type = type_of(m, instance);
    if (!type) throw ConfigError("plugin instance '" + instance_name(m, instance) + "' has no mjhand type");
    auto ni = std::make_unique<NativeInstance>();
    if (creating > 0) {  // a factory's scratch mjData: inert
      d->plugin_data[instance] = reinterpret_cast<uintptr_t>(ni.release());
      return;
    }
    ni->plugin = create(m, instance, *type);
    ni->type = type;
    ni->caps = ni->plugin->capabilities();
    ni->sensors = ni->plugin->owned_sensors();
    ni->ctrl_ids = ni->plugin->owned_ctrls();
    ni->saved.assign(ni->ctrl_ids.size(), 0.0);
    for (int a : ni->ctrl_ids) ni->drives.push_back(m->actuator_plugin[a] != instance);
    ni->actuators = ni->plugin->owned_actuators();
    for (int a : ni->actuators) ni->has_activation = ni->has_activation || m->actuator_actnum[a] > 0;
    d->plugin_data[instance] = reinterpret_cast<uintptr_t>(ni.release());
  });
}

// The rare path: counts the fault and describes the first one.
void record(const mjModel* m, const mjData* d, int instance, NativeInstance& ni, const char* what, mjtObj type,
            int id, mjtNum value) {
  ni.last_time = d->time;
  if (ni.faults++ > 0) return;
  ni.first_time = d->time;
  char text[512];
  std::snprintf(text, sizeof(text), "instance '%s' (%s) wrote %g into %s of %s %s at t = %g s (replaced by 0)",
                instance_name(m, instance).c_str(), ni.type->name.c_str(), value, what, object_type_name(type),
                object_label(m, type, id).c_str(), d->time);
  ni.first_fault = text;
  mju_warning("mjhand: %s", text);
}

mjtNum* state_of(const mjModel* m, mjData* d, int instance) { return d->plugin_state + m->plugin_stateadr[instance]; }

// Initialises the instance's state from d on the first call after a reset; returns whether it is on.
bool ready(const mjModel* m, mjData* d, int instance, NativeInstance& ni) {
  mjtNum* s = state_of(m, d, instance);
  if (s[0] == 0) {
    ni.plugin->reset(m, d, s + kHeader);
    s[0] = 1;
  }
  return s[1] != 0;
}

mjtNum clamped_ctrl(const mjModel* m, int a, mjtNum v) {
  if (!m->actuator_ctrllimited[a]) return v;
  return mju_clip(v, m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
}

// Bad values in the owned sensors are replaced by 0 and recorded.
void sanitize_sensors(const mjModel* m, mjData* d, int instance, NativeInstance& ni) {
  for (int s : ni.sensors) {
    mjtNum* v = d->sensordata + m->sensor_adr[s];
    if (!any_bad(v, m->sensor_dim[s])) continue;
    for (int c = 0; c < m->sensor_dim[s]; ++c) {
      if (!is_bad(v[c])) continue;
      record(m, d, instance, ni, "sensordata", mjOBJ_SENSOR, s, v[c]);
      v[c] = 0;
    }
  }
}

void compute_sensors(const mjModel* m, mjData* d, int instance, NativeInstance& ni, bool on) {
  for (int s : ni.sensors) std::fill_n(d->sensordata + m->sensor_adr[s], m->sensor_dim[s], 0.0);
  if (!on) return;  // a switched-off sensor reads 0, never a stale value
  ni.plugin->sensor(m, d, ni.type->sensor_stage, state_of(m, d, instance) + kHeader);
  sanitize_sensors(m, d, instance, ni);
}

void compute_passive(const mjModel* m, mjData* d, int instance, NativeInstance& ni, bool on) {
  if (!on) return;
  // Bad values already there (MuJoCo's springs, another plugin) are not this instance's: left to MuJoCo.
  bool outside_bad = false;
  for (int i = 0; i < m->nv; ++i) outside_bad = outside_bad || is_bad(d->qfrc_passive[i]);
  ni.plugin->passive(m, d, state_of(m, d, instance) + kHeader);
  for (int i = 0; i < m->nv && !outside_bad; ++i) {
    if (!is_bad(d->qfrc_passive[i])) continue;
    record(m, d, instance, ni, "qfrc_passive", mjOBJ_DOF, i, d->qfrc_passive[i]);
    d->qfrc_passive[i] = 0;
  }
}

// A controller writes the ctrl of its own actuators, as it would for motors; here that value, clamped to the
// actuator's ctrlrange like a motor's ctrl, becomes the actuator's force, and the user's ctrl is put back.
void compute_control(const mjModel* m, mjData* d, int instance, NativeInstance& ni, bool on) {
  const size_t n = ni.ctrl_ids.size();
  for (size_t i = 0; i < n; ++i) ni.saved[i] = d->ctrl[ni.ctrl_ids[i]];
  if (on) ni.plugin->control(m, d, state_of(m, d, instance) + kHeader);
  for (size_t i = 0; i < n; ++i) {
    const int a = ni.ctrl_ids[i];
    if (ni.drives[i]) {  // an actuator model's input: the ctrl stays, the controller's output
      if (!on) d->ctrl[a] = 0;  // off: no drive (0 V, 0 A), as a controller's own actuators give no force
      if (is_bad(d->ctrl[a])) {
        record(m, d, instance, ni, "ctrl", mjOBJ_ACTUATOR, a, d->ctrl[a]);
        d->ctrl[a] = 0;
      }
      continue;
    }
    mjtNum u = on ? clamped_ctrl(m, a, d->ctrl[a]) : 0.0;
    if (is_bad(u)) {
      record(m, d, instance, ni, "the force", mjOBJ_ACTUATOR, a, u);
      u = 0;
    }
    d->actuator_force[a] = u;
    d->ctrl[a] = ni.saved[i];
  }
}

// An actuator model reads its ctrl: the controllers that drive it run first (they are time-triggered, so running
// them again when MuJoCo reaches them changes nothing). MuJoCo asks for act_dot before any plugin computes
// (`all`: every driver runs), then computes the actuator plugins in instance order, so at compute time a driver
// declared before the model (a lower instance id) has already run: only the later ones run here.
void run_drivers(const mjModel* m, mjData* d, int instance, NativeInstance& ni, bool all) {
  if (!ni.drivers_found) {
    ni.drivers_found = true;
    for (int c = 0; c < m->nplugin; ++c) {
      const NativeInstance* other = get(d, c);
      if (&ni == other || native_type(m, c).empty() || !other || !other->plugin) continue;
      bool drives = false;
      for (size_t i = 0; i < other->ctrl_ids.size(); ++i) {
        for (int a : ni.actuators) drives = drives || (other->drives[i] && other->ctrl_ids[i] == a);
      }
      if (drives) ni.drivers.push_back(c);
    }
  }
  for (int c : ni.drivers) {
    if (!all && c < instance) continue;
    NativeInstance* driver = get(d, c);
    if (!driver || !driver->plugin || !(driver->caps & kCapControl)) continue;
    compute_control(m, d, c, *driver, ready(m, d, c, *driver));
  }
}

// Actuator models: force = gain * (act or ctrl) + bias, as MuJoCo forms it for its own actuators.
void compute_actuators(const mjModel* m, mjData* d, int instance, NativeInstance& ni, bool on) {
  const mjtNum* s = state_of(m, d, instance) + kHeader;
  for (int a : ni.actuators) {
    mjtNum f = 0;
    if (on) {
      const mjtNum input = m->actuator_actnum[a] > 0 ? d->act[m->actuator_actadr[a] + m->actuator_actnum[a] - 1]
                                                     : clamped_ctrl(m, a, d->ctrl[a]);
      f = ni.plugin->actuator_gain(m, d, a, s) * input + ni.plugin->actuator_bias(m, d, a, s);
    }
    if (is_bad(f)) {
      record(m, d, instance, ni, "the force", mjOBJ_ACTUATOR, a, f);
      f = 0;
    }
    d->actuator_force[a] = f;
  }
}

// ---- the mjpPlugin callbacks -----------------------------------------------------------------------------------

// While MuJoCo compiles, it asks for the state size before it has copied the actuators' parameters (ctrlrange,
// gear, transmission) into the model: a factory that validates those cannot be sized then. Such an instance gets
// this much state (8 KB), more than any configuration of mjhand's types needs; init checks the real need fits.
constexpr int kUnsizedState = 1024;

int cb_nstate(const mjModel* m, int instance) {
  const PluginType* type = type_of(m, instance);
  int n = kUnsizedState;
  char error[64];
  if (type) guarded(error, sizeof(error), [&] { n = create(m, instance, *type, true)->nstate(); });
  return kHeader + n;
}

int cb_nsensordata(const mjModel* m, int instance, int sensor_id) {
  const PluginType* type = type_of(m, instance);
  if (type && type->sensor_width > 0) return type->sensor_width;
  int n = 0;
  char error[64];
  if (type) guarded(error, sizeof(error), [&] { n = create(m, instance, *type, true)->sensor_width(sensor_id); });
  return n > 0 ? n : 1;  // init then names the problem
}

int cb_init(const mjModel* m, mjData* d, int instance) {
  char error[1000];
  if (!make_instance(m, d, instance, error, sizeof(error))) {
    // MuJoCo does not call destroy for the instances it initialised before this one when init raises an error:
    // the objects mjhand made for them go now.
    for (int i = 0; i < instance; ++i) {
      if (!native_type(m, i).empty()) {
        delete get(d, i);
        d->plugin_data[i] = 0;
      }
    }
    // While MuJoCo compiles a model this becomes its load error ("Error: engine error: mjhand: ...").
    mju_error("%s", error);
    return -1;
  }
  return 0;
}

void cb_destroy(mjData* d, int instance) {
  delete get(d, instance);
  d->plugin_data[instance] = 0;
}

void cb_copy(mjData* dest, const mjModel* m, const mjData* src, int instance) {
  (void)src;  // the state travels in plugin_state; the configured object is rebuilt for dest
  cb_destroy(dest, instance);
  cb_init(m, dest, instance);
}

void cb_reset(const mjModel* m, mjtNum* state, void* data, int instance) {
  std::fill_n(state, m->plugin_statenum[instance], 0.0);
  state[1] = 1;  // on
  if (auto* ni = static_cast<NativeInstance*>(data)) {
    ni->faults = 0;
    ni->first_fault.clear();
  }
}

void compute(const mjModel* m, mjData* d, int instance, int capability) {
  NativeInstance* ni = get(d, instance);
  if (!ni || !ni->plugin) return;
  const bool on = ready(m, d, instance, *ni);
  if (capability & mjPLUGIN_SENSOR) {
    if (ni->caps & kCapSensor) compute_sensors(m, d, instance, *ni, on);
  } else if (capability & mjPLUGIN_PASSIVE) {
    if (ni->caps & kCapPassive) compute_passive(m, d, instance, *ni, on);
  } else if (capability & mjPLUGIN_ACTUATOR) {
    if (ni->caps & kCapControl) compute_control(m, d, instance, *ni, on);
    if (ni->caps & kCapActuator) {
      run_drivers(m, d, instance, *ni, false);
      compute_actuators(m, d, instance, *ni, on);
    }
  }
}

// Plugins catch their own exceptions (they write zeros and warn); this is the last line: MuJoCo's C frames never
// see one.
void cb_compute(const mjModel* m, mjData* d, int instance, int capability) {
  try {
    compute(m, d, instance, capability);
  } catch (const std::exception& e) {
    mju_warning("mjhand: plugin instance '%s': %s", instance_name(m, instance).c_str(), e.what());
  }
}

void act_dot(const mjModel* m, mjData* d, int instance) {
  NativeInstance* ni = get(d, instance);
  if (!ni || !ni->plugin || !(ni->caps & kCapActuator) || !ni->has_activation) return;
  const bool on = ready(m, d, instance, *ni);
  run_drivers(m, d, instance, *ni, true);
  const mjtNum* s = state_of(m, d, instance) + kHeader;
  for (int a : ni->actuators) {
    if (m->actuator_actnum[a] == 0) continue;
    mjtNum v = on ? ni->plugin->actuator_dyn(m, d, a, s) : 0.0;  // off: frozen activation
    if (is_bad(v)) {
      record(m, d, instance, *ni, "act_dot", mjOBJ_ACTUATOR, a, v);
      v = 0;
    }
    d->act_dot[m->actuator_actadr[a] + m->actuator_actnum[a] - 1] = v;
  }
}

void cb_act_dot(const mjModel* m, mjData* d, int instance) {
  try {
    act_dot(m, d, instance);
  } catch (const std::exception& e) {
    mju_warning("mjhand: plugin instance '%s': %s", instance_name(m, instance).c_str(), e.what());
  }
}

// The end of a step (MuJoCo's advance callback, after integration). A switched-off instance is skipped: its state is
// kept and its sensors already read 0 from this step's sensor stage.
void advance(const mjModel* m, mjData* d, int instance) {
  NativeInstance* ni = get(d, instance);
  if (!ni || !ni->plugin || !(ni->caps & kCapAdvance)) return;
  const bool sensor = ni->caps & kCapSensor;
  // MuJoCo computes no sensors then, so a sensor type takes no sample either (as at its own stage).
  if (sensor && (m->opt.disableflags & mjDSBL_SENSOR)) return;
  if (!ready(m, d, instance, *ni)) return;
  ni->plugin->advance(m, d, state_of(m, d, instance) + kHeader);
  if (sensor) sanitize_sensors(m, d, instance, *ni);
}

void cb_advance(const mjModel* m, mjData* d, int instance) {
  try {
    advance(m, d, instance);
  } catch (const std::exception& e) {
    mju_warning("mjhand: plugin instance '%s': %s", instance_name(m, instance).c_str(), e.what());
  }
}

// Names and attribute lists handed to MuJoCo must outlive the registration: kept here for the process.
struct Registered {
  std::string name;
  std::vector<const char*> attributes;
};

}  // namespace

int register_native_plugins() {
  static std::mutex mu;
  static std::vector<std::unique_ptr<Registered>> done;
  std::lock_guard<std::mutex> lock(mu);
  PluginRegistry& registry = PluginRegistry::global();
  for (const std::string& type_name : registry.names()) {
    const PluginType* type = registry.find(type_name);
    if (type->keys.empty()) continue;  // not offered natively
    const std::string name = kNativePrefix + type_name;
    int slot = -1;
    if (mjp_getPlugin(name.c_str(), &slot)) continue;  // already known to this libmujoco
    auto r = std::make_unique<Registered>();
    r->name = name;
    for (const std::string& k : type->keys) r->attributes.push_back(k.c_str());  // registry entries are never freed
    mjpPlugin p;
    mjp_defaultPlugin(&p);
    p.name = r->name.c_str();
    p.nattribute = static_cast<int>(r->attributes.size());
    p.attributes = r->attributes.data();
    // Only what the type's instances use: MuJoCo calls every instance at every stage its type offers (and runs
    // mj_rnePostConstraint before any acceleration-stage sensor type), so an unused capability costs a call per
    // instance and stage.
    p.capabilityflags = ((type->capabilities & (kCapControl | kCapActuator)) ? mjPLUGIN_ACTUATOR : 0) |
                        ((type->capabilities & kCapSensor) ? mjPLUGIN_SENSOR : 0) |
                        ((type->capabilities & kCapPassive) ? mjPLUGIN_PASSIVE : 0);
    p.needstage = type->sensor_stage;
    p.nstate = cb_nstate;
    p.nsensordata = cb_nsensordata;
    p.init = cb_init;
    p.destroy = cb_destroy;
    p.copy = cb_copy;
    p.reset = cb_reset;
    p.compute = cb_compute;
    p.actuator_act_dot = cb_act_dot;
    if (type->capabilities & kCapAdvance) p.advance = cb_advance;  // MuJoCo calls every advance it is given, per step
    mjp_registerPlugin(&p);
    done.push_back(std::move(r));
  }
  int count = 0;
  for (const std::string& type_name : registry.names()) {
    int slot = -1;
    count += mjp_getPlugin((kNativePrefix + type_name).c_str(), &slot) != nullptr;
  }
  return count;
}

namespace {
// Any "mjhand.*" plugin the libmujoco knows (they are all registered together).
const mjpPlugin* registered_mjhand_plugin() {
  for (const std::string& type_name : PluginRegistry::global().names()) {
    int slot = -1;
    if (const mjpPlugin* p = mjp_getPlugin((kNativePrefix + type_name).c_str(), &slot)) return p;
  }
  return nullptr;
}
}  // namespace

std::string native_plugins_registrant() {
  const mjpPlugin* p = registered_mjhand_plugin();
  if (!p) return "";
  Dl_info info;
  if (p->init && dladdr(reinterpret_cast<void*>(p->init), &info) && info.dli_fname) return info.dli_fname;
  return "(a file dladdr cannot name)";
}

bool native_plugins_registered_here() {
  const mjpPlugin* p = registered_mjhand_plugin();
  return p && p->init == &cb_init;
}

std::unique_ptr<Plugin> create_native_plugin(const mjModel* m, int instance) {
  const PluginType* type = instance >= 0 && instance < m->nplugin ? type_of(m, instance) : nullptr;
  if (!type) throw ConfigError("plugin instance #" + std::to_string(instance) + " is not an mjhand plugin");
  return create(m, instance, *type);
}

std::string native_type(const mjModel* m, int instance) {
  const PluginType* t = instance >= 0 && instance < m->nplugin ? type_of(m, instance) : nullptr;
  return t ? t->name : "";
}

const Plugin* native_plugin(const mjModel* m, const mjData* d, int instance) {
  if (native_type(m, instance).empty()) return nullptr;
  const NativeInstance* ni = get(d, instance);
  return ni ? ni->plugin.get() : nullptr;
}

mjtNum* native_state(const mjModel* m, mjData* d, int instance) { return state_of(m, d, instance) + kHeader; }

int native_state_size(const mjModel* m, int instance) { return m->plugin_statenum[instance] - kHeader; }

void reset_native_state(const mjModel* m, mjData* d, int instance) {
  mjtNum* s = state_of(m, d, instance);
  std::fill_n(s + kHeader, m->plugin_statenum[instance] - kHeader, 0.0);  // Plugin::reset gets zeroed state
  s[0] = 0;
}

void set_native_enabled(const mjModel* m, mjData* d, int instance, bool on) {
  state_of(m, d, instance)[1] = on ? 1 : 0;
}

bool native_enabled(const mjModel* m, const mjData* d, int instance) {
  return d->plugin_state[m->plugin_stateadr[instance] + 1] != 0;
}

NativeFaults native_faults(const mjModel* m, const mjData* d) {
  NativeFaults out;
  for (int i = 0; i < m->nplugin; ++i) {
    if (native_type(m, i).empty()) continue;
    const NativeInstance* ni = get(d, i);
    if (!ni || ni->faults == 0) continue;
    if (out.count == 0 || ni->first_time < out.first_time) {  // the earliest over the instances
      out.first = ni->first_fault;
      out.first_time = ni->first_time;
    }
    out.last_time = out.count == 0 ? ni->last_time : std::max(out.last_time, ni->last_time);
    out.count += ni->faults;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> native_config(const mjModel* m, int instance) {
  std::vector<std::pair<std::string, std::string>> out;
  const PluginType* type = type_of(m, instance);
  if (!type) return out;
  for (const std::string& key : type->keys) {
    const char* v = mj_getPluginConfig(m, instance, key.c_str());
    if (v && *v) out.emplace_back(key, v);
  }
  return out;
}

}  // namespace mjhand
