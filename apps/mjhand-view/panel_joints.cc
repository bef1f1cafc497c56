// Joint panel: a slider per actuator ctrl (read-only while an enabled plugin instance drives it) and Cartesian
// fingertip targets solved with mjhand's IK (x, y, gamma for planar direct-drive fingers; x, y, z otherwise).
#include <imgui.h>

#include <cmath>

#include "ui_state.h"

namespace mjhand::view {

namespace {
// The enabled instance that writes actuator a's ctrl, or nullptr.
const Instance* ctrl_owner(const Session& s, int a) {
  for (const Instance& inst : s.instances()) {
    for (int c : inst.plugin->owned_ctrls()) {
      if (c == a && s.enabled(inst.name)) return &inst;
    }
  }
  return nullptr;
}

// Slider range of an actuator without ctrlrange: the joint range for position servos, else +-1 around the value.
void ctrl_range(const mjModel* m, const mjData* d, int a, double* lo, double* hi) {
  if (m->actuator_ctrllimited[a]) {
    *lo = m->actuator_ctrlrange[2 * a];
    *hi = m->actuator_ctrlrange[2 * a + 1];
    return;
  }
  const int j = m->actuator_trntype[a] == mjTRN_JOINT ? m->actuator_trnid[2 * a] : -1;
  if (j >= 0 && m->jnt_limited[j] && m->actuator_biastype[a] == mjBIAS_AFFINE) {
    *lo = m->jnt_range[2 * j];
    *hi = m->jnt_range[2 * j + 1];
    return;
  }
  const double span = std::max(1.0, 2 * std::fabs(d->ctrl[a]));
  *lo = -span;
  *hi = span;
}
}  // namespace

void draw_joint_panel(UiState& ui) {
  if (!ImGui::Begin("Joints")) {
    ImGui::End();
    return;
  }
  Session& s = *ui.session;
  const mjModel* m = s.m();
  mjData* d = s.d();
  if (ImGui::CollapsingHeader("Actuator controls", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (int a = 0; a < m->nu; ++a) {
      const char* n = mj_id2name(m, mjOBJ_ACTUATOR, a);
      const std::string label = n && *n ? n : "actuator " + std::to_string(a);
      const Instance* owner = ctrl_owner(s, a);
      if (owner) {
        ImGui::Text("%s = %.4g  (driven by '%s'; switch it off to take over)", label.c_str(), d->ctrl[a],
                    owner->name.c_str());
        continue;
      }
      double lo, hi;
      ctrl_range(m, d, a, &lo, &hi);
      ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &d->ctrl[a], &lo, &hi, "%.4g");
    }
  }
  if (ImGui::CollapsingHeader("Fingertip targets", ImGuiTreeNodeFlags_DefaultOpen)) {
    FingerTargets& t = *ui.targets;
    if (t.fingers().empty()) ImGui::TextWrapped("%s", t.note().c_str());
    for (size_t k = 0; k < t.fingers().size(); ++k) {
      FingerTarget& f = t.fingers()[k];
      ImGui::PushID(static_cast<int>(k));
      ImGui::Text("%s  %s", f.tree.chain.name.c_str(),
                  f.planar ? "(x_T, y_T [m], gamma [rad] in the finger base frame; closed form)"
                           : "(x, y, z [m], world; DLS IK)");
      ImGui::SetNextItemWidth(-1);
      ImGui::InputScalarN("##xyz", ImGuiDataType_Double, f.input, 3, nullptr, nullptr, "%.4f");
      const int ki = static_cast<int>(k);
      if (ImGui::SmallButton("From current")) t.read_current(m, d, ki);
      ImGui::SameLine();
      if (ImGui::SmallButton("Solve + send targets")) {
        if (t.solve(m, d, ki)) f.status = t.send(s, ki);
        ++ui.instances_generation;
      }
      ImGui::SameLine();
      if (ImGui::SmallButton("Solve + set pose")) {
        if (t.solve(m, d, ki)) {
          t.set_pose(s, ki);
          f.status += "; pose set";
        }
      }
      if (!f.status.empty()) ImGui::TextWrapped("%s", f.status.c_str());
      ImGui::PopID();
    }
  }
  ImGui::End();
}

}  // namespace mjhand::view
