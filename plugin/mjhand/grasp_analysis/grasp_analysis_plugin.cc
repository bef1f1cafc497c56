#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/scratch_pool.h>

namespace mjhand {

// ---------------------------------------------------------------------------------------------------------------
// The sensor plugin

const char* metric_name(GraspMetric metric) {
  switch (metric) {
    case GraspMetric::kContacts: return "contacts";
    case GraspMetric::kSigmaMin: return "sigma_min";
    case GraspMetric::kIsotropy: return "isotropy";
    case GraspMetric::kForceClosure: return "force_closure";
    case GraspMetric::kNormalForce: return "normal_force";
    case GraspMetric::kConeMargin: return "cone_margin";
    case GraspMetric::kEpsilon: return "epsilon";
  }
  return "?";
}

namespace {

constexpr int kMetricCount = 7;

enum class EpsilonMode { kOff, kL1, kLinf };

struct Settings {
  int sensor = -1;
  std::vector<GraspMetric> outputs;
  EpsilonMode epsilon = EpsilonMode::kOff;
  int epsilon_every = 1;
  int cone_edges = 8;
  int max_contacts = 64;
  int max_points = 2500;  // L-infinity Minkowski-sum points (a 6-D hull of many thousands takes seconds)
  GraspOptions grasp;  // palm_contact= forces the palm contacts' model
};

// Everything one evaluation writes into: preallocated at attach so that the per-step path never allocates.
struct Scratch {
  Scratch(const mjModel* m, const HandModel& hand, const Settings& s)
      : grasp(m, hand, s.max_contacts), closure(s.max_contacts, s.cone_edges) {}
  GraspData grasp;
  ForceClosureLP closure;
};

// Plugins are shared by every thread stepping the model, so scratch space cannot be a plain member: one slot per
// hardware thread (ScratchPool); a thread that finds every slot busy (more threads than cores) gets a temporary one.
int scratch_slots() { return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 2, 64); }

// State (epsilon only): [0] time of the last evaluation, [1] its value, [2] 1 once evaluated.
class GraspAnalysis : public Plugin {
 public:
  GraspAnalysis(const mjModel* m, HandModel hand, Settings s)
      : hand_(std::move(hand)), s_(std::move(s)),
        pool_(scratch_slots(), [&] { return std::make_unique<Scratch>(m, hand_, s_); }) {
    claim_sensor(s_.sensor);
  }
  int sensor_width(int id) const override {
    return id == s_.sensor ? static_cast<int>(s_.outputs.size()) : 0;
  }
  int capabilities() const override { return kCapSensor; }
  int nstate() const override { return s_.epsilon == EpsilonMode::kOff ? 0 : 3; }
  const HandModel& hand() const { return hand_; }

  void sensor(const mjModel* m, mjData* d, int stage, mjtNum* state) const override {
    if (stage != mjSTAGE_ACC) return;  // contact forces exist only after the constraint solver
    mjtNum* out = d->sensordata + m->sensor_adr[s_.sensor];
    double v[kMetricCount] = {0, 0, 0, 0, 0, 0, 0};
    try {
      evaluate(m, d, state, v);
    } catch (const std::exception& e) {
      // Never let an exception cross MuJoCo's C frames; report and write zeros rather than garbage.
      for (double& x : v) x = 0;
      mju_warning("mjhand grasp_analysis: %s", e.what());
    }
    for (size_t k = 0; k < s_.outputs.size(); ++k) out[k] = v[static_cast<int>(s_.outputs[k])];
  }

 private:
  void evaluate(const mjModel* m, const mjData* d, mjtNum* state, double* v) const {
    const ScratchPool<Scratch>::Lease lease(pool_, [&] { return std::make_unique<Scratch>(m, hand_, s_); });
    Scratch& s = *lease;
    compute_grasp(m, d, hand_, s.grasp, s_.grasp);
    const int n = static_cast<int>(s.grasp.contacts.size());
    v[static_cast<int>(GraspMetric::kContacts)] = n;
    if (n > 0) {
      const Eigen::Matrix<double, 6, 1> sv = grasp_singular_values(s.grasp.G());
      const double smin = grasp_sigma_min(s.grasp.G());
      v[static_cast<int>(GraspMetric::kSigmaMin)] = smin;
      v[static_cast<int>(GraspMetric::kIsotropy)] = sv(0) > 0 ? smin / sv(0) : 0.0;
      v[static_cast<int>(GraspMetric::kForceClosure)] =
          s.closure.evaluate(s.grasp.contacts.data(), n, s.grasp.reference) == ForceClosureLP::Result::kClosure;
      double normal = 0, margin = std::numeric_limits<double>::infinity();
      for (const Contact& c : s.grasp.contacts) {
        double lambda[4] = {0, 0, 0, 0};
        mujoco_contact_force(m, d, c, lambda);
        normal += lambda[0];
        margin = std::min(margin, friction_cone_margin(c, lambda));
      }
      v[static_cast<int>(GraspMetric::kNormalForce)] = normal;
      v[static_cast<int>(GraspMetric::kConeMargin)] = margin;
    }
    if (s_.epsilon != EpsilonMode::kOff) {
      // Time-triggered (the sensor runs again in every mj_forward): evaluate when epsilon_every steps have passed,
      // or when time went backwards (a state was restored without resetting the plugin state).
      const double period = s_.epsilon_every * m->opt.timestep;
      const bool due = state[2] == 0 || d->time < state[0] || d->time >= state[0] + period - 0.5 * m->opt.timestep;
      if (due) {
        double eps = 0;
        if (n > 0) {
          WrenchSpaceOptions opt;
          opt.cone_edges = s_.cone_edges;
          opt.norm = s_.epsilon == EpsilonMode::kL1 ? WrenchNorm::kL1 : WrenchNorm::kLinf;
          opt.max_points = s_.max_points;  // above it ferrari_canny refuses and epsilon reads 0
          opt.time_limit = 0;  // bounded by the point budget; a time limit would make rollouts depend on the load
          eps = ferrari_canny(s.grasp.contacts, s.grasp.reference, opt).epsilon;  // 0 unless force closure
        }
        state[0] = d->time;
        state[1] = eps;
        state[2] = 1;
      }
      v[static_cast<int>(GraspMetric::kEpsilon)] = state[1];
    }
    for (int k = 0; k < kMetricCount; ++k) {
      if (!std::isfinite(v[k])) v[k] = 0;  // never hand NaN to a log: the inputs were not finite
    }
  }

  HandModel hand_;
  Settings s_;
  mutable ScratchPool<Scratch> pool_;  // internally synchronised scratch; the plugin's results depend only on mjData
};

std::vector<GraspMetric> parse_outputs(const Config& cfg, bool epsilon_on) {
  std::vector<GraspMetric> out;
  if (!cfg.has("outputs")) {
    for (int k = 0; k < kMetricCount; ++k) {
      if (static_cast<GraspMetric>(k) != GraspMetric::kEpsilon || epsilon_on) out.push_back(static_cast<GraspMetric>(k));
    }
    return out;
  }
  const std::string text = cfg.get_string("outputs");
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    int found = -1;
    for (int k = 0; k < kMetricCount; ++k) {
      if (name == metric_name(static_cast<GraspMetric>(k))) found = k;
    }
    if (found < 0) {
      cfg.fail("outputs", "unknown output '" + name +
                              "' (known: contacts, sigma_min, isotropy, force_closure, normal_force, cone_margin, epsilon)");
    }
    const GraspMetric metric = static_cast<GraspMetric>(found);
    if (std::find(out.begin(), out.end(), metric) != out.end()) cfg.fail("outputs", "'" + name + "' is listed twice");
    if (metric == GraspMetric::kEpsilon && !epsilon_on) {
      cfg.fail("outputs", "'epsilon' is listed but epsilon=off (set epsilon=l1 or epsilon=linf)");
    }
    out.push_back(metric);
    start = comma + 1;
  }
  if (epsilon_on && std::find(out.begin(), out.end(), GraspMetric::kEpsilon) == out.end()) {
    cfg.fail("outputs", "epsilon is computed (epsilon=" + cfg.get_string("epsilon") + ") but not listed");
  }
  return out;
}

}  // namespace

std::unique_ptr<Plugin> make_grasp_analysis_plugin(const mjModel* m, const Config& cfg) {
  const int object = cfg.get_object("object", mjOBJ_BODY);
  if (object == 0) cfg.fail("object", "the world body cannot be the object");
  Settings s;
  const std::string eps = cfg.get_choice_or("epsilon", "off", {"off", "l1", "linf"});
  s.epsilon = eps == "l1" ? EpsilonMode::kL1 : eps == "linf" ? EpsilonMode::kLinf : EpsilonMode::kOff;
  s.epsilon_every = cfg.get_int_or("epsilon_every", 1, 1, 1000000);
  if (cfg.has("epsilon_every") && s.epsilon == EpsilonMode::kOff) {
    cfg.fail("epsilon_every", "has no effect with epsilon=off (set epsilon=l1 or epsilon=linf)");
  }
  s.cone_edges = cfg.get_int_or("cone_edges", 8, kMinConeEdges, kMaxConeEdges);
  s.max_contacts = cfg.get_int_or("max_contacts", 64, 1, 1000);
  s.max_points = cfg.get_int_or("max_points", 2500, 7, 100000000);
  if (cfg.has("max_points") && s.epsilon != EpsilonMode::kLinf) {
    cfg.fail("max_points", "limits the L-infinity epsilon only (set epsilon=linf)");
  }
  s.outputs = parse_outputs(cfg, s.epsilon != EpsilonMode::kOff);

  s.sensor = cfg.get_object("sensor", mjOBJ_SENSOR);
  const std::string label = object_label(m, mjOBJ_SENSOR, s.sensor);

  // The hand: infer_hand_structure with the palm/fingers/finger_tips/with_wrist the instance gives, exactly as
  // `mjhand analyze` does with --palm/--fingers/--finger-tips/--with-wrist (so both see the same hand).
  HandStructureOptions o;
  if (cfg.has("palm")) o.palm = cfg.get_object("palm", mjOBJ_BODY);
  if (cfg.has("fingers")) o.fingers = cfg.get_objects("fingers", mjOBJ_BODY);
  if (cfg.has("finger_tips")) o.finger_tips = cfg.get_objects("finger_tips", mjOBJ_BODY);
  o.include_wrist = cfg.get_bool_or("with_wrist", false);
  if (o.palm == 0) cfg.fail("palm", "the world body cannot be the palm (name the finger roots with fingers=)");
  HandModel hand;
  try {
    hand = infer_hand_structure(m, object, o);
  } catch (const GraspError& e) {
    // infer_hand_structure's messages start with what they are about: the palm, a finger root or a finger tip.
    const std::string what = e.what();
    const auto starts = [&](const char* p) { return what.rfind(p, 0) == 0; };
    const std::string key = starts("palm") && cfg.has("palm")                 ? "palm"
                            : starts("finger tip") && cfg.has("finger_tips") ? "finger_tips"
                            : cfg.has("fingers")                             ? "fingers"
                            : cfg.has("palm")                                ? "palm"
                                                                             : "object";
    cfg.fail(key, what + (key == "object" ? " (name the palm with palm= or the finger roots with fingers=)" : ""));
  }
  const std::string palm_contact = cfg.get_choice_or("palm_contact", "condim", {"condim", "pwof", "hf", "sf"});
  if (palm_contact != "condim") {
    if (hand.palm_body < 0) {
      cfg.fail("palm_contact", "this hand has no palm (its fingers hang from the world), so there are no palm contacts");
    }
    s.grasp.contacts.force_palm_model = true;
    s.grasp.contacts.palm_model = palm_contact == "pwof" ? ContactModel::kFrictionlessPoint
                            : palm_contact == "hf" ? ContactModel::kHardFinger
                                                   : ContactModel::kSoftFinger;
  }
  return std::make_unique<GraspAnalysis>(m, std::move(hand), std::move(s));
}

const HandModel* grasp_analysis_hand(const Plugin& plugin) {
  const auto* g = dynamic_cast<const GraspAnalysis*>(&plugin);
  return g ? &g->hand() : nullptr;
}

PluginType grasp_analysis_plugin_type() {
  PluginType type;
  type.name = "grasp_analysis";
  type.summary = "per-step grasp metrics: sigma_min(G), closure, forces";
  type.factory = make_grasp_analysis_plugin;
  type.keys = {"object", "sensor", "fingers", "palm", "finger_tips", "with_wrist", "palm_contact", "epsilon",
               "epsilon_every", "cone_edges", "max_contacts", "max_points", "outputs"};
  type.sensor_stage = mjSTAGE_ACC;
  type.capabilities = kCapSensor;
  return type;
}

}  // namespace mjhand
