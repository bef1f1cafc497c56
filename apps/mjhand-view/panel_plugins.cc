// Plugin panel: every mjhand instance with its configuration (editable: text field + Apply recompiles the model with
// all edits so far), on/off switch, live state (its slice of d->plugin_state), actuator forces / driven ctrl and
// sensor values.
#include <imgui.h>

#include <cstring>

#include <mjhand/native/native_plugins.h>
#include "ui_state.h"

namespace mjhand::view {

namespace {
void fill_edit_fields(UiState& ui) {
  ui.edit_text.clear();
  for (const Instance& inst : ui.session->instances()) {
    for (const auto& kv : inst.config) ui.edit_text[inst.name + "." + kv.first] = kv.second;
  }
  ui.edit_generation = ui.instances_generation;
}

std::string name_or_id(const mjModel* m, int type, int id) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? n : "#" + std::to_string(id);
}
}  // namespace

void draw_plugin_panel(UiState& ui) {
  if (!ImGui::Begin("Plugins")) {
    ImGui::End();
    return;
  }
  Session& s = *ui.session;
  if (ui.edit_generation != ui.instances_generation) fill_edit_fields(ui);
  const mjModel* m = s.m();
  mjData* d = s.d();
  if (s.instances().empty()) ImGui::TextWrapped("This model declares no mjhand plugin instances.");
  for (const Instance& inst : s.instances()) {
    ImGui::PushID(inst.name.c_str());
    bool on = s.enabled(inst.name);
    if (ImGui::Checkbox("##on", &on)) s.set_enabled(inst.name, on);
    ImGui::SameLine();
    const std::string header = inst.name + "  (" + inst.type + ")" + (on ? "" : "  [off]");
    if (ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      ImGui::Indent();
      // Configuration: one text field per key; Apply recompiles with every edit made so far.
      for (const auto& kv : inst.config) {
        std::string& text = ui.edit_text[inst.name + "." + kv.first];
        char buf[1024];
        std::snprintf(buf, sizeof buf, "%s", text.c_str());
        ImGui::SetNextItemWidth(-70);
        if (ImGui::InputText(kv.first.c_str(), buf, sizeof buf)) text = buf;
        if (text != kv.second) {
          ImGui::SameLine();
          if (ImGui::SmallButton(("Apply##" + kv.first).c_str())) {
            const std::string err = s.set_key(inst.name, kv.first, text);
            if (err.empty()) {
              ui.say("applied " + inst.name + "." + kv.first + " = " + text);
            } else {
              ui.say(err, true);
            }
            ++ui.instances_generation;  // the model was recompiled: instance references and fields are stale
            ImGui::Unindent();
            ImGui::PopID();
            ImGui::End();
            return;
          }
        }
      }
      // Live state.
      const int n = inst.plugin->nstate();
      if (n > 0) {
        const mjtNum* st = native_state(m, d, inst.id);
        std::string line = "state:";
        for (int i = 0; i < n && i < 24; ++i) {
          char b[32];
          std::snprintf(b, sizeof b, " %.4g", st[i]);
          line += b;
        }
        if (n > 24) line += " ...";
        ImGui::TextWrapped("%s", line.c_str());
      }
      for (int a : inst.plugin->owned_ctrls()) {  // its own actuators' force, or the actuator model input it drives
        if (m->actuator_plugin[a] == inst.id) {
          ImGui::Text("actuator %s: force %.5g", name_or_id(m, mjOBJ_ACTUATOR, a).c_str(), d->actuator_force[a]);
        } else {
          ImGui::Text("drives ctrl %s = %.5g", name_or_id(m, mjOBJ_ACTUATOR, a).c_str(), d->ctrl[a]);
        }
      }
      for (int a : inst.plugin->owned_actuators()) {
        ImGui::Text("actuator %s: force %.5g", name_or_id(m, mjOBJ_ACTUATOR, a).c_str(), d->actuator_force[a]);
      }
      for (int sid : inst.plugin->owned_sensors()) {
        std::string line = "sensor " + name_or_id(m, mjOBJ_SENSOR, sid) + ":";
        for (int k = 0; k < m->sensor_dim[sid]; ++k) {
          char b[32];
          std::snprintf(b, sizeof b, " %.4g", d->sensordata[m->sensor_adr[sid] + k]);
          line += b;
        }
        ImGui::TextWrapped("%s", line.c_str());
      }
      ImGui::Unindent();
    }
    ImGui::PopID();
  }
  if (!s.overrides().empty()) {
    ImGui::Separator();
    ImGui::TextUnformatted("viewer edits:");
    for (const ConfigOverride& o : s.overrides()) ImGui::BulletText("%s.%s=%s", o.instance.c_str(), o.key.c_str(), o.value.c_str());
    if (ImGui::Button("Drop all edits")) {
      const std::string err = s.set_overrides({});
      if (!err.empty()) ui.say(err, true);
      ++ui.instances_generation;
    }
  }
  ImGui::End();
}

}  // namespace mjhand::view
