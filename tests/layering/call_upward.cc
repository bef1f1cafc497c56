// Layering probe (scripts/check-layering.sh): a core-layer file that declares and calls an adapter function itself,
// past the header check. Must not link into the core layer check.
namespace mjhand {
int register_native_plugins();
}

int mjhand_layer_probe() { return mjhand::register_native_plugins(); }
