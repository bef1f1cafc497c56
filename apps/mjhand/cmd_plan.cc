// mjhand plan SCENE.yaml: grasp planning by simulation (SynGrasp's SGgraspPlanner, GraspIt!'s EigenGrasp simulated
// annealing): random candidates (approach pose + eigengrasp pre-shape), then annealing chains, each candidate closed
// and scored in MuJoCo; ranked CSV, the best grasp as keyframes of the written scene, optional pictures.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "args.h"
#include "commands.h"
#include "grasp_planner.h"
#include "mjcf_problem.h"
#include <mjhand/hand/synergies.h>
#include <mjhand/io/atomic_file.h>
#include <mjhand/io/model_io.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>

#if __has_include("render/offscreen_renderer.h")  // built with MJHAND_BUILD_VIEWER: the offscreen renderer is linked
#define MJHAND_HAVE_RENDER 1
#include "render/offscreen_renderer.h"
#endif

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand plan SCENE.yaml|MODEL.xml [--out DIR] [--object NAME] [--samples N] [--chains N] [--steps N]\n"
      "                   [--seed S] [--jobs N] [--duration S] [--standoff MIN,MAX] [--lateral L]\n"
      "                   [--center X,Y,Z] [--approach X,Y,Z] [--z-min LIST] [--z-max LIST] [--servo-kp KP]\n"
      "                   [--synergies FILE] [--max-penetration M] [--pictures N] [--quiet]\n\n"
      "Plans a grasp of the scene's object (docs/planner.md). A candidate is the object's pose relative to the hand\n"
      "(approach direction, roll, standoff and lateral offsets from the hand's grasp centre) and the eigengrasp\n"
      "amplitudes z of the pre-shape q0 + S z. Each candidate is simulated: pre-shape, close with the scene's\n"
      "hand_closure controller for --duration, then scored (force closure, Ferrari-Canny epsilon, sigma_min(G)).\n"
      "MODEL.xml: any MJCF scene with a hand and a free object (a path, or a model mjhand ships, e.g.\n"
      "real/allegro_scene.xml): the hand is inferred, each actuator's closing direction probed in MuJoCo, and the\n"
      "hand closed by ramping its closing actuators' ctrl to the end of their ctrlrange (docs/planner.md).\n"
      "--samples random candidates, then --chains simulated-annealing chains of --steps steps (GraspIt!'s schedule)\n"
      "from the best ones. Deterministic by --seed: the same seed gives the same CSV for any --jobs.\n"
      "Writes DIR/ranked.csv, DIR/scene.xml (the scene with keyframes best_start and best; for MODEL.xml a file\n"
      "that includes it), DIR/best_qpos.txt, DIR/best_ctrl.txt (MODEL.xml), DIR/summary.txt; with --pictures N,\n"
      "DIR/best_<rank>.png. Exit 0 with a force-closure grasp, 3 without.\n\n"
      "options:\n"
      "  --out DIR             output directory (default out/plan_<scene name>)\n"
      "  --object NAME         the object to grasp (default: the scene's only object); made free if fixed (a\n"
      "                        MODEL.xml's object must have a free joint)\n"
      "  --samples N           random candidates (default 64)\n"
      "  --chains N            annealing chains (default 4); --steps N steps per chain (default 16)\n"
      "  --seed S              random seed (default 1)\n"
      "  --jobs N              worker threads (default: the number of hardware threads)\n"
      "  --duration S          simulated closure + settling per candidate (default 0.3 s)\n"
      "  --standoff MIN,MAX    object centre along the approach axis from the grasp centre [m]\n"
      "                        (default -1.5 R,1.5 R, R the object's bounding radius)\n"
      "  --lateral L           largest sideways offset of the object centre [m] (default R)\n"
      "  --center X,Y,Z        grasp centre [m, world] (default: centroid of the swept fingertips)\n"
      "  --approach X,Y,Z      approach axis, palm toward the centre (default: from the finger roots to the centre)\n"
      "  --synergies FILE      pre-shape q0 + S z from a synergy file (docs/synergies.md) instead of the default\n"
      "                        eigengrasps close and proximal_distal (docs/planner.md)\n"
      "  --z-min LIST, --z-max LIST   eigengrasp bounds (default close 0..0.6 rad, proximal_distal -0.3..0.3;\n"
      "                        with --synergies +-1 / max|S_i|: no joint moves more than 1 rad per synergy)\n"
      "  --servo-kp KP         make every hand actuator a position servo of stiffness KP [N m/rad] (hands with motors;\n"
      "                        SCENE.yaml only)\n"
      "  --max-penetration M   initial hand-object overlap above which a candidate is illegal (default 0.001 m)\n"
      "  --gravity             MODEL.xml: keep the model's gravity while closing (default off, as the planning\n"
      "                        scenes: the object is held by the fingers alone)\n"
      "  --pictures N          render the best N grasps to PNG (offscreen; needs a display or xvfb-run -a)\n"
      "  --quiet               no progress line\n"
      "  -h, --help            show this help\n");
}

Eigen::Vector3d parse_vec3(const std::string& option, const std::string& text) {
  const std::vector<double> v = parse_number_list(option, text);
  if (v.size() != 3) throw UsageError(option + ": give three numbers X,Y,Z (got " + std::to_string(v.size()) + ")");
  return Eigen::Vector3d(v[0], v[1], v[2]);
}

// The values with 17 significant digits, separated by `sep`.
std::string join(const std::vector<double>& v, const char* sep = " ") {
  std::string s;
  char b[40];
  for (double x : v) {
    std::snprintf(b, sizeof(b), "%.17g", x);
    s += (s.empty() ? "" : sep) + std::string(b);
  }
  return s;
}

// The written scene plus keyframes best_start (the candidate's pre-shape and object pose) and best (its final state).
// ctrl: the best grasp's final ctrl for the `best` keyframe (an MJCF hand's servo targets), or none.
std::string with_keyframes(const std::string& xml, const planner::Evaluation& best, bool ctrl) {
  const std::size_t end = xml.rfind("</mujoco>");
  if (end == std::string::npos) throw std::runtime_error("plan: the built scene has no </mujoco>");
  return xml.substr(0, end) + "  <keyframe>\n    <key name=\"best_start\" qpos=\"" + join(best.qpos_start) +
         "\"/>\n    <key name=\"best\" qpos=\"" + join(best.qpos_final) + "\"" +
         (ctrl ? " ctrl=\"" + join(best.ctrl_final) + "\"" : "") + "/>\n  </keyframe>\n" +
         xml.substr(end);
}

// An MJCF scene's plan is written as a file that includes it (by absolute path) and adds the keyframes.
std::string including_scene(const std::string& path) {
  const std::string abs = std::filesystem::absolute(path).lexically_normal().string();
  if (abs.find('"') != std::string::npos || abs.find('&') != std::string::npos || abs.find('<') != std::string::npos) {
    throw std::runtime_error("plan: cannot include '" + abs + "' in the written scene (a quote, & or < in the path)");
  }
  return "<mujoco model=\"plan\">\n  <include file=\"" + abs + "\"/>\n</mujoco>\n";
}

void render_best(const mjModel* m, const std::vector<planner::Evaluation>& ranked, int count, int object,
                 const std::string& out) {
#ifdef MJHAND_HAVE_RENDER
  if (!render::display_available()) {
    throw std::runtime_error("--pictures needs a display: DISPLAY is not set (run under xvfb-run -a, or drop --pictures)");
  }
  render::OffscreenRenderer renderer(m, 800, 600);
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);
  render::RgbImage img;
  renderer.option().flags[mjVIS_CONTACTPOINT] = 1;
  for (int i = 0; i < count && i < static_cast<int>(ranked.size()); ++i) {
    std::copy(ranked[i].qpos_final.begin(), ranked[i].qpos_final.end(), d->qpos);
    mj_forward(m, d.get());
    const std::array<double, 3> at = {d->xpos[3 * object], d->xpos[3 * object + 1], d->xpos[3 * object + 2]};
    renderer.render(d.get(), render::CameraView::free(at, 0.8 * m->stat.extent, 135.0, -30.0), img);
    render::write_png(out + "/best_" + std::to_string(i + 1) + ".png", img);
  }
#else
  (void)m, (void)ranked, (void)count, (void)object, (void)out;
  throw std::runtime_error("--pictures: this mjhand was built without the renderer (MJHAND_BUILD_VIEWER=OFF)");
#endif
}

// The search space from the options: --synergies (a synergy file instead of the closure eigengrasp), --z-min and
// --z-max (amplitude bounds), --center, --approach, --standoff (the approach frame).
void apply_search_options(const mjModel* m, const ArgReader& r, planner::PlanProblem& p) {
  if (r.has("--synergies")) {
    // A synergy file (docs/synergies.md): q = q0 + S z; default bounds |z_i| <= 1 / max_j |S_ji| (no joint moves more
    // than 1 rad from q0 per synergy).
    const std::string path = r.get("--synergies", "");
    const Synergies syn = read_synergies(path);
    resolve_synergy_joints(m, syn, path);
    p.eigengrasps.joints = syn.joints;
    p.eigengrasps.q0 = syn.q0;
    p.eigengrasps.S = syn.S;
    p.eigengrasps.names.clear();
    const int ks = synergy_count(syn);
    p.eigengrasps.z_min.resize(ks);
    p.eigengrasps.z_max.resize(ks);
    for (int i = 0; i < ks; ++i) {
      const double peak = syn.S.col(i).cwiseAbs().maxCoeff();
      p.eigengrasps.z_max[i] = peak > 0 ? 1.0 / peak : 1.0;
      p.eigengrasps.z_min[i] = -p.eigengrasps.z_max[i];
      p.eigengrasps.names.push_back("s" + std::to_string(i + 1));
    }
  }
  const int k = static_cast<int>(p.eigengrasps.S.cols());
  for (const char* key : {"--z-min", "--z-max"}) {
    if (!r.has(key)) continue;
    const std::vector<double> v = parse_number_list(key, r.get(key, ""));
    if (static_cast<int>(v.size()) != k) {
      throw UsageError(std::string(key) + ": give " + std::to_string(k) + " values (one per eigengrasp), got " +
                       std::to_string(v.size()));
    }
    (std::string(key) == "--z-min" ? p.eigengrasps.z_min : p.eigengrasps.z_max) =
        Eigen::Map<const Eigen::VectorXd>(v.data(), k);
  }
  for (int i = 0; i < k; ++i) {
    if (!(p.eigengrasps.z_min[i] <= p.eigengrasps.z_max[i])) {
      throw UsageError("--z-min/--z-max: eigengrasp " + p.eigengrasps.names[static_cast<std::size_t>(i)] + " has min > max");
    }
  }
  if (r.has("--center")) p.frame.center = parse_vec3("--center", r.get("--center", ""));
  if (r.has("--approach")) {
    const Eigen::Vector3d a = parse_vec3("--approach", r.get("--approach", ""));
    if (!(a.norm() > 0)) throw UsageError("--approach: the axis must not be zero");
    p.frame.axis = a.normalized();
  }
  if (r.has("--standoff")) {
    const std::vector<double> v = parse_number_list("--standoff", r.get("--standoff", ""));
    if (v.size() != 2 || !(v[0] <= v[1])) throw UsageError("--standoff: give MIN,MAX with MIN <= MAX");
    p.standoff_min = v[0];
    p.standoff_max = v[1];
  }
}

}  // namespace

int cmd_plan(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  const ArgReader r(args,
                    {"--out", "--object", "--samples", "--chains", "--steps", "--seed", "--jobs", "--duration",
                     "--standoff", "--lateral", "--center", "--approach", "--z-min", "--z-max", "--servo-kp",
                     "--max-penetration", "--pictures", "--synergies"},
                    {"--quiet", "--gravity"});
  if (r.positional().size() != 1) throw UsageError("give exactly one scene description (usage: plan SCENE.yaml)");
  planner::PlanOptions opt;
  opt.samples = r.get_int("--samples", 64, 1, 100000000);
  opt.chains = r.get_int("--chains", 4, 0, 100000);
  opt.steps = r.get_int("--steps", 16, 0, 100000000);
  opt.seed = static_cast<uint64_t>(r.get_double("--seed", 1, 0, 9007199254740992.0));
  if (r.has("--seed") && std::floor(std::stod(r.get("--seed", "1"))) != std::stod(r.get("--seed", "1"))) {
    throw UsageError("--seed: give a whole number");
  }
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  opt.jobs = r.get_int("--jobs", hw, 1, 1024);
  const int pictures = r.get_int("--pictures", 0, 0, 1000);
  const double duration = r.get_double("--duration", 0.3, 1e-4, 100.0);
  const double max_pen = r.get_double("--max-penetration", 1e-3, 0.0, 1.0);
  // Check the picture request before spending minutes on planning.
#ifdef MJHAND_HAVE_RENDER
  if (pictures > 0 && !render::display_available()) {
    throw UsageError("--pictures needs a display: DISPLAY is not set (run under xvfb-run -a, or drop --pictures)");
  }
#else
  if (pictures > 0) throw UsageError("--pictures: this mjhand was built without the renderer (MJHAND_BUILD_VIEWER=OFF)");
#endif

  // The problem: a scene description built here (its hand_closure plugin closes the hand), or any MJCF scene closed
  // through its own actuators (planner/mjcf_problem.h).
  const std::string input = r.positional()[0];
  const bool mjcf = input.size() > 4 && input.compare(input.size() - 4, 4, ".xml") == 0;
  ModelPtr owned;
  std::string scene_xml, name, oname;
  planner::PlanProblem p;
  if (mjcf) {
    if (r.has("--servo-kp")) {
      throw UsageError("--servo-kp: only for scene descriptions (.yaml); an MJCF hand closes with its own actuators");
    }
    const std::string path = resolve_model(input);
    owned = load_model(path);
    // As the planning scenes: the closure holds the object against the fingers alone, without gravity (a grasp is
    // judged by force closure); --gravity keeps the model's, so the closure must also catch the falling object.
    if (!r.flag("--gravity")) owned->opt.disableflags |= mjDSBL_GRAVITY;
    const mjModel* mm = owned.get();
    int object = -1;
    try {
      object = planner::mjcf_object(mm, r.get("--object", ""));
    } catch (const std::invalid_argument& e) {
      if (r.has("--object")) throw UsageError(std::string("--object: ") + e.what());
      throw std::runtime_error(path + ": " + e.what());
    }
    try {
      p = planner::mjcf_problem(mm, object);
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    oname = mj_id2name(mm, mjOBJ_BODY, object);
    name = std::filesystem::path(path).stem().string();
    scene_xml = including_scene(path);
  } else {
    if (r.flag("--gravity")) throw UsageError("--gravity: only for MODEL.xml (a scene description sets its gravity)");
    SceneSpec spec = load_scene_spec(input);
    int object = -1;
    const std::string object_name = r.get("--object", "");
    for (std::size_t i = 0; i < spec.objects.size(); ++i) {
      if (object_name.empty() || spec.objects[i].name == object_name) {
        if (object >= 0 && object_name.empty()) {
          throw UsageError("the scene has several objects: name one with --object");
        }
        object = static_cast<int>(i);
      }
    }
    if (object < 0) {
      throw UsageError(object_name.empty() ? "the scene has no object" : "--object: no object '" + object_name + "' in the scene");
    }
    spec.objects[static_cast<std::size_t>(object)].free = true;
    if (r.has("--servo-kp")) {
      const double kp = r.get_double("--servo-kp", 1, 1e-9, 1e9);
      for (ActuatorSpec& a : spec.hand.actuators) {
        a.type = ActuatorType::kPosition;
        a.gain = kp;
        a.ctrl_from_joint_range = true;
        a.ctrllimited = false;
      }
    }
    name = spec.name;
    const std::string dir = r.get("--out", "out/plan_" + name);
    std::filesystem::create_directories(dir);
    SceneWriteOptions wo;
    wo.output_dir = dir;
    BuiltScene built = build_scene(spec, wo);
    owned = std::move(built.model);
    scene_xml = built.xml;
    oname = spec.objects[static_cast<std::size_t>(object)].name;
    p = planner::default_problem(owned.get(), oname, planner::scene_closure_increments(owned.get(), spec));
  }
  const mjModel* m = owned.get();
  const std::string out = r.get("--out", "out/plan_" + name);
  std::filesystem::create_directories(out);
  apply_search_options(m, r, p);
  p.lateral = r.get_double("--lateral", p.lateral, 0.0, 10.0);
  p.duration = duration;
  p.max_initial_penetration = max_pen;

  const bool quiet = r.flag("--quiet");
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  auto progress = [&](const planner::Progress& pr) {
    if (quiet) return;
    const auto now = std::chrono::steady_clock::now();
    if (pr.done < pr.total && now - last < std::chrono::milliseconds(250)) return;
    last = now;
    std::fprintf(stderr, "\rplan: %ld/%ld candidates, %d force closure, best score %.4f, %.1f s   ", pr.done, pr.total,
                 pr.force_closure, pr.best_score, std::chrono::duration<double>(now - t0).count());
    if (pr.done == pr.total) std::fprintf(stderr, "\n");
  };
  const std::vector<planner::Evaluation> ranked = planner::plan_grasps(m, p, opt, progress);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  write_file_atomically(out + "/ranked.csv", planner::ranked_csv(m, p, ranked));
  const planner::Evaluation& best = ranked.front();
  write_file_atomically(out + "/scene.xml", with_keyframes(scene_xml, best, p.closure.active()));
  write_file_atomically(out + "/best_qpos.txt", join(best.qpos_final, ",") + "\n");
  if (p.closure.active()) write_file_atomically(out + "/best_ctrl.txt", join(best.ctrl_final, ",") + "\n");
  const long fc = std::count_if(ranked.begin(), ranked.end(), [](const planner::Evaluation& e) { return e.force_closure; });
  std::ostringstream s;
  s << (mjcf ? "model " : "scene ") << input << ", object " << oname << ", " << p.hand.num_fingers() << " fingers, "
    << p.eigengrasps.S.cols() << " eigengrasps\n"
    << "grasp centre (" << p.frame.center.transpose() << ") m, approach axis (" << p.frame.axis.transpose() << ")\n"
    << ranked.size() << " candidates (" << opt.samples << " random + " << opt.chains << " x " << opt.steps
    << " annealing), seed " << opt.seed << ", " << opt.jobs << " jobs, " << wall << " s\n"
    << fc << " force-closure grasps\n"
    << "best: id " << best.id << " (" << best.phase << "), score " << -best.energy << ", force closure "
    << (best.force_closure ? "yes" : "no") << ", epsilon " << best.epsilon << ", sigma_min " << best.sigma_min
    << ", " << best.contacts << " contacts on " << best.fingers_touching << " fingers\n"
    << (mjcf ? "closure: ctrl ramps of the closing actuators" : "closure: the scene's hand_closure plugin");
  if (mjcf) {
    s << " (";
    for (int a = 0, first = 1; a < m->nu; ++a) {
      if (p.closure.sign[a] == 0) continue;
      const char* an = mj_id2name(m, mjOBJ_ACTUATOR, a);
      s << (first ? "" : ", ") << (an ? an : "#" + std::to_string(a)) << (p.closure.sign[a] > 0 ? " up" : " down");
      first = 0;
    }
    s << ")";
  }
  s << "\nre-check: mjhand analyze " << out << "/scene.xml --keyframe best --object " << oname << "\n";
  if (!mjcf) {
    s << "re-simulate: mjhand analyze " << out << "/scene.xml --keyframe best_start --settle " << duration
      << " --object " << oname << "\n";
  }
  write_file_atomically(out + "/summary.txt", s.str());
  std::fputs(s.str().c_str(), stdout);
  if (pictures > 0) {
    std::string err;
    ModelPtr written = load_model(out + "/scene.xml");
    render_best(written.get(), ranked, pictures, p.object_body, out);
  }
  return best.force_closure ? 0 : 3;
}

}  // namespace mjhand::cli
