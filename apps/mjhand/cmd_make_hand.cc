// mjhand make-hand SPEC.yaml -o MODEL.xml: hand description -> MJCF, checked by compiling it with MuJoCo.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "args.h"
#include "commands.h"
#include <mjhand/generators/build_model.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/io/model_io.h>

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand make-hand SPEC.yaml -o MODEL.xml\n\n"
      "Writes the MJCF model of a hand described in YAML (palm, fingers as DH tables, actuators, plugin\n"
      "instances; format in docs/hand-description.md), then compiles it with MuJoCo and fails if MuJoCo rejects\n"
      "it. A rejected model is kept as MODEL.xml.rejected and MODEL.xml is left untouched. Plugin instances are\n"
      "written as native MuJoCo plugins (mjhand.TYPE) and validated by compiling them; errors cite the YAML line.\n\n"
      "options:\n"
      "  -o, --output MODEL.xml   where to write the model (required; also --output=MODEL.xml)\n"
      "  -h, --help               show this help\n");
}
}  // namespace

int cmd_make_hand(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  Args long_form;  // ArgReader knows long options only; -o is the short spelling of --output
  for (const std::string& a : args) long_form.push_back(a == "-o" ? "--output" : a);
  const ArgReader reader(long_form, {"--output"}, {});
  const std::vector<std::string>& positional = reader.positional();
  if (positional.empty()) throw UsageError("no hand description given (usage: make-hand SPEC.yaml -o MODEL.xml)");
  if (positional.size() > 1) {
    throw UsageError("more than one description given: " + positional[0] + " and " + positional[1]);
  }
  if (!reader.has("--output")) throw UsageError("no output given (usage: make-hand SPEC.yaml -o MODEL.xml)");
  const std::string spec_path = positional[0];
  const std::string out_path = reader.get("--output", "");

  const HandSpec spec = load_hand_spec(spec_path);
  BuiltHand built;
  try {
    built = build_hand_model(spec);
  } catch (const ModelRejectedError& e) {
    const std::string rejected = out_path + ".rejected";
    write_file_atomically(rejected, e.xml);
    throw std::runtime_error(std::string(e.what()) + " (the model is kept as " + rejected + ")");
  }
  write_file_atomically(out_path, built.xml);
  std::printf("wrote %s: hand '%s', %zu fingers, nq=%ld, nu=%ld, %ld plugin instances\n", out_path.c_str(),
              spec.name.c_str(), spec.fingers.size(), built.model->nq, built.model->nu, built.model->nplugin);
  return 0;
}

}  // namespace mjhand::cli
