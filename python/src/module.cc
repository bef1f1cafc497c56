// mjhand._core: the extension module of the Python package. It links mjhand's library statically (symbols hidden)
// and, installed, calls into the libmujoco `import mujoco` loaded (mjhand/_engine.py makes it global first), so
// `import mjhand` shares MuJoCo's one copy and registers the "mjhand.*" plugins with it (docs/python.md).
#include <dlfcn.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/native/native_plugins.h>

#include "bind.h"
#include "cli_main.h"
#include "commands.h"

#ifndef MJHAND_MUJOCO_VERSION
#error "MJHAND_MUJOCO_VERSION (the mujoco-core version of the headers) must be defined by the build"
#endif

namespace {

std::string libmujoco_path() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&mj_step), &info) && info.dli_fname) return info.dli_fname;
  return "";
}

// Checks that this module and the `mujoco` module share one libmujoco of the series the module was compiled against
// (the same major.minor as its headers' mjVERSION_HEADER: 4.0.0 and 4.0.1 have one C ABI, docs/engine.md),
// remembers mujoco's MjModel/MjData types and registers the plugins. ImportError (raised by mjhand/__init__.py)
// names what is wrong.
int attach(nb::handle mujoco_module) {
  const std::string built = MJHAND_MUJOCO_VERSION;
  const std::string python_version = nb::cast<std::string>(mujoco_module.attr("__version__"));
  const bool same_series = mj_version() / 1000 == mjVERSION_HEADER / 1000;
  if (!same_series || python_version != mj_versionString()) {
    throw nb::import_error(("mjhand was built for MuJoCo " + built.substr(0, built.rfind('.')) + ".x (headers " +
                            built + ") but the process has the mujoco module " + python_version + " and libmujoco " +
                            mj_versionString() + "; install MuJoCo 4.0: pip install \"mujoco>=4.0,<4.1\"").c_str());
  }
  mjhand::py::set_mujoco_types(mujoco_module.attr("MjModel"), mujoco_module.attr("MjData"));
  const int types = mjhand::register_native_plugins();
  if (!mjhand::native_plugins_registered_here()) {
    throw nb::import_error(("mjhand's plugins were already registered with MuJoCo by " +
                            mjhand::native_plugins_registrant() +
                            " (loaded before `import mjhand`: a library in mujoco.PLUGINS_DIR or one passed to "
                            "mujoco.mj_loadPluginLibrary). Use one of the two: remove that library, or do not "
                            "import mjhand in this process.").c_str());
  }
  return types;
}

// `mjhand ARGS...` in-process; the CLI's signal handlers (batch stops cleanly on SIGINT) are put back afterwards so
// Python's own Ctrl-C handling returns.
int cli(const std::vector<std::string>& args) {
  std::vector<std::string> storage = {"mjhand"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  struct sigaction saved_int, saved_term;
  sigaction(SIGINT, nullptr, &saved_int);
  sigaction(SIGTERM, nullptr, &saved_term);
  std::fflush(stdout);
  int rc;
  {
    nb::gil_scoped_release release;  // batch runs worker threads; none of them touches Python
    rc = mjhand::cli::cli_main(static_cast<int>(storage.size()), argv.data());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  sigaction(SIGINT, &saved_int, nullptr);
  sigaction(SIGTERM, &saved_term, nullptr);
  return rc;
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "mjhand's C++ library for Python (use the `mjhand` package, which wraps this module)";
  nb::exception<mjhand::ConfigError>(m, "ConfigError", PyExc_ValueError)
      .doc() = "A plugin or controller configuration that mjhand refuses; the message names the instance, key and value.";
  mjhand::py::bind_grasp(m);
  mjhand::py::bind_kinematics(m);
  mjhand::py::bind_builders(m);
  mjhand::py::bind_batch(m);
  mjhand::py::bind_synergies(m);
  mjhand::py::bind_syngrasp(m);
  mjhand::py::bind_structure(m);
  mjhand::py::bind_planner(m);
  mjhand::py::bind_controllers(m);
  m.def("_attach", &attach, nb::arg("mujoco_module"));
  mjhand::cli::set_embedded_in_python(true);
  m.def("_libmujoco_path", &libmujoco_path, "the libmujoco file this module calls into");
  m.def("_plugin_registrant", &mjhand::native_plugins_registrant);
  m.def("_set_models_dir", &mjhand::cli::set_packaged_models_dir, nb::arg("dir"),
        "the package's models: where the CLI looks for a model named without a path");
  m.def("cli", &cli, nb::arg("args"), "Runs the mjhand CLI with these arguments in this process; returns its exit code.");
  m.attr("mujoco_built_with") = MJHAND_MUJOCO_VERSION;
  m.def("mujoco_version", [] { return std::string(mj_versionString()); }, "the running libmujoco's version");
}
