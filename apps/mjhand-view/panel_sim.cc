// Simulation panel: time, pause/step/reset, speed, keyframe (preset) selection, reload, screenshot, status line.
#include <imgui.h>

#include "ui_state.h"

namespace mjhand::view {

void draw_sim_panel(UiState& ui) {
  Session& s = *ui.session;
  if (!ImGui::Begin("Simulation")) {
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("%s", s.path().c_str());
  ImGui::Text("t = %.4f s   dt = %.4g s", s.d()->time, s.m()->opt.timestep);
  if (ImGui::Button(s.paused ? "Run (space)" : "Pause (space)")) s.paused = !s.paused;
  ImGui::SameLine();
  if (ImGui::Button("Step (->)")) {
    s.paused = true;
    s.step_once();
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset (bksp)")) {
    s.reset();
    ui.plots.clear();
  }
  float speed = static_cast<float>(s.speed);
  if (ImGui::SliderFloat("speed", &speed, 1.0f / 64, 4.0f, "%.3gx", ImGuiSliderFlags_Logarithmic)) s.speed = speed;
  // Keyframes are the presets (e.g. the direct-drive hand's F.2 poses).
  const mjModel* m = s.m();
  const char* current = s.keyframe() >= 0 ? mj_id2name(m, mjOBJ_KEY, s.keyframe()) : "(qpos0)";
  if (ImGui::BeginCombo("keyframe", current ? current : "?")) {
    if (ImGui::Selectable("(qpos0)", s.keyframe() < 0)) {
      s.select_keyframe(-1);
      ui.plots.clear();
    }
    for (int k = 0; k < m->nkey; ++k) {
      const char* n = mj_id2name(m, mjOBJ_KEY, k);
      const std::string label = n && *n ? n : "key " + std::to_string(k);
      if (ImGui::Selectable(label.c_str(), s.keyframe() == k)) {
        s.select_keyframe(k);
        ui.plots.clear();
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::Button("Reload model (ctrl+L)")) ui.reload_requested = true;
  ImGui::SameLine();
  if (ImGui::Button("Screenshot (F2)")) ui.screenshot_requested = true;
  if (!ui.status.empty()) {
    if (ui.status_is_error) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.3f, 1));
    ImGui::TextWrapped("%s", ui.status.c_str());
    if (ui.status_is_error) ImGui::PopStyleColor();
  }
  for (auto it = s.log.rbegin(); it != s.log.rend() && it != s.log.rbegin() + 3; ++it) {
    ImGui::TextWrapped("%s", it->c_str());
  }
  ImGui::End();
}

void draw_metrics_box(UiState& ui) {
  if (ImGui::Begin("Grasp metrics")) {
    ImGui::TextUnformatted(ui.grasp->text().c_str());
    const std::string e = ellipsoid_text(ui.grasp->metrics(), ui.overlays, ui.session->m());
    if (!e.empty()) ImGui::TextUnformatted(e.c_str());
    ImGui::Checkbox("epsilon (Ferrari-Canny L1)", &ui.epsilon);
  }
  ImGui::End();
}

}  // namespace mjhand::view
