// --screenshot: simulate to --time with the plugins active, render one frame offscreen (hidden window, MuJoCo's
// offscreen buffer, overlays, metrics text or with --ui the panels), write the PNG.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "app.h"
#include "render/image.h"
#include "render/offscreen_renderer.h"

namespace mjhand::view {

int App::run_headless() {
  Session& s = *ui_.session;
  const mjModel* m = s.m();
  mjData* d = s.d();
  s.paused = false;
  const double t_end = d->time + opt_.time;
  while (d->time < t_end - 0.5 * m->opt.timestep) {
    s.step_once();
    ui_.plots.sample(m, d);  // the plots show the last 600 steps
    for (int i = 0; i < m->nq; ++i) {
      if (!std::isfinite(d->qpos[i])) {
        throw std::runtime_error(opt_.model + ": the simulation diverged at t = " + std::to_string(d->time) + " s");
      }
    }
  }
  for (const std::string& line : s.log) std::fprintf(stderr, "mjhand-view: %s\n", line.c_str());
  mj_forward(m, d);
  ui_.grasp->update(m, d, &s.instances(), ui_.epsilon);

  render::OffscreenRenderer r(m, opt_.width, opt_.height);
  init_camera();
  if (opt_.ui) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(r.window(), false);
    ImGui_ImplOpenGL3_Init("#version 130");
    imgui_ready_ = true;
  }
  std::string metrics = ui_.grasp->text();
  if (const std::string e = ellipsoid_text(ui_.grasp->metrics(), ui_.overlays, m); !e.empty()) metrics += "\n" + e;
  render::RenderHooks hooks;
  hooks.add_geoms = [&](mjvScene& scn) {
    add_overlays(m, d, ui_.overlays, scn);
    add_ellipsoid_overlay(m, ui_.grasp->metrics(), ui_.overlays, scn);
  };
  hooks.draw_2d = [&](const mjrRect& viewport) {
    char time_text[64];
    std::snprintf(time_text, sizeof time_text, "t = %.3f s", d->time);
    if (!opt_.ui) {
      mjr_overlay(mjFONT_NORMAL, mjGRID_TOPRIGHT, viewport, metrics.c_str(), nullptr, &r.context());
      mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMLEFT, viewport, time_text, nullptr, &r.context());
      return;
    }
    // Auto-sized ImGui windows settle over a few frames; only the last one is drawn.
    ImGuiIO& io = ImGui::GetIO();
    for (int pass = 0; pass < 3; ++pass) {
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      io.DisplaySize = ImVec2(static_cast<float>(viewport.width), static_cast<float>(viewport.height));
      io.DisplayFramebufferScale = ImVec2(1, 1);
      ImGui::NewFrame();
      draw_all_panels(ui_, io.DisplaySize.x, io.DisplaySize.y);
      ImGui::Render();
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  };
  render::RgbImage img;
  r.render(d, cam_, img, &hooks);
  if (opt_.ui) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    imgui_ready_ = false;
  }
  render::write_png(opt_.screenshot, img);
  std::printf("wrote %s (%d x %d, t = %.4f s)\n", opt_.screenshot.c_str(), img.width, img.height, d->time);
  return 0;
}

}  // namespace mjhand::view
