// Adapter from a plain controller class to a control-capability Plugin, so each controller is written once and is
// usable both in a user's own loop and as an MJCF-declared plugin.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/util/explicit_system.h>
#include <mjhand/util/implicit_pd.h>

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
// With integration=implicit the servo force is backward Euler on the actuator's length (util/implicit_pd.h),
// stable at any gain.
template <typename Controller>
class ServoPlugin : public ControllerPlugin<Controller> {
 public:
  template <typename... Args>
  ServoPlugin(double kp, double kv, bool implicit, Args&&... args)
      : ControllerPlugin<Controller>(std::forward<Args>(args)...), kp_(kp), kv_(kv), implicit_(implicit) {}
  void control(const mjModel* m, mjData* d, mjtNum* s) const override {
    ControllerPlugin<Controller>::control(m, d, s);  // setpoints into ctrl
    for (int a : this->controller().options().actuators) {
      const double e = d->actuator_length[a] - d->ctrl[a], rate = d->actuator_velocity[a];
      d->ctrl[a] = implicit_ ? implicit_pd_force(kp_, kv_, m->opt.timestep, actuator_inverse_inertia(m, d, a), e, rate)
                             : -kp_ * e - kv_ * rate;
    }
  }

 private:
  double kp_, kv_;
  bool implicit_;
};

// Load-time check of a servo instance's gains on its actuators' lengths, all servos together on the whole model
// (servo_stability.cc, core/mjhand/util/explicit_system.h): fails naming the instance, actuator, joint/tendon,
// inertia and the stable gains where MuJoCo's step would diverge. implicit: the backward-Euler force's gains at
// qpos0 (stable under Euler and the implicit integrators; RK4 can still diverge).
void check_servo_stability(const Config& cfg, const std::vector<int>& actuators, double kp, double kv, bool implicit);

// The key a refused set of explicit loops is reported under: `kp_key` when they diverge with every damping gain at 0
// too (the stiffness alone is too high), else `kd_key` (the damping gain pushes them over: 2 h kd / I > 4 - h^2 kp / I).
const char* blamed_gain(const mjModel* m, std::vector<ExplicitPd> loops, ForceTiming timing, const char* kp_key,
                        const char* kd_key);

// The servo instance of a setpoint controller, with its gains read from keys kp (required, > 0) and kv (>= 0) and
// integration=explicit|implicit. Refused at load where the servo force diverges on a light link.
template <typename Controller>
std::unique_ptr<Plugin> make_servo_plugin(const Config& cfg, typename Controller::Options options) {
  const double kp = cfg.get_double("kp", 0.0, 1e9);
  if (!(kp > 0)) cfg.fail("kp", "must be positive (the servo's stiffness, force per actuator length)");
  const double kv = cfg.get_double_or("kv", 0.0, 0.0, 1e9);
  const bool implicit = cfg.get_choice_or("integration", "explicit", {"explicit", "implicit"}) == "implicit";
  check_servo_stability(cfg, options.actuators, kp, kv, implicit);
  return std::make_unique<ServoPlugin<Controller>>(kp, kv, implicit, std::move(options));
}

}  // namespace mjhand
