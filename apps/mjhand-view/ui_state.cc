#include "ui_state.h"

#include <imgui.h>

#include <algorithm>

namespace mjhand::view {

void UiState::rebuild_for_model() {
  const mjModel* m = session->m();
  try {
    grasp = std::make_unique<GraspMonitor>(m, object_name);
  } catch (const std::exception& e) {
    grasp = std::make_unique<GraspMonitor>(m, "");
    say(std::string(e.what()) + "; choosing the object automatically", true);
  }
  try {
    grasp->set_hand_structure(m, palm, fingers, with_wrist, finger_tips);
  } catch (const std::exception& e) {  // a reloaded model without those bodies
    say(std::string(e.what()) + "; inferring the hand instead", true);
  }
  targets = std::make_unique<FingerTargets>(m);
  for (size_t k = 0; k < targets->fingers().size(); ++k) targets->read_current(m, session->d(), static_cast<int>(k));
  plots.rebuild(m, &session->instances());
  ++instances_generation;
}

void draw_all_panels(UiState& ui, float width, float height) {
  // Fixed widths on large screens, a share of the width on small ones.
  const float left = std::min(330.0f, 0.27f * width), right = std::min(360.0f, 0.3f * width);
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(left, 0.42f * height), ImGuiCond_FirstUseEver);
  draw_sim_panel(ui);
  ImGui::SetNextWindowPos(ImVec2(8, 0.42f * height + 16), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(left, 0.58f * height - 24), ImGuiCond_FirstUseEver);
  draw_plugin_panel(ui);
  ImGui::SetNextWindowPos(ImVec2(width - right - 8, 0.25f * height), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(right, 0.45f * height), ImGuiCond_FirstUseEver);
  draw_joint_panel(ui);
  ImGui::SetNextWindowPos(ImVec2(width - right - 8, 0.70f * height + 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(right, 0.30f * height - 16), ImGuiCond_FirstUseEver);
  draw_plot_panel(ui);
  ImGui::SetNextWindowPos(ImVec2(left + 16, 8), ImGuiCond_FirstUseEver);
  draw_overlay_panel(ui);
  if (ui.overlays.metrics_box) {
    ImGui::SetNextWindowPos(ImVec2(width - right - 8, 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(right, 0.25f * height - 8), ImGuiCond_FirstUseEver);
    draw_metrics_box(ui);
  }
}

}  // namespace mjhand::view
