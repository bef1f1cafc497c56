// The mjhand plugin interface: what every plugin type implements. Mirrors MuJoCo 3's mjpPlugin (capabilities,
// nstate, reset, compute) on top of MuJoCo 2.2.2's global callbacks, so a later port is a thin adapter.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <vector>

namespace mjhand {

// What an instance takes part in; each maps onto one MuJoCo 2.2.2 callback.
enum Capability : int {
  kCapControl = 1 << 0,   // mjcb_control: writes d->ctrl (or qfrc_applied/xfrc_applied)
  kCapPassive = 1 << 1,   // mjcb_passive: adds into d->qfrc_passive
  kCapActuator = 1 << 2,  // mjcb_act_gain/bias/dyn for the user actuators the instance owns
  kCapSensor = 1 << 3,    // mjcb_sensor for the user sensors the instance owns
};

// A configured plugin instance. Created once per model by its factory (which parses and validates the
// configuration); immutable afterwards, so one instance serves every mjData of the model, in any thread.
// Everything that changes during a simulation lives in `state`, a slice of d->userdata of nstate() numbers.
class Plugin {
 public:
  virtual ~Plugin() = default;

  // Bitwise OR of Capability values.
  virtual int capabilities() const = 0;
  // Number of mjtNum of per-simulation state (mjpPlugin::nstate).
  virtual int nstate() const { return 0; }
  // Writes the initial state; called on the first callback after mj_makeData or mj_resetData (state arrives zeroed).
  virtual void reset(const mjModel* m, const mjData* d, mjtNum* state) const;

  // kCapControl. Called in every mjcb_control (RK4: four times per step), so time-triggered logic should use d->time.
  virtual void control(const mjModel* m, mjData* d, mjtNum* state) const;
  // kCapPassive. Must add into d->qfrc_passive, never overwrite it.
  virtual void passive(const mjModel* m, mjData* d, mjtNum* state) const;
  // kCapSensor. stage is mjSTAGE_POS/VEL/ACC; write only the sensordata of owned sensors of that stage.
  virtual void sensor(const mjModel* m, mjData* d, int stage, mjtNum* state) const;
  // kCapSensor, native plugins: number of values this instance writes into owned sensor `sensor_id` (MuJoCo sizes
  // a <sensor><plugin> by it; 0 = not owned).
  virtual int sensor_width(int sensor_id) const {
    (void)sensor_id;
    return 0;
  }
  // kCapActuator: gain, bias and activation derivative of owned user actuator `id`.
  virtual mjtNum actuator_gain(const mjModel* m, const mjData* d, int id, const mjtNum* state) const;
  virtual mjtNum actuator_bias(const mjModel* m, const mjData* d, int id, const mjtNum* state) const;
  virtual mjtNum actuator_dyn(const mjModel* m, const mjData* d, int id, const mjtNum* state) const;

  // User actuators / sensors this instance serves, and actuators whose d->ctrl it writes (filled by claim_*
  // in the factory; the host rejects two instances claiming the same one).
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
