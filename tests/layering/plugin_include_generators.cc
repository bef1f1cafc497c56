// Layering probe (scripts/check-layering.sh): a plugin file that includes a model generator's header. Must not
// compile.
#include <mjhand/generators/build_model.h>

int mjhand_layer_probe() { return 0; }
