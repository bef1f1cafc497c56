// Helpers shared by tests and benchmarks: model loading with clear failures, repository paths.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>

namespace mjhand_test {

// Absolute path of a file in the source tree, e.g. source_path("models/egrasp_hand.xml").
std::string source_path(const std::string& relative);

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// Loads an MJCF file or throws std::runtime_error with MuJoCo's message.
ModelPtr load_xml_file(const std::string& path);

// Compiles an MJCF string (written to a temporary file so relative includes are not needed) or throws.
ModelPtr load_xml_string(const std::string& xml);

inline DataPtr make_data(const mjModel* m) { return DataPtr(mj_makeData(m)); }

}  // namespace mjhand_test
