// The grasp planner behind `mjhand plan` (docs/planner.md): SynGrasp's SGgraspPlanner / SGevaluateOffset and
// GraspIt!'s EigenGrasp simulated-annealing planner on MuJoCo. A candidate is the object's pose relative to the hand
// (approach direction on a sphere around the object, roll about it, standoff and lateral offsets from the hand's grasp
// centre) plus eigengrasp amplitudes z of the pre-shape q = q0 + S z. Each candidate is evaluated by simulating the
// scene: pre-shape, close with the scene's hand_closure controller (each phalanx stops at a detected contact), settle,
// then score the final grasp with plugin/grasp (force closure and Ferrari-Canny epsilon, sigma_min(G)).
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/scene/scene_spec.h>

#include "annealing.h"

namespace mjhand::planner {

// Pre-shape space: q = q0 + S z on the named joints (SynGrasp's synergy matrix / GraspIt!'s eigengrasps), with box
// bounds on z. The same fields as a Synergies object, plus the bounds.
struct Eigengrasps {
  std::vector<std::string> joints;  // n joint names
  Eigen::VectorXd q0;               // n [rad or m]
  Eigen::MatrixXd S;                // n x k
  Eigen::VectorXd z_min, z_max;     // k
  std::vector<std::string> names;   // k column names for the CSV ("close", "proximal_distal", "z1", ...)
};

// The default eigengrasps of a closing hand: column "close" moves every closing joint by 1 rad per unit in its closing
// direction (the sign of its hand_closure increment), column "proximal_distal" flexes the proximal joint of each finger
// by +1 rad and the distal one by -1 rad (linear in between). q0 = the model's qpos0. Bounds: close in [0, 0.6],
// proximal_distal in [-0.3, 0.3] (our choice: beyond 0.6 rad of pre-closure few objects fit between the fingers).
// increments: one per actuator (the scene's closure increments; 0 = not a closing joint).
Eigengrasps closure_eigengrasps(const mjModel* m, const std::vector<double>& increments);

// Finger f's tip point in d (after mj_kinematics): the mean of the geom centres of its leaf bodies (a leaf without
// geoms: its origin).
Eigen::Vector3d finger_tip_point(const mjModel* m, const mjData* d, const HandModel& hand, int f);

// Where the hand grasps: a centre C (world) and the unit approach axis a pointing from the palm toward C. The object
// centre is placed at C + standoff a + lateral_1 b1 + lateral_2 b2 (b1, b2 orthonormal, perpendicular to a).
struct ApproachFrame {
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
};

// The hand's own grasp frame: C = the centroid of the region the fingertips sweep in the first half of the closure
// (the mean of each finger's distal-link geom centres with every closing joint at 0, 1/4 and 1/2 of its way from qpos0
// to its limit in its closing direction), a = C minus the mean of the finger root bodies' positions (normalised).
ApproachFrame hand_approach_frame(const mjModel* m, const HandModel& hand, const std::vector<double>& increments);

// Closing a hand through its own actuators' ctrl, for any MJCF hand without mjhand's hand_closure plugin
// (mjcf_problem.h): each closing actuator's ctrl ramps from its hold value at the pre-shape to the closing end of its
// ctrlrange over the first `ramp` share of the duration, then stays there while the grasp settles.
struct CtrlClosure {
  std::vector<double> sign;    // per actuator: +1 rising ctrl closes the hand, -1 falling ctrl does, 0 holds
  std::vector<char> position;  // per actuator: 1 when ctrl is a length target (held at the pre-shape's length), else
                               // held at 0 (a motor)
  double ramp = 0.6;
  bool active() const { return !sign.empty(); }
};

// The hold values of closure c in d (after mj_forward), one per actuator: a length target at the actuator's length,
// a motor at 0, clamped to the ctrlrange.
void closure_hold(const mjModel* m, const mjData* d, const std::vector<char>& position, std::vector<double>& hold);

// The ctrl of closure c at simulated time t of a candidate lasting `duration`, from the hold values (per actuator).
double closure_ctrl(const mjModel* m, const CtrlClosure& c, int actuator, double hold, double t, double duration);

// What is planned for: the model (a grasp scene with contact_detection + hand_closure and a free object, or any MJCF
// hand with a free object closed by ctrl), its object, the pre-shape space and the search box of the pose parameters.
struct PlanProblem {
  int object_body = -1;
  HandModel hand;
  Eigengrasps eigengrasps;
  ApproachFrame frame;
  double standoff_min = 0, standoff_max = 0;  // [m] along a from C
  double lateral = 0;                          // [m] |lateral_i| <= lateral
  double duration = 0.3;                       // simulated closure + settling [s]
  double max_initial_penetration = 1e-3;       // [m] deeper hand-object overlap at the start: candidate illegal
  double distance_scale = 0.05;                // D [m] of the contact-distance energy term (the object's size)
  CtrlClosure closure;                         // inactive: the scene's own plugins close the hand
};

// The closure increment of every actuator of a scene built from spec (grasp.increment, or its per-actuator list).
// Throws std::runtime_error citing the scene when the list does not match the actuators or the scene has no grasp:.
std::vector<double> scene_closure_increments(const mjModel* m, const SceneSpec& spec);

// The default problem for a built scene (docs/planner.md): object `object` (a body with a free joint), hand = the
// model's moving roots, closure eigengrasps, the hand's approach frame, standoff -1.5 R..1.5 R and lateral R with R the
// object's bounding radius (largest geom_rbound of its geoms), D = R. Throws std::invalid_argument naming what is wrong.
PlanProblem default_problem(const mjModel* m, const std::string& object, const std::vector<double>& increments);

// default_problem without the pre-shape space and the approach frame: the object, the hand and the search box.
PlanProblem problem_box(const mjModel* m, const std::string& object);

// Parameter vector layout (k = eigengrasp count).
inline constexpr int kPoseParams = 6;  // azimuth, sin_elevation, roll [rad, 1, rad], standoff, lateral_1, lateral_2 [m]
std::vector<std::string> parameter_names(const PlanProblem& p);
Eigen::VectorXd parameter_min(const PlanProblem& p);
Eigen::VectorXd parameter_max(const PlanProblem& p);
bool parameter_circular(int i);  // azimuth and roll wrap around

// The object's world pose for parameters x: its direction u = (cos el cos az, cos el sin az, sin el) (object frame)
// points at the hand, i.e. R u = -a, then rolled by `roll` about a.
void object_pose(const PlanProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Vector3d& pos,
                 Eigen::Quaterniond& quat);
// The pre-shape: q0 + S z clamped to the joints' ranges, written into qpos (hand joints only).
void apply_preshape(const mjModel* m, const Eigengrasps& e, const Eigen::Ref<const Eigen::VectorXd>& z, double* qpos);

// One evaluated candidate.
struct Evaluation {
  long id = 0;                 // random sample i: i; annealing chain c step t: samples + c * steps + t
  std::string phase;           // "random" or "anneal"
  int chain = -1, step = -1;
  Eigen::VectorXd x;           // parameters
  std::string status;          // "ok", "collision" (initial overlap deeper than allowed), "diverged"
  double energy = 0;           // lower is better; score = -energy
  bool force_closure = false;
  double epsilon = 0;          // Ferrari-Canny L1, 8 cone edges, torque length = grasp radius
  double sigma_min = 0;        // sigma_min(G)
  double normal_force = 0;     // sum of the finger contacts' normal forces [N]
  double finger_distance = 0;  // mean over fingers of min(distance to the object, D) [m]
  double object_shift = 0;     // how far the object moved during the closure [m]
  int contacts = 0, other_contacts = 0, fingers_touching = 0;
  std::vector<int> finger_contacts;  // per finger
  std::vector<double> qpos_start, qpos_final;
  std::vector<double> ctrl_final;  // d->ctrl at the end (what holds the grasp)
};

// Energy of a legal evaluation (GraspIt!'s contact + quality energy, our weights):
// E = 0.5 (fingers without contact)/n_f + 0.5 finger_distance / D - [force closure] (1 + epsilon).
// Illegal candidates get kIllegalEnergy and are never accepted by the annealing.
double grasp_energy(const Evaluation& e, int fingers, double distance_scale);
inline constexpr double kIllegalEnergy = 2.0;

// Per-thread evaluation state: one mjData of the shared model. mjhand's plugins reset lazily at the first step after
// mj_resetData, from the qpos they find (plugin/mjhand/host/plugin.h), so the closure setpoints start at the pre-shape.
class Evaluator {
 public:
  explicit Evaluator(const mjModel* m);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;
  // Simulates candidate x from scratch and fills e (x, status, metrics, energy). Deterministic in x alone.
  void evaluate(const PlanProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x, Evaluation& e);
  // Sets the candidate's start state (pre-shape, object pose; mj_forward) and tells whether it is legal: no contact of
  // the object deeper than p.max_initial_penetration. Costs one mj_forward.
  bool place(const PlanProblem& p, const Eigen::Ref<const Eigen::VectorXd>& x);
  mjData* data() { return d_; }

 private:
  const mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  std::vector<double> hold_;  // CtrlClosure's hold values (sized once per evaluator)
};

// Final-state grasp metrics of d (after mj_forward) into e: contacts per finger, normal force, sigma_min, epsilon and
// force closure, finger distances. Used by the planner and by re-analysis of a saved state.
void grasp_metrics(const mjModel* m, mjData* d, const PlanProblem& p, Evaluation& e);

struct PlanOptions {
  int samples = 64;        // random candidates
  int chains = 4;          // annealing chains, started from the best random candidates
  int steps = 16;          // annealing steps per chain
  uint64_t seed = 1;
  int jobs = 1;            // worker threads (each with its own model copy and mjData)
  AnnealSchedule schedule;
  double max_jump = 0.5;   // a neighbour moves each parameter by at most this share of its range
  int max_draws = 20;      // a candidate whose start state is illegal is redrawn up to this many times in all
                           // (GraspIt! regenerates an illegal neighbour up to 10 times); redraws cost one mj_forward
};

struct Progress {
  long done = 0, total = 0;
  int force_closure = 0;
  double best_score = 0;
};

// Random sampling, then simulated annealing chains; every evaluation ranked by score (then id). The result does not
// depend on jobs. progress (may be empty) is called from worker threads under a lock.
std::vector<Evaluation> plan_grasps(const mjModel* m, const PlanProblem& p, const PlanOptions& o,
                                    const std::function<void(const Progress&)>& progress = {});

// The ranked table as CSV (one header line, one row per evaluation; numbers with 17 significant digits).
std::string ranked_csv(const mjModel* m, const PlanProblem& p, const std::vector<Evaluation>& ranked);

}  // namespace mjhand::planner
