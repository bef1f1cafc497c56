// Configuration values given outside the MJCF (`mjhand run --set I.K=V`, a campaign's overrides, the viewer's
// edits) for native plugin instances: MuJoCo compiles a native instance's configuration into the model, so the value
// is written into the <config> of the instance in the MJCF text (the main file or a file it includes, edited in
// memory) and the model is compiled again.
#pragma once

#include <string>
#include <vector>

#include "host/host.h"
#include "io/model_io.h"

namespace mjhand {

// Compiles the MJCF `text` of the file `path` (includes resolve next to it) with every override that names a native
// mjhand instance applied; the overrides that name no native instance are returned in `rest` (for Host::attach).
// Throws ConfigError naming the override's origin when its instance cannot be found in the text, and
// std::runtime_error "PATH: MuJoCo cannot load it: ..." when MuJoCo rejects the result (e.g. mjhand's message for a
// bad value, or MuJoCo's for an unknown key).
ModelPtr compile_with_overrides(const std::string& path, const std::string& text,
                                const std::vector<ConfigOverride>& overrides, std::vector<ConfigOverride>* rest);

// The same for a model file on disk.
ModelPtr load_model_with_overrides(const std::string& path, const std::vector<ConfigOverride>& overrides,
                                   std::vector<ConfigOverride>* rest);

}  // namespace mjhand
