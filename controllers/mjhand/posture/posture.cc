#include <mjhand/posture/posture.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mjhand {

PostureController::PostureController(Options options) : opt_(std::move(options)) {
  if (opt_.target.size() != opt_.actuators.size()) throw std::invalid_argument("posture: one target per actuator");
  if (!(opt_.tau > 0)) throw std::invalid_argument("posture: tau must be positive");
}

void PostureController::reset(const mjModel*, const mjData* d, mjtNum* state) const {
  state[0] = d->time;
  for (size_t i = 0; i < opt_.actuators.size(); ++i) state[1 + i] = d->ctrl[opt_.actuators[i]];
}

void PostureController::compute(const mjModel*, mjData* d, mjtNum* state) const {
  const double from = std::max(state[0], opt_.start);
  if (d->time > from) {
    const double decay = std::exp(-(d->time - from) / opt_.tau);
    for (size_t i = 0; i < opt_.actuators.size(); ++i) {
      state[1 + i] = opt_.target[i] + (state[1 + i] - opt_.target[i]) * decay;
    }
  }
  if (d->time > state[0]) state[0] = d->time;
  for (size_t i = 0; i < opt_.actuators.size(); ++i) d->ctrl[opt_.actuators[i]] = state[1 + i];
}

}  // namespace mjhand
