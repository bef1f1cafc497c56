#include "vision/marker_sweep.h"

#include <cmath>
#include <memory>
#include <stdexcept>

#include "render/offscreen_renderer.h"
#include "vision/model_coupling.h"

namespace mjhand::vision {

std::vector<SweepFrame> run_marker_sweep(const mjModel* m, const SweepOptions& opt, const FrameSink& sink) {
  if (opt.frames < 2 || opt.frames > 10000) throw std::invalid_argument("sweep: frames must be in 2..10000");
  if (!(opt.settle > 0.0 && opt.settle < 100.0)) throw std::invalid_argument("sweep: settle must be in (0, 100) s");
  const MarkerFinger f = find_marker_finger(m, opt.finger);
  if (mj_name2id(m, mjOBJ_CAMERA, opt.camera.c_str()) < 0) {
    throw std::invalid_argument("sweep: camera '" + opt.camera + "' is not in the model");
  }
  double lo = opt.q_lo, hi = opt.q_hi;
  if (lo == hi) {
    if (!m->actuator_ctrllimited[f.actuator]) throw std::invalid_argument("sweep: give q_lo/q_hi (actuator unlimited)");
    const double a = m->actuator_ctrlrange[2 * f.actuator], b = m->actuator_ctrlrange[2 * f.actuator + 1];
    lo = a + 0.05 * (b - a);
    hi = b - 0.05 * (b - a);
  }
  int occluder_mocap = -1;
  std::vector<std::pair<int, int>> occl_geom;  // frame, geom id
  if (!opt.occlusions.empty()) {
    const int body = mj_name2id(m, mjOBJ_BODY, "occluder");
    if (body < 0 || m->body_mocapid[body] < 0) {
      throw std::runtime_error("sweep: occlusion asked for, but the model has no mocap body 'occluder'");
    }
    occluder_mocap = m->body_mocapid[body];
    for (const auto& [frame, marker] : opt.occlusions) {
      if (marker < 0 || marker > 4) throw std::invalid_argument("sweep: occluded marker index must be 0..4");
      const std::string geom = "marker_" + opt.markers.rules[marker].name;
      const int g = mj_name2id(m, mjOBJ_GEOM, geom.c_str());
      if (g < 0) throw std::runtime_error("sweep: occlusion of '" + geom + "': no such geom in the model");
      occl_geom.emplace_back(frame, g);
    }
  }
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);
  render::OffscreenRenderer renderer(m, opt.width, opt.height);
  const render::CameraView view = render::CameraView::named(opt.camera);
  render::RgbImage img;
  BlobFinder finder;
  std::vector<SweepFrame> out;
  const int steps = static_cast<int>(opt.settle / m->opt.timestep + 0.5);
  double park[3] = {0, 0, 0};
  if (occluder_mocap >= 0) {
    for (int i = 0; i < 3; ++i) park[i] = d->mocap_pos[3 * occluder_mocap + i];
  }
  for (int i = 0; i < opt.frames; ++i) {
    SweepFrame fr;
    fr.index = i;
    fr.command = lo + (hi - lo) * i / (opt.frames - 1);
    d->ctrl[f.actuator] = fr.command;
    for (int s = 0; s < steps; ++s) mj_step(m, d.get());
    if (occluder_mocap >= 0) {
      mj_kinematics(m, d.get());
      double* mp = d->mocap_pos + 3 * occluder_mocap;
      for (int k = 0; k < 3; ++k) mp[k] = park[k];
      for (const auto& [frame, g] : occl_geom) {
        if (frame != i) continue;
        // Toward the camera: the geom's own normal (disc axis = its z) may point either way, so use the camera.
        const int cam = mj_name2id(m, mjOBJ_CAMERA, opt.camera.c_str());
        for (int k = 0; k < 3; ++k) mp[k] = d->geom_xpos[3 * g + k];
        if (cam >= 0) {
          double dir[3], n = 0;
          for (int k = 0; k < 3; ++k) {
            dir[k] = d->cam_xpos[3 * cam + k] - mp[k];
            n += dir[k] * dir[k];
          }
          n = std::sqrt(n);
          for (int k = 0; k < 3; ++k) mp[k] += 0.005 * dir[k] / n;
        }
      }
    }
    mj_forward(m, d.get());
    fr.truth = finger_angles(f, d.get());
    renderer.render(d.get(), view, img);
    fr.measured = measure_markers(img, opt.markers, finder);
    if (sink) sink(fr, img);
    out.push_back(fr);
  }
  return out;
}

}  // namespace mjhand::vision
