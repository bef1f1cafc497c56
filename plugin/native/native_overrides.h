// Configuration values given outside the MJCF (`mjhand run --set I.K=V`, a campaign's overrides, the viewer's
// edits) for native plugin instances: MuJoCo compiles a native instance's configuration into the model, so the value
// is written into the <config> of the instance in the MJCF text (the main file or a file it includes, edited in
// memory) and the model is compiled again.
#pragma once

#include <map>
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

// The MJCF `text` of the file `path` and every file it includes (recursively), keyed by the path MuJoCo resolves
// each to: what compile_sources takes after edits in memory.
std::map<std::string, std::string> model_sources(const std::string& path, const std::string& text);

// Compiles the model of `path` from `sources` (model_sources, possibly edited) instead of the files on disk.
ModelPtr compile_sources(const std::string& path, const std::map<std::string, std::string>& sources);

}  // namespace mjhand
