// Everything the viewer's panels show and change, in one place so that each panel is a free function over it and
// the headless screenshot can draw the same panels.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "finger_targets.h"
#include "grasp_monitor.h"
#include "overlays.h"
#include "session.h"
#include "signals.h"

namespace mjhand::view {

struct UiState {
  std::unique_ptr<Session> session;
  std::unique_ptr<GraspMonitor> grasp;
  std::unique_ptr<FingerTargets> targets;
  PlotSet plots;
  OverlayFlags overlays;
  std::string object_name;  // --object, kept for reloads
  std::string palm, fingers, finger_tips;  // --palm, --fingers, --finger-tips, kept for reloads
  bool with_wrist = false;    // --with-wrist
  bool epsilon = false;     // compute Ferrari-Canny epsilon in the metrics box (slower)
  bool show_panels = true;
  bool reload_requested = false;
  bool screenshot_requested = false;
  std::string status;        // last message (reload errors, screenshot paths, rejected edits)
  bool status_is_error = false;
  // Edit fields of the plugin panel, keyed by "instance.key"; filled from Instance::config on (re)attach.
  std::map<std::string, std::string> edit_text;
  int edit_generation = -1;  // instances generation the edit fields were filled from
  int instances_generation = 0;   // bumped whenever the model is recompiled (edits) or reloaded

  // (Re)creates the grasp monitor, finger targets and plot list for the session's current model.
  void rebuild_for_model();
  // Sets the status line.
  void say(const std::string& s, bool error = false) {
    status = s;
    status_is_error = error;
  }
};

// Panels (ImGui); each draws one window.
void draw_sim_panel(UiState& ui);
void draw_plugin_panel(UiState& ui);
void draw_joint_panel(UiState& ui);
void draw_overlay_panel(UiState& ui);
void draw_plot_panel(UiState& ui);
// The live grasp-metrics text box (top right).
void draw_metrics_box(UiState& ui);
// Every panel, laid out for a window of width x height pixels.
void draw_all_panels(UiState& ui, float width, float height);

}  // namespace mjhand::view
