// Layering probe (scripts/check-layering.sh): a generator file (the library's top layer) that includes an app's
// header. Must not compile: the apps' folders are include directories of the apps alone.
#include "grasp_planner.h"

int mjhand_layer_probe() { return 0; }
