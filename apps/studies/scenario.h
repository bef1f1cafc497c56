// Runs a grasp scene headless (its plugins live, as in `mjhand run`) and reports what the SynGrasp-Simscape paper
// plots: contact signals over time (the contact sequence), object translation and ZYX Euler angles, joint
// trajectories, and the grasp-analysis metrics of the final state.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include <mjhand/scene/scene_spec.h>

namespace mjhand {

struct ScenarioOptions {
  double duration = 0.5;  // simulated time [s]
  int log_every = 10;     // steps between time-series rows
};

// Grasp-analysis metrics of one object in the final state (plugin/grasp; hand = infer_hand_structure, as mjhand analyze: palm contacts count).
struct GraspMetrics {
  std::string object;
  int contacts = 0;          // object-finger and object-palm contacts used for G
  int other_contacts = 0;    // object touching the floor, another object, a body of no finger and not the palm
  double normal_force = 0;   // sum of those contacts' normal forces [N]
  double sigma_min = 0, isotropy = 0;
  bool force_closure = false;
  std::string note;          // why a metric is missing ("" when all were computed)
};

struct ScenarioResult {
  std::vector<std::string> channel_names;  // "f1_p1", ..., "palm"
  std::vector<std::string> object_names;
  std::vector<std::string> joint_names;
  // Time series: columns = header(); one row every log_every steps and the final state.
  std::vector<std::vector<double>> rows;
  std::vector<double> first_contact;       // per channel: first time its signal was 1 [s], -1 if never
  std::vector<int> transitions;            // per channel: number of 0->1 changes
  std::vector<double> final_signals;       // per channel
  std::vector<Eigen::Vector3d> final_pos;  // per object [m]
  std::vector<Eigen::Vector3d> final_euler_zyx;  // per object: (phi about z, theta about y, psi about x) [rad]
  std::vector<double> object_mass;         // [kg]
  std::vector<GraspMetrics> metrics;       // per object
  double steps_per_second = 0;             // wall-clock speed of the rollout
  long steps = 0;
  bool diverged = false;                   // NaN/Inf or MuJoCo warnings of instability
  // Column names of rows.
  std::vector<std::string> header() const;
};

// Steps m (a scene built by build_scene, or any model with the same sensors and plugins) for options.duration with
// its mjhand plugins attached. Channels come from the scene's contact_detection sensor when present.
ScenarioResult run_scenario(const mjModel* m, const ScenarioOptions& options);

// ZYX Euler angles (phi, theta, psi) of a unit quaternion (w, x, y, z): R = Rz(phi) Ry(theta) Rx(psi).
Eigen::Vector3d euler_zyx(const double* quat);

// The time series as CSV text (header line, then rows; numbers with 9 significant digits).
std::string scenario_csv(const ScenarioResult& r);
// A short human-readable report: contact sequence, final pose, grasp metrics.
std::string scenario_report(const ScenarioResult& r);

// One line of the density sweep (paper section 3.2): the final pose of the swept object.
struct DensityRow {
  double density = 0, mass = 0;
  Eigen::Vector3d pos = Eigen::Vector3d::Zero(), euler = Eigen::Vector3d::Zero();  // final [m], ZYX [rad]
  double peak_displacement = 0;  // largest distance from the start position over the run [m]
  double min_z = 0;              // lowest z over the run [m] (the paper's "goes downward")
  int fingertips_in_contact = 0;
  GraspMetrics metrics;
};

// Rebuilds the scene with objects[object].density set to each value and runs it; rows in the order given.
std::vector<DensityRow> density_sweep(const SceneSpec& spec, int object, const std::vector<double>& densities,
                                      const ScenarioOptions& options);
// The sweep as a table (CSV with a header).
std::string density_table_csv(const std::vector<DensityRow>& rows);

}  // namespace mjhand
