// mjhand analyze: sets a model's state (keyframe, qpos, optional settling) and prints the full grasp analysis of
// the contacts on an object: frames, G, J_H, quality, mobility, force closure, epsilon, force distributions and the
// parallel-manipulator view. Text for people, --json for programs (docs/analyze.md).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyze_report.h"
#include "args.h"
#include "model_state.h"
#include "commands.h"
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/grasp/quasistatic.h>
#include <mjhand/grasp/stiffness.h>
#include <mjhand/host/config.h>
#include <mjhand/io/model_io.h>
#include <mjhand/io/sim_monitor.h>
#include <mjhand/native/instances.h>
#include <mjhand/parallel/grasp_equivalence.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>
#include <mjhand/util/dense_decompositions.h>

namespace mjhand::cli {

namespace {

const char* kUsage =
    "usage: mjhand analyze MODEL.xml [--keyframe K | --qpos v1,v2,...] [--ctrl u1,u2,... | --ctrl-from-keyframe K]\n"
    "                     [--settle S] [--object BODY] [--palm BODY] [--fingers B1,B2,...] [--finger-tips T1,...]\n"
    "                     [--with-wrist] [--palm-contact MODEL] [--force-warning-factor F] [--json] [--linf-max-points N]\n"
    "                     [--linf-time-limit S]\n"
    "                     [--contact-stiffness KN[,KT[,KR]]] [--joint-stiffness KQ] [--wrist-stiffness KT,KR]\n"
    "\n"
    "MODEL.xml is a path, or the name of a model mjhand ships (grasp_sensor_scene.xml, real/allegro_scene.xml;\n"
    "folders of MJHAND_MODEL_PATH first).\n"
    "Sets the state of MODEL.xml, runs mj_forward and analyses the contacts between the object and the hand:\n"
    "contact frames, grasp matrix G, hand Jacobian J_H, quality measures, mobility, force closure, Ferrari-Canny\n"
    "epsilon (L1, L-inf), min-norm and optimal (GLPK) contact forces for the object's weight, and the\n"
    "parallel-manipulator Jacobians. The model's mjhand plugins run while settling.\n"
    "  --keyframe K    start from keyframe K (name or index)\n"
    "  --qpos LIST     start from these nq comma-separated joint positions (instead of a keyframe)\n"
    "  --ctrl LIST     set the nu actuator controls (a keyframe sets its own ctrl; --qpos alone leaves ctrl 0)\n"
    "  --ctrl-from-keyframe K  take ctrl from keyframe K (e.g. with --qpos)\n"
    "  --settle S      simulate S seconds first so that the contacts settle (default 0)\n"
    "  --object BODY   the grasped body (default: the object of the model's grasp_analysis plugin, else the only\n"
    "                  free-jointed body that touches something)\n"
    "  --palm BODY     the palm: its branches are the fingers, the bodies above it the wrist/arm (default:\n"
    "                  inferred, the body where the fingers branch)\n"
    "  --fingers LIST  the finger root bodies (default: the palm's branches, loop-closed subtrees merged)\n"
    "  --finger-tips LIST  tip bodies, at most one per finger (reported with the fingers)\n"
    "  --with-wrist    the wrist/arm joints (palm and above) become columns of J_H (default: held fixed)\n"
    "  --palm-contact MODEL  contact model of palm contacts: pwof, hf or sf (default: from the contact's condim)\n"
    "  --force-warning-factor F  warn when the contact normal forces exceed F object weights (default 20)\n"
    "  --json          print JSON (schema in docs/analyze.md) instead of text\n"
    "  --linf-max-points N  compute the L-infinity epsilon only up to N Minkowski-sum points (default 10000,\n"
    "                  up to ~6 s on an idle machine; 4 soft-finger contacts need 83521)\n"
    "  --linf-time-limit S  stop the L-infinity hull after S seconds, reporting time_limit (default 10; 0: none)\n"
    "  --contact-stiffness KN[,KT[,KR]]  report the grasp stiffness K_O = G K G^T (docs/stiffness.md) with contact\n"
    "                  stiffness KN normal, KT tangential (default KN) [N/m], KR on moment rows (default KN * 1e-4 m^2)\n"
    "                  [N m/rad]; without it the contacts are rigid\n"
    "  --joint-stiffness KQ  the same with every hand joint of stiffness KQ [N m/rad or N/m]; without it rigid\n"
    "  --wrist-stiffness KT,KR  the same with the hand's base (the palm, else the body the fingers hang from) on a\n"
    "                  wrist spring KT [N/m], KR [N m/rad] about its origin (SynGrasp SGwristStiffness); without it\n"
    "                  the base is fixed. Not with --with-wrist (the wrist joints would count twice)\n"
    "Exit status: 0 analysed (also degenerate grasps: see the notes), 1 model or simulation error,\n"
    "2 bad command line (unknown option, keyframe, object or hand body, wrong qpos or ctrl length).\n";

// The first grasp_analysis instance of the model, if any.
const Instance* grasp_instance(const InstanceList& instances) {
  for (const Instance& inst : instances) {
    if (grasp_analysis_hand(*inst.plugin)) return &inst;
  }
  return nullptr;
}

bool touches_something(const mjModel* m, const mjData* d, int body) {
  for (int i = 0; i < d->ncon; ++i) {
    if (m->geom_bodyid[d->contact[i].geom[0]] == body || m->geom_bodyid[d->contact[i].geom[1]] == body) return true;
  }
  return false;
}

// --object, else the plugin's object, else the only free-jointed body in contact.
int choose_object(const mjModel* m, const mjData* d, const ArgReader& args, const Instance* plugin,
                  std::string& source) {
  if (args.has("--object")) {
    const std::string name = args.get("--object", "");
    const int id = mj_name2id(m, mjOBJ_BODY, name.c_str());
    if (id < 0) throw UsageError("--object: no body named '" + name + "' in the model");
    if (id == 0) throw UsageError("--object: the world body cannot be the object");
    source = "--object";
    return id;
  }
  if (plugin) {
    source = "object of grasp_analysis instance '" + plugin->name + "'";
    return grasp_analysis_hand(*plugin->plugin)->object_body;
  }
  std::vector<int> candidates;
  for (int b = 1; b < m->nbody; ++b) {
    const bool free = m->body_jntnum[b] >= 1 && m->jnt_type[m->body_jntadr[b]] == mjJNT_FREE;
    if (free && touches_something(m, d, b)) candidates.push_back(b);
  }
  if (candidates.size() == 1) {
    source = "the only free body in contact";
    return candidates[0];
  }
  std::string names;
  for (int b : candidates) names += " '" + mj_name(m, mjOBJ_BODY, b) + "'";
  throw UsageError(candidates.empty()
                       ? "cannot choose the object: no free-jointed body touches anything in this state; pass "
                         "--object BODY (or --settle S to let contacts form)"
                       : "cannot choose the object: " + std::to_string(candidates.size()) +
                             " free bodies touch something (" + names.substr(1) + "); pass --object BODY");
}

// The hand structure from --palm/--fingers/--with-wrist (infer_hand_structure): a bad body name or structure is a
// usage error naming the option; no hand at all a model error.
HandModel structured_hand(const mjModel* m, int object, const ArgReader& r, const std::string& path) {
  HandStructureOptions o;
  try {
    o = hand_structure_options(m, r.get("--palm", ""), r.get("--fingers", ""), r.flag("--with-wrist"), "--palm",
                               "--fingers");
    add_finger_tips(m, r.get("--finger-tips", ""), o, "--finger-tips");
  } catch (const GraspError& e) {
    throw UsageError(e.what());
  }
  try {
    return infer_hand_structure(m, object, o);
  } catch (const GraspError& e) {
    if (r.has("--palm") || r.has("--fingers") || r.has("--finger-tips")) {
      throw UsageError(std::string("--palm/--fingers/--finger-tips: ") + e.what());
    }
    throw std::runtime_error(path + ": object '" + mj_name(m, mjOBJ_BODY, object) + "': " + e.what());
  }
}

ContactModel parse_contact_model(const std::string& s) {
  if (s == "pwof" || s == "frictionless") return ContactModel::kFrictionlessPoint;
  if (s == "hf" || s == "hard") return ContactModel::kHardFinger;
  if (s == "sf" || s == "soft") return ContactModel::kSoftFinger;
  throw UsageError("--palm-contact: unknown contact model '" + s + "' (pwof, hf or sf)");
}

// Borras & Dollar section 2.3, choice (b): reciprocal screws along n, t, o at each contact, J_Theta from MuJoCo's own
// joint twists (mj_jac), J_p about the world origin; the residual checks J_Theta^+ J_p S = J_H^+ G^T.
ParallelSection add_parallel_section(const mjModel* m, const mjData* d, const HandModel& hand,
                                     const std::vector<ReportContact>& contacts, const Eigen::MatrixXd& G,
                                     const Eigen::MatrixXd& JH, const Eigen::Vector3d& reference) {
  std::vector<Contact> cs;
  for (const ReportContact& c : contacts) cs.push_back(c.contact);
  ParallelSection p;
  ParallelView v;
  try {
    v = parallel_view(m, d, hand, cs, G, reference, JH);
  } catch (const std::exception& e) {  // e.g. non-finite input: say so instead of printing garbage
    p.source = "not computed";
    p.note = e.what();
    return p;
  }
  p.source = "reciprocal screws along n, t, o (section 2.3 choice b), joint twists from mj_jac";
  p.Jp = v.Jp;
  p.JTheta = v.JTheta;
  p.jp_reference = v.jp_reference;
  p.equivalence_residual = v.residual;
  p.relative_residual = v.relative_residual;
  p.jtheta_vs_jh = v.jtheta_vs_jh;
  p.jp_vs_gt = v.jp_vs_gt;
  return p;
}

// A comma-separated list of finite numbers > 0 for `option` (e.g. "--contact-stiffness"), `form` naming the expected
// values in the message ("KN[,KT[,KR]]").
std::vector<double> parse_stiffness_list(const std::string& text, const std::string& option, const std::string& form) {
  std::vector<double> v;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(x) || !(x > 0)) {
      throw UsageError(option + ": '" + item + "' is not a stiffness > 0 (expected " + form + ")");
    }
    v.push_back(x);
    start = comma + 1;
  }
  return v;
}

// --contact-stiffness KN[,KT[,KR]]: 1 to 3 finite positive numbers.
Eigen::Vector3d parse_contact_stiffness(const std::string& text) {
  const std::vector<double> v = parse_stiffness_list(text, "--contact-stiffness", "KN[,KT[,KR]]");
  if (v.size() > 3) throw UsageError("--contact-stiffness: at most 3 values (KN,KT,KR), got " + std::to_string(v.size()));
  // Defaults: tangential as normal; moment rows as a ~1 cm contact patch, KN (1e-2 m)^2 (our choice: docs/analyze.md).
  return Eigen::Vector3d(v[0], v.size() > 1 ? v[1] : v[0], v.size() > 2 ? v[2] : v[0] * 1e-4);
}

// --wrist-stiffness KT,KR: two finite positive numbers.
Eigen::Vector2d parse_wrist_stiffness(const std::string& text) {
  const std::vector<double> v = parse_stiffness_list(text, "--wrist-stiffness", "KT,KR");
  if (v.size() != 2) {
    throw UsageError("--wrist-stiffness: expected 2 values KT,KR (N/m, N m/rad), got " + std::to_string(v.size()));
  }
  return Eigen::Vector2d(v[0], v[1]);
}

// The hand's base for --wrist-stiffness: the palm, else the one body every finger root hangs from. Throws UsageError
// when the fingers hang from different bodies or from the world (a hand welded to the world has no wrist to hold).
int wrist_base_body(const mjModel* m, const HandModel& hand) {
  if (hand.palm_body > 0) return hand.palm_body;
  int base = -1;
  for (const std::vector<int>& roots : hand.finger_roots) {
    for (int root : roots) {
      const int parent = m->body_parentid[root];
      if (base >= 0 && parent != base) {
        throw UsageError("--wrist-stiffness: the fingers hang from different bodies ('" +
                         mj_name(m, mjOBJ_BODY, base) + "', '" + mj_name(m, mjOBJ_BODY, parent) +
                         "'); give --palm BODY");
      }
      base = parent;
    }
  }
  if (base <= 0) {
    throw UsageError("--wrist-stiffness: the fingers hang from the world, so there is no wrist to make compliant "
                     "(give --palm BODY)");
  }
  return base;
}

// K_O of the analysed grasp with the requested stiffness; a singular compliance becomes a message, not an error.
// With a wrist: K = (K_c^-1 + J_H K_q^-1 J_H^T + J_w K_w^-1 J_w^T)^-1 (docs/stiffness.md, "Compliant wrist").
void add_stiffness(const mjModel* m, const mjData* d, const HandModel& hand, AnalyzeReport& rep) {
  if (!rep.stiffness_requested || !rep.analysed) return;
  std::vector<Contact> contacts;
  for (const ReportContact& rc : rep.contacts) contacts.push_back(rc.contact);
  const Eigen::Vector3d& k = rep.contact_stiffness;
  DirectionalStiffness dk;
  dk.normal = k(0);
  dk.tangential = k(1);
  dk.torsional = dk.rolling = k(2);
  try {
    const Eigen::MatrixXd Kc = k(0) > 0 ? contact_stiffness(contacts, dk) : kRigid;
    const Eigen::MatrixXd Kq =
        rep.joint_stiffness > 0 ? joint_stiffness(static_cast<int>(rep.JH.cols()), rep.joint_stiffness) : kRigid;
    if (rep.wrist_stiffness(0) > 0) {
      const int base = wrist_base_body(m, hand);
      rep.wrist_body = mj_name(m, mjOBJ_BODY, base);
      rep.wrist_point = Eigen::Vector3d(d->xpos[3 * base], d->xpos[3 * base + 1], d->xpos[3 * base + 2]);
      const Eigen::MatrixXd K = wrist_contact_stiffness(
          "--wrist-stiffness", rep.JH, wrist_jacobian(contacts, rep.wrist_point), Kc, Kq,
          wrist_stiffness(rep.wrist_stiffness(0), rep.wrist_stiffness(1)), kNoSynergies, kRigid);
      rep.KO = rep.G * K * rep.G.transpose();
      rep.KO = 0.5 * (rep.KO + rep.KO.transpose());
    } else {
      rep.KO = grasp_stiffness(rep.G, rep.JH, Kc, Kq, kNoSynergies, kRigid);
    }
    rep.KO_eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(rep.KO, Eigen::EigenvaluesOnly).eigenvalues();
  } catch (const std::invalid_argument& e) {
    rep.KO.resize(0, 0);
    rep.stiffness_message = e.what();
    rep.notes.push_back("grasp stiffness not computed: " + rep.stiffness_message);
  }
}

}  // namespace

int cmd_analyze(const Args& args) {
  if (wants_help(args)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  ArgReader r(args,
              {"--keyframe", "--qpos", "--settle", "--object", "--linf-max-points", "--linf-time-limit", "--ctrl",
               "--ctrl-from-keyframe", "--palm", "--fingers", "--finger-tips", "--palm-contact", "--force-warning-factor",
               "--contact-stiffness", "--joint-stiffness", "--wrist-stiffness"},
              {"--json", "--with-wrist"});
  if (r.positional().size() != 1) throw UsageError("expected exactly one MODEL.xml\n" + std::string(kUsage));
  if (r.has("--keyframe") && r.has("--qpos")) throw UsageError("give --keyframe or --qpos, not both");
  if (r.has("--ctrl") && r.has("--ctrl-from-keyframe")) {
    throw UsageError("give --ctrl or --ctrl-from-keyframe, not both");
  }
  const std::string path = resolve_model(r.positional()[0]);
  const double settle = r.get_double("--settle", 0.0, 0.0, 1e5);

  ModelPtr m = load_model(path);
  const InstanceList instances = [&] {  // the plugins run while settling (e.g. the hand closes)
    try {
      return InstanceList(m.get());
    } catch (const ConfigError& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
  }();
  DataPtr d = make_data(m.get());

  AnalyzeReport rep;
  rep.model_path = path;
  rep.linf_max_points = r.get_int("--linf-max-points", rep.linf_max_points, 1, 100000000);
  rep.linf_time_limit = r.get_double("--linf-time-limit", rep.linf_time_limit, 0.0, 1e9);
  rep.stiffness_requested = r.has("--contact-stiffness") || r.has("--joint-stiffness") || r.has("--wrist-stiffness");
  if (r.has("--wrist-stiffness")) {
    if (r.flag("--with-wrist")) {
      throw UsageError("give --wrist-stiffness or --with-wrist, not both: the wrist joints would count twice");
    }
    rep.wrist_stiffness = parse_wrist_stiffness(r.get("--wrist-stiffness", ""));
  }
  if (r.has("--contact-stiffness")) rep.contact_stiffness = parse_contact_stiffness(r.get("--contact-stiffness", ""));
  if (r.has("--joint-stiffness")) rep.joint_stiffness = r.get_double("--joint-stiffness", 0.0, 1e-300, 1e300);
  rep.force_warning_factor = r.get_double("--force-warning-factor", rep.force_warning_factor, 1.0, 1e12);
  if (r.has("--palm-contact")) {
    rep.contact_options.force_palm_model = true;
    rep.contact_options.palm_model = parse_contact_model(r.get("--palm-contact", ""));
  }
  if (r.has("--keyframe")) {
    rep.keyframe_index = find_keyframe(m.get(), r.get("--keyframe", ""));
    rep.keyframe_name = mj_name(m.get(), mjOBJ_KEY, rep.keyframe_index);
    rep.state_source = "keyframe";
    mj_resetDataKeyframe(m.get(), d.get(), rep.keyframe_index);  // sets the keyframe's qpos, ctrl, act, mocap
    if (m->nu > 0) rep.ctrl_source = "keyframe";
    check_state_finite(m.get(), d.get(), path + ": keyframe '" + rep.keyframe_name + "' (#" +
                                             std::to_string(rep.keyframe_index) + ")");
  } else if (r.has("--qpos")) {
    const std::vector<double> q = parse_qpos(m.get(), r.get("--qpos", ""));
    std::copy(q.begin(), q.end(), d->qpos);
    rep.state_source = "qpos";
  }
  if (r.has("--ctrl")) {
    const std::vector<double> u = parse_ctrl(m.get(), r.get("--ctrl", ""));
    std::copy(u.begin(), u.end(), d->ctrl);
    rep.ctrl_source = "--ctrl";
  } else if (r.has("--ctrl-from-keyframe")) {
    const int key = find_keyframe(m.get(), r.get("--ctrl-from-keyframe", ""));
    std::copy(m->key_ctrl + key * m->nu, m->key_ctrl + (key + 1) * m->nu, d->ctrl);
    rep.ctrl_source = "--ctrl-from-keyframe";
  }
  check_state_finite(m.get(), d.get(), path + ": ctrl");
  mj_forward(m.get(), d.get());
  rep.settle_s = settle;
  rep.settle_steps = std::lround(settle / m->opt.timestep);
  SimMonitor monitor(m.get());
  for (long k = 0; k < rep.settle_steps; ++k) {
    monitor.before_step(d.get());
    mj_step(m.get(), d.get());
    if (const char* bad = monitor.after_step(d.get())) {
      char at[64];
      std::snprintf(at, sizeof(at), "%.6g", monitor.diverged_at());  // d->time is 0 again after MuJoCo's reset
      throw std::runtime_error(path + ": the simulation diverged while settling, at t = " + at + " s: " + bad);
    }
  }
  mj_forward(m.get(), d.get());  // contacts, forces and kinematics of the final state, consistently
  rep.time = d->time;

  const Instance* plugin = grasp_instance(instances);
  const int object = choose_object(m.get(), d.get(), r, plugin, rep.object_source);
  const bool structure_given = r.has("--palm") || r.has("--fingers") || r.has("--finger-tips") || r.has("--with-wrist");
  const bool plugin_hand = plugin && !structure_given && grasp_analysis_hand(*plugin->plugin)->object_body == object;
  const HandModel hand = plugin_hand ? *grasp_analysis_hand(*plugin->plugin) : structured_hand(m.get(), object, r, path);
  rep.hand_source = plugin_hand ? "fingers of grasp_analysis instance '" + plugin->name + "'"
                    : structure_given ? "--palm/--fingers/--finger-tips/--with-wrist: " + describe_hand_structure(m.get(), hand)
                                      : "inferred: " + describe_hand_structure(m.get(), hand);
  analyze_grasp(m.get(), d.get(), hand, rep);
  for (const std::string& w : rep.warnings) std::fprintf(stderr, "mjhand analyze: WARNING: %s\n", w.c_str());
  if (rep.analysed) {
    rep.parallel = add_parallel_section(m.get(), d.get(), hand, rep.contacts, rep.G, rep.JH, rep.reference);
  }
  add_stiffness(m.get(), d.get(), hand, rep);
  const std::string out = r.flag("--json") ? format_report_json(rep) : format_report_text(rep);
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace mjhand::cli
