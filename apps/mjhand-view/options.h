// Command-line flags of mjhand-view and its --help text (which also lists every key binding).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace mjhand::view {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string model;
  std::string keyframe;          // --keyframe NAME|INDEX
  std::string object;            // --object BODY
  std::string palm;              // --palm BODY (hand structure of the grasp box; default inferred)
  std::string fingers;           // --fingers B1,B2,... finger root bodies
  std::string finger_tips;       // --finger-tips T1,T2,... tip bodies
  bool with_wrist = false;       // --with-wrist: wrist/arm joints as columns of J_H
  std::vector<std::string> sets; // --set INSTANCE.KEY=VALUE
  std::string screenshot;        // --screenshot OUT.png: headless mode
  double time = 0;               // --time T [s] simulated before the headless screenshot
  int width = 1280, height = 800;
  bool ui = false;               // --ui: draw the panels into the headless screenshot
  std::string camera;            // --camera NAME: a model camera instead of the free camera
  double azimuth = 1e9, elevation = 1e9, distance = -1;  // free-camera overrides (degrees, metres); unset = default
  std::vector<double> lookat;    // --lookat X,Y,Z [m]; empty = the model centre
  double speed = 1.0;
  bool paused = false;
  bool cones = false;            // friction cones on from the start
  bool ellipsoid = false;        // --ellipsoid: the manipulability ellipsoid overlay on from the start
  bool synergy_ellipsoid = false;  // --synergy-ellipsoid: that ellipsoid through the model's synergies (and on)
  bool force_ellipsoid = false;    // --force-ellipsoid: the force manipulability ellipsoid instead (and on)
  double force_ellipsoid_scale = -1;  // --force-ellipsoid-scale MM_PER_N; < 0 = the default (OverlayFlags)
  bool epsilon = false;          // epsilon in the metrics box from the start
  std::vector<std::string> plots; // --plot TEXT: signals whose label contains TEXT are plotted from the start
  double quit_after = 0;         // --quit-after S: close the window after S wall-clock seconds (scripted runs)
  bool help = false;
};

// Parses argv; throws UsageError naming the flag and the bad value.
Options parse_options(int argc, char** argv);

// The --help text.
const char* usage();

}  // namespace mjhand::view
