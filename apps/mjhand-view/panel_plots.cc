// Plot panel: choose signals from a list; each selected one is drawn from its ring buffer.
#include <imgui.h>

#include "ui_state.h"

namespace mjhand::view {

void draw_plot_panel(UiState& ui) {
  if (!ImGui::Begin("Plots")) {
    ImGui::End();
    return;
  }
  PlotSet& p = ui.plots;
  if (ImGui::BeginCombo("add signal", "choose...")) {
    for (size_t i = 0; i < p.signals.size(); ++i) {
      bool sel = p.selected[i];
      if (ImGui::Checkbox(p.signals[i].label.c_str(), &sel)) {
        p.selected[i] = sel;
        p.buffers[i].clear();
      }
    }
    ImGui::EndCombo();
  }
  for (size_t i = 0; i < p.signals.size(); ++i) {
    if (!p.selected[i]) continue;
    const RingBuffer& b = p.buffers[i];
    float lo = b.min(), hi = b.max();
    if (hi - lo < 1e-9f) {
      lo -= 0.5f;
      hi += 0.5f;
    }
    ImGui::PushID(static_cast<int>(i));
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.4g", b.size() ? b.data()[(b.offset() + b.size() - 1) % b.size()] : 0.0f);
    ImGui::TextUnformatted(p.signals[i].label.c_str());
    ImGui::SetNextItemWidth(-40);
    ImGui::PlotLines("##plot", b.data(), b.size(), b.offset(), overlay, lo, hi, ImVec2(0, 60));
    ImGui::SameLine();
    if (ImGui::SmallButton("x")) p.selected[i] = false;
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace mjhand::view
