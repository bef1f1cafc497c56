// mjhand's controllers as Python objects: the plugin types that write ctrl (pid, posture, hand_closure, synergy,
// computed_torque, hand_object, torque_control) or add passive forces (coupling), built by the same factory from the
// same keys as an MJCF <instance>, and stepped by the user with a mujoco.MjModel/MjData. The state the plugin keeps
// in d->plugin_state lives in the object instead (docs/python.md, "Controllers").
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>
#include <mjhand/io/model_io.h>

#include "bind.h"

namespace mjhand::py {
namespace {

constexpr int kDriving = kCapControl | kCapPassive;

// The types a Python controller may be: what writes ctrl or passive forces (sensors and actuator models need
// MuJoCo's own stages: declare them in the MJCF).
std::vector<std::string> controller_type_names() {
  std::vector<std::string> out;
  for (const std::string& name : PluginRegistry::global().names()) {
    const PluginType* t = PluginRegistry::global().find(name);
    if (t && (t->capabilities & kDriving) && !(t->capabilities & (kCapSensor | kCapActuator))) out.push_back(name);
  }
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

class Controller {
 public:
  Controller(nb::handle model, const std::string& type, std::vector<std::pair<std::string, std::string>> config,
             const std::string& name)
      : model_(nb::borrow(model)), m_(model_of(model)), type_(type), name_(name) {
    const PluginType* t = PluginRegistry::global().find(type);
    const std::vector<std::string> allowed = controller_type_names();
    bool ok = false;
    for (const std::string& a : allowed) ok = ok || a == type;
    if (!t || !ok) {
      throw nb::value_error(("'" + type + "' is not an mjhand controller type; the types a Python controller can be: " +
                             joined(allowed) + (t ? " (sensors and actuator models run inside MuJoCo: declare them "
                                                    "in the MJCF)" : "")).c_str());
    }
    for (const auto& [key, value] : config) {  // before the factory, which would first ask for a missing key
      bool known = false;
      for (const std::string& k : t->keys) known = known || k == key;
      if (!known) {
        throw ConfigError("Python controller '" + name + "' (" + type + "): unknown key '" + key + "'; its keys: " +
                          joined(t->keys));
      }
    }
    Config cfg(m_, name_, type, [name] { return "Python controller '" + name + "'"; }, std::move(config));
    if (const std::string problem = multi_io_actuator_problem(m_); !problem.empty()) cfg.fail(problem);
    try {
      plugin_ = t->factory(m_, cfg);
    } catch (const ConfigError&) {
      throw;
    } catch (const std::exception& e) {  // a control law's std::invalid_argument: still name the controller
      cfg.fail(e.what());
    }
    if (!plugin_) cfg.fail("the factory returned no controller");
    cfg.check_all_used();
    state_.assign(static_cast<size_t>(plugin_->nstate()), 0.0);
  }

  // Zeroes the state and initialises it from `data` (the plugin does this on the first step after mj_resetData).
  void reset(nb::handle data) {
    const mjData* d = data_of(data, m_);
    std::fill(state_.begin(), state_.end(), 0.0);
    plugin_->reset(m_, d, state_.data());
    ready_ = true;
    last_time_ = d->time;
  }

  // Puts back a state saved from `state` (with the MuJoCo state it belongs to, already in `data`).
  void restore(nb::handle data, nb::handle saved) {
    const mjData* d = data_of(data, m_);
    const Eigen::VectorXd s = as_vector(saved, "state");
    if (static_cast<size_t>(s.size()) != state_.size()) {
      throw nb::value_error(("state has " + std::to_string(s.size()) + " values, controller '" + name_ + "' keeps " +
                             std::to_string(state_.size())).c_str());
    }
    std::copy(s.data(), s.data() + s.size(), state_.begin());
    ready_ = true;
    last_time_ = d->time;
  }

  void compute(nb::handle data) {
    if (!(plugin_->capabilities() & kCapControl)) {
      throw nb::type_error(("controller '" + name_ + "' (" + type_ + ") adds passive forces: call passive(data) "
                            "(e.g. from mujoco.set_mjcb_passive), not compute").c_str());
    }
    mjData* d = prepared(data);
    plugin_->control(m_, d, state_.data());
  }

  void passive(nb::handle data) {
    if (!(plugin_->capabilities() & kCapPassive)) {
      throw nb::type_error(("controller '" + name_ + "' (" + type_ + ") writes ctrl: call compute(data) (e.g. from "
                            "mujoco.set_mjcb_control), not passive").c_str());
    }
    mjData* d = prepared(data);
    plugin_->passive(m_, d, state_.data());
  }

  void advance(nb::handle data) {
    mjData* d = prepared(data);
    if (plugin_->capabilities() & kCapAdvance) plugin_->advance(m_, d, state_.data());
  }

  nb::ndarray<nb::numpy, double, nb::ndim<1>> state(nb::handle self) {
    return nb::ndarray<nb::numpy, double, nb::ndim<1>>(state_.data(), {state_.size()}, self);
  }
  std::vector<int> actuators() const { return plugin_->owned_ctrls(); }
  const std::string& type() const { return type_; }
  const std::string& name() const { return name_; }
  bool is_reset() const { return ready_; }
  bool writes_ctrl() const { return plugin_->capabilities() & kCapControl; }
  nb::object model() const { return model_; }

 private:
  // Resets first when never reset or when time went back (mj_resetData, an earlier state set): the plugin's state
  // lives in mjData and is reset or restored with it; this one is not.
  mjData* prepared(nb::handle data) {
    mjData* d = data_of(data, m_);
    if (!ready_ || d->time < last_time_) reset(data);
    last_time_ = d->time;
    return d;
  }

  nb::object model_;  // keeps the MjModel alive as long as the controller
  const mjModel* m_;
  std::string type_, name_;
  std::unique_ptr<Plugin> plugin_;
  std::vector<double> state_;
  bool ready_ = false;
  double last_time_ = 0;
};

}  // namespace

void bind_controllers(nb::module_& m) {
  nb::class_<Controller>(m, "Controller",
                         "An mjhand controller (a plugin type that writes ctrl or passive forces) stepped from Python "
                         "with the C++ code of the plugin: mjhand.controllers wraps it.")
      .def(nb::init<nb::handle, const std::string&, std::vector<std::pair<std::string, std::string>>,
                    const std::string&>(),
           nb::arg("model"), nb::arg("type"), nb::arg("config"), nb::arg("name"),
           "Builds and validates the controller from its plugin keys (ConfigError names the key).")
      .def("reset", &Controller::reset, nb::arg("data"),
           "Zeroes the state and initialises it from data (call after mujoco.mj_resetData).")
      .def("restore", &Controller::restore, nb::arg("data"), nb::arg("state"),
           "Puts back a copy of .state saved with the MuJoCo state now in data (mjhand.get_state / set_state).")
      .def("compute", &Controller::compute, nb::arg("data"),
           "Writes the controlled actuators' ctrl for data's state (resets first if never reset).")
      .def("passive", &Controller::passive, nb::arg("data"), "Adds the controller's forces into data.qfrc_passive.")
      .def("advance", &Controller::advance, nb::arg("data"),
           "The end-of-step update of types that have one (MuJoCo's plugin advance); nothing for the others.")
      .def_prop_ro("state", [](nb::handle self) { return nb::cast<Controller&>(self).state(self); },
                   nb::rv_policy::reference_internal, "the controller's state (the plugin's plugin_state slice), writable")
      .def_prop_ro("actuators", &Controller::actuators, "ids of the actuators whose ctrl it writes")
      .def_prop_ro("type", &Controller::type, "its plugin type")
      .def_prop_ro("name", &Controller::name, "its name in messages")
      .def_prop_ro("is_reset", &Controller::is_reset, "whether the state has been initialised")
      .def_prop_ro("writes_ctrl", &Controller::writes_ctrl, "True: compute(data); False: passive(data)")
      .def_prop_ro("model", &Controller::model, "the mujoco.MjModel it was built for");
  m.def("controller_types", &controller_type_names, "plugin types a Python controller can be");
  m.def("plugin_type_keys",
        [](const std::string& type) {
          const PluginType* t = PluginRegistry::global().find(type);
          if (!t) throw nb::value_error(("no mjhand plugin type '" + type + "'").c_str());
          return std::make_pair(t->summary, t->keys);
        },
        nb::arg("type"), "(summary, configuration keys) of a plugin type");
}

}  // namespace mjhand::py
