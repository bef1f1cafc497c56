// Sensor plugin "grasp_analysis": live grasp metrics of the contacts between an object and the hand, written to one
// <user> sensor every step (contacts, sigma_min(G), isotropy, force closure, total normal force, friction-cone margin,
// and Ferrari-Canny epsilon only when asked). The hand is infer_hand_structure's (hand_structure.h), as in `mjhand
// analyze`; force closure by ForceClosureLP (grasp/force_closure_lp.h).
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_model.h>
#include <mjhand/grasp/force_closure_lp.h>
#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>
#include <mjhand/host/registry.h>

namespace mjhand {

// Sensor outputs, in the order a grasp_analysis instance writes them unless `outputs=` chooses.
enum class GraspMetric { kContacts, kSigmaMin, kIsotropy, kForceClosure, kNormalForce, kConeMargin, kEpsilon };

// Key name of a metric ("contacts", "sigma_min", ...).
const char* metric_name(GraspMetric metric);

// Keys: object=BODY (required), sensor=USER_SENSOR (required, needstage="acc", datatype="real", dim = number of
// outputs), palm=BODY, fingers=ROOT1,ROOT2,..., finger_tips=TIP1,..., with_wrist=true|false (default false): the
// hand of infer_hand_structure with these options (default: all inferred, as `mjhand analyze`), palm_contact=
// condim|pwof|hf|sf (palm contacts' model, default from their condim), outputs=NAME,... (default
// contacts,sigma_min,isotropy,force_closure,normal_force,cone_margin[,epsilon]), epsilon=off|l1|linf (default off),
// epsilon_every=N steps (default 1), cone_edges=N (default 8), max_contacts=N (default 64), max_points=N (L-inf
// Minkowski-sum points, default 2500; above it epsilon reads 0). See docs/grasp-analysis.md.
std::unique_ptr<Plugin> make_grasp_analysis_plugin(const mjModel* m, const Config& cfg);

// The object and hand of a grasp_analysis instance (lets `mjhand analyze` analyse the grasp the model declares), or
// nullptr when `plugin` is of another type.
const HandModel* grasp_analysis_hand(const Plugin& plugin);

// The plugin type "grasp_analysis" for the registry (builtin_plugins.cc): summary, factory, every key the factory reads.
PluginType grasp_analysis_plugin_type();

}  // namespace mjhand
