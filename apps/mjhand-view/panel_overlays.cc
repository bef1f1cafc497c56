// Overlay panel: which scene overlays are drawn.
#include <imgui.h>

#include "ui_state.h"

namespace mjhand::view {

void draw_overlay_panel(UiState& ui) {
  if (ImGui::Begin("Overlays", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    OverlayFlags& f = ui.overlays;
    ImGui::Checkbox("contact points", &f.contact_points);
    ImGui::Checkbox("contact forces", &f.contact_forces);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::SliderFloat("scale", &f.force_scale, 0.01f, 100.0f, "%.2gx", ImGuiSliderFlags_Logarithmic);
    ImGui::Checkbox("friction cones", &f.friction_cones);
    ImGui::Checkbox("fingertip frames", &f.tip_frames);
    ImGui::Checkbox("object frames", &f.object_frames);
    ImGui::Checkbox("grasp metrics box", &f.metrics_box);
  }
  ImGui::End();
}

}  // namespace mjhand::view
