// An external program using the installed mjhand: it registers a plugin type of its own ("tip_height") next to
// mjhand's built-ins (as the native MuJoCo plugin "mjhand.tip_height"), loads its own model (finger.xml) whose MJCF
// uses that type, and drives the finger with mjhand's PidController as a plain C++ class in its own mj_step loop
// (no plugin involved for the PID).
// Exits nonzero unless the PID reached its setpoints and the own plugin filled its sensor every step.
#include <mjhand/host/registry.h>
#include <mjhand/io/model_io.h>
#include <mjhand/native/native_plugins.h>
#include <mjhand/pid/pid.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

namespace {

// Own plugin type: writes the height of a site into its sensor at the position stage.
class TipHeight : public mjhand::Plugin {
 public:
  TipHeight(int site, int sensor) : site_(site), sensor_(sensor) { claim_sensor(sensor); }
  int capabilities() const override { return mjhand::kCapSensor; }
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum*) const override {
    if (stage == mjSTAGE_POS) d->sensordata[m->sensor_adr[sensor_]] = d->site_xpos[3 * site_ + 2];
  }
  int sensor_width(int id) const override { return id == sensor_ ? 1 : 0; }  // MuJoCo sizes the sensor by it

 private:
  int site_, sensor_;
};

// Factory: keys are validated through mjhand::Config like any built-in type's.
std::unique_ptr<mjhand::Plugin> make_tip_height(const mjModel* m, const mjhand::Config& cfg) {
  const int site = cfg.get_object("site", mjOBJ_SITE);
  const int sensor = cfg.get_object("sensor", mjOBJ_SENSOR);  // must be bound to the instance (checked)
  (void)m;
  return std::make_unique<TipHeight>(site, sensor);
}

int id_of(const mjModel* m, mjtObj type, const char* name) {
  const int id = mj_name2id(m, type, name);
  if (id < 0) throw std::runtime_error(std::string("finger.xml has no object named ") + name);
  return id;
}

}  // namespace

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : EXAMPLE_MODEL;
  try {
    mjhand::register_plugin_type("tip_height", "height of a site into a sensor (external example)", make_tip_height,
                                 {"site", "sensor"});
    mjhand::register_native_plugins();  // mjhand's types and the own one, as "mjhand.*" MuJoCo plugins
    const auto types = mjhand::PluginRegistry::global().names();
    const bool has_pid = std::count(types.begin(), types.end(), "pid") == 1;
    const bool has_own = std::count(types.begin(), types.end(), "tip_height") == 1;
    std::printf("registered plugin types: %zu (pid: %s, tip_height: %s)\n", types.size(), has_pid ? "yes" : "no",
                has_own ? "yes" : "no");

    mjhand::ModelPtr m = mjhand::load_model(path);  // a bad <config> would be MuJoCo's load error
    mjhand::DataPtr d = mjhand::make_data(m.get());

    mjhand::PidController::Options o;
    o.joints = {id_of(m.get(), mjOBJ_JOINT, "j1"), id_of(m.get(), mjOBJ_JOINT, "j2")};
    o.actuators = {id_of(m.get(), mjOBJ_ACTUATOR, "m1"), id_of(m.get(), mjOBJ_ACTUATOR, "m2")};
    o.setpoint = {0.6, -0.4};
    o.kp = {2, 2};
    o.ki = {4, 4};
    o.kd = {0.05, 0.05};
    o.period = 0.002;
    o.tf = 0.004;
    o.u_min = {-0.5, -0.5};  // the motors' ctrlrange, so anti-windup knows the real limit
    o.u_max = {0.5, 0.5};
    const mjhand::PidController pid(o);
    std::vector<mjtNum> state(pid.nstate());
    pid.reset(m.get(), d.get(), state.data());

    const int tip = id_of(m.get(), mjOBJ_SITE, "tip");
    const int adr = m->sensor_adr[id_of(m.get(), mjOBJ_SENSOR, "tip_z")];
    int sensor_ok = 0, steps = 0;
    while (d->time < 3.0) {
      pid.compute(m.get(), d.get(), state.data());
      mj_step(m.get(), d.get());
      ++steps;
      // The sensor was filled at the position stage of this step, from the site pose that mj_step also left in d.
      if (d->sensordata[adr] == d->site_xpos[3 * tip + 2]) ++sensor_ok;
    }
    const double e1 = d->qpos[m->jnt_qposadr[o.joints[0]]] - o.setpoint[0];
    const double e2 = d->qpos[m->jnt_qposadr[o.joints[1]]] - o.setpoint[1];
    std::printf("after %.3f s (%d steps): q = (%.5f, %.5f) rad, setpoint (%.2f, %.2f), error (%.2e, %.2e)\n", d->time,
                steps, e1 + o.setpoint[0], e2 + o.setpoint[1], o.setpoint[0], o.setpoint[1], e1, e2);
    std::printf("tip_height sensor matched the tip's height in %d of %d steps (last %.6f m)\n", sensor_ok, steps,
                d->sensordata[adr]);
    std::printf("pid fault code: %d\n", mjhand::PidController::fault(state.data()));

    bool ok = has_pid && has_own && mjhand::PidController::fault(state.data()) == mjhand::PidController::kOk;
    // The integrator removes the static (gravity) error; 2e-3 rad allows for motion still decaying at 3 s.
    if (!(std::fabs(e1) < 2e-3 && std::fabs(e2) < 2e-3)) {
      std::printf("FAIL: the PID did not reach its setpoints\n");
      ok = false;
    }
    // The finger starts level (tip height 0) and ends raised: the sensor was really written.
    if (sensor_ok != steps || d->sensordata[adr] == 0) {
      std::printf("FAIL: the own plugin type did not fill its sensor in every step\n");
      ok = false;
    }
    std::printf(ok ? "external example: OK\n" : "external example: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "external example: %s\n", e.what());
    return 1;
  }
}
