// Geoms the viewer adds to MuJoCo's scene: contact points, contact force arrows (mj_contactForce), friction cones,
// fingertip (site) frames and free-body (object) frames. Each is switched on its own.
#pragma once

#include <mujoco/mujoco.h>

namespace mjhand::view {

struct OverlayFlags {
  bool contact_points = true;
  bool contact_forces = true;
  bool friction_cones = false;
  bool tip_frames = true;
  bool object_frames = true;
  bool metrics_box = true;   // the text box (drawn by the app, not here)
  float force_scale = 1.0f;  // multiplies the arrow length of 2 % of the model extent per newton [-]
};

// Appends the enabled overlays for d's contacts and frames to scn (stops silently when scn is full).
void add_overlays(const mjModel* m, const mjData* d, const OverlayFlags& flags, mjvScene& scn);

// Length of a drawn force arrow per newton [m/N]: 0.02 x the model extent (stat.extent) times flags.force_scale.
double force_arrow_scale(const mjModel* m, const OverlayFlags& flags);

}  // namespace mjhand::view
