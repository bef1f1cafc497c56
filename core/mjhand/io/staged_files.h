// MuJoCo's virtual file system for compiling MJCF held in memory.
#pragma once

#include <mujoco/mujoco.h>

#include <string>

#include <mjhand/io/model_io.h>

namespace mjhand {

// In-memory files (MJCF text, its includes, assets) staged in MuJoCo's virtual file system for compiling: the one
// place mjhand stages files (compile_xml_string; compile_with_overrides, which stages a model with its includes).
// MuJoCo copies what is staged; the file system is deleted with the object.
class StagedFiles {
 public:
  StagedFiles() { mj_defaultVFS(&vfs_); }
  ~StagedFiles() { mj_deleteVFS(&vfs_); }
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  // Stages `text` under `name` (the path mj_loadXML and <include file=...> will ask for). False when MuJoCo refuses
  // it: a name staged already, or no memory.
  bool add(const std::string& name, const std::string& text);
  // Compiles the staged file `main`; nullptr and MuJoCo's message in `error` when MuJoCo rejects it.
  ModelPtr compile(const std::string& main, std::string& error) const;

 private:
  mjVFS vfs_;
};

}  // namespace mjhand
