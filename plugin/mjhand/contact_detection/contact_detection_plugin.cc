#include <mjhand/contact_detection/contact_detection_plugin.h>
#include <mjhand/native/native_plugins.h>

#include <stdexcept>

namespace mjhand {

namespace {

// Samples once per step at its end (advance): d->contact and the constraint forces are then still those the step
// was computed from, what an acceleration-stage sensor reads (except under RK4, where advance sees the last of its
// four stages), but a sensor at that stage makes MuJoCo run mj_rnePostConstraint every step (~5 % of the campaign
// scene's step) for nothing mjhand reads. The detector's state is the instance's plugin state; the sensors are
// written from it alone (at the end of the step and at MuJoCo's position stage), so mj_forward, which takes no
// sample, shows what the last step ended with, and a copied, reset or carried-over state shows consistently.
class ContactDetection : public Plugin {
 public:
  ContactDetection(const mjModel* m, ContactLayout layout, int signal, int where, double threshold, int samples)
      : detector_(m, std::move(layout), threshold, samples, where >= 0), signal_(signal), where_(where) {
    claim_sensor(signal_);
    if (where_ >= 0) claim_sensor(where_);
  }
  int capabilities() const override { return kCapSensor | kCapAdvance; }
  int sensor_width(int id) const override {
    const int n = detector_.layout().channels();
    return id == signal_ ? n : id == where_ ? 6 * n : 0;
  }
  int nstate() const override { return detector_.nstate(); }

  void advance(const mjModel* m, mjData* d, mjtNum* state) const override {
    detector_.sample(m, d, state);
    sensor(m, d, mjSTAGE_POS, state);
  }

  void sensor(const mjModel* m, mjData* d, int, mjtNum* state) const override {
    detector_.signals(state, d->sensordata + m->sensor_adr[signal_]);
    if (where_ >= 0) detector_.where(state, d->sensordata + m->sensor_adr[where_]);
  }

 private:
  ContactDetector detector_;
  int signal_, where_;
};

}  // namespace

ContactLayout declared_contact_layout(const mjModel* m, const std::string& instance, int* signal_sensor) {
  const int native = mj_name2id(m, mjOBJ_PLUGIN, instance.c_str());
  if (native < 0) throw std::runtime_error("no plugin instance '" + instance + "' (<instance name=\"" + instance + "\">)");
  const std::string type = native_type(m, native);
  if (type != "contact_detection") {
    throw std::runtime_error("plugin instance '" + instance + "' is " +
                             (type.empty() ? std::string("not an mjhand plugin") : "of type '" + type + "'") +
                             ", not contact_detection");
  }
  return configured_contact_layout(m, native_config(m, native), signal_sensor, nullptr);
}

ContactLayout configured_contact_layout(const mjModel* m,
                                        const std::vector<std::pair<std::string, std::string>>& config,
                                        int* signal_sensor, int* where_sensor) {
  std::string sensor, where, fingers = "all", palm;
  bool has_palm = false;
  for (const auto& [k, v] : config) {
    if (k == "sensor") sensor = v;
    if (k == "where") where = v;
    if (k == "fingers") fingers = v;
    if (k == "palm") {
      palm = v;
      has_palm = true;
    }
  }
  if (signal_sensor) *signal_sensor = mj_name2id(m, mjOBJ_SENSOR, sensor.c_str());
  if (where_sensor) *where_sensor = where.empty() ? -1 : mj_name2id(m, mjOBJ_SENSOR, where.c_str());
  return contact_layout_from_keys(m, fingers, has_palm ? &palm : nullptr);
}

std::unique_ptr<Plugin> make_contact_detection_plugin(const mjModel* m, const Config& cfg) {
  const int signal = cfg.get_object("sensor", mjOBJ_SENSOR);
  const std::string fingers = cfg.get_string("fingers", "all");
  const std::string palm = cfg.has("palm") ? cfg.get_string("palm", "") : "";
  ContactLayout layout;
  try {
    layout = contact_layout_from_keys(m, fingers, cfg.has("palm") ? &palm : nullptr);
  } catch (const std::exception& e) {
    cfg.fail(cfg.has("palm") && std::string(e.what()).find("palm") != std::string::npos ? "palm" : "fingers", e.what());
  }
  int where = -1;
  if (cfg.has("where")) {
    where = cfg.get_object("where", mjOBJ_SENSOR);
  }
  const double threshold = cfg.get_double_or("threshold", 0.01, 0.0, 1e6);
  const int samples = cfg.get_int_or("samples", 10, 1, 1000000);
  return std::make_unique<ContactDetection>(m, std::move(layout), signal, where, threshold, samples);
}

// Samples the step's contact forces in advance, so it needs no acceleration stage (docs/scenes.md).
PluginType contact_detection_plugin_type() {
  PluginType type;
  type.name = "contact_detection";
  type.summary = "phalanx/palm contact 0/1 after N samples above a force threshold, + where";
  type.factory = make_contact_detection_plugin;
  type.keys = {"sensor", "where", "fingers", "palm", "threshold", "samples"};
  type.sensor_stage = mjSTAGE_POS;
  type.capabilities = kCapSensor | kCapAdvance;
  return type;
}

}  // namespace mjhand
