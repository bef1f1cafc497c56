// Sensor plugin "contact_detection": a ContactDetector (core/mjhand/grasp/contact_detector.h: the paper's debounced
// phalanx-level detection, and where) sampled once per step, at the step's end (MuJoCo's plugin advance), from the
// contacts and forces the step computed; mj_forward takes none and shows the state the last step ended with. Layout
// and sampling in docs/scenes.md.
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mjhand/grasp/contact_detector.h>
#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// The layout a contact_detection instance declared in m uses (its own keys, as compiled into m), and the id of
// its signal sensor. Throws std::runtime_error when there is no such instance or it is of another type.
ContactLayout declared_contact_layout(const mjModel* m, const std::string& instance, int* signal_sensor);

// The same from an instance's resolved configuration (Instance::config: MJCF keys, then overrides); also the id of
// its where-sensor (-1 without one). Does not validate what the plugin's factory already checked.
ContactLayout configured_contact_layout(const mjModel* m,
                                        const std::vector<std::pair<std::string, std::string>>& config,
                                        int* signal_sensor, int* where_sensor);

// Keys: sensor=SENSOR (its <sensor><plugin>, sized fingers x phalanges + 1), fingers=all|F1,F2,... (default all:
// every embedded chain), palm=BODY|none (default "palm" when the model has it), threshold=N (default 0.01 N),
// samples=N (default 10, as in the paper), where=SENSOR (optional, its <sensor><plugin>, sized 6 x channels: contact
// point [m] and outward normal of the channel's strongest contact in the link frame, zeros while the signal is 0).
std::unique_ptr<Plugin> make_contact_detection_plugin(const mjModel* m, const Config& cfg);

// The plugin type "contact_detection" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType contact_detection_plugin_type();

}  // namespace mjhand
