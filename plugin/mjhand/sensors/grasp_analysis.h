// Sensor plugin "grasp_analysis": live grasp metrics of the contacts between an object and the hand, written to one
// <user> sensor every step (contacts, sigma_min(G), isotropy, force closure, total normal force, friction-cone margin,
// and Ferrari-Canny epsilon only when asked). The hand is infer_hand_structure's (hand_structure.h), as in `mjhand
// analyze`. Also an allocation-free force-closure test the CLI reuses, and the older one-finger-per-moving-root hand.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_model.h>
#include <mjhand/host/config.h>
#include <mjhand/host/plugin.h>

namespace mjhand {

// One finger per moving root, i.e. every body with joints whose parent is static (welded to the world), except the
// object's subtree and other free-jointed bodies (those are objects, not fingers). A palm welded to the world
// therefore gives one finger per palm child; a hand on a jointed arm or slide base is one finger, and palm contacts
// are not counted. No longer any tool's default (they and Python's mjhand.hand() use infer_hand_structure); kept
// as the reference the structure inference is tested against. Throws GraspError when no such body exists.
HandModel hand_from_moving_roots(const mjModel* m, int object_body);

// Force closure with linearised friction cones (the primitive wrenches of wrench_space.h, same cone_edges and torque
// length), decided by a small phase-1 simplex on preallocated storage so that it can run every step: the primitive
// wrenches w_j positively span R^6 iff they span R^6 and some alpha_j >= 1 gives sum alpha_j w_j = 0. Agrees with
// is_force_closure (the wrench-space hull) away from the boundary (tested); no allocation after construction.
class ForceClosureLP {
 public:
  enum class Result { kClosure, kNotClosure, kNoContacts, kRankDeficient, kSolverLimit, kTooManyContacts };

  // Storage for up to max_contacts soft-finger contacts with cone_edges edges (>= 3) each.
  ForceClosureLP(int max_contacts, int cone_edges);
  // Decides force closure of contacts about `reference` (the object centre). Never allocates. A complete-constraint
  // contact (unbounded wrench set) throws std::invalid_argument; the sensor's contacts follow condim and never are.
  Result evaluate(const Contact* contacts, int count, const Eigen::Vector3d& reference);
  int cone_edges() const { return edges_; }
  // Simplex pivots of the last evaluate (for tests and benchmarks).
  int pivots() const { return pivots_; }

 private:
  int edges_, max_contacts_, pivots_ = 0;
  Eigen::Matrix<double, 6, Eigen::Dynamic> prim_;  // primitive wrenches, 6 x (2 edges max_contacts)
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> tableau_;  // 7 x (2 edges max_contacts + 7)
};

// Human-readable name of a ForceClosureLP result.
const char* to_string(ForceClosureLP::Result r);

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

}  // namespace mjhand
