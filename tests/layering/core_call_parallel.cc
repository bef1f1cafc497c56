// Layering probe (scripts/check-layering.sh): a core file that uses a parallel-manipulator function. parallel/ is
// core maths in core's folder, but its own target on top of the core (the plugin runtime and `mjhand-run` build
// without it), so this must not link into the core layer check.
#include <mjhand/parallel/screws.h>

void* mjhand_layer_probe() { return reinterpret_cast<void*>(&mjhand::prismatic_twist); }
