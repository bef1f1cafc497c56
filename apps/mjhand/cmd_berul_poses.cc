// mjhand berul-poses: fingertip positions of the BERUL hand for actuator sensor values M (the paper's Fig. 7).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "args.h"
#include "commands.h"
#include "coupling/berul.h"
#include "io/model_io.h"

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
      "  -h, --help          show this help\n");
}

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || !std::isfinite(v)) {
      throw UsageError("--signals: '" + item + "' is not a number");
    }
    out.push_back(v);
  }
  if (out.empty()) throw UsageError("--signals: empty list");
  return out;
}
}  // namespace

int cmd_berul_poses(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  const ArgReader reader(args, {"--model", "--out", "--signals", "--gain", "--offset"}, {});
  if (!reader.positional().empty()) throw UsageError("unexpected argument " + reader.positional()[0]);
  LinearSensorModel sensor = kBerulThumbSensor;
  sensor.gain = reader.get_double("--gain", sensor.gain, -1e6, 1e6);
  sensor.offset = reader.get_double("--offset", sensor.offset, -1e6, 1e6);
  if (sensor.gain == 0.0) throw UsageError("--gain must be nonzero");
  const std::vector<double> signals = parse_list(reader.get("--signals", "0,-0.2,-0.4,-0.6"));
  const std::string model_path = reader.get("--model", "models/berul_hand.xml");
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
  return 0;
}

}  // namespace mjhand::cli
