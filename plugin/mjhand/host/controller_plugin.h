// Adapter from a plain controller class to a control-capability Plugin, so each controller is written once and is
// usable both in a user's own loop and as an MJCF-declared plugin.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

// Controller must offer nstate(), reset(m, d, state), compute(m, d, state) and options().actuators (the actuators
// whose d->ctrl it writes; claimed so no other instance may write them).
template <typename Controller>
class ControllerPlugin : public Plugin {
 public:
  template <typename... Args>
  explicit ControllerPlugin(Args&&... args) : ctl_(std::forward<Args>(args)...) {
    for (int a : ctl_.options().actuators) claim_ctrl(a);
  }
  int capabilities() const override { return kCapControl; }
  int nstate() const override { return ctl_.nstate(); }
  void reset(const mjModel* m, const mjData* d, mjtNum* s) const override { ctl_.reset(m, d, s); }
  void control(const mjModel* m, mjData* d, mjtNum* s) const override { ctl_.compute(m, d, s); }
  // The wrapped controller, e.g. to read its fault code from a state slice.
  const Controller& controller() const { return ctl_; }

 private:
  Controller ctl_;
};

// The native form of a controller that writes position setpoints (posture, hand_closure): MuJoCo plugins cannot
// write another actuator's ctrl, so the instance's own actuators (<actuator><plugin instance=...>) are the servos:
// force = kp (setpoint - length) - kv velocity, what a <position kp kv> actuator with ctrl = setpoint gives
// (docs/native-plugins.md).
template <typename Controller>
class ServoPlugin : public ControllerPlugin<Controller> {
 public:
  template <typename... Args>
  ServoPlugin(double kp, double kv, Args&&... args)
      : ControllerPlugin<Controller>(std::forward<Args>(args)...), kp_(kp), kv_(kv) {}
  void control(const mjModel* m, mjData* d, mjtNum* s) const override {
    (void)m;
    ControllerPlugin<Controller>::control(m, d, s);  // setpoints into ctrl
    for (int a : this->controller().options().actuators) {
      d->ctrl[a] = kp_ * (d->ctrl[a] - d->actuator_length[a]) - kv_ * d->actuator_velocity[a];
    }
  }

 private:
  double kp_, kv_;
};

// Load-time check of a servo instance's explicit gains on each of its actuators' own length (servo_stability.cc):
// fails naming the instance, actuator, joint/tendon, inertia and limit where semi-implicit Euler would diverge.
void check_servo_stability(const Config& cfg, const std::vector<int>& actuators, double kp, double kv);

// The servo instance of a setpoint controller, with its gains read from keys kp (required, > 0) and kv (>= 0).
// Refused at load where the explicit servo force diverges on a light link (core/mjhand/util/explicit_stability.h).
template <typename Controller>
std::unique_ptr<Plugin> make_servo_plugin(const Config& cfg, typename Controller::Options options) {
  const double kp = cfg.get_double("kp", 0.0, 1e9);
  if (!(kp > 0)) cfg.fail("kp", "must be positive (the servo's stiffness, force per actuator length)");
  const double kv = cfg.get_double_or("kv", 0.0, 0.0, 1e9);
  check_servo_stability(cfg, options.actuators, kp, kv);
  return std::make_unique<ServoPlugin<Controller>>(kp, kv, std::move(options));
}

}  // namespace mjhand
