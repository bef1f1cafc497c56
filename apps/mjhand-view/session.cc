#include "session.h"

#include <mjhand/native/native_overrides.h>
#include <mjhand/native/native_plugins.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace mjhand::view {

Session::Session(const std::string& path) : path_(path) {
  sources_ = load_sources(path);
  m_ = compile_sources_with_overrides(path, sources_, {});  // errors name the file and line of a bad instance
  instances_ = std::make_unique<InstanceList>(m_.get());
  d_ = make_data(m_.get());
  mjv_defaultPerturb(&pert);
  mj_forward(m_.get(), d_.get());
}

void Session::note(const std::string& s) {
  log.push_back(s);
  if (log.size() > 50) log.erase(log.begin());
}

void Session::apply_enabled() {
  for (const Instance& inst : *instances_) {  // an instance's switch is part of its mjData
    set_native_enabled(m_.get(), d_.get(), inst.id, disabled_.count(inst.name) == 0);
  }
}

std::string Session::reload() {
  ModelPtr nm;
  std::map<std::string, std::string> sources;
  std::vector<ConfigOverride> kept = overrides_;
  try {
    sources = load_sources(path_);
    nm = compile_sources_with_overrides(path_, sources, {});
  } catch (const std::exception& e) {
    return e.what();
  }
  if (!kept.empty()) {  // the edits are compiled into the model
    try {
      nm = compile_sources_with_overrides(path_, sources, kept);
    } catch (const std::exception& with_edits) {  // the file changed so that the edits no longer apply together
      kept.clear();
      note(std::string("reload: viewer edits dropped (") + with_edits.what() + ")");
    }
  }
  std::unique_ptr<InstanceList> ni;
  try {
    ni = std::make_unique<InstanceList>(nm.get());
  } catch (const std::exception& e) {
    return e.what();
  }
  DataPtr nd = make_data(nm.get());
  replace(std::move(nm), std::move(nd), std::move(ni));
  sources_ = std::move(sources);
  overrides_ = kept;
  for (auto it = disabled_.begin(); it != disabled_.end();) {
    it = instances_->find(*it) ? std::next(it) : disabled_.erase(it);
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

void Session::replace(ModelPtr m, DataPtr d, std::unique_ptr<InstanceList> instances) {
  instances_ = std::move(instances);  // its inspection objects refer to no model data, so the order is free
  d_.reset();
  m_ = std::move(m);
  d_ = std::move(d);
}

std::string Session::set_overrides(const std::vector<ConfigOverride>& overrides) {
  ModelPtr nm;
  std::unique_ptr<InstanceList> ni;
  try {
    nm = compile_sources_with_overrides(path_, sources_, overrides);  // the text loaded, not the file now
    ni = std::make_unique<InstanceList>(nm.get());
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
    // Running state (integrators, timers, filters) is kept; the entries that reset() derives from the configuration
    // (e.g. a PID setpoint that lives in state) take the new configuration's values. Plugin types need no viewer code.
    // An instance whose state layout changed (its nstate, or what sits at its place) starts again from reset().
    for (const Instance& now : *ni) {
      const Instance* was = instances_->find(now.name);
      const int n = native_state_size(nm.get(), now.id);
      if (!was || was->type != now.type || was->plugin->nstate() != now.plugin->nstate() ||
          m_->plugin_stateadr[was->id] != nm->plugin_stateadr[now.id] || n != native_state_size(m_.get(), was->id)) {
        reset_native_state(nm.get(), nd.get(), now.id);
        continue;
      }
      std::vector<mjtNum> old_fresh(n), new_fresh(n);
      was->plugin->reset(m_.get(), d_.get(), old_fresh.data());
      now.plugin->reset(nm.get(), nd.get(), new_fresh.data());
      mjtNum* live = native_state(nm.get(), nd.get(), now.id);
      for (int i = 0; i < n; ++i) {
        if (new_fresh[i] != old_fresh[i]) live[i] = new_fresh[i];
      }
    }
  }
  replace(std::move(nm), std::move(nd), std::move(ni));
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

std::string Session::set_key(const std::string& instance, const std::string& key, const std::string& value) {
  std::vector<ConfigOverride> next;
  for (const ConfigOverride& o : overrides_) {
    if (!(o.instance == instance && o.key == key)) next.push_back(o);
  }
  next.push_back({instance, key, value, "viewer"});
  return set_overrides(next);
}

void Session::set_enabled(const std::string& instance, bool on) {
  const Instance& inst = instances_->at(instance);  // ConfigError naming the known instances
  set_native_enabled(m_.get(), d_.get(), inst.id, on);
  if (on) {
    disabled_.erase(instance);
  } else {
    disabled_.insert(instance);
  }
}

bool Session::enabled(const std::string& instance) const { return disabled_.count(instance) == 0; }

}  // namespace mjhand::view
