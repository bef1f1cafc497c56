// Offscreen rendering of a MuJoCo model state to an RGB buffer with MuJoCo's own renderer (mjv_/mjr_ in
// MuJoCo 2.2.2): a hidden GLFW window supplies the OpenGL context, mjr_setBuffer(mjFB_OFFSCREEN) draws into
// MuJoCo's offscreen framebuffer, mjr_readPixels reads it back and the rows are flipped to top-first.
//
//   mjhand::render::OffscreenRenderer r(m, 640, 480);
//   mjhand::render::RgbImage img;
//   r.render(d, mjhand::render::CameraView::named("tip_cam"), img);
//   mjhand::render::write_png("tip.png", img);
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <functional>
#include <memory>
#include <string>

#include "render/gl_context.h"
#include "render/image.h"

namespace mjhand::render {

// Where to look from: a camera declared in the MJCF (by name), or a free camera orbiting a point like MuJoCo's
// viewers (angles in degrees at this edge, as mjvCamera and simulate show them).
struct CameraView {
  std::string name;                     // non-empty: the MJCF <camera name=...>
  std::array<double, 3> lookat{0, 0, 0};  // free camera: orbit centre [m, world]
  double distance = 1.0;                // [m]
  double azimuth_deg = 90.0;            // about world z, 0 = looking along +x
  double elevation_deg = -45.0;         // negative looks down

  // A named MJCF camera.
  static CameraView named(const std::string& camera_name);
  // A free camera around lookat.
  static CameraView free(const std::array<double, 3>& lookat, double distance, double azimuth_deg, double elevation_deg);
  // The free camera simulate starts with: looking at the model's centre (m->stat.center) from 1.5 x its extent.
  static CameraView model_default(const mjModel* m);
};

// Fills an mjvCamera from a view; throws std::invalid_argument listing the model's cameras for an unknown name,
// or naming the field for a non-finite / non-positive free-camera value.
void apply_camera(const mjModel* m, const CameraView& view, mjvCamera& cam);

// Called while rendering: add_geoms after mjv_updateScene (append geoms to the scene, e.g. overlays), draw_2d
// after mjr_render with the offscreen framebuffer still bound (text, 2-D panels).
struct RenderHooks {
  std::function<void(mjvScene&)> add_geoms;
  std::function<void(const mjrRect&)> draw_2d;
};

class OffscreenRenderer {
 public:
  // Creates a hidden GL context and MuJoCo's render context for m with an offscreen buffer of width x height
  // (enlarged past m->vis.global.offwidth/offheight when needed, without touching m). Throws std::runtime_error
  // (no display / GL failure) or std::invalid_argument (size <= 0 or > 16384). m must outlive the renderer.
  OffscreenRenderer(const mjModel* m, int width, int height, int max_geom = 20000);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  // Renders d's current state (call mj_forward first) as seen from `view` into out (resized to width x height;
  // reuses its buffer). d is not modified; mjv_updateScene takes it non-const in MuJoCo 2.2.2.
  void render(mjData* d, const CameraView& view, RgbImage& out, const RenderHooks* hooks = nullptr);
  // The same from an mjvCamera the caller manages (e.g. a viewer's mouse-driven camera).
  void render(mjData* d, const mjvCamera& cam, RgbImage& out, const RenderHooks* hooks = nullptr);

  int width() const { return width_; }
  int height() const { return height_; }
  // Visualisation flags (contacts, frames, ...) and the scene/context, for callers that want MuJoCo's own options.
  mjvOption& option() { return opt_; }
  mjvScene& scene() { return scn_; }
  mjrContext& context() { return con_; }
  // The hidden window that owns the GL context (e.g. for a UI library that needs a GLFW window).
  GLFWwindow* window() const { return gl_->window(); }
  // Makes this renderer's GL context current (needed when several contexts live in one thread).
  void make_current() const { gl_->make_current(); }

 private:
  const mjModel* m_;
  int width_, height_;
  std::unique_ptr<HiddenGlContext> gl_;
  mjvOption opt_;
  mjvScene scn_;
  mjrContext con_;
  std::vector<unsigned char> raw_;  // bottom-first rows from mjr_readPixels
};

}  // namespace mjhand::render
