#include "options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace mjhand::view {

const char* usage() {
  return R"(usage: mjhand-view MODEL.xml [flags]

Interactive viewer for mjhand models: MuJoCo simulation with the model's mjhand plugins running, plugin/joint/
overlay/plot panels, grasp metrics. See docs/mjhand-view.md.

flags:
  --keyframe NAME|INDEX    start from this keyframe (preset); unknown names list the model's keyframes
  --set INSTANCE.KEY=VALUE change a plugin key before attaching (repeatable), like `mjhand run --set`
  --object BODY            body whose grasp the metrics box analyses (default: the grasp_analysis instance's
                           object, else the free body with the most contacts)
  --palm BODY              the palm of the grasp box's hand (default: the body where the fingers branch)
  --fingers B1,B2,...      its finger root bodies (default: the palm's branches, loop-closed subtrees merged)
  --finger-tips T1,T2,...  the fingers' tip bodies, at most one per finger
  --with-wrist             the wrist/arm joints (palm and above) count as hand joints of J_H
  --speed S                simulated seconds per wall-clock second (default 1)
  --paused                 start paused
  --cones                  show friction cones from the start
  --ellipsoid              show the grasp's kinematic manipulability ellipsoid from the start
  --synergy-ellipsoid      show it through the model's synergy plugin instance (synergy inputs dz instead of
                           joint speeds) from the start; the model must have one
  --force-ellipsoid        show the force manipulability ellipsoid (forces on the object per unit joint torque,
                           or per unit synergy force with --synergy-ellipsoid) instead, from the start
  --force-ellipsoid-scale MM_PER_N
                           its drawn size [mm per N of semi-axis] (default 1)
  --epsilon                compute Ferrari-Canny epsilon in the metrics box from the start
  --plot TEXT              plot every signal whose label contains TEXT from the start (repeatable), e.g.
                           --plot "q f1_" or --plot "contact normal"
  --width W --height H     window size, or image size with --screenshot (default 1280 x 800)
  --camera NAME            look through the model camera NAME
  --lookat X,Y,Z --azimuth DEG --elevation DEG --distance M
                           free-camera pose (default: framing the hand and the object it grasps)
  --screenshot OUT.png     headless: load, simulate to --time with plugins active, render one frame offscreen
                           (no visible window), write OUT.png, exit 0
  --time T                 simulated time before the headless screenshot [s] (default 0)
  --ui                     draw the panels into the headless screenshot
  --quit-after S           close the window after S wall-clock seconds (scripted demos and tests)
  --help                   this text

keys:
  space        pause / run                 right arrow  one step (pauses)
  backspace    reset (to the keyframe)     ctrl+L, F5   reload the model file (a failing reload keeps the old model)
  - / =        slower / faster (x1/2, x2)  0            real time (speed 1)
  [ / ]        previous / next keyframe    F2 or P      screenshot to mjhand-view-<time>.png
  tab          show / hide the panels      C / F        toggle contact forces / friction cones
  E            toggle the manipulability ellipsoid
  S            ellipsoid through the synergies / with joint inputs (models with a synergy instance)
  K            force / kinematic manipulability ellipsoid
  V            reset the view (frame the hand and the grasped object at the current state)
  ctrl+Q       quit
mouse (like MuJoCo's simulate):
  left drag    rotate camera (shift: about the vertical)   right drag  move camera (shift: horizontally)
  scroll, middle drag  zoom                                 double-click left  select a body
  double-click right   centre the camera on the clicked point
  ctrl + right drag    push the selected body (force)       ctrl + left drag   twist it (torque)
  escape       deselect
No display: run headless under Xvfb, e.g. xvfb-run -a mjhand-view MODEL.xml --screenshot out.png --time 1
)";
}

namespace {
double number(const std::string& flag, const std::string& v, double lo, double hi) {
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno == ERANGE || !std::isfinite(x) || x < lo || x > hi) {
    throw UsageError(flag + ": '" + v + "' is not a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return x;
}
}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--keyframe") {
      o.keyframe = value();
    } else if (a == "--set") {
      o.sets.push_back(value());
    } else if (a == "--object") {
      o.object = value();
    } else if (a == "--palm") {
      o.palm = value();
    } else if (a == "--fingers") {
      o.fingers = value();
    } else if (a == "--finger-tips") {
      o.finger_tips = value();
    } else if (a == "--with-wrist") {
      o.with_wrist = true;
    } else if (a == "--speed") {
      o.speed = number(a, value(), 1e-4, 1e4);
    } else if (a == "--paused") {
      o.paused = true;
    } else if (a == "--cones") {
      o.cones = true;
    } else if (a == "--ellipsoid") {
      o.ellipsoid = true;
    } else if (a == "--synergy-ellipsoid") {
      o.ellipsoid = o.synergy_ellipsoid = true;
    } else if (a == "--force-ellipsoid") {
      o.ellipsoid = o.force_ellipsoid = true;
    } else if (a == "--force-ellipsoid-scale") {
      o.force_ellipsoid_scale = number(a, value(), 1e-6, 1e6);
    } else if (a == "--plot") {
      o.plots.push_back(value());
    } else if (a == "--epsilon") {
      o.epsilon = true;
    } else if (a == "--width") {
      o.width = static_cast<int>(number(a, value(), 16, 8192));
    } else if (a == "--height") {
      o.height = static_cast<int>(number(a, value(), 16, 8192));
    } else if (a == "--camera") {
      o.camera = value();
    } else if (a == "--azimuth") {
      o.azimuth = number(a, value(), -1e4, 1e4);
    } else if (a == "--elevation") {
      o.elevation = number(a, value(), -90, 90);
    } else if (a == "--distance") {
      o.distance = number(a, value(), 1e-6, 1e6);
    } else if (a == "--lookat") {
      const std::string v = value();
      size_t start = 0;
      while (start <= v.size()) {
        const size_t comma = std::min(v.find(',', start), v.size());
        o.lookat.push_back(number(a, v.substr(start, comma - start), -1e6, 1e6));
        start = comma + 1;
      }
      if (o.lookat.size() != 3) throw UsageError("--lookat: expected X,Y,Z, got '" + v + "'");
    } else if (a == "--screenshot") {
      o.screenshot = value();
    } else if (a == "--time") {
      o.time = number(a, value(), 0, 1e6);
    } else if (a == "--quit-after") {
      o.quit_after = number(a, value(), 0, 1e6);
    } else if (a == "--ui") {
      o.ui = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown flag '" + a + "' (see --help)");
    } else if (o.model.empty()) {
      o.model = a;
    } else {
      throw UsageError("more than one model given ('" + o.model + "' and '" + a + "')");
    }
  }
  if (!o.help && o.model.empty()) throw UsageError("no MODEL.xml given (see --help)");
  if (o.screenshot.empty() && (o.ui || o.time > 0)) throw UsageError("--time and --ui belong to --screenshot");
  return o;
}

}  // namespace mjhand::view
