// Layering probe (scripts/check-layering.sh, the include lint): a file that reaches another folder by a relative
// path, which no include directory governs. The lint must refuse this file.
#include "../../plugin/mjhand/host/config.h"

int mjhand_layer_probe() { return 0; }
