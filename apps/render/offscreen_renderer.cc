#include "render/offscreen_renderer.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace mjhand::render {

CameraView CameraView::named(const std::string& camera_name) {
  CameraView v;
  v.name = camera_name;
  return v;
}

CameraView CameraView::free(const std::array<double, 3>& lookat, double distance, double azimuth_deg,
                            double elevation_deg) {
  CameraView v;
  v.lookat = lookat;
  v.distance = distance;
  v.azimuth_deg = azimuth_deg;
  v.elevation_deg = elevation_deg;
  return v;
}

CameraView CameraView::model_default(const mjModel* m) {
  CameraView v;
  for (int i = 0; i < 3; ++i) v.lookat[i] = m->stat.center[i];
  v.distance = 1.5 * (m->stat.extent > 0 ? m->stat.extent : 1.0);
  v.azimuth_deg = m->vis.global.azimuth;
  v.elevation_deg = m->vis.global.elevation;
  return v;
}

void apply_camera(const mjModel* m, const CameraView& view, mjvCamera& cam) {
  mjv_defaultCamera(&cam);
  if (!view.name.empty()) {
    const int id = mj_name2id(m, mjOBJ_CAMERA, view.name.c_str());
    if (id < 0) {
      std::string known;
      for (int i = 0; i < m->ncam; ++i) {
        const char* n = mj_id2name(m, mjOBJ_CAMERA, i);
        known += std::string(known.empty() ? "" : ", ") + (n && *n ? n : "#" + std::to_string(i));
      }
      throw std::invalid_argument("camera '" + view.name + "' is not in the model (cameras: " +
                                  (known.empty() ? "none" : known) + ")");
    }
    cam.type = mjCAMERA_FIXED;
    cam.fixedcamid = id;
    return;
  }
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(view.lookat[i])) throw std::invalid_argument("free camera: lookat is not finite");
  }
  if (!(view.distance > 0) || !std::isfinite(view.distance)) {
    throw std::invalid_argument("free camera: distance must be a positive number of metres");
  }
  if (!std::isfinite(view.azimuth_deg) || !std::isfinite(view.elevation_deg)) {
    throw std::invalid_argument("free camera: azimuth and elevation must be finite");
  }
  cam.type = mjCAMERA_FREE;
  for (int i = 0; i < 3; ++i) cam.lookat[i] = view.lookat[i];
  cam.distance = view.distance;
  cam.azimuth = view.azimuth_deg;
  cam.elevation = view.elevation_deg;
}

OffscreenRenderer::OffscreenRenderer(const mjModel* m, int width, int height, int max_geom)
    : m_(m), width_(width), height_(height) {
  if (!m) throw std::invalid_argument("OffscreenRenderer: no model");
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
    throw std::invalid_argument("OffscreenRenderer: size " + std::to_string(width) + " x " + std::to_string(height) +
                                " is not in 1..16384");
  }
  gl_ = std::make_unique<HiddenGlContext>();
  mjv_defaultOption(&opt_);
  mjv_defaultScene(&scn_);
  mjr_defaultContext(&con_);
  mjv_makeScene(m, &scn_, max_geom);
  // mjr_makeContext sizes the offscreen buffer from m->vis.global.offwidth/offheight. A shallow copy of the
  // struct (same arrays, never freed) carries the larger size without modifying the caller's model.
  mjModel sized = *m;
  if (sized.vis.global.offwidth < width) sized.vis.global.offwidth = width;
  if (sized.vis.global.offheight < height) sized.vis.global.offheight = height;
  mjr_makeContext(&sized, &con_, mjFONTSCALE_150);
  if (con_.offWidth < width || con_.offHeight < height) {
    mjr_freeContext(&con_);
    mjv_freeScene(&scn_);
    throw std::runtime_error("OffscreenRenderer: the GL driver gave a " + std::to_string(con_.offWidth) + " x " +
                             std::to_string(con_.offHeight) + " offscreen buffer, smaller than requested");
  }
  raw_.resize(static_cast<size_t>(3) * width * height);
}

OffscreenRenderer::~OffscreenRenderer() {
  gl_->make_current();
  mjr_freeContext(&con_);
  mjv_freeScene(&scn_);
}

void OffscreenRenderer::render(mjData* d, const CameraView& view, RgbImage& out, const RenderHooks* hooks) {
  mjvCamera cam;
  apply_camera(m_, view, cam);
  render(d, cam, out, hooks);
}

void OffscreenRenderer::render(mjData* d, const mjvCamera& cam_in, RgbImage& out, const RenderHooks* hooks) {
  gl_->make_current();
  mjvCamera cam = cam_in;  // mjv_updateScene may adjust a tracking camera
  mjv_updateScene(m_, d, &opt_, nullptr, &cam, mjCAT_ALL, &scn_);
  if (hooks && hooks->add_geoms) hooks->add_geoms(scn_);
  const mjrRect viewport = {0, 0, width_, height_};
  mjr_setBuffer(mjFB_OFFSCREEN, &con_);
  mjr_render(viewport, &scn_, &con_);
  if (hooks && hooks->draw_2d) hooks->draw_2d(viewport);
  mjr_readPixels(raw_.data(), nullptr, viewport, &con_);
  // OpenGL's first row is the bottom one; images are stored top row first.
  out.resize(width_, height_);
  const size_t row = static_cast<size_t>(3) * width_;
  for (int y = 0; y < height_; ++y) {
    std::memcpy(out.rgb.data() + row * y, raw_.data() + row * (height_ - 1 - y), row);
  }
}

}  // namespace mjhand::render
