// Layering probe (scripts/check-layering.sh): a control-law file that includes a plugin-framework header. Must not
// compile: control laws are plain classes, plugin/ adapts them.
#include <mjhand/host/config.h>

int mjhand_layer_probe() { return 0; }
