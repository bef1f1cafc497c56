// mjhand make-hand SPEC.yaml -o MODEL.xml: hand description -> MJCF, checked by compiling it with MuJoCo.
#include <mujoco/mujoco.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "hand/hand_spec.h"
#include "hand/mjcf_writer.h"
#include "hand/model_chains.h"
#include "host/host.h"
#include "io/model_io.h"

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand make-hand SPEC.yaml -o MODEL.xml\n\n"
      "Writes the MJCF model of a hand described in YAML (palm, fingers as DH tables, actuators, plugin\n"
      "instances; format in docs/hand-description.md), then compiles it with MuJoCo and fails if MuJoCo rejects\n"
      "it. A rejected model is kept as MODEL.xml.rejected and MODEL.xml is left untouched.\n\n"
      "options:\n"
      "  -o, --output MODEL.xml   where to write the model (required)\n"
      "  -h, --help               show this help\n");
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void write_file(const std::string& path, const std::string& text);

// Writes the spec's MJCF to `staged` and compiles it; a model MuJoCo rejects is kept as OUT.rejected.
ModelPtr compile_staged(const HandSpec& spec, const std::string& spec_path, const std::string& staged,
                        const std::string& out_path) {
  write_file(staged, write_mjcf(spec, base_name(spec_path)));
  char error[1024] = {0};
  mjModel* m = mj_loadXML(staged.c_str(), nullptr, error, sizeof(error));
  if (!m) {
    const std::string rejected = out_path + ".rejected";
    std::rename(staged.c_str(), rejected.c_str());
    throw std::runtime_error("MuJoCo rejected the generated model (kept as " + rejected + "): " + error);
  }
  return ModelPtr(m);
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("error while writing " + path);
}
}  // namespace

int cmd_make_hand(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  std::string spec_path, out_path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-o" || a == "--output") {
      if (i + 1 >= args.size()) throw std::runtime_error(a + " needs a file name (try --help)");
      out_path = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      throw std::runtime_error("unknown option " + a + " (try --help)");
    } else if (spec_path.empty()) {
      spec_path = a;
    } else {
      throw std::runtime_error("more than one description given: " + spec_path + " and " + a);
    }
  }
  if (spec_path.empty()) throw std::runtime_error("no hand description given (usage: make-hand SPEC.yaml -o MODEL.xml)");
  if (out_path.empty()) throw std::runtime_error("no output given (usage: make-hand SPEC.yaml -o MODEL.xml)");

  HandSpec spec = load_hand_spec(spec_path);
  const std::string staged = out_path + ".tmp";
  ModelPtr m = compile_staged(spec, spec_path, staged, out_path);
  // Plugin instances are validated like any model's; their state size fixes nuserdata unless the spec sets it.
  if (!spec.plugins.empty()) {
    int needed = 0;
    try {
      needed = required_userdata(m.get());
      if (spec.nuserdata == 0 && needed > 0) {
        spec.nuserdata = needed;
        m = compile_staged(spec, spec_path, staged, out_path);
      }
      AttachOptions opt;
      opt.xml_path = staged;
      Host::attach(m.get(), opt);  // full validation (ownership, state size); detached again at once
    } catch (const ConfigError& e) {
      std::remove(staged.c_str());
      throw std::runtime_error(spec_path + ": plugins: " + e.what());
    }
  }
  std::size_t fingers = 0;
  try {
    fingers = read_model_chains(m.get()).size();
  } catch (...) {
    std::remove(staged.c_str());
    throw;
  }
  const int nq = m->nq, nu = m->nu;
  m.reset();
  if (fingers != spec.fingers.size()) {
    std::remove(staged.c_str());
    throw std::runtime_error("the compiled model carries " + std::to_string(fingers) + " finger chains, expected " +
                             std::to_string(spec.fingers.size()));
  }
  if (std::rename(staged.c_str(), out_path.c_str()) != 0) {
    std::remove(staged.c_str());
    throw std::runtime_error("cannot move the model into place at " + out_path);
  }
  std::printf("wrote %s: hand '%s', %zu fingers, nq=%d, nu=%d\n", out_path.c_str(), spec.name.c_str(), fingers, nq, nu);
  return 0;
}

}  // namespace mjhand::cli
