// Layering probe (scripts/check-layering.sh): a control-law file that declares and calls a plugin function itself,
// past the header check. Must not link into the controllers layer check.
namespace mjhand {
int register_native_plugins();
}

int mjhand_layer_probe() { return mjhand::register_native_plugins(); }
