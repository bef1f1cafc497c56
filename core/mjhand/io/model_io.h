// Loading MJCF with errors that name the file, and owning pointers for mjModel/mjData.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>

#include <mjhand/io/atomic_file.h>  // write_file_atomically, declared here before it had its own header

namespace mjhand {

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// Compiles an MJCF file; throws std::runtime_error "PATH: <MuJoCo's message>" on failure.
ModelPtr load_model(const std::string& path);

// Compiles MJCF text held in memory, staged in MuJoCo's virtual file system as `file` (so a library user gets a
// checked model without a scratch file). Returns nullptr and MuJoCo's message in `error` when MuJoCo rejects it.
ModelPtr compile_xml_string(const std::string& xml, const std::string& file, std::string& error);

// "" when every actuator of m has one control and one force output (so actuator id = ctrl index = force index, as
// mjhand assumes), else a sentence naming the first that does not: MuJoCo 4's multi-input actuators (e.g. <pid>
// with input="pos vel", <dcmotor> with a controller) are not supported by mjhand yet.
std::string multi_io_actuator_problem(const mjModel* m);

// A fresh mjData for m.
inline DataPtr make_data(const mjModel* m) { return DataPtr(mj_makeData(m)); }

}  // namespace mjhand
