// Geoms the viewer adds to MuJoCo's scene: contact points, contact force arrows (mj_contactForce), friction cones,
// fingertip (site) frames, free-body (object) frames and the grasp's kinematic or force manipulability ellipsoid.
// Each is switched on its own.
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
  bool ellipsoid_force = false;      // draw the force manipulability ellipsoid instead of the kinematic one
  float force_ellipsoid_scale = 0.001f;   // drawn semi-axis [m] per force semi-axis [N per unit input], i.e. [m/N]
};

// Drawn size of an unbounded (+inf) force semi-axis as a share of the model extent (stat.extent); it is drawn at
// least twice the largest finite drawn semi-axis (ellipsoid_drawn_axes).
constexpr double kUnboundedAxisExtentShare = 0.25;

// The ellipsoid add_ellipsoid_overlay draws: the force or kinematic one (flags.ellipsoid_force) in synergy or joint
// space (flags.ellipsoid_synergies).
const GraspEllipsoid& selected_ellipsoid(const GraspMetrics& g, const OverlayFlags& flags);

// Lines for the metrics box / status text about the drawn ellipsoid: its kind ("kinematic" or "force"), space
// ("joint space" or "synergy space (instance 'NAME')"), inputs and semi-axes with units ("unbounded" for +inf
// force axes, with their drawn size when m is given), or why none is drawn. "" when the overlay is off.
std::string ellipsoid_text(const GraspMetrics& g, const OverlayFlags& flags, const mjModel* m = nullptr);

// Appends the enabled overlays for d's contacts and frames to scn (stops silently when scn is full).
void add_overlays(const mjModel* m, const mjData* d, const OverlayFlags& flags, mjvScene& scn);

// Appends the translation block of g's selected manipulability ellipsoid (selected_ellipsoid) as one
// mjGEOM_ELLIPSOID at the object centre with the semi-axes of ellipsoid_drawn_axes: kinematic purple (joint space) or
// green (synergy space), force orange (joint space) or blue (synergy space); nothing when off, not computed, or scn
// is full.
void add_ellipsoid_overlay(const mjModel* m, const GraspMetrics& g, const OverlayFlags& flags, mjvScene& scn);

// Drawn semi-axis [m] per unit semi-axis of the selected kind: flags.ellipsoid_scale [s] (kinematic) or
// flags.force_ellipsoid_scale [m/N] (force).
double ellipsoid_drawn_scale(const OverlayFlags& flags);

// Drawn semi-axis [m] of a finite ellipsoid semi-axis a: ellipsoid_drawn_scale x a, at least 0.2 % of the model
// extent so that a flat (degenerate) direction still shows as a thin disc or line.
double ellipsoid_drawn_axis(const mjModel* m, const OverlayFlags& flags, double a);

// Drawn size [m] of e's unbounded (+inf) semi-axes: max(kUnboundedAxisExtentShare x extent, 2 x the largest finite
// drawn semi-axis), so that they show as the longest.
double ellipsoid_unbounded_axis(const mjModel* m, const OverlayFlags& flags, const GraspEllipsoid& e);

// The three drawn semi-axes [m] of e (ellipsoid_drawn_axis, infinite ones at ellipsoid_unbounded_axis).
Eigen::Vector3d ellipsoid_drawn_axes(const mjModel* m, const OverlayFlags& flags, const GraspEllipsoid& e);

// Length of a drawn force arrow per newton [m/N]: 0.02 x the model extent (stat.extent) times flags.force_scale.
double force_arrow_scale(const mjModel* m, const OverlayFlags& flags);

}  // namespace mjhand::view
