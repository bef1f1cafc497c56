// libFuzzer target: batch campaign files (apps/batch/campaign.h), model paths resolved in models/. A campaign that
// parses is also expanded into its rollouts (grid product, ${param} substitution, hashes), capped so that a fuzzed
// grid cannot ask for an astronomically large expansion. Documented outcome for bad input: SpecError.
#include "campaign.h"
#include "fuzz_util.h"
#include <mjhand/hand/yaml_fields.h>

namespace {
constexpr double kMaxRollouts = 10000;  // larger expansions are valid but too slow to be worth fuzzing
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mjhand::batch::Campaign c;
  try {
    c = mjhand::batch::parse_campaign(mjhand_fuzz::as_text(data, size), "fuzz_campaign.yaml",
                                      mjhand_fuzz::models_dir() + "/campaigns");
  } catch (const mjhand::SpecError& e) {
    mjhand_fuzz::documented(e);
    return 0;
  }
  double rollouts = static_cast<double>(c.scenarios.size()) * static_cast<double>(c.seeds.size());
  for (const auto& g : c.grid) rollouts *= static_cast<double>(g.second.size());
  if (rollouts <= kMaxRollouts) mjhand::batch::expand_campaign(c);
  return 0;
}
