// Configuration values given outside the MJCF (`mjhand run --set I.K=V`, a campaign's overrides, the viewer's
// edits) for native plugin instances: MuJoCo compiles a native instance's configuration into the model, so the value
// is written into the <config> of the instance in the MJCF text (the main file or a file it includes, edited in
// memory) and the model is compiled again.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <mjhand/io/model_io.h>

namespace mjhand {

// A configuration value given outside the MJCF (e.g. `mjhand run --set close.tau=0.5`): replaces or adds `key`
// of instance `instance` before MuJoCo compiles (and the instance validates) it.
struct ConfigOverride {
  std::string instance, key, value;
  std::string origin;  // where it came from, for messages ("--set", "setpoints.txt:3")
};

// Parses "INSTANCE.KEY=VALUE" into an override; throws ConfigError naming `origin` when malformed.
ConfigOverride parse_override(const std::string& text, const std::string& origin);

// Compiles the MJCF `text` of the file `path` (includes resolve next to it) with every override applied.
// Throws ConfigError naming the override's origin when its instance is declared in none of the files, and
// std::runtime_error "PATH: MuJoCo cannot load it: ..." when MuJoCo rejects the result (e.g. mjhand's message for a
// bad value, or MuJoCo's for an unknown key).
ModelPtr compile_with_overrides(const std::string& path, const std::string& text,
                                const std::vector<ConfigOverride>& overrides);

// The same for a model file on disk.
ModelPtr load_model_with_overrides(const std::string& path, const std::vector<ConfigOverride>& overrides);

// The MJCF `text` of the file `path` and every file it includes (recursively), keyed by the path MuJoCo resolves
// each to: what compile_sources takes after edits in memory.
std::map<std::string, std::string> model_sources(const std::string& path, const std::string& text);

// Compiles the model of `path` from `sources` (model_sources, possibly edited) instead of the files on disk.
ModelPtr compile_sources(const std::string& path, const std::map<std::string, std::string>& sources);

// The model's files as they are on disk now (model_sources of the file at `path`): what a program keeps to compile
// edits later against the text it loaded, not against files that may have changed since.
std::map<std::string, std::string> load_sources(const std::string& path);

// compile_with_overrides on `sources` (load_sources / model_sources) instead of the files on disk.
ModelPtr compile_sources_with_overrides(const std::string& path, std::map<std::string, std::string> sources,
                                        const std::vector<ConfigOverride>& overrides);

}  // namespace mjhand
