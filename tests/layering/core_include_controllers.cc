// Layering probe (scripts/check-layering.sh): a core file that includes a control law's header. Must not compile.
#include <mjhand/trajectory/trajectory.h>

int mjhand_layer_probe() { return 0; }
