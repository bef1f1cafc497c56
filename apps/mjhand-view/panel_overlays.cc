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
    ImGui::Checkbox("manipulability ellipsoid", &f.manip_ellipsoid);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::SliderFloat("s##ellipsoid", &f.ellipsoid_scale, 0.01f, 100.0f, "%.2g s", ImGuiSliderFlags_Logarithmic);
    ImGui::Checkbox("through the synergies (S)", &f.ellipsoid_synergies);
    ImGui::Checkbox("force ellipsoid (K)", &f.ellipsoid_force);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    float mm_per_n = 1000 * f.force_ellipsoid_scale;
    if (ImGui::SliderFloat("mm/N##force_ellipsoid", &mm_per_n, 0.001f, 100.0f, "%.2g mm/N",
                           ImGuiSliderFlags_Logarithmic)) {
      f.force_ellipsoid_scale = 1e-3f * mm_per_n;
    }
    if (f.manip_ellipsoid && ui.grasp) {
      const GraspMetrics& g = ui.grasp->metrics();
      const GraspEllipsoid& e = selected_ellipsoid(g, f);
      if (f.ellipsoid_synergies && !g.synergy_note.empty()) {
        ImGui::TextDisabled("%s", g.synergy_note.c_str());
      } else if (e.ok && f.ellipsoid_force) {
        ImGui::TextUnformatted(ellipsoid_text(g, f, ui.session->m()).c_str());
      } else if (e.ok) {
        ImGui::Text("semi-axes %.3g %.3g %.3g m/s per unit %s", e.axes(0), e.axes(1), e.axes(2),
                    f.ellipsoid_synergies ? "synergy speed" : "joint speed");
        ImGui::Text("drawn x %.3g s (1 m/s -> %.3g m)%s", f.ellipsoid_scale, f.ellipsoid_scale,
                    e.indeterminate > 0 ? "; object motions the contacts leave free" : "");
      } else {
        ImGui::TextDisabled("no grasp to draw");
      }
    }
    ImGui::Checkbox("grasp metrics box", &f.metrics_box);
  }
  ImGui::End();
}

}  // namespace mjhand::view
