#include <mjhand/joint_signal/joint_signal_plugin.h>

#include <cmath>

#include <mjhand/coupling/coupling_plugin.h>

namespace mjhand {

namespace {
class JointSignal : public Plugin {
 public:
  JointSignal(LinearSensorModel model, int qadr, double angle_offset, int sensor)
      : model_(model), qadr_(qadr), angle_offset_(angle_offset), sensor_(sensor) {
    claim_sensor(sensor);
  }
  int capabilities() const override { return kCapSensor; }
  int sensor_width(int id) const override { return id == sensor_ ? 1 : 0; }
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum*) const override {
    if (stage != mjSTAGE_POS) return;
    d->sensordata[m->sensor_adr[sensor_]] = model_.signal(d->qpos[qadr_] + angle_offset_);
  }

 private:
  LinearSensorModel model_;
  int qadr_;
  double angle_offset_;
  int sensor_;
};
}  // namespace

std::unique_ptr<Plugin> make_joint_signal_plugin(const mjModel* m, const Config& cfg) {
  const int j = cfg.get_object("joint", mjOBJ_JOINT);
  if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) {
    cfg.fail("joint", "joint " + object_label(m, mjOBJ_JOINT, j) + " is not a hinge or slide");
  }
  const int s = cfg.get_object("sensor", mjOBJ_SENSOR);
  const std::string label = object_label(m, mjOBJ_SENSOR, s);
  LinearSensorModel model;
  model.gain = cfg.get_double("gain");
  if (!(std::fabs(model.gain) > 1e-12)) cfg.fail("gain", "must be nonzero (the mapping is inverted to give M)");
  model.offset = cfg.get_double("offset");
  double angle_offset = 0.0;
  if (cfg.get_choice_or("angles", "qpos", {"qpos", "dh"}) == "dh") {
    try {
      angle_offset = dh_angle_offset(m, j);
    } catch (const std::exception& e) {
      cfg.fail("angles", e.what());
    }
  }
  return std::make_unique<JointSignal>(model, m->jnt_qposadr[j], angle_offset, s);
}

PluginType joint_signal_plugin_type() {
  PluginType type;
  type.name = "joint_signal";
  type.summary = "linear actuator-sensor model: writes M = (theta - offset) / gain into a user sensor";
  type.factory = make_joint_signal_plugin;
  type.keys = {"joint", "sensor", "gain", "offset", "angles"};
  type.sensor_stage = mjSTAGE_POS;
  type.actuator_model = false;
  type.sensor_width = 1;
  type.capabilities = kCapSensor;
  return type;
}

}  // namespace mjhand
