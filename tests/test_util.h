// Helpers shared by tests and benchmarks: repository paths, models from strings.
#pragma once

#include <mujoco/mujoco.h>

#include <string>

#include "io/model_io.h"

namespace mjhand_test {

using mjhand::DataPtr;
using mjhand::make_data;
using mjhand::ModelPtr;

// Absolute path of a file in the source tree, e.g. source_path("models/egrasp_hand.xml").
std::string source_path(const std::string& relative);

// Loads an MJCF file or throws std::runtime_error with MuJoCo's message.
inline ModelPtr load_xml_file(const std::string& path) { return mjhand::load_model(path); }

// Compiles an MJCF string (through a temporary file) or throws.
ModelPtr load_xml_string(const std::string& xml);

}  // namespace mjhand_test
