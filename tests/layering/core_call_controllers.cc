// Layering probe (scripts/check-layering.sh): a core file that declares and uses a control law's function itself,
// past the header check. Must not link into the core layer check.
namespace mjhand {
struct CosineTrajectory;
CosineTrajectory paper_cosine(int n, double t0);
}  // namespace mjhand

void* mjhand_layer_probe() { return reinterpret_cast<void*>(&mjhand::paper_cosine); }
