// Keyboard and mouse: the key bindings of --help, and MuJoCo simulate's mouse camera, body selection and
// ctrl+drag perturbation.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

#include "app.h"

namespace mjhand::view {

void App::on_key(int key, int mods) {
  Session& s = *ui_.session;
  const bool ctrl = mods & GLFW_MOD_CONTROL;
  switch (key) {
    case GLFW_KEY_SPACE: s.paused = !s.paused; break;
    case GLFW_KEY_RIGHT:
      s.paused = true;
      s.step_once();
      break;
    case GLFW_KEY_BACKSPACE:
      s.reset();
      ui_.plots.clear();
      break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: s.speed = std::max(1.0 / 1024, s.speed / 2); break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: s.speed = std::min(64.0, s.speed * 2); break;
    case GLFW_KEY_0: s.speed = 1.0; break;
    case GLFW_KEY_LEFT_BRACKET:
    case GLFW_KEY_RIGHT_BRACKET: {
      const int n = s.m()->nkey;
      if (n > 0) {
        int k = s.keyframe() + (key == GLFW_KEY_RIGHT_BRACKET ? 1 : -1);
        if (k < -1) k = n - 1;
        if (k >= n) k = -1;
        s.select_keyframe(k);
        ui_.plots.clear();
      }
      break;
    }
    case GLFW_KEY_F5: ui_.reload_requested = true; break;
    case GLFW_KEY_L:
      if (ctrl) ui_.reload_requested = true;
      break;
    case GLFW_KEY_F2:
    case GLFW_KEY_P: ui_.screenshot_requested = true; break;
    case GLFW_KEY_TAB: ui_.show_panels = !ui_.show_panels; break;
    case GLFW_KEY_C: ui_.overlays.contact_forces = !ui_.overlays.contact_forces; break;
    case GLFW_KEY_F: ui_.overlays.friction_cones = !ui_.overlays.friction_cones; break;
    case GLFW_KEY_E: ui_.overlays.manip_ellipsoid = !ui_.overlays.manip_ellipsoid; break;
    case GLFW_KEY_S:  // the ellipsoid through the model's synergies, or with joint inputs
      ui_.overlays.ellipsoid_synergies = !ui_.overlays.ellipsoid_synergies;
      ui_.say(std::string("manipulability ellipsoid: ") + (ui_.overlays.ellipsoid_synergies ? "synergy" : "joint") +
              " space" + (ui_.overlays.manip_ellipsoid ? "" : " (E shows it)"));
      break;
    case GLFW_KEY_K:  // the force manipulability ellipsoid, or the kinematic one
      ui_.overlays.ellipsoid_force = !ui_.overlays.ellipsoid_force;
      ui_.say(std::string("manipulability ellipsoid: ") + (ui_.overlays.ellipsoid_force ? "force" : "kinematic") +
              (ui_.overlays.manip_ellipsoid ? "" : " (E shows it)"));
      break;
    case GLFW_KEY_V: init_camera(); break;  // reset the view: frame the hand and object again, at the current state
    case GLFW_KEY_Q:
      if (ctrl) glfwSetWindowShouldClose(window_, GLFW_TRUE);
      break;
    case GLFW_KEY_ESCAPE:
      s.pert.select = 0;
      s.pert.active = 0;
      break;
    default: break;
  }
}

void App::select_at_cursor(bool center_camera) {
  Session& s = *ui_.session;
  int w, h;
  glfwGetWindowSize(window_, &w, &h);
  if (w <= 0 || h <= 0) return;
  mjtNum selpnt[3];
  int geom = -1, flex = -1, skin = -1;
  const int body = mjv_select(s.m(), s.d(), &vopt_, static_cast<mjtNum>(w) / h, last_x_ / w, (h - last_y_) / h, &scn_,
                              selpnt, &geom, &flex, &skin);
  if (center_camera) {
    if (body >= 0) mju_copy3(cam_.lookat, selpnt);
    return;
  }
  if (body > 0) {
    s.pert.select = body;
    s.pert.skinselect = skin;
    // Local coordinates of the clicked point on the body: where the perturbation force attaches.
    mjtNum tmp[3];
    mju_sub3(tmp, selpnt, s.d()->xpos + 3 * body);
    mju_mulMatTVec(s.pert.localpos, s.d()->xmat + 9 * body, tmp, 3, 3);
  } else {
    s.pert.select = 0;
    s.pert.skinselect = -1;
  }
  s.pert.active = 0;
}

void App::on_mouse_button(int button, int action, int mods) {
  Session& s = *ui_.session;
  left_ = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  right_ = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  middle_ = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
  glfwGetCursorPos(window_, &last_x_, &last_y_);
  if (action == GLFW_PRESS) {
    const double now = glfwGetTime();
    const bool double_click = button == last_click_button_ && now - last_click_time_ < 0.3;
    last_click_time_ = now;
    last_click_button_ = button;
    if (double_click && button == GLFW_MOUSE_BUTTON_LEFT) select_at_cursor(false);
    if (double_click && button == GLFW_MOUSE_BUTTON_RIGHT) select_at_cursor(true);
    // ctrl + drag on a selected body starts a perturbation (simulate: right = translate, left = rotate).
    if ((mods & GLFW_MOD_CONTROL) && s.pert.select > 0) {
      const int newperturb = button == GLFW_MOUSE_BUTTON_RIGHT ? mjPERT_TRANSLATE : mjPERT_ROTATE;
      if (!s.pert.active) mjv_initPerturb(s.m(), s.d(), &scn_, &s.pert);
      s.pert.active = newperturb;
    }
  }
  if (action == GLFW_RELEASE) s.pert.active = 0;
}

void App::on_cursor(double x, double y) {
  const double dx = x - last_x_, dy = y - last_y_;
  last_x_ = x;
  last_y_ = y;
  if (!left_ && !right_ && !middle_) return;
  int w, h;
  glfwGetWindowSize(window_, &w, &h);
  if (h <= 0) return;
  const bool shift = glfwGetKey(window_, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                     glfwGetKey(window_, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  int action;
  if (right_) {
    action = shift ? mjMOUSE_MOVE_H : mjMOUSE_MOVE_V;
  } else if (left_) {
    action = shift ? mjMOUSE_ROTATE_H : mjMOUSE_ROTATE_V;
  } else {
    action = mjMOUSE_ZOOM;
  }
  Session& s = *ui_.session;
  if (s.pert.active) {
    mjv_movePerturb(s.m(), s.d(), action, dx / h, dy / h, &scn_, &s.pert);
  } else {
    mjv_moveCamera(s.m(), action, dx / h, dy / h, &cam_);
  }
}

void App::on_scroll(double dy) { mjv_moveCamera(ui_.session->m(), mjMOUSE_ZOOM, 0, -0.05 * dy, &cam_); }

}  // namespace mjhand::view
