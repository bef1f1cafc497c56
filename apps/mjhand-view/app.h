// The viewer application: builds the session and UI state from the options, then either runs the interactive
// GLFW window (real time, panels, mouse camera) or the headless screenshot.
#pragma once

#include <mujoco/mujoco.h>

#include <string>

#include "options.h"
#include "ui_state.h"

struct GLFWwindow;

namespace mjhand::view {

class App {
 public:
  // Loads the model, applies --set and --keyframe; throws std::runtime_error / ConfigError / UsageError.
  explicit App(const Options& options);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Opens the window and runs until it is closed; returns the exit code.
  int run_window();
  // --screenshot: simulate to --time, render offscreen, write the PNG; returns the exit code.
  int run_headless();

  // Input handlers (GLFW callbacks forward here; input.cc).
  void on_key(int key, int mods);
  void on_mouse_button(int button, int action, int mods);
  void on_cursor(double x, double y);
  void on_scroll(double dy);

 private:
  void init_camera();
  void make_render_context();
  void free_render_context();
  void reload();
  void frame_update(double wall_dt);
  void render_frame();
  void save_screenshot(int width, int height);
  void select_at_cursor(bool center_camera);

  Options opt_;
  UiState ui_;
  GLFWwindow* window_ = nullptr;
  mjvCamera cam_;
  mjvOption vopt_;
  mjvScene scn_;
  mjrContext con_;
  bool context_ready_ = false;
  bool imgui_ready_ = false;
  // Mouse state.
  bool left_ = false, right_ = false, middle_ = false;
  double last_x_ = 0, last_y_ = 0;
  double last_click_time_ = -1;
  int last_click_button_ = -1;
  int frame_count_ = 0;
};

}  // namespace mjhand::view
