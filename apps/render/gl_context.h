// A hidden GLFW window whose only job is to own an OpenGL context: MuJoCo's renderer draws into its offscreen
// framebuffer, so nothing is ever shown (works under Xvfb).
#pragma once

#include <string>

struct GLFWwindow;

namespace mjhand::render {

// Initialises GLFW once per process; throws std::runtime_error with GLFW's reason (e.g. no display) on failure.
void ensure_glfw();

// True when an X11 or Wayland display is configured (DISPLAY or WAYLAND_DISPLAY set).
bool display_available();

// The last message GLFW reported through its error callback ("" if none).
std::string last_glfw_error();

class HiddenGlContext {
 public:
  // Creates an invisible window with an OpenGL context and makes it current; throws std::runtime_error on failure.
  HiddenGlContext();
  ~HiddenGlContext();
  HiddenGlContext(const HiddenGlContext&) = delete;
  HiddenGlContext& operator=(const HiddenGlContext&) = delete;

  // Makes this context current on the calling thread (MuJoCo's mjr_* calls need it).
  void make_current() const;
  GLFWwindow* window() const { return window_; }

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace mjhand::render
