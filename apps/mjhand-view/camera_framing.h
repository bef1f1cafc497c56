// The viewer's default camera: frames the hand and the object it grasps, not the whole scene (floor, table, far
// objects). The rule, in model terms:
//   hand    = every body moved by an actuator: the body of each actuated joint, of each joint or site a tendon
//             actuator's tendon passes, of an actuated site or body, and all their descendants. The static mount
//             they hang from (a fixed palm, base or forearm) is left out: a fixed palm lies between its fingers anyway,
//             and a forearm would double the framed length.
//   objects = the free trees (a world child with a free joint, holding no hand body) with a geom in contact with
//             a hand geom in d; when none touches the hand, the one free tree nearest to the hand's centre, if its
//             geoms come within one hand radius of the hand's box.
//   framed  = the world axis-aligned box of those bodies' geoms (each geom's own box, m->geom_aabb, turned into the
//             world frame; planes skipped); lookat = its centre, radius = its half-diagonal.
//   camera  = a free camera at lookat, distance = radius / sin(fovy / 2) (the sphere fills the vertical field of
//             view, m->vis.global.fovy), azimuth/elevation from m->vis.global.
// Models without actuated bodies keep MuJoCo's default (m->stat.center, 1.5 m->stat.extent).
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <vector>

namespace mjhand::view {

struct HandFraming {
  bool found = false;                 // false: no actuated body; centre/radius are MuJoCo's stat.center / extent
  std::vector<int> hand_bodies;       // bodies counted as the hand
  std::vector<int> object_bodies;     // bodies of the framed objects (whole free trees)
  std::array<double, 3> center{0, 0, 0};  // centre of the framed box [m, world]
  double radius = 0;                  // half-diagonal of the framed box [m]
};

// Hand and grasped-object framing of d's state (uses d->geom_xpos, geom_xmat and the contacts of the last
// mj_forward/mj_step), by the rule above.
HandFraming frame_hand_and_object(const mjModel* m, const mjData* d);

// Free-camera distance at which a sphere of `radius` fills the free camera's vertical field of view:
// radius / sin(fovy / 2) [m] (fovy = m->vis.global.fovy in degrees).
double fit_distance(const mjModel* m, double radius);

// The framing as MuJoCo's free camera (type mjCAMERA_FREE): lookat, distance, and the model's azimuth/elevation.
// Without a hand (framing.found false) it is the model default: stat.center at 1.5 stat.extent.
void frame_camera(const mjModel* m, const HandFraming& framing, mjvCamera& cam);

}  // namespace mjhand::view
