#include "camera_framing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mjhand::view {

namespace {

// World axis-aligned box of geom g: its local box (geom_aabb: centre, half-sizes) under geom_xpos / geom_xmat.
void grow_by_geom(const mjModel* m, const mjData* d, int g, std::array<double, 3>& lo, std::array<double, 3>& hi) {
  const mjtNum* c = m->geom_aabb + 6 * g;
  const mjtNum* h = c + 3;
  const mjtNum* R = d->geom_xmat + 9 * g;
  for (int i = 0; i < 3; ++i) {
    double centre = d->geom_xpos[3 * g + i], half = 0;
    for (int k = 0; k < 3; ++k) {
      centre += R[3 * i + k] * c[k];
      half += std::abs(R[3 * i + k]) * h[k];
    }
    lo[i] = std::min(lo[i], centre - half);
    hi[i] = std::max(hi[i], centre + half);
  }
}

bool framed_geom(const mjModel* m, int g) { return m->geom_type[g] != mjGEOM_PLANE && m->geom_type[g] != mjGEOM_HFIELD; }

struct Box {
  std::array<double, 3> lo{}, hi{};
  bool empty = true;
  void reset() {
    lo.fill(std::numeric_limits<double>::infinity());
    hi.fill(-std::numeric_limits<double>::infinity());
    empty = true;
  }
  void add_body(const mjModel* m, const mjData* d, int b) {
    for (int g = m->body_geomadr[b]; g >= 0 && g < m->body_geomadr[b] + m->body_geomnum[b]; ++g) {
      if (!framed_geom(m, g)) continue;
      grow_by_geom(m, d, g, lo, hi);
      empty = false;
    }
  }
  double half_diagonal() const {
    double s = 0;
    for (int i = 0; i < 3; ++i) s += (hi[i] - lo[i]) * (hi[i] - lo[i]);
    return 0.5 * std::sqrt(s);
  }
};

// Marks body b as moved by an actuator.
void mark(const mjModel* m, int b, std::vector<char>& moved) {
  if (b > 0 && b < m->nbody) moved[b] = 1;
}

}  // namespace

HandFraming frame_hand_and_object(const mjModel* m, const mjData* d) {
  HandFraming f;
  std::vector<char> hand(m->nbody, 0);
  for (int a = 0; a < m->nu; ++a) {
    const int id = m->actuator_trnid[2 * a];
    switch (m->actuator_trntype[a]) {
      case mjTRN_JOINT:
      case mjTRN_JOINTINPARENT: mark(m, m->jnt_bodyid[id], hand); break;
      case mjTRN_SLIDERCRANK:
      case mjTRN_SITE: mark(m, m->site_bodyid[id], hand); break;
      case mjTRN_BODY: mark(m, id, hand); break;
      case mjTRN_TENDON:
        for (int w = m->tendon_adr[id]; w < m->tendon_adr[id] + m->tendon_num[id]; ++w) {
          if (m->wrap_type[w] == mjWRAP_JOINT) mark(m, m->jnt_bodyid[m->wrap_objid[w]], hand);
          if (m->wrap_type[w] == mjWRAP_SITE) mark(m, m->site_bodyid[m->wrap_objid[w]], hand);
        }
        break;
      default: break;
    }
  }
  // Descendants: body_parentid < body id in MuJoCo's tree order, so one forward pass closes the set.
  for (int b = 1; b < m->nbody; ++b) {
    if (hand[m->body_parentid[b]]) hand[b] = 1;
  }
  Box box;
  box.reset();
  for (int b = 1; b < m->nbody; ++b) {
    if (!hand[b]) continue;
    f.hand_bodies.push_back(b);
    box.add_body(m, d, b);
  }
  if (f.hand_bodies.empty() || box.empty) {
    for (int i = 0; i < 3; ++i) f.center[i] = m->stat.center[i];
    f.radius = m->stat.extent;
    return f;
  }
  f.found = true;
  const Box hand_box = box;
  const double hand_radius = hand_box.half_diagonal();

  // Free trees outside the hand: roots with a free joint whose tree holds no hand body (a floating hand's palm is
  // never its own object).
  std::vector<char> hand_tree(m->nbody, 0);
  for (int b : f.hand_bodies) hand_tree[m->body_rootid[b]] = 1;
  auto free_root = [&](int b) {
    const int r = m->body_rootid[b];
    return r > 0 && !hand_tree[r] && m->body_jntnum[r] > 0 && m->jnt_type[m->body_jntadr[r]] == mjJNT_FREE ? r : -1;
  };
  std::vector<int> roots;
  for (int c = 0; c < d->ncon; ++c) {
    const int b1 = m->geom_bodyid[d->contact[c].geom[0]], b2 = m->geom_bodyid[d->contact[c].geom[1]];
    if (hand[b1] && free_root(b2) >= 0) roots.push_back(free_root(b2));
    if (hand[b2] && free_root(b1) >= 0) roots.push_back(free_root(b1));
  }
  if (roots.empty()) {
    // Nearest free tree: the gap between its box and the hand's box (0 when they overlap).
    int best = -1;
    double best_gap = hand_radius;  // farther than one hand radius: not a grasped object
    for (int r = 1; r < m->nbody; ++r) {
      if (m->body_parentid[r] != 0 || free_root(r) != r) continue;
      Box ob;
      ob.reset();
      for (int b = r; b < m->nbody; ++b) {
        if (m->body_rootid[b] == r) ob.add_body(m, d, b);
      }
      if (ob.empty) continue;
      double gap2 = 0;
      for (int i = 0; i < 3; ++i) {
        const double g = std::max({0.0, ob.lo[i] - hand_box.hi[i], hand_box.lo[i] - ob.hi[i]});
        gap2 += g * g;
      }
      if (std::sqrt(gap2) <= best_gap) {
        best_gap = std::sqrt(gap2);
        best = r;
      }
    }
    if (best >= 0) roots.push_back(best);
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  for (int b = 1; b < m->nbody; ++b) {
    if (std::binary_search(roots.begin(), roots.end(), m->body_rootid[b])) {
      f.object_bodies.push_back(b);
      box.add_body(m, d, b);
    }
  }
  for (int i = 0; i < 3; ++i) f.center[i] = 0.5 * (box.lo[i] + box.hi[i]);
  f.radius = box.half_diagonal();
  return f;
}

double fit_distance(const mjModel* m, double radius) {
  const double half_fovy = 0.5 * m->vis.global.fovy * mjPI / 180;
  return radius / std::sin(half_fovy);
}

void frame_camera(const mjModel* m, const HandFraming& framing, mjvCamera& cam) {
  mjv_defaultFreeCamera(m, &cam);
  if (!framing.found) return;  // MuJoCo's own default: stat.center, 1.5 stat.extent
  for (int i = 0; i < 3; ++i) cam.lookat[i] = framing.center[i];
  cam.distance = fit_distance(m, framing.radius);
}

}  // namespace mjhand::view
