// Routing of MuJoCo's process-global callbacks to the Host attached to each model (internal to the host).
#pragma once

#include <mujoco/mujoco.h>

namespace mjhand {
class Host;
namespace dispatch {

// Most models attached at once in one process.
inline constexpr int kMaxModels = 64;

// Adds m -> host to the routing table and installs mjhand's trampolines (chaining any callbacks already set).
void register_host(const mjModel* m, const Host* host);
// Removes m; when the table empties, puts back the callbacks that were installed before mjhand.
void unregister_host(const mjModel* m, const Host* host);
// The host attached to m, or nullptr (lock-free; called from every callback).
const Host* lookup(const mjModel* m);

}  // namespace dispatch
}  // namespace mjhand
