#include <mjhand/synergy/synergy_plugin.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>

#include <mjhand/host/controller_plugin.h>
#include <mjhand/io/labels.h>
#include <mjhand/synergy/synergy.h>
#include <mjhand/util/explicit_system.h>

namespace mjhand {

namespace {

std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    out.push_back(b == std::string::npos ? "" : item.substr(b, e - b + 1));
  }
  return out;
}

// The controller's torques are its own actuators' forces; its inputs' ctrl is z, read and then zeroed so that the
// native adapter gives them no force (it puts the user's ctrl back after the step).
class SynergyPlugin : public Plugin {
 public:
  SynergyPlugin(const mjModel* m, SynergyController::Options o, bool sizing) {
    for (int a : o.actuators) claim_ctrl(a);
    for (int a : o.inputs) claim_ctrl(a);
    if (!sizing) ctl_.emplace(m, std::move(o));
  }
  int capabilities() const override { return kCapControl; }
  int nstate() const override { return 0; }
  void control(const mjModel* m, mjData* d, mjtNum* s) const override {
    ctl_->compute(m, d, s);
    for (int a : ctl_->options().inputs) d->ctrl[a] = 0;
  }
  const SynergyController* controller() const { return ctl_ ? &*ctl_ : nullptr; }

 private:
  std::optional<SynergyController> ctl_;
};

}  // namespace

const SynergyController* synergy_controller(const Plugin& plugin) {
  const auto* p = dynamic_cast<const SynergyPlugin*>(&plugin);
  return p ? p->controller() : nullptr;
}

std::unique_ptr<Plugin> make_synergy_plugin(const mjModel* m, const Config& cfg) {
  SynergyController::Options o;
  Synergies& s = o.synergies;
  if (cfg.has("file")) {
    for (const char* key : {"joints", "q0", "S"}) {
      if (cfg.has(key)) cfg.fail(key, "give either file=... or joints, q0 and S inline, not both");
    }
    try {
      s = read_synergies(cfg.get_string("file"));
    } catch (const std::exception& e) {
      cfg.fail("file", e.what());
    }
  } else {
    if (!cfg.has("joints")) cfg.fail("joints", "missing key: give file=SYNERGIES.csv, or joints, q0 and S");
    s.joints = split_names(cfg.get_string("joints"));
    const size_t n = s.joints.size();
    const std::vector<double> q0 = cfg.get_doubles("q0", static_cast<int>(n));
    const std::vector<double> S = cfg.get_doubles("S");
    if (S.empty() || S.size() % n != 0) {
      cfg.fail("S", "needs k x " + std::to_string(n) + " values (rows s1..sk, one value per joint), got " +
                        std::to_string(S.size()));
    }
    s.q0 = Eigen::Map<const Eigen::VectorXd>(q0.data(), static_cast<Eigen::Index>(n));
    s.S = Eigen::Map<const Eigen::MatrixXd>(S.data(), static_cast<Eigen::Index>(n),
                                            static_cast<Eigen::Index>(S.size() / n));
  }
  try {
    check_synergies(s, "synergies");
  } catch (const std::exception& e) {
    cfg.fail(cfg.has("file") ? "file" : "joints", e.what());
  }
  const size_t n = s.joints.size(), k = static_cast<size_t>(s.S.cols());
  o.inputs = cfg.get_objects("inputs", mjOBJ_ACTUATOR);
  if (o.inputs.size() != k) {
    cfg.fail("inputs", "needs one actuator per synergy (k = " + std::to_string(k) + "), got " +
                           std::to_string(o.inputs.size()));
  }
  std::vector<int> actuators;
  const bool all = cfg.get_string("actuators", "all") == "all";
  if (!all) actuators = cfg.get_objects("actuators", mjOBJ_ACTUATOR);
  auto per_joint = [&](const char* key, double fallback, double lo) {
    std::vector<double> v = cfg.has(key) ? cfg.get_doubles(key) : std::vector<double>{fallback};
    if (v.size() == 1) v.assign(n, v[0]);
    if (v.size() != n) {
      cfg.fail(key, "needs 1 or " + std::to_string(n) + " values (one per synergy joint), got " + std::to_string(v.size()));
    }
    for (double x : v) {
      if (!(x >= lo)) cfg.fail(key, "value " + format_value(x) + " must be " + (lo > 0 ? "positive" : ">= 0"));
    }
    return v;
  };
  if (!cfg.has("kq")) cfg.fail("kq", "missing key: the joint stiffness [N m/rad], 1 or n values");
  o.kq = per_joint("kq", 0.0, 1e-300);
  o.kd = per_joint("kd", 0.0, 0.0);
  if (cfg.sizing()) return std::make_unique<SynergyPlugin>(m, std::move(o), true);

  SynergyJoints joints;
  try {
    joints = resolve_synergy_joints(m, s, "synergy joints");
  } catch (const std::exception& e) {
    cfg.fail(cfg.has("file") ? "file" : "joints", e.what());
  }
  if (all) {
    const int self = cfg.native_instance();
    for (int a = 0; a < m->nu; ++a) {
      const bool bound = self >= 0 && m->actuator_plugin[a] == self;
      if (bound && std::find(o.inputs.begin(), o.inputs.end(), a) == o.inputs.end()) actuators.push_back(a);
    }
  }
  // Match the actuators to the synergy joints by the joint each one drives.
  o.actuators.assign(n, -1);
  for (int a : actuators) {
    const int j = m->actuator_trntype[a] == mjTRN_JOINT ? m->actuator_trnid[2 * a] : -1;
    const auto it = std::find(joints.joint.begin(), joints.joint.end(), j);
    if (it == joints.joint.end()) {
      cfg.fail("actuators", "actuator " + object_label(m, mjOBJ_ACTUATOR, a) + " does not drive a synergy joint");
    }
    int& slot = o.actuators[static_cast<size_t>(it - joints.joint.begin())];
    if (slot >= 0) {
      cfg.fail("actuators", "actuators " + object_label(m, mjOBJ_ACTUATOR, slot) + " and " +
                                object_label(m, mjOBJ_ACTUATOR, a) + " drive the same joint");
    }
    slot = a;
  }
  for (size_t i = 0; i < n; ++i) {
    if (o.actuators[i] < 0) cfg.fail("actuators", "no actuator drives synergy joint '" + s.joints[i] + "'");
  }
  // The soft-synergy torque kq (q_r - q) - kd q' is an explicit PD on each joint (written as tau / gear, so the
  // joint receives tau): refused where MuJoCo's step diverges on a light link (core/mjhand/util/explicit_stability.h).
  std::vector<ExplicitPd> loops;
  for (size_t i = 0; i < n; ++i) {
    loops.push_back(joint_pd(m, joints.joint[i], o.kq[i], o.kd[i],
                             "synergy joint " + object_label(m, mjOBJ_JOINT, joints.joint[i]) + " (actuator " +
                                 object_label(m, mjOBJ_ACTUATOR, o.actuators[i]) + ")"));
  }
  const std::string problem = explicit_loops_problem(m, loops, ForceTiming::kEveryEvaluation, "N m/rad", "N m s/rad",
                                                     "add armature or joint damping, or shorten the timestep");
  if (!problem.empty()) cfg.fail(blamed_gain(m, loops, ForceTiming::kEveryEvaluation, "kq", "kd"), problem);
  return std::make_unique<SynergyPlugin>(m, std::move(o), false);
}

PluginType synergy_plugin_type() {
  PluginType type;
  type.name = "synergy";
  type.summary = "soft postural synergies: k inputs z drive n joints, tau = K_q (q0 + S z - q) - D qdot";
  type.factory = make_synergy_plugin;
  type.keys = {"file", "joints", "q0", "S", "inputs", "actuators", "kq", "kd"};
  type.capabilities = kCapControl;
  return type;
}

}  // namespace mjhand
