// Layering probe (scripts/check-layering.sh): a generator file that declares and uses an app's function itself, past
// the header check. Must not link into the generators layer check (libmjhand.a holds no app code).
#include <vector>

struct mjModel_;
namespace mjhand::planner {
struct Eigengrasps;
Eigengrasps closure_eigengrasps(const mjModel_* m, const std::vector<double>& increments);
}  // namespace mjhand::planner

void* mjhand_layer_probe() { return reinterpret_cast<void*>(&mjhand::planner::closure_eigengrasps); }
