// mjhand run: steps a model with its mjhand plugins, logs a CSV and prints a short report.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include <mjhand/native/native_overrides.h>
#include "analyze_report.h"
#include "args.h"
#include "model_state.h"
#include "commands.h"
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/hand/tree_chains.h>
#include <mjhand/host/config.h>
#include <mjhand/io/model_io.h>
#include <mjhand/io/sim_monitor.h>
#include <mjhand/io/text_file.h>
#include <mjhand/io/trajectory_log.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/native/instances.h>
#include <mjhand/native/native_plugins.h>

namespace mjhand::cli {

namespace {
const char* kUsage =
    "usage: mjhand run MODEL.xml [--duration S] [--out DIR] [--log-every N] [--set I.K=V]... [--set-file F]\n"
    "                 [--keyframe K | --qpos v1,v2,...] [--palm BODY] [--fingers B1,B2,...]\n"
    "                 [--finger-tips T1,...] [--with-wrist] [--quiet]\n"
    "\n"
    "Simulates MODEL.xml with the mjhand plugin instances it declares and reports what happened. MODEL.xml is a\n"
    "path, or the name of a model mjhand ships (grasp_sensor_scene.xml, real/allegro_scene.xml; folders of\n"
    "MJHAND_MODEL_PATH first).\n"
    "  --duration S    simulated time in seconds (default 2)\n"
    "  --out DIR       where to write trajectory.csv and summary.txt (default out/<model name>)\n"
    "  --log-every N   log every N-th step (default 1; the final state is always logged)\n"
    "  --set I.K=V     set key K of plugin instance I to V (setpoints, gains, trajectories) for this run;\n"
    "                  repeatable, e.g. --set close.target=0.3 --set close.tau=0.5\n"
    "  --set-file F    the same, one I.K=V per line ('#' starts a comment)\n"
    "  --keyframe K    start from keyframe K (name or index; e.g. a preset pose) instead of qpos0\n"
    "  --qpos LIST     start from these nq comma-separated joint positions\n"
    "  --palm BODY     the hand's palm (default: the body where the fingers branch; docs/grasp-analysis.md)\n"
    "  --fingers LIST  the hand's finger root bodies (default: the palm's branches)\n"
    "  --finger-tips LIST  the fingers' tip bodies, at most one per finger\n"
    "  --with-wrist    count the wrist/arm joints (palm and above) as hand joints\n"
    "  --quiet         print only the output paths\n"
    "\n"
    "MuJoCo's warnings and the plugins' faults (NaN/Inf they wrote, replaced by 0) are reported with the simulation\n"
    "time and cause (also on stderr). Exit status: 0 done; 1 error, or the rollout diverged (non-finite state, or\n"
    "MuJoCo's bad qpos/qvel/qacc/ctrl; the message names the first time; nothing is written); 2 bad command line;\n"
    "3 done and written, but a plugin wrote bad values (see summary.txt).\n";

// Sensors of fingertip_kinematics instances: mjhand's FK of a tip site, comparable with MuJoCo's site_xpos.
std::vector<int> fk_sensors(const InstanceList& instances) {
  std::vector<int> out;
  for (const Instance& inst : instances) {
    if (inst.type != "fingertip_kinematics") continue;
    for (int s : inst.plugin->owned_sensors()) out.push_back(s);
  }
  return out;
}

// What the sensors' cross-check compares, e.g. "DH FK vs MuJoCo site_xpos": which chains the sensors resolved
// (resolve_finger_chain, as the plugin does with its root key) and which MuJoCo positions they are set against.
std::string fk_check_label(const mjModel* m, const InstanceList& instances) {
  const std::vector<TreeChain> embedded = read_model_chains(m);
  int dh = 0, tree = 0, sites = 0, bodies = 0;
  for (const Instance& inst : instances) {
    if (inst.type != "fingertip_kinematics") continue;
    int root = -1;
    for (const auto& [key, value] : inst.config) {
      if (key == "root" && !value.empty()) root = mj_name2id(m, mjOBJ_BODY, value.c_str());
    }
    for (int s : inst.plugin->owned_sensors()) {
      ChainTip tip;
      const bool site = m->sensor_objtype[s] == mjOBJ_SITE;
      (site ? tip.site : tip.body) = m->sensor_objid[s];
      ++(site ? sites : bodies);
      ++(resolve_finger_chain(m, embedded, tip, root).embedded_dh() ? dh : tree);
    }
  }
  const auto both = [](int a, const char* a_name, int b, const char* b_name) {
    if (b == 0) return std::string(a_name);
    if (a == 0) return std::string(b_name);
    return std::to_string(a) + " " + a_name + " and " + std::to_string(b) + " " + b_name;
  };
  return both(dh, "DH", tree, "tree-chain") + " FK vs MuJoCo " + both(sites, "site_xpos", bodies, "body xpos");
}

// Largest |mjhand FK (d's sensordata) - site_xpos (or a body tip's xpos) of `kin`| over the given sensors; kin holds
// the positions of the state the sensors were computed in.
double fk_deviation(const mjModel* m, const mjData* d, const mjData* kin, const std::vector<int>& sensors) {
  double worst = 0;
  for (int s : sensors) {
    const mjtNum* v = d->sensordata + m->sensor_adr[s];
    const bool body = m->sensor_objtype[s] == mjOBJ_BODY;
    const mjtNum* p = (body ? kin->xpos : kin->site_xpos) + 3 * m->sensor_objid[s];
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(v[k] - p[k]));
  }
  return worst;
}

// Largest |tree-chain FK at qpos - MuJoCo tip position| over the chains (no allocation); d's positions (xpos,
// site_xpos) must be those of qpos.
double tree_fk_deviation(const mjData* d, const mjtNum* qpos, std::vector<TreeChain>& chains) {
  double worst = 0;
  double q[kMaxStackChainDof];
  for (TreeChain& tc : chains) {
    set_world_base(d, tc);
    gather_joint_positions(tc, qpos, q);
    const Eigen::Vector3d p = tip_pose_and_jacobian(tc.chain, q).translation();
    worst = std::max(worst, (p - mujoco_tip_pose(d, tc).translation()).cwiseAbs().maxCoeff());
  }
  return worst;
}

std::string body_name(const mjModel* m, int body) {
  const char* n = mj_id2name(m, mjOBJ_BODY, body);
  return n && *n ? n : "body" + std::to_string(body);
}

// "a-b, c-d" for the distinct body pairs in contact.
std::string contact_pairs(const mjModel* m, const mjData* d) {
  std::set<std::string> pairs;
  for (int i = 0; i < d->ncon; ++i) {
    std::string a = body_name(m, m->geom_bodyid[d->contact[i].geom[0]]);
    std::string b = body_name(m, m->geom_bodyid[d->contact[i].geom[1]]);
    if (b < a) std::swap(a, b);
    pairs.insert(a + "-" + b);
  }
  std::string out;
  for (const auto& p : pairs) out += (out.empty() ? "" : ", ") + p;
  return out;
}
// --palm/--fingers/--with-wrist: a bad body or structure is a usage error; without them a model with no hand (no
// joint outside loose bodies) reports why instead of failing.
HandModel run_hand(const mjModel* m, const ArgReader& r, std::string& line) {
  const bool given = r.has("--palm") || r.has("--fingers") || r.has("--finger-tips") || r.flag("--with-wrist");
  try {
    HandStructureOptions o = hand_structure_options(m, r.get("--palm", ""), r.get("--fingers", ""),
                                                    r.flag("--with-wrist"), "--palm", "--fingers");
    add_finger_tips(m, r.get("--finger-tips", ""), o, "--finger-tips");
    const HandModel h = infer_hand_structure(m, -1, o);
    line = (given ? "" : "inferred: ") + describe_hand_structure(m, h);
    return h;
  } catch (const GraspError& e) {
    if (given) throw UsageError(e.what());
    line = std::string("none (") + e.what() + ")";
    return HandModel{};
  }
}

// --set overrides, then those of --set-file (one per line, '#' comments), each naming where it came from.
std::vector<ConfigOverride> run_overrides(const ArgReader& r) {
  std::vector<ConfigOverride> overrides;
  for (const std::string& s : r.all("--set")) overrides.push_back(parse_override(s, "--set " + s));
  if (r.has("--set-file")) {
    const std::string file = r.get("--set-file", "");
    const std::string problem = text_file_problem(file);  // a directory, FIFO, device or huge file
    if (!problem.empty()) throw UsageError("--set-file: cannot read '" + file + "': it " + problem);
    std::ifstream in(file);
    if (!in) throw UsageError("--set-file: cannot open '" + file + "'");
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const size_t hash = line.find('#');
      if (hash != std::string::npos) line.erase(hash);
      const size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
      if (a == std::string::npos) continue;
      overrides.push_back(parse_override(line.substr(a, b - a + 1), file + ":" + std::to_string(n)));
    }
  }
  return overrides;
}

// Puts d in the start state --keyframe or --qpos asks for (default: qpos0) and says which it is.
std::string set_start_state(const mjModel* m, mjData* d, const ArgReader& r, const std::string& path) {
  std::string start = "qpos0";
  if (r.has("--keyframe")) {
    const int key = find_keyframe(m, r.get("--keyframe", ""));
    mj_resetDataKeyframe(m, d, key);
    start = "keyframe '" + mj_name(m, mjOBJ_KEY, key) + "' (#" + std::to_string(key) + ")";
    check_state_finite(m, d, path + ": " + start);
  } else if (r.has("--qpos")) {
    const std::vector<double> q = parse_qpos(m, r.get("--qpos", ""));
    std::copy(q.begin(), q.end(), d->qpos);
    start = "--qpos";
  }
  return start;
}

// The final position of every site named *_tip, one line each.
std::string tip_positions(const mjModel* m, const mjData* d) {
  std::string out;
  for (int i = 0; i < m->nsite; ++i) {
    const char* n = mj_id2name(m, mjOBJ_SITE, i);
    if (!n) continue;
    const std::string name = n;
    if (name.size() < 4 || name.compare(name.size() - 4, 4, "_tip") != 0) continue;
    char buf[160];
    std::snprintf(buf, sizeof(buf), "  %s at end: (%.4f, %.4f, %.4f) m\n", n, d->site_xpos[3 * i],
                  d->site_xpos[3 * i + 1], d->site_xpos[3 * i + 2]);
    out += buf;
  }
  return out;
}

}  // namespace

int cmd_run(const Args& args) {
  if (wants_help(args)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  ArgReader r(args, {"--duration", "--out", "--log-every", "--set-file", "--keyframe", "--qpos", "--palm", "--fingers",
              "--finger-tips"},
              {"--quiet", "--with-wrist"}, {"--set"});
  if (r.has("--keyframe") && r.has("--qpos")) throw UsageError("give --keyframe or --qpos, not both");
  if (r.positional().size() != 1) throw UsageError("expected exactly one MODEL.xml\n" + std::string(kUsage));
  const std::string path = resolve_model(r.positional()[0]);
  const double duration = r.get_double("--duration", 2.0, 1e-9, 1e7);
  const int every = r.get_int("--log-every", 1, 1, 1 << 30);
  const bool quiet = r.flag("--quiet");
  const std::string out_dir =
      r.get("--out", "out/" + std::filesystem::path(path).stem().string());

  const std::vector<ConfigOverride> overrides = run_overrides(r);
  // The overrides are compiled into the instances' <config> (native_overrides.h).
  ModelPtr m = load_model_with_overrides(path, overrides);
  InstanceList instances = [&] {
    try {
      return InstanceList(m.get());
    } catch (const ConfigError& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
  }();
  const long steps = std::lround(duration / m->opt.timestep);
  if (steps < 1) {
    char msg[128];
    std::snprintf(msg, sizeof(msg), "--duration %g s is shorter than one timestep (%g s)", duration, m->opt.timestep);
    throw UsageError(msg);
  }
  DataPtr d = make_data(m.get());
  const std::string start = set_start_state(m.get(), d.get(), r, path);
  mj_forward(m.get(), d.get());  // fills sensors and plugin state for the first log row

  // The hand's structure (palm, fingers, wrist), for the report and the per-finger checks.
  std::string hand_line;
  const HandModel hand = run_hand(m.get(), r, hand_line);
  const std::vector<int> fk = fk_sensors(instances);
  // No fingertip_kinematics sensors (e.g. a real hand): cross-check chains read from the kinematic tree instead.
  std::vector<TreeChain> tree = fk.empty() ? model_finger_chains(m.get()) : std::vector<TreeChain>{};
  std::vector<mjtNum> qpos_before(m->nq);
  // After mj_step the sensors, and with Euler or the implicit integrators also the positions in d, are those of the
  // state the step started from; RK4 leaves its last stage's positions, so the check recomputes the start state's
  // kinematics in a second mjData (at the cost of one mj_kinematics per step).
  const bool rk4 = m->opt.integrator == mjINT_RK4;
  std::vector<mjtNum> mocap_before(3 * m->nmocap), mocap_quat_before(4 * m->nmocap);
  DataPtr start_kin = rk4 && (!fk.empty() || !tree.empty()) ? make_data(m.get()) : nullptr;
  double fk_worst = 0;
  std::error_code mkdir_error;
  std::filesystem::create_directories(out_dir, mkdir_error);
  if (mkdir_error) {
    throw std::runtime_error("--out '" + out_dir + "': cannot create the directory: " + mkdir_error.message());
  }
  const std::string csv = out_dir + "/trajectory.csv", summary = out_dir + "/summary.txt";
  TrajectoryLog log(m.get(), csv);
  log.record(d.get());
  SimMonitor monitor(m.get());
  // What the plugins did wrong, one line (empty when nothing): the cause of a divergence or a flaw in the results.
  const auto fault_report = [&] {
    const NativeFaults f = native_faults(m.get(), d.get());
    if (f.count == 0) return std::string();
    char head[96];
    std::snprintf(head, sizeof(head), "plugin faults: %ld bad value(s) replaced by 0 (last at t = %.6g s); first: ",
                  f.count, f.last_time);
    return head + f.first + "\n";
  };
  const auto t0 = std::chrono::steady_clock::now();
  for (long k = 1; k <= steps; ++k) {
    monitor.before_step(d.get());
    std::copy(d->qpos, d->qpos + m->nq, qpos_before.begin());
    if (start_kin) {
      std::copy(d->mocap_pos, d->mocap_pos + 3 * m->nmocap, mocap_before.begin());
      std::copy(d->mocap_quat, d->mocap_quat + 4 * m->nmocap, mocap_quat_before.begin());
    }
    mj_step(m.get(), d.get());
    if (const char* bad = monitor.after_step(d.get())) {
      char head[96];
      std::snprintf(head, sizeof(head), ": rollout diverged at t = %.6g s (step %ld): ", monitor.diverged_at(), k);
      throw std::runtime_error(path + head + bad + " (no results written)\n" + fault_report() + monitor.report());
    }
    const mjData* kin = d.get();
    if (start_kin) {
      std::copy(qpos_before.begin(), qpos_before.end(), start_kin->qpos);
      std::copy(mocap_before.begin(), mocap_before.end(), start_kin->mocap_pos);
      std::copy(mocap_quat_before.begin(), mocap_quat_before.end(), start_kin->mocap_quat);
      mj_kinematics(m.get(), start_kin.get());
      kin = start_kin.get();
    }
    fk_worst = std::max(fk_worst, fk.empty() ? tree_fk_deviation(kin, qpos_before.data(), tree)
                                             : fk_deviation(m.get(), d.get(), kin, fk));
    if (k % every == 0 || k == steps) log.record(d.get());
  }
  log.commit();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::ostringstream s;
  s << "mjhand run " << path << "\n";
  s << "  model: nq=" << m->nq << " nv=" << m->nv << " nu=" << m->nu << " nsensor=" << m->nsensor
    << " timestep=" << m->opt.timestep << " s\n";
  s << "  start: " << start << "\n";
  s << "  hand: " << hand_line << "\n";
  s << "  plugins: " << instances.size() << " instance(s)";
  for (const Instance& inst : instances) s << "  " << inst.name << " (" << inst.type << ")";
  s << "\n";
  s << "  simulated " << steps * m->opt.timestep << " s in " << steps << " steps, wall " << wall << " s ("
    << (wall > 0 ? steps * m->opt.timestep / wall : 0) << "x real time)\n";
  s << "  contacts at end: " << d->ncon << (d->ncon ? " (" + contact_pairs(m.get(), d.get()) + ")" : "") << "\n";
  if (!fk.empty()) {
    s << "  cross-check: mjhand " << fk_check_label(m.get(), instances) << ", " << fk.size() << " fingertips x " << steps
      << " steps: max deviation " << fk_worst << " m\n";
  } else if (!tree.empty()) {
    s << "  cross-check: mjhand tree-chain FK vs MuJoCo tip positions, " << tree.size() << " fingertips x " << steps
      << " steps: max deviation " << fk_worst << " m\n";
  }
  s << tip_positions(m.get(), d.get());
  const std::string warnings = monitor.report(), faults = fault_report();
  std::string problems;  // indented for the summary, verbatim for stderr
  for (const std::string& block : {warnings.empty() ? std::string() : "MuJoCo warnings:\n" + warnings, faults}) {
    std::istringstream lines(block);
    for (std::string line; std::getline(lines, line);) problems += "  " + line + "\n";
  }
  s << (problems.empty() ? "  MuJoCo warnings: none; plugin faults: none\n" : problems);
  s << "  wrote " << csv << " (" << log.rows() << " rows x " << log.columns().size() << " columns)\n";
  write_file_atomically(summary, s.str());
  if (quiet) {
    std::printf("%s\n%s\n", csv.c_str(), summary.c_str());
  } else {
    std::fputs(s.str().c_str(), stdout);
    std::printf("  wrote %s\n", summary.c_str());
  }
  if (!problems.empty()) std::fprintf(stderr, "mjhand run: %s:\n%s", path.c_str(), problems.c_str());
  return faults.empty() ? 0 : 3;
}

}  // namespace mjhand::cli
