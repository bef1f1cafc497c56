// Fits of the coil actuator's models to the paper's measured tables (Ebner & Wallace 1994, sections 5.5 and 5.6),
// read from the CSV copies in controllers/mjhand/coil_actuator/data. The numbers mjhand ships (coil_presets.cc) are what
// these routines produce; tests/controllers/coil_actuator/test_coil_actuator.cc re-runs them and compares, and its hidden test case
// "[coil_fit_report]" prints the report with the constants to paste (`mjhand_unit_tests "[coil_fit_report]"`).
#pragma once

#include <array>
#include <string>
#include <vector>

#include <mjhand/coil_actuator/coil_model.h>

namespace mjhand {

// One link's torque table of section 5.5, converted to SI (tau in N m, K_T in N m/A, angles in rad).
struct TorqueTable {
  std::string path;
  double R = 0.0;                         // coil resistance in the table's header [ohm]
  std::vector<double> phi;                // the 5 actuator angles [rad]
  std::vector<double> U, I;               // supply voltage [V] and current [A] per row
  std::vector<std::vector<double>> tau;   // tau[row][angle] [N m]
  std::vector<double> kt_printed;         // the paper's K_T per angle [N m/A]
  int first_used_row = 0;                 // first row below the paper's (lost) double line, from first_used_U_V
};

// Reads a torque_linkN.csv; throws std::runtime_error naming file and line on malformed content.
TorqueTable load_torque_table(const std::string& path);

// The paper's K_T per angle: the mean of tau/I over the rows from `first_row` on [N m/A].
std::vector<double> kt_mean_ratio(const TorqueTable& t, int first_row);

// Least-squares polynomial of degree 4 through (x, y) (Eigen, column-pivoting QR); c0 first.
std::array<double, 5> fit_quartic(const std::vector<double>& x, const std::vector<double>& y);

// Both torque-constant models of one link and their errors against the table.
struct KtFit {
  std::vector<double> kt;                // K_T per angle by the paper's method [N m/A]
  double kt_max = 0.0;                   // K_T at 45 deg: the paper's K_Tmax of the sin^2 model
  std::array<double, 5> poly{};          // quartic in phi [rad] through the K_T points
  double rms_kt_sin2 = 0, rms_kt_poly = 0;    // RMS against the K_T points [N m/A]
  double rms_tau_sin2 = 0, rms_tau_poly = 0;  // RMS against the used torque rows, tau = K_T(phi) I [N m]
  int n_tau = 0;                         // number of torque entries in those RMS
};

// Fits K_T of one table.
KtFit fit_torque_constant(const TorqueTable& t);

// One link's run of a section 5.6 heating table: constant coil voltage U, current and temperature rise over time.
struct HeatingRun {
  int link = 0;
  double U = 0.0;                 // coil voltage [V]
  std::vector<double> t, I, dT;   // [s], [A], [K] (dT as the paper calculated it from I)
  double R0() const { return U / I.at(0); }  // cold resistance of this run [ohm]
};

// Reads heating_XXV.csv: the three links' runs (links 1, 2, 3). Throws std::runtime_error naming file and line.
std::vector<HeatingRun> load_heating_table(const std::string& path);

// dT at the run's times for the thermal model driven at constant voltage: I = U / (R0 (1 + alpha_R dT)),
// C d(dT)/dt = U I - dT / R_th (RK4, step 0.01 s). `current`, if given, receives I at those times.
std::vector<double> simulate_heating(const HeatingRun& run, double C, double R_th, double alpha_R,
                                     std::vector<double>* current = nullptr);

// Least-squares (C, R_th) of the thermal model against the dT of the runs (all together), t = 0 rows excluded
// (dT = 0 there by definition). Gauss-Newton with Levenberg-Marquardt damping, started from the linear fit of
// C dT/dt + dT/R_th = U I(t). The result is returned as found, even if not physical (see check_thermal_params).
struct ThermalFit {
  double C = 0.0;                 // [J/K]
  double G = 0.0;                 // 1 / R_th [W/K]
  double R_th = 0.0;              // [K/W] (infinite or negative when G <= 0)
  double rms = 0.0;               // RMS of dT residuals over all runs [K]
  std::vector<double> rms_run;    // per run [K]
  int n = 0;                      // residuals
  int iterations = 0;
  bool converged = false;
};
ThermalFit fit_thermal(const std::vector<HeatingRun>& runs, double alpha_R = kCopperAlpha);

// Everything fitted for link 1, 2 or 3 from the CSVs in `data_dir`.
struct CoilFit {
  int link = 0;
  TorqueTable table;
  KtFit kt;
  std::vector<HeatingRun> runs;  // this link's 40 V and 20 V runs
  ThermalFit thermal;
};
CoilFit fit_coil_link(const std::string& data_dir, int link);

// The preset a fit gives; throws std::invalid_argument (check_thermal_params) when the thermal fit is not physical.
CoilLinkPreset preset_from_fit(const CoilFit& fit);

// Human-readable report of all three links' fits, ending with the C++ initialisers of coil_presets.cc.
std::string coil_fit_report(const std::string& data_dir);

}  // namespace mjhand
