// libFuzzer target: grasp scene descriptions (apps/generators/mjhand/scene/scene_spec.h), relative hand and mesh paths resolved in
// models/scenarios/ (where the seed scenes live). Documented outcome for bad input: SpecError.
#include "fuzz_util.h"
#include <mjhand/hand/yaml_fields.h>
#include <mjhand/scene/scene_spec.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    mjhand::parse_scene_spec(mjhand_fuzz::as_text(data, size), "fuzz_scene.yaml",
                             mjhand_fuzz::models_dir() + "/scenarios");
  } catch (const mjhand::SpecError& e) {
    mjhand_fuzz::documented(e);
  }
  return 0;
}
