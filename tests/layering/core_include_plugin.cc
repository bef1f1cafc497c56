// Layering probe (scripts/check-layering.sh): a core file that includes a plugin-framework header. Must not compile.
#include <mjhand/native/native_plugins.h>

int mjhand_layer_probe() { return mjhand::register_native_plugins(); }
