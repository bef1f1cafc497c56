// mjhand identify-coupling: the BERUL paper's RoboRealm pipeline on rendered images of a simulated finger: sweep
// the actuated joint, render each steady state, find the five colour markers, eq (1) angles, least-squares laws,
// Fig. 6-style plot (docs/coupling-from-images.md). Needs mjhand_vision, i.e. a build with MJHAND_BUILD_VIEWER.
#include <cstdio>
#include <string>

#include "args.h"
#include "commands.h"

#if __has_include("vision/marker_sweep.h")

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include <mjhand/io/model_io.h>
#include "gnuplot.h"
#include "render/gl_context.h"
#include "vision/coupling_identify.h"
#include "vision/marker_sweep.h"
#include "vision/model_coupling.h"

namespace mjhand::cli {

namespace {
namespace fs = std::filesystem;

void print_help() {
  std::printf(
      "usage: mjhand identify-coupling [--model MODEL.xml] [--frames N] --out DIR [options]\n\n"
      "Drives the finger's actuated joint to N steady states (the couplings act through the model's joint\n"
      "equalities), renders each from the fixed marker camera, segments the five colour markers (green, red,\n"
      "blue, magenta, yellow), takes each patch's centre of gravity, computes theta_1..3 with eq (1)\n"
      "(180 deg - captured angle) and fits theta_2(theta_1) and theta_3(theta_2) by least squares.\n"
      "Frames with a missing marker are reported and skipped. Needs a display (run under xvfb-run -a headless).\n\n"
      "writes DIR/frames/frame_NNN.png, DIR/angles.csv (per frame: centres, measured and MuJoCo angles, status),\n"
      "DIR/coupling.txt (fitted and model laws, R^2, residuals) and DIR/fig6.png (gnuplot, like the paper's Fig. 6)\n\n"
      "options:\n"
      "  --model MODEL.xml     default models/berul_finger_markers.xml\n"
      "  --frames N            steady states in the sweep (default 20)\n"
      "  --out DIR             output folder (required)\n"
      "  --finger NAME         the chain to drive when the model has several (default: the only one)\n"
      "  --camera NAME         default marker_cam\n"
      "  --width W --height H  image size [px] (default 640 x 480)\n"
      "  --q-lo Q --q-hi Q     joint-1 servo targets [rad] (default: actuator range less 5 %% per side)\n"
      "  --settle S            simulated seconds before each frame (default 0.4)\n"
      "  --min-area PX         smallest marker patch accepted (default 30)\n"
      "  --order N             polynomial order of the fits, 1..4 (default 1, the paper's lines)\n"
      "  --occlude F:COLOUR    hide marker COLOUR in frame F behind the model's 'occluder' body (repeatable)\n"
      "  --no-images           do not write the frame PNGs\n"
      "  --no-plot             skip the gnuplot figure\n"
      "Exit status: 0 done, 1 error (no display, too few usable frames, gnuplot missing; CSV written first), 2 bad "
      "command\n");
}

int marker_index(const vision::MarkerOptions& opt, const std::string& colour) {
  for (int k = 0; k < 5; ++k) {
    if (opt.rules[k].name == colour) return k;
  }
  throw UsageError("--occlude: unknown colour '" + colour + "' (green, red, blue, magenta, yellow)");
}

std::pair<int, int> parse_occlusion(const std::string& text, const vision::MarkerOptions& opt, int frames) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) throw UsageError("--occlude: '" + text + "' is not FRAME:COLOUR");
  int frame = -1;
  try {
    size_t used = 0;
    frame = std::stoi(text.substr(0, colon), &used);
    if (used != colon) frame = -1;
  } catch (const std::exception&) {
    frame = -1;
  }
  if (frame < 0 || frame >= frames) {
    throw UsageError("--occlude: frame in '" + text + "' must be a number in 0.." + std::to_string(frames - 1));
  }
  return {frame, marker_index(opt, text.substr(colon + 1))};
}

// Two panels like Fig. 6: measured points and the fitted line, theta_2 vs theta_1 and theta_3 vs theta_2, in deg.
std::string plot_fig6(const std::string& dir, const vision::IdentifiedCoupling& id) {
  require_gnuplot(" (CSV already written)");
  const std::string abs = fs::absolute(dir).lexically_normal().string();
  // The paths are written into the script between single quotes, which gnuplot's syntax cannot escape.
  if (abs.find('\'') != std::string::npos) throw std::runtime_error("output folder '" + abs + "' contains a quote");
  auto poly = [](const CouplingLaw& law) {
    // The law in degrees: y_deg = (180/pi) law(x_deg pi/180).
    std::ostringstream s;
    s.precision(12);
    s << "(180/pi)*(";
    for (int k = 0; k <= kMaxCouplingOrder; ++k) s << (k ? "+" : "") << law.c[k] << "*(x*pi/180)**" << k;
    s << ")";
    return s.str();
  };
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1100,480\nset output '" << abs << "/fig6.png.tmp'\n"
     << "set datafile separator ','\nset multiplot layout 1,2\nset grid\nset key top left\n"
     << "set title 'theta_2 vs theta_1 (from images)'\nset xlabel 'theta_1 [deg]'\nset ylabel 'theta_2 [deg]'\n"
     << "plot '" << abs << "/angles.csv' every ::1 using ($3==0?$20*180/pi:1/0):($3==0?$21*180/pi:1/0) "
     << "with points pt 7 title 'measured', " << poly(id.theta2_of_theta1.law) << " with lines lw 2 title 'fit'\n"
     << "set title 'theta_3 vs theta_2 (from images)'\nset xlabel 'theta_2 [deg]'\nset ylabel 'theta_3 [deg]'\n"
     << "plot '" << abs << "/angles.csv' every ::1 using ($3==0?$21*180/pi:1/0):($3==0?$22*180/pi:1/0) "
     << "with points pt 7 title 'measured', " << poly(id.theta3_of_theta2.law) << " with lines lw 2 title 'fit'\n"
     << "unset multiplot\n";
  const std::string script = abs + "/fig6.gp";
  write_file_atomically(script, gp.str());
  run_gnuplot(script, abs + "/gnuplot.log", " (CSV already written)");
  fs::rename(abs + "/fig6.png.tmp", abs + "/fig6.png");
  return abs + "/fig6.png";
}

std::string fit_report(const char* what, const CouplingFit& fit, const CouplingLaw& model) {
  std::ostringstream s;
  s.precision(6);
  s << what << "\n  fitted: " << format_law(fit.law, "x", "y") << "   (R^2 " << fit.r2 << ", residual rms " << fit.rms
    << " rad, max " << fit.max_abs << " rad, " << fit.points << " points)\n  model:  " << format_law(model, "x", "y")
    << "\n  slope error " << 100.0 * (fit.law.c[1] - model.c[1]) / model.c[1] << " %, offset error "
    << fit.law.c[0] - model.c[0] << " rad\n";
  return s.str();
}
}  // namespace

int cmd_identify_coupling(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  const ArgReader reader(args,
                         {"--model", "--frames", "--out", "--finger", "--camera", "--width", "--height", "--q-lo",
                          "--q-hi", "--settle", "--min-area", "--order", "--occlude"},
                         {"--no-images", "--no-plot"}, {"--occlude"});
  if (!reader.positional().empty()) throw UsageError("unexpected argument " + reader.positional()[0]);
  if (!reader.has("--out")) throw UsageError("--out DIR is required");
  vision::SweepOptions opt;
  opt.frames = reader.get_int("--frames", 20, 2, 10000);
  opt.finger = reader.get("--finger", "");
  opt.camera = reader.get("--camera", "marker_cam");
  opt.width = reader.get_int("--width", 640, 16, 8192);
  opt.height = reader.get_int("--height", 480, 16, 8192);
  opt.q_lo = reader.get_double("--q-lo", 0.0, -10.0, 10.0);
  opt.q_hi = reader.get_double("--q-hi", 0.0, -10.0, 10.0);
  if (reader.has("--q-lo") != reader.has("--q-hi")) throw UsageError("give both --q-lo and --q-hi, or neither");
  if (reader.has("--q-lo") && !(opt.q_lo < opt.q_hi)) throw UsageError("--q-lo must be below --q-hi");
  opt.settle = reader.get_double("--settle", 0.4, 1e-3, 60.0);
  opt.markers.min_area = reader.get_int("--min-area", 30, 1, 1 << 24);
  const int order = reader.get_int("--order", 1, 1, 4);
  for (const std::string& o : reader.all("--occlude")) opt.occlusions.push_back(parse_occlusion(o, opt.markers, opt.frames));
  const std::string out = reader.get("--out", "");
  const bool images = !reader.flag("--no-images");
  const std::string model_path = resolve_model(reader.get("--model", "berul_finger_markers.xml"));

  if (!render::display_available()) {
    throw std::runtime_error("no display for the offscreen renderer: run headless as `xvfb-run -a mjhand "
                             "identify-coupling ...`");
  }
  const ModelPtr m = load_model(model_path);
  const vision::MarkerFinger finger = vision::find_marker_finger(m.get(), opt.finger);
  const CouplingLaw model21 = vision::equality_law(m.get(), finger, 0), model32 = vision::equality_law(m.get(), finger, 1);
  fs::create_directories(out);
  if (images) fs::create_directories(out + "/frames");

  vision::FrameSink sink;
  if (images) {
    sink = [&](const vision::SweepFrame& f, const render::RgbImage& img) {
      char name[32];
      std::snprintf(name, sizeof name, "/frames/frame_%03d.png", f.index);
      render::write_png(out + name, img);
    };
  }
  const std::vector<vision::SweepFrame> frames = vision::run_marker_sweep(m.get(), opt, sink);

  std::ostringstream csv;
  csv.precision(10);
  csv << "frame,command,status,missing";
  for (const auto& r : opt.markers.rules) csv << "," << r.name << "_x," << r.name << "_y," << r.name << "_area";
  csv << ",theta1,theta2,theta3,mj_theta1,mj_theta2,mj_theta3\n";  // 1-based: 3 status, 20-22 measured
  double worst = 0.0;
  for (const vision::SweepFrame& f : frames) {
    const auto& me = f.measured;
    std::string problem = me.problem;  // no commas inside a field: gnuplot reads the file too
    for (char& c : problem) c = c == ',' ? ';' : c;
    csv << f.index << "," << f.command << "," << (me.ok ? 0 : 1) << "," << problem;
    for (int k = 0; k < 5; ++k) {
      if (me.found[k]) {
        csv << "," << me.blob[k].cx << "," << me.blob[k].cy << "," << me.blob[k].area;
      } else {
        csv << ",,," << me.largest_area[k];
      }
    }
    for (int k = 0; k < 3; ++k) {
      csv << ",";
      if (me.ok) csv << me.theta[k];
    }
    for (int k = 0; k < 3; ++k) csv << "," << f.truth[k];
    csv << "\n";
    if (!me.ok) {
      std::printf("frame %d (q1 target %.4f rad): skipped, %s\n", f.index, f.command, me.problem.c_str());
    } else {
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(me.theta[k] - f.truth[k]));
    }
  }
  write_file_atomically(out + "/angles.csv", csv.str());
  std::printf("wrote %s/angles.csv (%zu frames)%s\n", out.c_str(), frames.size(),
              images ? (", frame PNGs in " + out + "/frames").c_str() : "");

  const vision::IdentifiedCoupling id = vision::identify_coupling(frames, order);
  std::ostringstream rep;
  rep << "coupling identified from " << id.used.size() << " of " << frames.size() << " rendered frames ("
      << id.skipped.size() << " skipped for missing markers)\n"
      << "largest |image angle - MuJoCo angle| over used frames: " << worst << " rad\n"
      << fit_report("theta_2 (y) vs theta_1 (x):", id.theta2_of_theta1, model21)
      << fit_report("theta_3 (y) vs theta_2 (x):", id.theta3_of_theta2, model32);
  write_file_atomically(out + "/coupling.txt", rep.str());
  std::printf("%s", rep.str().c_str());
  if (!reader.flag("--no-plot")) std::printf("wrote %s\n", plot_fig6(out, id).c_str());
  return 0;
}

}  // namespace mjhand::cli

#else  // built without MJHAND_BUILD_VIEWER: no renderer, no vision library

namespace mjhand::cli {

int cmd_identify_coupling(const Args& args) {
  if (wants_help(args)) {
    std::printf("usage: mjhand identify-coupling ... (this mjhand was built without MJHAND_BUILD_VIEWER: no renderer)\n");
    return 0;
  }
  std::fprintf(stderr, "identify-coupling: this mjhand was built without MJHAND_BUILD_VIEWER (no offscreen renderer)\n");
  return 1;
}

}  // namespace mjhand::cli

#endif
