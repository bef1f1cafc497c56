// The mjhand plugin interface: what every plugin type implements, in mjhand's own terms (a controller writes the ctrl
// of the actuators it drives, an actuator model gives gain and bias, a sensor writes its sensors). One adapter
// (native/native_plugins.cc) turns every type into a MuJoCo engine plugin (mjpPlugin), so types know nothing of it.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

namespace mjhand {

// What an instance takes part in (the native form of each: docs/native-plugins.md, "How each kind of type maps").
enum Capability : int {
  kCapControl = 1 << 0,   // writes d->ctrl of owned_ctrls(); the adapter makes that its actuators' force
  kCapPassive = 1 << 1,   // adds into d->qfrc_passive
  kCapActuator = 1 << 2,  // gain, bias and activation derivative of the actuators it owns (actuator models)
  kCapSensor = 1 << 3,    // writes the sensors it owns
  kCapAdvance = 1 << 4,   // updates its state once per step, after MuJoCo has integrated (mjpPlugin::advance)
};

// A configured plugin instance, created by its factory (which parses and validates the configuration) for every
// mjData (MuJoCo's plugin_data) and for inspection (InstanceList); const afterwards. Everything that changes during
// a simulation lives in `state`, a slice of d->plugin_state of nstate() numbers, so copies and resets see it.
class Plugin {
 public:
  virtual ~Plugin() = default;

  // Bitwise OR of Capability values.
  virtual int capabilities() const = 0;
  // Number of mjtNum of per-simulation state (mjpPlugin::nstate).
  virtual int nstate() const { return 0; }
  // Writes the initial state; called on the first compute or advance after mj_makeData or mj_resetData (state arrives
  // zeroed).
  virtual void reset(const mjModel* m, const mjData* d, mjtNum* state) const;

  // kCapControl. Called whenever MuJoCo computes actuation (RK4: four times per step; also in mj_forward), so
  // time-triggered logic should use d->time.
  virtual void control(const mjModel* m, mjData* d, mjtNum* state) const;
  // kCapPassive. Must add into d->qfrc_passive, never overwrite it.
  virtual void passive(const mjModel* m, mjData* d, mjtNum* state) const;
  // kCapSensor. stage is mjSTAGE_POS/VEL/ACC; write only the sensordata of owned sensors of that stage.
  virtual void sensor(const mjModel* m, mjData* d, int stage, mjtNum* state) const;
  // kCapAdvance. Called once at the end of every step (mj_step, mj_step2; every integrator), after MuJoCo has
  // integrated: d->time, qpos, qvel and act are already the next step's, while d->contact, efc_force, xpos and the
  // other results of the step's computation are still those the step was computed from (under RK4: its last
  // stage's). mj_forward never calls it, so whatever it samples is sampled exactly once per step. It may write owned
  // sensors so they show the new state when the step returns; sensor() must then write the same values from `state`
  // alone, because MuJoCo's stages call it outside steps too (mj_forward, mj_step1, after a reset or a copy).
  virtual void advance(const mjModel* m, mjData* d, mjtNum* state) const;
  // kCapSensor: number of values this instance writes into owned sensor `sensor_id` (MuJoCo sizes a
  // <sensor><plugin> by it; 0 = not owned).
  virtual int sensor_width(int sensor_id) const {
    (void)sensor_id;
    return 0;
  }
  // kCapActuator: gain, bias and activation derivative of owned actuator `id`.
  virtual mjtNum actuator_gain(const mjModel* m, const mjData* d, int id, const mjtNum* state) const;
  virtual mjtNum actuator_bias(const mjModel* m, const mjData* d, int id, const mjtNum* state) const;
  virtual mjtNum actuator_dyn(const mjModel* m, const mjData* d, int id, const mjtNum* state) const;

  // Actuators / sensors this instance serves, and actuators whose d->ctrl it writes (filled by claim_* in the
  // factory). MuJoCo binds each <actuator><plugin>/<sensor><plugin> to one instance; the adapter checks the claims
  // match the bindings and that no two controllers drive one actuator model's input.
  const std::vector<int>& owned_actuators() const { return owned_actuators_; }
  const std::vector<int>& owned_sensors() const { return owned_sensors_; }
  const std::vector<int>& owned_ctrls() const { return owned_ctrls_; }

 protected:
  void claim_actuator(int id) { owned_actuators_.push_back(id); }
  void claim_sensor(int id) { owned_sensors_.push_back(id); }
  void claim_ctrl(int id) { owned_ctrls_.push_back(id); }

 private:
  std::vector<int> owned_actuators_;
  std::vector<int> owned_sensors_;
  std::vector<int> owned_ctrls_;
};

}  // namespace mjhand
