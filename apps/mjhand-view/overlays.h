// Geoms the viewer adds to MuJoCo's scene: contact points, contact force arrows (mj_contactForce), friction cones,
// fingertip (site) frames, free-body (object) frames and the grasp's manipulability ellipsoid. Each is switched on
// its own.
#pragma once

#include <mujoco/mujoco.h>

#include <string>

#include "grasp_monitor.h"

namespace mjhand::view {

struct OverlayFlags {
  bool contact_points = true;
  bool contact_forces = true;
  bool friction_cones = false;
  bool tip_frames = true;
  bool object_frames = true;
  bool metrics_box = true;   // the text box (drawn by the app, not here)
  float force_scale = 1.0f;  // multiplies the arrow length of 2 % of the model extent per newton [-]
  bool manip_ellipsoid = false;   // kinematic manipulability ellipsoid (translation block) at the object centre
  float ellipsoid_scale = 3.0f;   // drawn semi-axis [m] per semi-axis [m/s per unit joint speed], i.e. [s]
  bool ellipsoid_synergies = false;  // draw the synergy-space ellipsoid (inputs dz) instead of the joint-space one
};

// The ellipsoid add_ellipsoid_overlay draws: g.synergy_ellipsoid when flags.ellipsoid_synergies, else g.ellipsoid.
const GraspEllipsoid& selected_ellipsoid(const GraspMetrics& g, const OverlayFlags& flags);

// Lines for the metrics box / status text about the drawn ellipsoid: its space ("joint space" or "synergy space
// (instance 'NAME')"), compatible inputs and semi-axes, or why none is drawn. "" when the overlay is off.
std::string ellipsoid_text(const GraspMetrics& g, const OverlayFlags& flags);

// Appends the enabled overlays for d's contacts and frames to scn (stops silently when scn is full).
void add_overlays(const mjModel* m, const mjData* d, const OverlayFlags& flags, mjvScene& scn);

// Appends the translation block of g's selected kinematic manipulability ellipsoid (selected_ellipsoid) as one
// mjGEOM_ELLIPSOID at the object centre, semi-axes flags.ellipsoid_scale x a_i: purple in joint space, green in
// synergy space (nothing when off, not computed, or scn is full).
void add_ellipsoid_overlay(const mjModel* m, const GraspMetrics& g, const OverlayFlags& flags, mjvScene& scn);

// Drawn semi-axis [m] of an ellipsoid semi-axis a: scale x a, at least 0.2 % of the model extent so that a flat
// (degenerate) direction still shows as a thin disc or line.
double ellipsoid_drawn_axis(const mjModel* m, const OverlayFlags& flags, double a);

// Length of a drawn force arrow per newton [m/N]: 0.02 x the model extent (stat.extent) times flags.force_scale.
double force_arrow_scale(const mjModel* m, const OverlayFlags& flags);

}  // namespace mjhand::view
