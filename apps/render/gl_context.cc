#include "render/gl_context.h"

#include <GLFW/glfw3.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace mjhand::render {

namespace {
std::string g_last_error;

void on_glfw_error(int code, const char* description) {
  g_last_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "?");
}
}  // namespace

std::string last_glfw_error() { return g_last_error; }

bool display_available() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

void ensure_glfw() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    glfwSetErrorCallback(on_glfw_error);
    // No glfwTerminate at exit: it unloads the GL driver (dlclose), after which LeakSanitizer reports the driver's
    // own allocations as leaks from an "<unknown module>" that no suppression can name; the OS closes the display.
    ok = glfwInit() == GLFW_TRUE;
  });
  if (!ok) {
    throw std::runtime_error("cannot initialise GLFW (" + g_last_error +
                             "); without a display run under Xvfb: xvfb-run -a <command>");
  }
}

HiddenGlContext::HiddenGlContext() {
  ensure_glfw();
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_TRUE);
  window_ = glfwCreateWindow(64, 64, "mjhand offscreen", nullptr, nullptr);
  if (!window_) throw std::runtime_error("cannot create a hidden OpenGL window (" + g_last_error + ")");
  glfwMakeContextCurrent(window_);
}

HiddenGlContext::~HiddenGlContext() {
  if (window_) {
    if (glfwGetCurrentContext() == window_) glfwMakeContextCurrent(nullptr);
    glfwDestroyWindow(window_);
  }
}

void HiddenGlContext::make_current() const { glfwMakeContextCurrent(window_); }

}  // namespace mjhand::render
