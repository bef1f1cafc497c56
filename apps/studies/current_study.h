// The direct-drive hand's current-requirement study (Ebner & Wallace 1994, sections 4.3 and 5, Figures 2-4 and the
// static holding torques): computed-torque runs of the whole hand on MuJoCo with the closed-form model, the coil
// current each link needs (I = tau / K_T(phi), the coil model's inverse map and driver limits), electrical power and
// the fitted thermal model's temperature rise, plus the static current to hold a straight finger horizontal.
// docs/direct-drive-hand.md, "Current-requirement study".
#pragma once

#include <Eigen/Core>

#include <array>
#include <string>
#include <vector>

#include <mjhand/coil_actuator/coil_model.h>

namespace mjhand {

// The desired motion of every joint in a study run.
enum class StudyTrajectory {
  kQuintic90To0,  // section 4.3: phi from 90 deg to 0 in 1 s on the quintic (Figures 2, 3)
  kCosineCycle,   // the fast close/open cycle 42.5 deg (1 - cos(540 deg/s t)) + 2.5 deg (Figure 4)
};

// One simulated run.
struct CurrentStudyRun {
  std::string name;         // file stem of its outputs, e.g. "fig3_quintic_palm_down"
  std::string scene;        // MJCF scene of the hand; only its gravity, timestep and integrator are used
  StudyTrajectory trajectory = StudyTrajectory::kQuintic90To0;
  double duration = 1.0;    // simulated time [s]
  double update_rate = 100; // controller update [Hz]: the torque is held between updates (zero-order hold)
  std::string paper;        // what it reproduces, e.g. "Figure 3 (palm Y vertical, palm down)"
};

// Settings shared by every run.
struct CurrentStudyOptions {
  double kp = 1000.0;                 // position gain [1/s^2] (section 4.3)
  double kv = 63.2;                   // velocity gain [1/s]
  KtModel kt_model = KtModel::kPoly;  // K_T(phi): the 5.5 quartic (default) or section 4.1's sin^2
  double I_max = 3.0;                 // driver current limit [A] (LMD18201)
  std::array<double, 3> V_max = {38.2, 37.4, 36.3};  // coil voltage on a 40 V supply, links 1-3 [V] (5.6)
  // false (the paper's figures): the plant receives the commanded torque, currents are requirements and the driver
  // limit is only reported; true: the plant receives K_T times the current the driver can give.
  bool limit_plant = false;
};

// The coil of link 1, 2 or 3 with the shipped fit (coil_link_preset) and the options' K_T model and driver.
CoilParams study_coil(int link, const CurrentStudyOptions& options);

// Time series of one run, sampled at every controller update; matrices are (samples x 15), column 3 (j - 1) + (i - 1)
// for finger j = 1..5 (1 = thumb), link i = 1..3.
struct CurrentStudyResult {
  CurrentStudyRun run;
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();  // g in the palm frame [m/s^2]
  std::vector<double> time;                           // [s]
  Eigen::MatrixXd phi, phid, phi_desired;             // [rad], [rad/s], [rad]
  Eigen::MatrixXd torque;    // commanded joint torque [N m]
  Eigen::MatrixXd current;   // required coil current tau / K_T(phi) [A]
  Eigen::MatrixXd driver_current;  // what the driver can give (clipped to I_max and V_max) [A]
  Eigen::MatrixXd power;     // electrical power of the coil I (I R(dT) + e) [W]
  Eigen::MatrixXd temperature_rise;  // dT of the coil's thermal model, driven by the required current [K]
  Eigen::Matrix<double, 5, 3> max_current = Eigen::Matrix<double, 5, 3>::Zero();  // IM1..IM3 per finger: max |I|
  double max_tracking_error = 0;  // max |phi - phi_d| over every physics step and joint [rad]
  double max_total_power = 0;     // max over time of the whole hand's electrical power [W]
  double max_temperature_rise = 0;  // [K]
  int limited_samples = 0;          // samples in which at least one coil needs more than the driver gives
};

// The four runs of Figures 2-4: quintic with g along Z_P (sideways), along +Y_P (palm down) and -Y_P (palm up), all
// at 100 Hz, and the cosine cycle palm up for 2 s at 1 kHz. Scenes are taken from models_dir.
std::vector<CurrentStudyRun> paper_current_runs(const std::string& models_dir);

// Simulates one run (MuJoCo plant, RK4 at the scene's timestep, contacts and (unless limit_plant) joint limits
// disabled as in the paper's "perfectly modeled finger") with computed torque on the closed-form model (model=direct_drive). Throws
// std::runtime_error naming the run and scene when the scene does not load or is not the direct-drive hand, or
// when the simulation diverges.
CurrentStudyResult run_current_study(const CurrentStudyRun& run, const CurrentStudyOptions& options = {});

// The static current to hold a straight finger (phi = 0) horizontal, one row per link.
struct HoldingRow {
  int link = 0;
  double kt = 0;                        // K_T(0) [N m/A]
  double torque_down = 0, torque_up = 0;  // |G| of the model, palm down / palm up [N m]
  double current_down = 0, current_up = 0;  // |G| / K_T(0) [A]
  double paper_torque_down = 0, paper_torque_up = 0;    // section 5's measured torques [N m]
  double paper_current_down = 0, paper_current_up = 0;  // the paper's currents [A] (7.39 / 2.56 / 0.34, ...)
  bool exceeds_driver = false;          // the model's current is above what the driver can give
};

// Section 5's table from the closed-form G of finger 2 (paper_finger) with |g| = 9.81 m/s^2 along Y_P.
std::vector<HoldingRow> static_holding_currents(const CurrentStudyOptions& options = {});

// CSV of a run: time, then per finger and link phi, phid, phi_d, tau, I, I_driver, P, dT, then P_total.
std::string current_study_csv(const CurrentStudyResult& result);
// CSV of the maximum currents IM1..IM3 of every run and finger.
std::string max_currents_csv(const std::vector<CurrentStudyResult>& results);
// CSV of the static holding table.
std::string holding_csv(const std::vector<HoldingRow>& rows);
// A plain-text report: runs, IM1..IM3 (finger 2), tracking, power, heating, and the holding table.
std::string current_study_report(const std::vector<CurrentStudyResult>& results, const std::vector<HoldingRow>& rows);

// Writes <name>.csv per run, max_currents.csv, static_holding.csv and report.txt into out_dir (created if needed),
// each atomically. Returns the paths written.
std::vector<std::string> write_current_study(const std::string& out_dir, const std::vector<CurrentStudyResult>& results,
                                             const std::vector<HoldingRow>& rows);

// True when a `gnuplot` executable is on PATH.
bool gnuplot_available();
// Plots current per link (finger 2), total power and the hottest coil's temperature rise per run as
// <name>_{current,power,temperature}.png with gnuplot (rendered to a temporary name, then renamed). Throws
// std::runtime_error when gnuplot is missing or fails. Returns the PNG paths.
std::vector<std::string> plot_current_study(const std::string& out_dir, const std::vector<CurrentStudyResult>& results);

}  // namespace mjhand
