// Layering probe (scripts/check-layering.sh): a core-layer file that includes a parallel-manipulator header (a target
// above the core, which the plugin runtime and `mjhand-run` build without). Must not compile.
#include <mjhand/parallel/screws.h>

int mjhand_layer_probe() { return 0; }
