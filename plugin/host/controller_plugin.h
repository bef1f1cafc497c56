// Adapter from a plain controller class to a control-capability Plugin, so each controller is written once and is
// usable both in a user's own loop and as an MJCF-declared plugin.
#pragma once

#include <utility>

#include "host/plugin.h"

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

}  // namespace mjhand
