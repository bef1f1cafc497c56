#include <mjhand/io/model_io.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <mjhand/io/staged_files.h>
#include <mjhand/io/text_file.h>

namespace mjhand {

ModelPtr load_model(const std::string& path) {
  // Before any open: a FIFO would block it. A directory opens as a stream on Linux, and MuJoCo would then report an
  // opaque XML read error.
  const std::string problem = text_file_problem(path);
  if (!problem.empty()) throw std::runtime_error(path + ": " + problem + ", not an MJCF file");
  {
    std::ifstream probe(path);
    if (!probe) throw std::runtime_error(path + ": cannot open file");
  }
  char error[1024] = {0};
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (!m) throw std::runtime_error(path + ": MuJoCo cannot load it: " + error);
  return ModelPtr(m);
}

bool StagedFiles::add(const std::string& name, const std::string& text) {
  return mj_addBufferVFS(&vfs_, name.c_str(), text.data(), static_cast<int>(text.size())) == 0;
}

ModelPtr StagedFiles::compile(const std::string& main, std::string& error) const {
  char message[1024] = {0};
  mjModel* m = mj_loadXML(main.c_str(), &vfs_, message, sizeof(message));
  if (!m) error = message;
  return ModelPtr(m);
}

ModelPtr compile_xml_string(const std::string& xml, const std::string& file, std::string& error) {
  StagedFiles files;
  if (!files.add(file, xml)) {
    error = "cannot stage " + file + " in MuJoCo's virtual file system";
    return nullptr;
  }
  return files.compile(file, error);
}

std::string multi_io_actuator_problem(const mjModel* m) {
  for (int a = 0; a < m->nactuator; ++a) {
    if (m->actuator_ctrlnum[a] == 1 && m->actuator_outnum[a] == 1 && m->actuator_ctrladr[a] == a &&
        m->actuator_outadr[a] == a) {
      continue;
    }
    const char* name = mj_id2name(m, mjOBJ_ACTUATOR, a);
    return "actuator " + (name ? "'" + std::string(name) + "'" : "#" + std::to_string(a)) + " has " +
           std::to_string(m->actuator_ctrlnum[a]) + " controls and " + std::to_string(m->actuator_outnum[a]) +
           " force outputs; mjhand supports actuators with one of each (give MuJoCo's multi-input actuators a " +
           "single input, e.g. <pid input=\"pos\">)";
  }
  return "";
}

}  // namespace mjhand
