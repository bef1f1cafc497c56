// Layering probe (scripts/check-layering.sh): a core-layer file that uses only core. Must build, so the two failing
// probes fail for the reason they test and not for a broken probe setup.
#include <mjhand/kinematics/dh_chain.h>

int mjhand_layer_probe() { return static_cast<int>(sizeof(mjhand::DHLink)); }
