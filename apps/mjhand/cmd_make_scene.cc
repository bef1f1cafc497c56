// mjhand make-scene SCENE.yaml -o SCENE.xml: grasp scene description -> one MJCF, checked by compiling it with MuJoCo.
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "args.h"
#include "commands.h"
#include <mjhand/io/model_io.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand make-scene SCENE.yaml -o SCENE.xml [--keep-placeholders]\n\n"
      "Writes one self-contained MJCF for a grasp scene (format in docs/scenes.md): the hand description, the\n"
      "objects (sphere, cylinder, box, OBJ/STL mesh; fixed or free), the Kelvin-Voigt contact mapped to\n"
      "solref/solimp, gravity, self-collision and, with a `grasp:` section, the contact_detection sensor and the\n"
      "hand_closure controller. The model is compiled and its plugins validated before SCENE.xml is replaced\n"
      "(atomically); a rejected model is kept as SCENE.xml.rejected. Mesh files are referenced relative to SCENE.xml.\n\n"
      "options:\n"
      "  -o, --output SCENE.xml   where to write the model (required)\n"
      "  --keep-placeholders      write ${name} placeholders of the description into the MJCF (for `mjhand batch`)\n"
      "                           instead of their defaults from `parameters:`\n"
      "  -h, --help               show this help\n");
}
}  // namespace

int cmd_make_scene(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  Args long_form;
  for (const std::string& a : args) long_form.push_back(a == "-o" ? "--output" : a);
  const ArgReader reader(long_form, {"--output"}, {"--keep-placeholders"});
  const std::vector<std::string>& positional = reader.positional();
  if (positional.empty()) throw UsageError("no scene description given (usage: make-scene SCENE.yaml -o SCENE.xml)");
  if (positional.size() > 1) throw UsageError("more than one description given: " + positional[0] + " and " + positional[1]);
  if (!reader.has("--output")) throw UsageError("no output given (usage: make-scene SCENE.yaml -o SCENE.xml)");
  const std::string out_path = reader.get("--output", "");
  const SceneSpec spec = load_scene_spec(positional[0]);
  SceneWriteOptions options;
  options.keep_placeholders = reader.flag("--keep-placeholders");
  options.output_dir = std::filesystem::absolute(out_path).parent_path().string();
  BuiltScene built;
  try {
    built = build_scene(spec, options);
  } catch (const ModelRejectedError& e) {
    const std::string rejected = out_path + ".rejected";
    write_file_atomically(rejected, e.xml);
    throw std::runtime_error(std::string(e.what()) + " (the model is kept as " + rejected + ")");
  }
  write_file_atomically(out_path, built.xml);
  std::printf("wrote %s: scene '%s', %zu objects, nq=%ld, nu=%ld, %ld plugin instances\n", out_path.c_str(),
              spec.name.c_str(), spec.objects.size(), built.model->nq, built.model->nu, built.model->nplugin);
  for (const ObjectContact& c : built.contacts) {
    std::printf("  %s: mass %.6g kg, contact mapped for %.6g kg: solref=\"%.6g %.6g\" solimp=\"%.6g %.6g %.6g\" "
                "(transients x%.3g)\n",
                c.object.c_str(), c.mass, c.reference_mass, c.mujoco.solref[0], c.mujoco.solref[1], c.mujoco.solimp[0],
                c.mujoco.solimp[1], c.mujoco.solimp[2], c.mujoco.time_scale);
  }
  return 0;
}

}  // namespace mjhand::cli
