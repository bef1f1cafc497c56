#include <mjhand/host/plugin.h>

namespace mjhand {

void Plugin::reset(const mjModel*, const mjData*, mjtNum*) const {}
void Plugin::control(const mjModel*, mjData*, mjtNum*) const {}
void Plugin::passive(const mjModel*, mjData*, mjtNum*) const {}
void Plugin::sensor(const mjModel*, mjData*, int, mjtNum*) const {}
void Plugin::advance(const mjModel*, mjData*, mjtNum*) const {}
// Defaults equal MuJoCo's own for user actuators without callbacks: gain 1, bias 0, act_dot 0.
mjtNum Plugin::actuator_gain(const mjModel*, const mjData*, int, const mjtNum*) const { return 1; }
mjtNum Plugin::actuator_bias(const mjModel*, const mjData*, int, const mjtNum*) const { return 0; }
mjtNum Plugin::actuator_dyn(const mjModel*, const mjData*, int, const mjtNum*) const { return 0; }

}  // namespace mjhand
