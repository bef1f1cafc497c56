// Plugin panel: every mjhand instance (callback-host and native) with its resolved configuration (editable: text
// field + Apply re-attaches the host, or recompiles the model for a native instance, with all edits so far), on/off
// switch, live state (d->userdata or d->plugin_state), owned ctrl/force and sensor values.
#include <imgui.h>

#include <cstring>

#include "native/native_plugins.h"
#include "ui_state.h"

namespace mjhand::view {

namespace {
void fill_edit_fields(UiState& ui) {
  ui.edit_text.clear();
  for (const Instance* inst : ui.session->host()->all_instances()) {
    for (const auto& kv : inst->config) ui.edit_text[inst->name + "." + kv.first] = kv.second;
  }
  ui.edit_generation = ui.host_generation;
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
  Host* host = s.host();
  if (ui.edit_generation != ui.host_generation) fill_edit_fields(ui);
  const mjModel* m = s.m();
  mjData* d = s.d();
  if (host->all_instances().empty()) ImGui::TextWrapped("This model declares no mjhand plugin instances.");
  for (const Instance* instance : host->all_instances()) {
    const Instance& inst = *instance;
    ImGui::PushID(inst.name.c_str());
    bool on = s.enabled(inst.name);
    if (ImGui::Checkbox("##on", &on)) s.set_enabled(inst.name, on);
    ImGui::SameLine();
    const std::string header = inst.name + "  (" + inst.type + (inst.native_id >= 0 ? ", native" : "") + ")" +
                               (on ? "" : "  [off]");
    if (ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      ImGui::Indent();
      // Configuration: one text field per key; Apply re-attaches with every edit made so far.
      for (const auto& kv : inst.config) {
        if (kv.first == "type") continue;
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
            ++ui.host_generation;  // the host was re-attached: instance references and fields are stale
            ImGui::Unindent();
            ImGui::PopID();
            ImGui::End();
            return;
          }
        }
      }
      // Live state.
      const int n = inst.plugin->nstate();
      const bool ready = inst.native_id >= 0 || host->state_ready(d);
      if (n > 0 && ready) {
        const mjtNum* st = inst.native_id >= 0 ? native_state(m, d, inst.native_id) : host->state(d, inst);
        std::string line = "state:";
        for (int i = 0; i < n && i < 24; ++i) {
          char b[32];
          std::snprintf(b, sizeof b, " %.4g", st[i]);
          line += b;
        }
        if (n > 24) line += " ...";
        ImGui::TextWrapped("%s", line.c_str());
      }
      for (int a : inst.plugin->owned_ctrls()) {  // native: the controller's output is the actuator's force
        if (inst.native_id >= 0) {
          ImGui::Text("actuator %s: force %.5g", name_or_id(m, mjOBJ_ACTUATOR, a).c_str(), d->actuator_force[a]);
        } else {
          ImGui::Text("ctrl %s = %.5g", name_or_id(m, mjOBJ_ACTUATOR, a).c_str(), d->ctrl[a]);
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
      ++ui.host_generation;
    }
  }
  ImGui::End();
}

}  // namespace mjhand::view
