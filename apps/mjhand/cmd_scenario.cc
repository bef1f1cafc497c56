// mjhand scenario SCENE.yaml: build a grasp scene, close the hand, report the contact sequence, object pose and the
// final grasp metrics; --density-sweep reruns it for several object densities (SynGrasp-Simscape section 3.2).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>

#include "args.h"
#include "commands.h"
#include <mjhand/io/model_io.h>
#include "scenario.h"
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand scenario SCENE.yaml [--duration S] [--out DIR] [--log-every N]\n"
      "                       [--density-sweep R1,R2,... [--object NAME]]\n\n"
      "Builds the scene (docs/scenes.md), runs it headless with its plugins, and writes DIR/timeseries.csv (object\n"
      "translation and ZYX Euler angles, contact signals, joint positions) and DIR/report.txt (contact sequence,\n"
      "final pose, grasp-analysis metrics of the final state). With --density-sweep it runs once per density\n"
      "[kg/m^3] of the object (the first free one unless --object) and writes DIR/density.csv.\n\n"
      "options:\n"
      "  --duration S        simulated time (default 0.6 s)\n"
      "  --out DIR           output directory (default out/<scene name>)\n"
      "  --log-every N       steps between time-series rows (default 10)\n"
      "  --density-sweep L   comma-separated densities, e.g. 160,700,2300,7860,19250\n"
      "  --object NAME       the object whose density is swept\n"
      "  -h, --help          show this help\n");
}

}  // namespace

int cmd_scenario(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  const ArgReader r(args, {"--duration", "--out", "--log-every", "--density-sweep", "--object"}, {});
  if (r.positional().size() != 1) throw UsageError("give exactly one scene description (usage: scenario SCENE.yaml)");
  const SceneSpec spec = load_scene_spec(r.positional()[0]);
  ScenarioOptions options;
  options.duration = r.get_double("--duration", 0.6, 1e-6, 1e6);
  options.log_every = r.get_int("--log-every", 10, 1, 1000000000);
  const std::string out_dir = r.get("--out", "out/" + spec.name);
  std::filesystem::create_directories(out_dir);
  if (r.has("--density-sweep")) {
    const std::vector<double> densities = parse_number_list("--density-sweep", r.get("--density-sweep", ""), true);
    int object = -1;
    const std::string name = r.get("--object", "");
    for (size_t i = 0; i < spec.objects.size(); ++i) {
      if (name.empty() ? (object < 0 && spec.objects[i].free) : spec.objects[i].name == name) object = static_cast<int>(i);
    }
    if (object < 0) {
      throw UsageError(name.empty() ? "the scene has no free object to sweep" : "no object '" + name + "' in the scene");
    }
    const std::vector<DensityRow> rows = density_sweep(spec, object, densities, options);
    const std::string table = density_table_csv(rows);
    write_file_atomically(out_dir + "/density.csv", table);
    std::printf("%s", table.c_str());
    std::printf("wrote %s/density.csv\n", out_dir.c_str());
    return 0;
  }
  const BuiltScene built = build_scene(spec);
  const ScenarioResult result = run_scenario(built.model.get(), options);
  write_file_atomically(out_dir + "/timeseries.csv", scenario_csv(result));
  const std::string report = scenario_report(result);
  write_file_atomically(out_dir + "/report.txt", report);
  std::printf("%swrote %s/timeseries.csv and report.txt\n", report.c_str(), out_dir.c_str());
  return result.diverged ? 1 : 0;
}

}  // namespace mjhand::cli
