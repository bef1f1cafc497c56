#include "session.h"

#include "native/native_overrides.h"
#include "native/native_plugins.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace mjhand::view {

Session::Session(const std::string& path) : path_(path) {
  std::vector<ConfigOverride> none;
  m_ = load_model_with_overrides(path, {}, &none);  // errors name the file and line of a bad plugin instance
  host_ = attach(m_.get(), {});
  d_ = make_data(m_.get());
  mjv_defaultPerturb(&pert);
  mj_forward(m_.get(), d_.get());
}

Session::~Session() {
  host_.reset();  // detach before the model goes (plugin-host.md: "Detach before mj_deleteModel")
}

std::unique_ptr<Host> Session::attach(const mjModel* m, const std::vector<ConfigOverride>& overrides) const {
  AttachOptions opt;
  opt.xml_path = path_;
  opt.overrides = overrides;
  return Host::attach(m, opt);
}

void Session::note(const std::string& s) {
  log.push_back(s);
  if (log.size() > 50) log.erase(log.begin());
}

void Session::apply_enabled() {
  for (const Instance& inst : host_->instances()) host_->set_enabled(inst.name, disabled_.count(inst.name) == 0);
  for (const Instance& inst : host_->native_instances()) {  // a native instance's switch is part of its mjData
    set_native_enabled(m_.get(), d_.get(), inst.native_id, disabled_.count(inst.name) == 0);
  }
}

std::string Session::reload() {
  ModelPtr nm;
  try {
    std::vector<ConfigOverride> none;
    nm = load_model_with_overrides(path_, {}, &none);
  } catch (const std::exception& e) {
    return e.what();
  }
  std::unique_ptr<Host> nh;
  std::vector<ConfigOverride> kept = overrides_;
  try {
    if (!kept.empty()) {  // native edits are compiled into the model
      std::vector<ConfigOverride> host_kept;
      ModelPtr edited = load_model_with_overrides(path_, kept, &host_kept);
      nh = attach(edited.get(), host_kept);
      nm = std::move(edited);
    } else {
      nh = attach(nm.get(), kept);
    }
  } catch (const std::exception& with_edits) {
    if (kept.empty()) return with_edits.what();
    try {  // the file changed so that an edit no longer applies: keep the file's own values
      nh = attach(nm.get(), {});
      kept.clear();
      note(std::string("reload: viewer edits dropped (") + with_edits.what() + ")");
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  DataPtr nd = make_data(nm.get());
  replace(std::move(nm), std::move(nd), std::move(nh));
  overrides_ = kept;
  for (auto it = disabled_.begin(); it != disabled_.end();) {
    it = host_->find_any(*it) ? std::next(it) : disabled_.erase(it);
  }
  apply_enabled();
  if (keyframe_ >= m_->nkey) keyframe_ = -1;
  mjv_defaultPerturb(&pert);
  reset();
  return "";
}

void Session::reset() {
  if (keyframe_ >= 0) {
    mj_resetDataKeyframe(m_.get(), d_.get(), keyframe_);
  } else {
    mj_resetData(m_.get(), d_.get());
  }
  sim_lag_ = 0;
  apply_enabled();  // a reset turns native instances back on
  mj_forward(m_.get(), d_.get());
}

int Session::find_keyframe(const std::string& name) const {
  const int id = mj_name2id(m_.get(), mjOBJ_KEY, name.c_str());
  if (id >= 0) return id;
  if (!name.empty() && name.size() < 9 && name.find_first_not_of("0123456789") == std::string::npos) {
    const int index = std::stoi(name);
    if (index < m_->nkey) return index;
  }
  std::string known;
  for (int i = 0; i < m_->nkey; ++i) {
    const char* n = mj_id2name(m_.get(), mjOBJ_KEY, i);
    known += std::string(known.empty() ? "" : ", ") + (n && *n ? n : "#" + std::to_string(i));
  }
  throw std::runtime_error(path_ + ": no keyframe '" + name + "' (" +
                           (m_->nkey ? "known keyframes: " + known : std::string("the model has no keyframes")) + ")");
}

void Session::select_keyframe(int k) {
  keyframe_ = (k >= 0 && k < m_->nkey) ? k : -1;
  reset();
}

void Session::step_once() {
  mjModel* m = m_.get();
  mjData* d = d_.get();
  mju_zero(d->xfrc_applied, 6 * m->nbody);
  mjv_applyPerturbPose(m, d, &pert, 0);
  mjv_applyPerturbForce(m, d, &pert);
  mj_step(m, d);
  for (const auto& [warning, what] : {std::pair{mjWARN_BADQACC, "qacc"}, {mjWARN_BADQVEL, "qvel"}, {mjWARN_BADQPOS, "qpos"}}) {
    if (d->warning[warning].number == 0) continue;
    note("t = " + std::to_string(d->time) + " s: MuJoCo reported a bad " + what + " and reset the simulation");
    d->warning[warning].number = 0;
    apply_enabled();  // the reset turned switched-off native instances back on
  }
}

void Session::forward_paused() {
  mjv_applyPerturbPose(m_.get(), d_.get(), &pert, 1);
  mj_forward(m_.get(), d_.get());
}

int Session::advance(double wall_dt, double max_wall_s) {
  if (paused) {
    sim_lag_ = 0;
    forward_paused();
    return 0;
  }
  sim_lag_ += std::max(0.0, wall_dt) * speed;
  const auto start = std::chrono::steady_clock::now();
  int steps = 0;
  const double dt = m_->opt.timestep;
  while (sim_lag_ >= dt) {
    step_once();
    sim_lag_ -= dt;
    ++steps;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (spent > max_wall_s) {  // slower than real time: drop the debt instead of spiralling
      sim_lag_ = 0;
      break;
    }
  }
  if (steps == 0) mj_forward(m_.get(), d_.get());  // keep the pose perturbation and derived quantities fresh
  return steps;
}

namespace {
// What reset() would write for every instance of h in d's situation: config-derived entries (setpoints, gains
// copied into state) plus time/measurement-derived ones.
std::vector<mjtNum> fresh_state(const Host& h, const mjModel* m, const mjData* d) {
  std::vector<mjtNum> out(h.userdata_size(), 0.0);
  for (const Instance& inst : h.instances()) {
    if (inst.plugin->nstate() > 0) inst.plugin->reset(m, d, out.data() + inst.state_adr);
  }
  return out;
}

}  // namespace

void Session::replace(ModelPtr m, DataPtr d, std::unique_ptr<Host> h) {
  host_.reset();  // the old host detaches before its model is deleted
  d_.reset();
  m_ = std::move(m);
  d_ = std::move(d);
  host_ = std::move(h);
}

std::string Session::set_native_overrides(const std::vector<ConfigOverride>& overrides) {
  ModelPtr nm;
  std::unique_ptr<Host> nh;
  try {
    AttachOptions opt;
    opt.xml_path = path_;
    nm = load_model_with_overrides(path_, overrides, &opt.overrides);
    nh = Host::attach(nm.get(), opt);
  } catch (const std::exception& e) {
    return e.what();  // nothing changed
  }
  DataPtr nd = make_data(nm.get());
  // The simulation goes on: the whole integration state moves over (the models differ only in configuration).
  int sig = mjSTATE_INTEGRATION;
  if (mj_stateSize(m_.get(), sig) != mj_stateSize(nm.get(), sig)) sig &= ~mjSTATE_PLUGIN;  // plugins restart
  if (mj_stateSize(m_.get(), sig) == mj_stateSize(nm.get(), sig)) {
    std::vector<mjtNum> state(mj_stateSize(m_.get(), sig));
    mj_getState(m_.get(), d_.get(), state.data(), sig);
    mj_setState(nm.get(), nd.get(), state.data(), sig);
    // As for callback instances: running state is kept, entries that reset() derives from the configuration take
    // the new configuration's values.
    for (size_t k = 0; k < nh->native_instances().size() && k < host_->native_instances().size(); ++k) {
      const Instance& was = host_->native_instances()[k];
      const Instance& now = nh->native_instances()[k];
      const int n = native_state_size(nm.get(), now.native_id);
      if (was.name != now.name || n != native_state_size(m_.get(), was.native_id) || n == 0) continue;
      std::vector<mjtNum> old_fresh(n), new_fresh(n);
      was.plugin->reset(m_.get(), d_.get(), old_fresh.data());
      now.plugin->reset(nm.get(), nd.get(), new_fresh.data());
      mjtNum* live = native_state(nm.get(), nd.get(), now.native_id);
      for (int i = 0; i < n; ++i) {
        if (new_fresh[i] != old_fresh[i]) live[i] = new_fresh[i];
      }
    }
  }
  replace(std::move(nm), std::move(nd), std::move(nh));
  overrides_ = overrides;
  apply_enabled();
  // Derived quantities for whoever reads d before the next step; the plugin state stays as carried over (a
  // time-triggered controller would otherwise take its next sample here already).
  std::vector<mjtNum> plugin_state(mj_stateSize(m_.get(), mjSTATE_PLUGIN));
  mj_getState(m_.get(), d_.get(), plugin_state.data(), mjSTATE_PLUGIN);
  mj_forward(m_.get(), d_.get());
  mj_setState(m_.get(), d_.get(), plugin_state.data(), mjSTATE_PLUGIN);
  return "";
}

std::string Session::set_overrides(const std::vector<ConfigOverride>& overrides) {
  // Native instances are configured when MuJoCo compiles the model: new edits or dropped ones mean a recompile.
  auto names_native = [this](const std::vector<ConfigOverride>& list) {
    for (const ConfigOverride& o : list) {
      if (mj_name2id(m_.get(), mjOBJ_PLUGIN, o.instance.c_str()) >= 0) return true;
    }
    return false;
  };
  if (names_native(overrides) || names_native(overrides_)) return set_native_overrides(overrides);
  mjData* d = d_.get();
  const bool live = host_->state_ready(d);
  // Reset states of the old configuration, taken before its plugins go away.
  const std::vector<mjtNum> old_fresh = live ? fresh_state(*host_, m_.get(), d) : std::vector<mjtNum>();
  const int old_size = host_->userdata_size();
  std::vector<std::pair<std::string, std::pair<int, int>>> old_slices;
  for (const Instance& inst : host_->instances()) old_slices.push_back({inst.name, {inst.state_adr, inst.plugin->nstate()}});
  host_.reset();  // one Host per model: the old one detaches first
  try {
    host_ = attach(m_.get(), overrides);
  } catch (const std::exception& e) {
    const std::string why = e.what();
    try {
      host_ = attach(m_.get(), overrides_);  // these attached before, so they attach again
    } catch (const std::exception&) {
      host_ = attach(m_.get(), {});  // cannot fail: the model attached without edits when it was loaded
      overrides_.clear();
    }
    apply_enabled();
    return why;
  }
  overrides_ = overrides;
  apply_enabled();
  bool same = host_->userdata_size() == old_size && host_->instances().size() == old_slices.size();
  for (size_t i = 0; same && i < old_slices.size(); ++i) {
    const Instance& inst = host_->instances()[i];
    same = inst.name == old_slices[i].first && inst.state_adr == old_slices[i].second.first &&
           inst.plugin->nstate() == old_slices[i].second.second;
  }
  if (!same) {
    host_->reset_state(d);  // the layout changed: the plugins restart from reset()
  } else if (live) {
    // Keep the running state (integrators, timers, filters) but take every entry that reset() derives from the
    // configuration: where the old and new configurations' reset states differ (e.g. a PID setpoint that lives
    // in state), the new value is copied in. Plugin types need no viewer code for this.
    const std::vector<mjtNum> new_fresh = fresh_state(*host_, m_.get(), d);
    for (size_t i = 0; i < new_fresh.size(); ++i) {
      if (new_fresh[i] != old_fresh[i]) d->userdata[i] = new_fresh[i];
    }
  }
  return "";
}

std::string Session::set_key(const std::string& instance, const std::string& key, const std::string& value) {
  std::vector<ConfigOverride> next;
  for (const ConfigOverride& o : overrides_) {
    if (!(o.instance == instance && o.key == key)) next.push_back(o);
  }
  next.push_back({instance, key, value, "viewer"});
  return set_overrides(next);
}

void Session::set_enabled(const std::string& instance, bool on) {
  const Instance* inst = host_->find_any(instance);
  if (inst && inst->native_id >= 0) {
    set_native_enabled(m_.get(), d_.get(), inst->native_id, on);
  } else {
    host_->set_enabled(instance, on);
  }
  if (on) {
    disabled_.erase(instance);
  } else {
    disabled_.insert(instance);
  }
}

bool Session::enabled(const std::string& instance) const { return disabled_.count(instance) == 0; }

}  // namespace mjhand::view
