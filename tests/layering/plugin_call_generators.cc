// Layering probe (scripts/check-layering.sh): a plugin file that declares and uses a model generator's function
// itself, past the header check. Must not link into the plugin layer check.
namespace mjhand {
struct HandSpec;
struct BuiltHand;
BuiltHand build_hand_model(const HandSpec& spec);
}  // namespace mjhand

void* mjhand_layer_probe() { return reinterpret_cast<void*>(&mjhand::build_hand_model); }
