#include <mjhand/coil_actuator/coil_actuator_plugin.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/native/native_plugins.h>

namespace mjhand {

namespace {

constexpr double kTwoPi = 2 * 3.14159265358979323846;

struct Coil {
  int actuator = -1;
  int qadr = -1, dofadr = -1;
  int act = -1;     // index into d->act, -1 without the thermal model
  int sensor = -1;  // owned <user> sensor, -1 if none
  CoilParams p;
};

class CoilActuatorPlugin : public Plugin {
 public:
  CoilActuatorPlugin(const mjModel* m, std::vector<Coil> coils) : coils_(std::move(coils)), index_(m->nu, -1) {
    for (size_t k = 0; k < coils_.size(); ++k) {
      claim_actuator(coils_[k].actuator);
      index_[coils_[k].actuator] = static_cast<int>(k);
      if (coils_[k].sensor >= 0) {
        claim_sensor(coils_[k].sensor);
        has_sensors_ = true;
      }
    }
  }
  int capabilities() const override { return kCapActuator | (has_sensors_ ? kCapSensor : 0); }
  int sensor_width(int id) const override {
    for (const Coil& c : coils_) {
      if (c.sensor == id) return 4;
    }
    return 0;
  }

  // MuJoCo forms gain * act + bias for actuators with dynamics (act is the temperature here), so the torque, which
  // is not linear in ctrl anyway once clipped, goes entirely into the bias.
  mjtNum actuator_gain(const mjModel*, const mjData*, int, const mjtNum*) const override { return 0.0; }
  mjtNum actuator_bias(const mjModel*, const mjData* d, int id, const mjtNum*) const override {
    const Coil& c = coils_[index_[id]];
    const CoilState s = state(c, d);
    return c.p.torque(s.current.current, s.phi);
  }
  mjtNum actuator_dyn(const mjModel*, const mjData* d, int id, const mjtNum*) const override {
    const Coil& c = coils_[index_[id]];
    const CoilState s = state(c, d);
    return c.p.heating_rate(s.current.current, s.dT);
  }
  // At the acceleration stage ctrl is final (controllers ran), matching what the actuator callbacks used.
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum*) const override {
    if (stage != mjSTAGE_ACC) return;
    for (const Coil& c : coils_) {
      if (c.sensor < 0) continue;
      const CoilState s = state(c, d);
      mjtNum* out = d->sensordata + m->sensor_adr[c.sensor];
      out[0] = s.dT;
      out[1] = s.current.current;
      out[2] = s.current.limit;
      out[3] = c.p.electrical_power(s.current.current, s.phi, s.phidot, s.dT);
    }
  }

  const Coil* find(int actuator) const {
    return actuator >= 0 && actuator < static_cast<int>(index_.size()) && index_[actuator] >= 0
               ? &coils_[index_[actuator]]
               : nullptr;
  }
  static CoilState state(const Coil& c, const mjData* d) {
    CoilState s;
    s.phi = c.p.phi(d->qpos[c.qadr]);
    s.phidot = d->qvel[c.dofadr];
    s.dT = c.act >= 0 ? d->act[c.act] : 0.0;
    s.current = c.p.apply(d->ctrl[c.actuator], s.phi, s.phidot, s.dT);
    return s;
  }

 private:
  std::vector<Coil> coils_;
  std::vector<int> index_;  // actuator id -> coil, -1 if not ours
  bool has_sensors_ = false;
};

// 1 or n values of `key`, else `fallback` (one per actuator) when present, else a "missing" error naming `why`.
std::vector<double> per_actuator(const Config& cfg, const std::string& key, size_t n,
                                 const std::optional<std::vector<double>>& fallback, const std::string& why) {
  std::vector<double> v;
  if (cfg.has(key)) {
    v = cfg.get_doubles(key);
    if (v.size() == 1) v.assign(n, v[0]);
    if (v.size() != n) {
      cfg.fail(key, "needs 1 or " + std::to_string(n) + " values (one per actuator), got " + std::to_string(v.size()));
    }
  } else if (fallback) {
    v = *fallback;
  } else {
    cfg.fail("missing required key '" + key + "' (" + why + ")");
  }
  return v;
}

// Rejects MJCF actuators the coil cannot drive, naming the attribute to change.
void check_actuator(const mjModel* m, const Config& cfg, int a, bool thermal) {
  const std::string label = "actuator " + object_label(m, mjOBJ_ACTUATOR, a);
  // <actuator><plugin instance=...>: with thermal=true the temperature rise is its one activation (actdim="1").
  if (thermal && m->actuator_actnum[a] != 1) {
    cfg.fail("actuators", label + " needs actdim=\"1\": with thermal=true the coil's temperature rise is the "
                                  "actuator's activation (or set thermal=false)");
  }
  if (!thermal && m->actuator_actnum[a] != 0) {
    cfg.fail("actuators", label + " has activation dynamics but thermal=false: remove actdim (or set thermal=true)");
  }
  const int tr = m->actuator_trntype[a];
  if (tr != mjTRN_JOINT && tr != mjTRN_JOINTINPARENT) cfg.fail("actuators", label + " must drive a joint");
  const int j = m->actuator_trnid[2 * a];
  if (m->jnt_type[j] != mjJNT_HINGE) {
    cfg.fail("actuators", label + " drives joint " + object_label(m, mjOBJ_JOINT, j) + ", not a hinge");
  }
  if (m->actuator_gear[6 * a] != 1.0) {
    cfg.fail("actuators", label + " must have gear=\"1\": the coil torque is the joint torque");
  }
  if (m->actuator_ctrllimited[a]) {
    cfg.fail("actuators", label + " must not be ctrllimited: the coil clips the current itself (I_max, V_max) and "
                                  "reports it in its sensor");
  }
  if (m->actuator_forcelimited[a]) {
    cfg.fail("actuators", label + " must not be forcelimited: the torque follows from the clipped current");
  }
  if (m->actuator_actlimited[a]) {
    cfg.fail("actuators", label + " must not be actlimited: the activation is the coil's temperature rise");
  }
}

// Requires values in (lo, hi] (lo_open) or [lo, hi], with `what` explaining the limit.
void check_range(const Config& cfg, const std::string& key, const std::vector<double>& v, double lo, bool lo_open,
                 double hi, const std::string& what) {
  for (double x : v) {
    if ((lo_open ? x <= lo : x < lo) || x > hi) cfg.fail(key, format_value(x) + ": " + what);
  }
}

}  // namespace

std::unique_ptr<Plugin> make_coil_actuator_plugin(const mjModel* m, const Config& cfg) {
  const std::vector<int> acts = cfg.get_objects("actuators", mjOBJ_ACTUATOR, /*allow_all=*/false);
  if (acts.empty()) cfg.fail("actuators", "no actuators given");
  const size_t n = acts.size();
  const bool thermal = cfg.get_bool_or("thermal", true);
  const std::string model = cfg.get_choice_or("kt_model", "sin2", {"sin2", "poly"});

  // Presets: the paper's measured links, as fitted (coil_presets.cc).
  std::vector<const CoilLinkPreset*> preset;
  if (cfg.has("link")) {
    for (double l : per_actuator(cfg, "link", n, std::nullopt, "")) {
      if (l != 1 && l != 2 && l != 3) cfg.fail("link", "must be 1, 2 or 3 (the links measured in the paper)");
      preset.push_back(&coil_link_preset(static_cast<int>(l)));
    }
  }
  auto from_preset = [&](auto field) -> std::optional<std::vector<double>> {
    if (preset.empty()) return std::nullopt;
    std::vector<double> v;
    for (const CoilLinkPreset* p : preset) v.push_back(field(*p));
    return v;
  };
  const std::string no_link = "give it, or link=1|2|3 for the paper's fitted values";

  std::vector<TorqueConstant> kt;
  if (model == "sin2") {
    if (cfg.has("kt_poly")) cfg.fail("kt_poly", "is only used with kt_model=poly");
    const auto kt_max = per_actuator(cfg, "kt_max", n, from_preset([](const CoilLinkPreset& p) { return p.kt_max; }),
                                     no_link);
    check_range(cfg, "kt_max", kt_max, 0.0, true, 1e6, "the torque constant must be > 0 N m/A");
    for (double k : kt_max) kt.push_back(TorqueConstant::sin2(k));
  } else {
    if (cfg.has("kt_max")) cfg.fail("kt_max", "is only used with kt_model=sin2 (poly takes kt_poly)");
    std::vector<double> c;
    if (cfg.has("kt_poly")) {
      c = cfg.get_doubles("kt_poly");
      if (c.size() == 5) {
        for (size_t k = 1; k < n; ++k) c.insert(c.end(), c.begin(), c.begin() + 5);
      }
      if (c.size() != 5 * n) {
        cfg.fail("kt_poly", "needs 5 coefficients c0..c4, or 5 per actuator (" + std::to_string(5 * n) + "), got " +
                                std::to_string(c.size()));
      }
    } else if (!preset.empty()) {
      for (const CoilLinkPreset* p : preset) c.insert(c.end(), p->kt_poly.begin(), p->kt_poly.end());
    } else {
      cfg.fail("missing required key 'kt_poly' (" + no_link + ")");
    }
    for (size_t k = 0; k < n; ++k) {
      try {
        kt.push_back(TorqueConstant::polynomial({c[5 * k], c[5 * k + 1], c[5 * k + 2], c[5 * k + 3], c[5 * k + 4]}));
      } catch (const std::invalid_argument& e) {
        cfg.fail(cfg.has("kt_poly") ? "kt_poly" : "link",
                 "actuator " + object_label(m, mjOBJ_ACTUATOR, acts[k]) + ": " + e.what());
      }
    }
  }

  const auto phi_offset = per_actuator(cfg, "phi_offset", n, std::vector<double>(n, 0.0), "");
  check_range(cfg, "phi_offset", phi_offset, -kTwoPi, false, kTwoPi, "must lie in [-2 pi, 2 pi] rad");
  const auto R0 = per_actuator(cfg, "R0", n, from_preset([](const CoilLinkPreset& p) { return p.R0; }), no_link);
  check_range(cfg, "R0", R0, 0.0, true, 1e9, "the coil resistance must be > 0 ohm");
  const auto alpha = per_actuator(cfg, "alpha_R", n, std::vector<double>(n, kCopperAlpha), "");
  check_range(cfg, "alpha_R", alpha, 0.0, false, 0.1, "must lie in [0, 0.1] 1/K (copper: 0.00393)");
  const auto I_max = per_actuator(cfg, "I_max", n, std::vector<double>(n, 3.0), "");
  check_range(cfg, "I_max", I_max, 0.0, true, 1e6, "the current limit must be > 0 A");
  const auto V_max = per_actuator(cfg, "V_max", n, std::vector<double>(n, 0.0), "");
  check_range(cfg, "V_max", V_max, 0.0, false, 1e6, "must be >= 0 V (0: no voltage limit)");

  std::vector<double> C(n, 1.0), R_th(n, 1.0);
  if (thermal) {
    C = per_actuator(cfg, "C", n, from_preset([](const CoilLinkPreset& p) { return p.C; }), no_link);
    R_th = per_actuator(cfg, "R_th", n, from_preset([](const CoilLinkPreset& p) { return p.R_th; }), no_link);
    for (size_t k = 0; k < n; ++k) {
      try {
        check_thermal_params(C[k], R_th[k]);
      } catch (const std::invalid_argument& e) {
        cfg.fail(C[k] > 0 ? "R_th" : "C", "actuator " + object_label(m, mjOBJ_ACTUATOR, acts[k]) + ": " + e.what());
      }
    }
  } else {
    for (const char* key : {"C", "R_th"}) {
      if (cfg.has(key)) cfg.fail(key, "is only used with thermal=true");
    }
  }

  std::vector<int> sensors;
  if (cfg.has("sensors")) {
    sensors = cfg.get_objects("sensors", mjOBJ_SENSOR);
    if (sensors.size() != n) {
      cfg.fail("sensors", "needs one sensor per actuator (" + std::to_string(n) + "), got " +
                              std::to_string(sensors.size()));
    }
  }

  std::vector<Coil> coils;
  for (size_t k = 0; k < n; ++k) {
    const int a = acts[k];
    check_actuator(m, cfg, a, thermal);
    Coil c;
    c.actuator = a;
    const int j = m->actuator_trnid[2 * a];
    c.qadr = m->jnt_qposadr[j];
    c.dofadr = m->jnt_dofadr[j];
    c.act = thermal ? m->actuator_actadr[a] : -1;
    c.sensor = sensors.empty() ? -1 : sensors[k];
    c.p.kt = kt[k];
    c.p.phi_offset = phi_offset[k];
    c.p.R0 = R0[k];
    c.p.alpha_R = alpha[k];
    c.p.I_max = I_max[k];
    c.p.V_max = V_max[k];
    c.p.thermal = thermal;
    c.p.C = C[k];
    c.p.R_th = R_th[k];
    coils.push_back(c);
  }
  return std::make_unique<CoilActuatorPlugin>(m, std::move(coils));
}

const CoilParams* find_coil(const mjModel* m, const mjData* d, int actuator) {
  for (int i = 0; i < m->nplugin; ++i) {
    const auto* coil = dynamic_cast<const CoilActuatorPlugin*>(native_plugin(m, d, i));
    if (!coil) continue;
    if (const Coil* c = coil->find(actuator)) return &c->p;
  }
  return nullptr;
}

CoilState coil_state(const mjModel* m, const mjData* d, int actuator) {
  for (int i = 0; i < m->nplugin; ++i) {
    const auto* coil = dynamic_cast<const CoilActuatorPlugin*>(native_plugin(m, d, i));
    if (!coil) continue;
    if (const Coil* c = coil->find(actuator)) return CoilActuatorPlugin::state(*c, d);
  }
  throw std::invalid_argument("actuator #" + std::to_string(actuator) + " is not driven by a coil_actuator instance");
}

PluginType coil_actuator_plugin_type() {
  PluginType type;
  type.name = "coil_actuator";
  type.summary = "direct-drive coil actuator (current in): K_T(phi) I, I/V limits, R(T), heating as act";
  type.factory = make_coil_actuator_plugin;
  type.keys = {"actuators", "sensors", "thermal", "link", "kt_model", "kt_max", "kt_poly", "phi_offset", "R0",
               "alpha_R", "R_th", "C", "I_max", "V_max"};
  type.sensor_stage = mjSTAGE_ACC;
  type.actuator_model = true;
  type.sensor_width = 4;
  type.capabilities = kCapActuator | kCapSensor;
  return type;
}

}  // namespace mjhand
