#include "rollout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include <mjhand/grasp/grasp_quality.h>
#include <mjhand/native/instances.h>
#include <mjhand/native/native_overrides.h>
#include <mjhand/grasp/grasp_state.h>
#include <mjhand/grasp/hand_structure.h>
#include <mjhand/contact_detection/contact_detection_plugin.h>
#include <mjhand/grasp_analysis/grasp_analysis_plugin.h>

namespace mjhand::batch {

namespace {

std::string name_of(const mjModel* m, mjtObj type, int id) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? n : "#" + std::to_string(id);
}

// The contact_detection instances' channels (into v) and readable names for their sensors' components:
// contact:f1_p1 ... contact:palm for the signals, contact_where:f1_p1:px ... :nz for the where-sensor. With several
// instances the channel names carry the instance name (contact:NAME.f1_p1).
std::map<int, std::vector<std::string>> contact_columns(const mjModel* m, const InstanceList& instances,
                                                        Variant& v) {
  std::vector<const Instance*> detectors;
  for (const Instance& inst : instances) {
    if (inst.type == "contact_detection") detectors.push_back(&inst);
  }
  std::map<int, std::vector<std::string>> named;
  for (const Instance* inst : detectors) {
    int signal = -1, where = -1;
    const ContactLayout layout = configured_contact_layout(m, inst->config, &signal, &where);
    if (signal < 0) continue;
    const std::string prefix = detectors.size() > 1 ? inst->name + "." : "";
    const std::vector<std::string> channels = contact_channel_names(layout);
    for (std::size_t c = 0; c < channels.size(); ++c) {
      named[signal].push_back("contact:" + prefix + channels[c]);
      v.channel_names.push_back(prefix + channels[c]);
      v.channel_adr.push_back(m->sensor_adr[signal] + static_cast<int>(c));
      if (where >= 0) {
        for (const char* k : {"px", "py", "pz", "nx", "ny", "nz"}) {
          named[where].push_back("contact_where:" + prefix + channels[c] + ":" + k);
        }
      }
    }
  }
  for (auto it = named.begin(); it != named.end();) {  // a layout that does not fit its sensor: generic names
    it = static_cast<int>(it->second.size()) == m->sensor_dim[it->first] ? std::next(it) : named.erase(it);
  }
  return named;
}

// time, qpos per joint component, ctrl, sensordata (contact sensors by channel), object pose.
std::vector<std::string> series_columns(const mjModel* m, int object,
                                        const std::map<int, std::vector<std::string>>& named) {
  std::vector<std::string> cols{"time"};
  for (int j = 0; j < m->njnt; ++j) {
    const int width = m->jnt_type[j] == mjJNT_FREE ? 7 : m->jnt_type[j] == mjJNT_BALL ? 4 : 1;
    for (int k = 0; k < width; ++k) {
      cols.push_back("qpos:" + name_of(m, mjOBJ_JOINT, j) + (width > 1 ? "[" + std::to_string(k) + "]" : ""));
    }
  }
  for (int i = 0; i < m->nu; ++i) cols.push_back("ctrl:" + name_of(m, mjOBJ_ACTUATOR, i));
  for (int s = 0; s < m->nsensor; ++s) {
    if (const auto it = named.find(s); it != named.end()) {
      cols.insert(cols.end(), it->second.begin(), it->second.end());
      continue;
    }
    const int dim = m->sensor_dim[s];
    for (int k = 0; k < dim; ++k) {
      cols.push_back("sensor:" + name_of(m, mjOBJ_SENSOR, s) + (dim > 1 ? "[" + std::to_string(k) + "]" : ""));
    }
  }
  if (object >= 0) {
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz", "rz", "ry", "rx"}) cols.push_back(std::string("object:") + c);
  }
  return cols;
}

// The scenario's object, else the grasp_analysis plugin's, else the only free-jointed body; -1 when none.
int choose_object(const mjModel* m, const InstanceList& instances, const Scenario& s, std::string& error) {
  if (!s.object.empty()) {
    const int id = mj_name2id(m, mjOBJ_BODY, s.object.c_str());
    if (id <= 0) error = "object: no body named '" + s.object + "' in the model";
    return id > 0 ? id : -1;
  }
  for (const Instance& inst : instances) {
    if (const HandModel* h = grasp_analysis_hand(*inst.plugin)) return h->object_body;
  }
  int found = -1, count = 0;
  for (int b = 1; b < m->nbody; ++b) {
    if (m->body_jntnum[b] >= 1 && m->jnt_type[m->body_jntadr[b]] == mjJNT_FREE) {
      found = b;
      ++count;
    }
  }
  return count == 1 ? found : -1;
}

int find_keyframe(const mjModel* m, const std::string& k, std::string& error) {
  const int id = mj_name2id(m, mjOBJ_KEY, k.c_str());
  if (id >= 0) return id;
  char* end = nullptr;
  const long i = std::strtol(k.c_str(), &end, 10);
  if (end && *end == '\0' && !k.empty() && i >= 0 && i < m->nkey) return static_cast<int>(i);
  error = "keyframe '" + k + "': the model has " + std::to_string(m->nkey) + " keyframe(s)";
  for (int j = 0; j < m->nkey; ++j) error += (j ? ", '" : " ('") + name_of(m, mjOBJ_KEY, j) + "'";
  if (m->nkey) error += ")";
  return -1;
}

// First reason the state is unusable, or nullptr (no allocation on the per-step path).
const char* divergence(const mjModel* m, const mjData* d) {
  for (int i = 0; i < m->nq; ++i) {
    if (!std::isfinite(d->qpos[i])) return "qpos is not finite";
  }
  for (int i = 0; i < m->nv; ++i) {
    if (!std::isfinite(d->qvel[i])) return "qvel is not finite";
  }
  if (d->warning[mjWARN_BADQACC].number) return "MuJoCo reported a bad qacc (simulation unstable)";
  if (d->warning[mjWARN_BADQPOS].number) return "MuJoCo reported a bad qpos";
  if (d->warning[mjWARN_BADQVEL].number) return "MuJoCo reported a bad qvel";
  if (d->warning[mjWARN_BADCTRL].number) return "MuJoCo reported a bad ctrl";
  return nullptr;
}

// Position, quaternion and ZYX Euler angles (R = Rz(rz) Ry(ry) Rx(rx)) of body b. A free body hanging from the
// world is read from qpos, so that after mj_step the pose belongs to d->time like qpos (xpos still holds the state
// at the start of the step); other bodies from xpos/xquat.
void body_pose(const mjModel* m, const mjData* d, int b, double out[10]) {
  const int j = m->body_jntadr[b];
  const bool free_root = m->body_parentid[b] == 0 && m->body_jntnum[b] == 1 && m->jnt_type[j] == mjJNT_FREE;
  const mjtNum* pos = free_root ? d->qpos + m->jnt_qposadr[j] : d->xpos + 3 * b;
  const mjtNum* quat = free_root ? d->qpos + m->jnt_qposadr[j] + 3 : d->xquat + 4 * b;
  for (int k = 0; k < 3; ++k) out[k] = pos[k];
  for (int k = 0; k < 4; ++k) out[3 + k] = quat[k];
  mjtNum R[9];
  mju_quat2Mat(R, quat);
  out[7] = std::atan2(R[3], R[0]);
  out[8] = std::asin(std::clamp(-R[6], -1.0, 1.0));
  out[9] = std::atan2(R[7], R[8]);
}

void put(std::string& s, double v, bool first) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof(buf), first ? "%.17g" : ",%.17g", v);
  s.append(buf, static_cast<std::size_t>(n));
}

void record(std::string& s, const mjModel* m, const mjData* d, int object) {
  put(s, d->time, true);
  for (int i = 0; i < m->nq; ++i) put(s, d->qpos[i], false);
  for (int i = 0; i < m->nu; ++i) put(s, d->ctrl[i], false);
  for (int i = 0; i < m->nsensordata; ++i) put(s, d->sensordata[i], false);
  if (object >= 0) {
    double pose[10];
    body_pose(m, d, object, pose);
    for (double v : pose) put(s, v, false);
  }
  s += '\n';
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Final-state grasp metrics of the object's contacts with the fingers.
void grasp_metrics(const mjModel* m, const mjData* d, const HandModel& hand, RolloutResult& r) {
  GraspData g(m, hand, 64);
  compute_grasp(m, d, hand, g);
  r.has_grasp = true;
  r.contacts = static_cast<int>(g.contacts.size());
  r.other_contacts = g.scan.object_other;
  r.sigma_min = g.rows ? grasp_sigma_min(g.G()) : 0.0;
  if (r.contacts == 0) {
    r.force_closure = "no";
    return;
  }
  r.normal_force += mujoco_normal_force_sum(m, d, g.contacts);
  const GraspQuality q = grasp_quality(g.G(), g.JH());
  r.isotropy = q.valid ? q.isotropy_G : 0.0;
  ForceClosureLP lp(64, 8);
  const ForceClosureLP::Result fc = lp.evaluate(g.contacts.data(), r.contacts, g.reference);
  r.force_closure = fc == ForceClosureLP::Result::kClosure      ? "yes"
                    : fc == ForceClosureLP::Result::kNotClosure ? "no"
                                                                 : to_string(fc);
}

// The channels on in the final state and the contact sequence (order of first signals, ties in channel order).
void contact_summary(const Variant& v, const mjData* d, const std::vector<double>& first_on, RolloutResult& r) {
  std::vector<std::size_t> order;
  for (std::size_t c = 0; c < v.channel_adr.size(); ++c) {
    if (d->sensordata[v.channel_adr[c]] > 0.5) {
      r.contact_signals += (r.contact_signals.empty() ? "" : " ") + v.channel_names[c];
    }
    if (first_on[c] >= 0) order.push_back(c);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return first_on[a] < first_on[b]; });
  for (std::size_t c : order) {
    char t[32];
    std::snprintf(t, sizeof(t), "@%.4f", first_on[c]);
    r.contact_sequence += (r.contact_sequence.empty() ? "" : " ") + v.channel_names[c] + t;
  }
}

}  // namespace

double init_noise_sample(const std::string& scenario, long seed, int i, double a) {
  const uint64_t stream = splitmix64(fnv1a(scenario) ^ splitmix64(static_cast<uint64_t>(seed)));
  const uint64_t bits = splitmix64(stream + static_cast<uint64_t>(i));
  const double u = static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
  return a * (2 * u - 1);
}

std::unique_ptr<Variant> compile_variant(const Campaign& c, const RolloutSpec& spec) {
  auto v = std::make_unique<Variant>();
  v->key = spec.variant_key;
  const Scenario& s = c.scenarios[spec.scenario];
  if (!spec.model_error.empty()) {
    v->error = spec.model_error;  // cites the description's file, line and key
    return v;
  }
  try {
    std::vector<ConfigOverride> overrides;
    for (const auto& [k, val] : spec.overrides) {
      overrides.push_back(parse_override(k + "=" + val, c.file + ": scenario '" + s.name + "'"));
    }
    v->model = compile_with_overrides(s.model_path, spec.model_text, overrides);  // into the instances' <config>
    mjModel* m = v->model.get();
    if (c.timestep > 0) v->model->opt.timestep = c.timestep;
    const InstanceList instances(m);
    std::string err;
    if (!s.keyframe.empty()) {
      v->keyframe = find_keyframe(m, s.keyframe, err);
      if (!err.empty()) throw std::runtime_error(err);
    }
    v->object = choose_object(m, instances, s, err);
    if (!err.empty()) throw std::runtime_error(err);
    const bool structure_given = !s.palm.empty() || !s.fingers.empty() || !s.finger_tips.empty() || s.with_wrist;
    if (v->object >= 0) {
      try {
        HandStructureOptions o = hand_structure_options(m, s.palm, s.fingers, s.with_wrist, "palm", "fingers");
        add_finger_tips(m, s.finger_tips, o, "finger_tips");
        v->hand = infer_hand_structure(m, v->object, o);
        v->has_hand = true;
      } catch (const GraspError& e) {
        // A given palm/fingers that does not fit the model is an error; no hand at all: pose only.
        if (structure_given) throw std::runtime_error("scenario '" + s.name + "': " + e.what());
        v->has_hand = false;
      }
    } else if (structure_given) {
      throw std::runtime_error("scenario '" + s.name + "': palm/fingers/finger_tips/with_wrist need an object (set object:)");
    }
    v->columns = series_columns(m, v->object, contact_columns(m, instances, *v));
  } catch (const std::exception& e) {
    v->error = s.model_path + ": " + e.what();
  }
  return v;
}

RolloutResult run_rollout(const Campaign& c, const RolloutSpec& spec, const Variant& v, mjData* d,
                          const std::atomic<bool>* stop) {
  RolloutResult r;
  if (!v.error.empty()) {
    r.reason = "model error: " + v.error;
    return r;
  }
  const mjModel* m = v.model.get();
  const Scenario& s = c.scenarios[spec.scenario];
  const long steps = std::max(1L, std::lround(c.duration / m->opt.timestep));
  const long every = c.sample_period > 0 ? std::max(1L, std::lround(c.sample_period / m->opt.timestep)) : 1;

  mj_resetData(m, d);
  if (v.keyframe >= 0) mj_resetDataKeyframe(m, d, v.keyframe);
  if (s.init_noise > 0) {
    for (int j = 0; j < m->njnt; ++j) {
      const int adr = m->jnt_qposadr[j], type = m->jnt_type[j];
      const int n = type == mjJNT_FREE ? 3 : (type == mjJNT_HINGE || type == mjJNT_SLIDE) ? 1 : 0;
      for (int k = 0; k < n; ++k) d->qpos[adr + k] += init_noise_sample(s.name, spec.seed, adr + k, s.init_noise);
    }
  }
  mj_forward(m, d);

  std::string& out = r.series;
  const long rows = steps / every + 2;
  out.reserve(static_cast<std::size_t>(rows) * (v.columns.size() * 25 + 1) + 4096);  // %.17g: <= 24 chars + comma
  for (std::size_t i = 0; i < v.columns.size(); ++i) out += (i ? "," : "") + v.columns[i];
  out += '\n';
  record(out, m, d, v.object);

  const std::size_t nch = v.channel_adr.size();
  std::vector<double> first_on(nch, -1.0);  // time each contact signal was first 1 [s]
  const auto t0 = std::chrono::steady_clock::now();
  for (long k = 1; k <= steps; ++k) {
    mj_step(m, d);
    r.steps = k;
    for (std::size_t c = 0; c < nch; ++c) {
      if (first_on[c] < 0 && d->sensordata[v.channel_adr[c]] > 0.5) first_on[c] = d->time;
    }
    if (const char* bad = divergence(m, d)) {
      record(out, m, d, v.object);  // the row that shows the divergence
      char buf[160];
      std::snprintf(buf, sizeof(buf), "diverged at t = %.6g s (step %ld): %s", d->time, k, bad);
      r.reason = buf;
      r.final_time = d->time;
      return r;
    }
    if (k % every == 0 || k == steps) record(out, m, d, v.object);
    if ((k & 63) == 0 && stop && stop->load(std::memory_order_relaxed)) {
      r.status = RolloutResult::Status::kDiscarded;
      r.reason = "stopped";
      return r;
    }
    if ((k & 255) == 0 && c.timeout > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > c.timeout) {
      char buf[160];
      std::snprintf(buf, sizeof(buf), "wall-clock timeout: %.6g s simulated in %g s", d->time, c.timeout);
      r.reason = buf;
      r.final_time = d->time;
      return r;
    }
  }
  r.final_time = d->time;
  mj_forward(m, d);  // contacts and forces of the final state, consistently (plugins are time-triggered)
  if (v.object >= 0) {
    r.has_object = true;
    body_pose(m, d, v.object, r.object_pose);
  }
  if (v.has_hand) grasp_metrics(m, d, v.hand, r);
  contact_summary(v, d, first_on, r);
  r.status = RolloutResult::Status::kOk;
  return r;
}

}  // namespace mjhand::batch
