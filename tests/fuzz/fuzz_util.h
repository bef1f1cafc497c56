// Shared by the libFuzzer targets: the input as text, and where the repository's models live (relative paths in
// fuzzed scene and campaign files resolve there, so seeds taken from models/ parse as far as their real versions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace mjhand_fuzz {

// The fuzzer's bytes as a string (YAML, key=value text and CSV are all read from std::string).
inline std::string as_text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Directory against which relative hand, mesh and model paths resolve.
inline std::string models_dir() { return std::string(MJHAND_SOURCE_DIR) + "/models"; }

// A documented error is a normal answer; with MJHAND_FUZZ_VERBOSE=1 it is printed, to see why a seed stops where it
// does (e.g. `MJHAND_FUZZ_VERBOSE=1 build-fuzz/tests/fuzz/fuzz_scene_spec tests/fuzz/corpus/fuzz_scene_spec/*`).
inline void documented(const std::exception& e) {
  static const bool verbose = std::getenv("MJHAND_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "documented error: %s\n", e.what());
}

}  // namespace mjhand_fuzz
