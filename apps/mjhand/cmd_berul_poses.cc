// mjhand berul-poses: fingertip positions of the BERUL hand for actuator sensor values M (the paper's Fig. 7).
#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <memory>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "args.h"
#include "commands.h"
#include <mjhand/coupling/berul.h>
#include <mjhand/io/model_io.h>

#if __has_include("render/offscreen_renderer.h")  // built with MJHAND_BUILD_VIEWER: the offscreen renderer is linked
#define MJHAND_HAVE_RENDER 1
#include "render/offscreen_renderer.h"
#endif

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand berul-poses [--model MODEL.xml] [--out DIR] [--signals M1,M2,...] [--gain G] [--offset O]\n\n"
      "Sets every finger of a generated BERUL hand to theta_1 = G M + O (the thumb's sensor mapping,\n"
      "-0.2924 M - 0.0419), theta_2, theta_3 from the couplings (eqs 4-5), and writes the fingertip positions\n"
      "(MuJoCo's tip sites, with mjhand's DH FK alongside) to DIR/berul_poses.csv: Fig. 7 of the paper.\n\n"
      "options:\n"
      "  --model MODEL.xml   default models/berul_hand.xml\n"
      "  --out DIR           default out/berul_poses\n"
      "  --signals LIST      sensor values M [rad], default 0,-0.2,-0.4,-0.6\n"
      "  --gain G, --offset O   the linear sensor model theta_1 = G M + O (default -0.2924, -0.0419)\n"
      "  --images            also render each pose to DIR/fig7_M<value>.png (offscreen; needs a display or\n"
      "                      xvfb-run -a, and a build with the viewer)\n"
      "  -h, --help          show this help\n");
}

// One PNG per sensor value: the whole hand seen from the side, as in Fig. 7.
void render_poses(const mjModel* m, const std::vector<BerulPose>& poses, const std::string& out) {
#ifdef MJHAND_HAVE_RENDER
  render::OffscreenRenderer renderer(m, 800, 600);
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);
  // From the side, along the flexion axes, slightly above the palm: the curl of every finger shows (Fig. 7's view).
  const std::array<double, 3> centre = {m->stat.center[0], m->stat.center[1], m->stat.center[2]};
  const render::CameraView view = render::CameraView::free(centre, 1.6 * m->stat.extent, 90.0, -15.0);
  render::RgbImage img;
  double last = std::numeric_limits<double>::quiet_NaN();
  for (const BerulPose& p : poses) {
    if (p.signal == last) continue;  // every finger of one M shares the same whole-hand qpos
    last = p.signal;
    std::copy(p.qpos.begin(), p.qpos.end(), d->qpos);
    mj_forward(m, d.get());
    renderer.render(d.get(), view, img);
    char name[64];
    std::snprintf(name, sizeof(name), "/fig7_M%+.3f.png", p.signal);
    render::write_png(out + name, img);
    std::printf("wrote %s%s\n", out.c_str(), name);
  }
#else
  (void)m, (void)poses, (void)out;
  throw std::runtime_error("--images: this mjhand was built without MJHAND_BUILD_VIEWER (no offscreen renderer)");
#endif
}
}  // namespace

int cmd_berul_poses(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  const ArgReader reader(args, {"--model", "--out", "--signals", "--gain", "--offset"}, {"--images"});
  if (!reader.positional().empty()) throw UsageError("unexpected argument " + reader.positional()[0]);
  LinearSensorModel sensor = kBerulThumbSensor;
  sensor.gain = reader.get_double("--gain", sensor.gain, -1e6, 1e6);
  sensor.offset = reader.get_double("--offset", sensor.offset, -1e6, 1e6);
  if (sensor.gain == 0.0) throw UsageError("--gain must be nonzero");
  const std::vector<double> signals = parse_number_list("--signals", reader.get("--signals", "0,-0.2,-0.4,-0.6"));
  if (signals.empty()) throw UsageError("--signals: empty list");
  const std::string model_path = resolve_model(reader.get("--model", "berul_hand.xml"));
  const std::string out = reader.get("--out", "out/berul_poses");

  const ModelPtr m = load_model(model_path);
  const std::vector<BerulPose> poses = berul_poses(m.get(), signals, sensor);
  std::filesystem::create_directories(out);
  const std::string csv = out + "/berul_poses.csv";
  std::ofstream f(csv);
  if (!f) throw std::runtime_error(csv + ": cannot write");
  f << "finger,M,theta1,theta2,theta3,tip_x,tip_y,tip_z,dh_tip_x,dh_tip_y,dh_tip_z\n";
  f.precision(10);
  double worst = 0.0;
  for (const BerulPose& p : poses) {
    f << p.finger << "," << p.signal << "," << p.theta[0] << "," << p.theta[1] << "," << p.theta[2] << ","
      << p.tip.x() << "," << p.tip.y() << "," << p.tip.z() << "," << p.dh_tip.x() << "," << p.dh_tip.y() << ","
      << p.dh_tip.z() << "\n";
    worst = std::max(worst, (p.tip - p.dh_tip).norm());
  }
  if (!f.flush()) throw std::runtime_error(csv + ": write failed");
  std::printf("wrote %s: %zu poses (%zu signals x %zu fingers); max |MuJoCo tip - DH FK tip| = %.3g m\n", csv.c_str(),
              poses.size(), signals.size(), poses.size() / signals.size(), worst);
  for (const BerulPose& p : poses) {
    std::printf("  M=%6.3f %-7s theta=(%.4f, %.4f, %.4f) tip=(%.4f, %.4f, %.4f)\n", p.signal, p.finger.c_str(),
                p.theta[0], p.theta[1], p.theta[2], p.tip.x(), p.tip.y(), p.tip.z());
  }
  if (reader.flag("--images")) render_poses(m.get(), poses, out);
  return 0;
}

}  // namespace mjhand::cli
