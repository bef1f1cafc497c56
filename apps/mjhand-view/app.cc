// The interactive window: GLFW + MuJoCo's renderer for the scene, Dear ImGui for the panels, simulation stepped in
// real time in the render loop (one thread: plugins, UI edits and rendering never race).
#include "app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <mjhand/synergy/synergy_plugin.h>

#include "camera_framing.h"
#include "render/gl_context.h"
#include "render/image.h"
#include "render/offscreen_renderer.h"

namespace mjhand::view {

namespace {
App* app_of(GLFWwindow* w) { return static_cast<App*>(glfwGetWindowUserPointer(w)); }

void key_cb(GLFWwindow* w, int key, int, int action, int mods) {
  if (action == GLFW_RELEASE || ImGui::GetIO().WantCaptureKeyboard) return;
  app_of(w)->on_key(key, mods);
}
void button_cb(GLFWwindow* w, int button, int action, int mods) {
  if (action == GLFW_PRESS && ImGui::GetIO().WantCaptureMouse) return;
  app_of(w)->on_mouse_button(button, action, mods);
}
void cursor_cb(GLFWwindow* w, double x, double y) { app_of(w)->on_cursor(x, y); }
void scroll_cb(GLFWwindow* w, double, double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  app_of(w)->on_scroll(dy);
}
}  // namespace

App::App(const Options& options) : opt_(options) {
  ui_.session = std::make_unique<Session>(opt_.model);
  Session& s = *ui_.session;
  if (!opt_.sets.empty()) {
    std::vector<ConfigOverride> ov;
    for (const std::string& t : opt_.sets) ov.push_back(parse_override(t, "--set"));
    const std::string err = s.set_overrides(ov);
    if (!err.empty()) throw ConfigError(err);
  }
  if (!opt_.keyframe.empty()) s.select_keyframe(s.find_keyframe(opt_.keyframe));
  s.speed = opt_.speed;
  s.paused = opt_.paused;
  ui_.object_name = opt_.object;
  ui_.overlays.friction_cones = opt_.cones;
  ui_.overlays.manip_ellipsoid = opt_.ellipsoid;
  ui_.overlays.ellipsoid_synergies = opt_.synergy_ellipsoid;
  ui_.overlays.ellipsoid_force = opt_.force_ellipsoid;
  if (opt_.force_ellipsoid_scale > 0) {
    ui_.overlays.force_ellipsoid_scale = static_cast<float>(1e-3 * opt_.force_ellipsoid_scale);  // mm/N -> m/N
  }
  if (opt_.synergy_ellipsoid) {
    bool any = false;
    for (const Instance& inst : s.instances()) any = any || synergy_controller(*inst.plugin);
    if (!any) {
      throw UsageError("--synergy-ellipsoid: " + opt_.model + " has no synergy plugin instance (instances: " +
                       s.instances().names() + ")");
    }
  }
  ui_.epsilon = opt_.epsilon;
  if (!opt_.object.empty()) GraspMonitor check(s.m(), opt_.object);  // unknown --object fails here, by name
  ui_.palm = opt_.palm;
  ui_.fingers = opt_.fingers;
  ui_.with_wrist = opt_.with_wrist;
  ui_.finger_tips = opt_.finger_tips;
  try {  // unknown --palm / --fingers bodies fail here, by name
    GraspMonitor(s.m(), "").set_hand_structure(s.m(), opt_.palm, opt_.fingers, opt_.with_wrist, opt_.finger_tips);
  } catch (const GraspError& e) {
    throw UsageError(e.what());
  }
  ui_.rebuild_for_model();
  for (const std::string& text : opt_.plots) {
    bool any = false;
    for (size_t i = 0; i < ui_.plots.signals.size(); ++i) {
      if (ui_.plots.signals[i].label.find(text) != std::string::npos) ui_.plots.selected[i] = any = true;
    }
    if (!any) throw UsageError("--plot '" + text + "': no signal label contains it");
  }
  mjv_defaultCamera(&cam_);
  mjv_defaultOption(&vopt_);
  mjv_defaultScene(&scn_);
  mjr_defaultContext(&con_);
}

App::~App() {
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwMakeContextCurrent(window_);
  free_render_context();
  if (window_) glfwDestroyWindow(window_);
}

void App::init_camera() {
  const mjModel* m = ui_.session->m();
  render::CameraView v = opt_.camera.empty() ? render::CameraView::model_default(m) : render::CameraView::named(opt_.camera);
  if (opt_.camera.empty()) {  // the hand and the object it grasps, not the whole scene (camera_framing.h)
    const HandFraming f = frame_hand_and_object(m, ui_.session->d());
    if (f.found) {
      v.lookat = f.center;
      v.distance = fit_distance(m, f.radius);
    }
  }
  if (opt_.azimuth < 1e8) v.azimuth_deg = opt_.azimuth;
  if (opt_.elevation < 1e8) v.elevation_deg = opt_.elevation;
  if (opt_.distance > 0) v.distance = opt_.distance;
  if (opt_.lookat.size() == 3) v.lookat = {opt_.lookat[0], opt_.lookat[1], opt_.lookat[2]};
  render::apply_camera(m, v, cam_);
}

void App::make_render_context() {
  const mjModel* m = ui_.session->m();
  mjv_makeScene(m, &scn_, 20000);
  mjr_makeContext(m, &con_, mjFONTSCALE_150);
  context_ready_ = true;
}

void App::free_render_context() {
  if (!context_ready_) return;
  mjr_freeContext(&con_);
  mjv_freeScene(&scn_);
  context_ready_ = false;
}

void App::reload() {
  ui_.reload_requested = false;
  const std::string err = ui_.session->reload();
  if (!err.empty()) {
    ui_.say("reload failed, keeping the previous model:\n" + err, true);
    std::fprintf(stderr, "mjhand-view: reload failed: %s\n", err.c_str());
    return;
  }
  free_render_context();
  make_render_context();
  ui_.rebuild_for_model();
  ui_.say("reloaded " + ui_.session->path());
}

void App::frame_update(double wall_dt) {
  Session& s = *ui_.session;
  const int steps = s.advance(wall_dt);
  // Epsilon needs a hull per evaluation (~1 ms): every 10th frame is plenty for a display.
  ui_.grasp->update(s.m(), s.d(), &s.instances(), ui_.epsilon && frame_count_ % 10 == 0);
  if (steps > 0 || frame_count_ == 0) ui_.plots.sample(s.m(), s.d());
  ++frame_count_;
}

void App::save_screenshot(int width, int height) {
  ui_.screenshot_requested = false;
  render::RgbImage img;
  img.resize(width, height);
  std::vector<unsigned char> raw(static_cast<size_t>(3) * width * height);
  mjr_readPixels(raw.data(), nullptr, {0, 0, width, height}, &con_);
  for (int y = 0; y < height; ++y) {
    std::copy_n(raw.data() + static_cast<size_t>(3) * width * (height - 1 - y), 3 * width, img.at(0, y));
  }
  char name[64];
  std::snprintf(name, sizeof name, "mjhand-view-%.3f.png", ui_.session->d()->time);
  try {
    render::write_png(name, img);
    ui_.say(std::string("screenshot written to ") + name);
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);
  }
}

void App::render_frame() {
  Session& s = *ui_.session;
  int fw, fh;
  glfwGetFramebufferSize(window_, &fw, &fh);
  const mjrRect viewport = {0, 0, fw, fh};
  mjr_setBuffer(mjFB_WINDOW, &con_);
  mjv_updateScene(s.m(), s.d(), &vopt_, &s.pert, &cam_, mjCAT_ALL, &scn_);
  add_overlays(s.m(), s.d(), ui_.overlays, scn_);
  if (ui_.grasp) add_ellipsoid_overlay(s.m(), ui_.grasp->metrics(), ui_.overlays, scn_);
  mjr_render(viewport, &scn_, &con_);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  int ww, wh;
  glfwGetWindowSize(window_, &ww, &wh);
  if (ui_.show_panels) {
    draw_all_panels(ui_, static_cast<float>(ww), static_cast<float>(wh));
  } else if (ui_.overlays.metrics_box) {
    draw_metrics_box(ui_);
  }
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (ui_.screenshot_requested && fw > 0 && fh > 0) save_screenshot(fw, fh);
}

int App::run_window() {
  render::ensure_glfw();
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_SAMPLES, 4);
  const std::string title = "mjhand-view - " + opt_.model;
  window_ = glfwCreateWindow(opt_.width, opt_.height, title.c_str(), nullptr, nullptr);
  if (!window_) throw std::runtime_error("cannot open a window (" + render::last_glfw_error() + ")");
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  init_camera();
  make_render_context();
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, key_cb);
  glfwSetMouseButtonCallback(window_, button_cb);
  glfwSetCursorPosCallback(window_, cursor_cb);
  glfwSetScrollCallback(window_, scroll_cb);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
  ImGui::StyleColorsDark();
  // install_callbacks = true chains the callbacks set above after ImGui's own.
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  imgui_ready_ = true;

  const double start = glfwGetTime();
  double last = start;
  while (!glfwWindowShouldClose(window_)) {
    if (opt_.quit_after > 0 && glfwGetTime() - start > opt_.quit_after) break;
    glfwPollEvents();
    if (ui_.reload_requested) reload();
    const double now = glfwGetTime();
    frame_update(now - last);
    last = now;
    render_frame();
    glfwSwapBuffers(window_);
  }
  std::printf("mjhand-view: closed at t = %.4f s after %d frames\n", ui_.session->d()->time, frame_count_);
  return 0;
}

}  // namespace mjhand::view
