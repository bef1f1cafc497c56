#include "overlays.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace mjhand::view {

namespace {
mjvGeom* next_geom(mjvScene& scn) {
  if (scn.ngeom >= scn.maxgeom) return nullptr;
  mjvGeom* g = scn.geoms + scn.ngeom;
  return g;
}

void commit(mjvScene& scn, mjvGeom* g) {
  g->category = mjCAT_DECOR;
  g->objtype = mjOBJ_UNKNOWN;
  g->objid = -1;
  g->segid = scn.ngeom;
  ++scn.ngeom;
}

void add_sphere(mjvScene& scn, const mjtNum* pos, double r, const float rgba[4]) {
  mjvGeom* g = next_geom(scn);
  if (!g) return;
  const mjtNum size[3] = {r, r, r};
  mjv_initGeom(g, mjGEOM_SPHERE, size, pos, nullptr, rgba);
  commit(scn, g);
}

void add_connector(mjvScene& scn, int type, double width, const mjtNum* a, const mjtNum* b, const float rgba[4]) {
  mjvGeom* g = next_geom(scn);
  if (!g) return;
  mjv_initGeom(g, type, nullptr, nullptr, nullptr, rgba);
  mjv_connector(g, type, width, a, b);
  commit(scn, g);
}

// Three arrows along the columns of a row-major rotation matrix.
void add_frame(mjvScene& scn, const mjtNum* pos, const mjtNum* mat, double length, double width) {
  static const float colors[3][4] = {{0.9f, 0.1f, 0.1f, 1}, {0.1f, 0.8f, 0.1f, 1}, {0.1f, 0.3f, 0.95f, 1}};
  for (int k = 0; k < 3; ++k) {
    const mjtNum end[3] = {pos[0] + length * mat[k], pos[1] + length * mat[3 + k], pos[2] + length * mat[6 + k]};
    add_connector(scn, mjGEOM_ARROW, width, pos, end, colors[k]);
  }
}

bool ends_with_tip(const char* name) {
  if (!name) return false;
  const size_t n = std::strlen(name);
  if (n < 3) return false;
  return std::tolower(name[n - 3]) == 't' && std::tolower(name[n - 2]) == 'i' && std::tolower(name[n - 1]) == 'p';
}
}  // namespace

double force_arrow_scale(const mjModel* m, const OverlayFlags& flags) {
  // MuJoCo's own scale (vis.map.force / stat.meanmass) makes metre-long arrows for gram-sized finger links; a fixed
  // share of the model's size per newton keeps hand-scale forces (0.1 .. 10 N) readable.
  const double extent = m->stat.extent > 0 ? m->stat.extent : 1.0;
  return 0.02 * extent * flags.force_scale;
}

double ellipsoid_drawn_scale(const OverlayFlags& flags) {
  return flags.ellipsoid_force ? flags.force_ellipsoid_scale : flags.ellipsoid_scale;
}

double ellipsoid_drawn_axis(const mjModel* m, const OverlayFlags& flags, double a) {
  const double extent = m->stat.extent > 0 ? m->stat.extent : 1.0;
  return std::max(ellipsoid_drawn_scale(flags) * a, 0.002 * extent);
}

double ellipsoid_unbounded_axis(const mjModel* m, const OverlayFlags& flags, const GraspEllipsoid& e) {
  const double extent = m->stat.extent > 0 ? m->stat.extent : 1.0;
  double largest = 0;
  for (int i = 0; i < 3; ++i) {
    if (std::isfinite(e.axes(i))) largest = std::max(largest, ellipsoid_drawn_axis(m, flags, e.axes(i)));
  }
  return std::max(kUnboundedAxisExtentShare * extent, 2 * largest);
}

Eigen::Vector3d ellipsoid_drawn_axes(const mjModel* m, const OverlayFlags& flags, const GraspEllipsoid& e) {
  Eigen::Vector3d out;
  for (int i = 0; i < 3; ++i) {
    out(i) = std::isfinite(e.axes(i)) ? ellipsoid_drawn_axis(m, flags, e.axes(i)) : ellipsoid_unbounded_axis(m, flags, e);
  }
  return out;
}

const GraspEllipsoid& selected_ellipsoid(const GraspMetrics& g, const OverlayFlags& flags) {
  if (flags.ellipsoid_force) return flags.ellipsoid_synergies ? g.synergy_force_ellipsoid : g.force_ellipsoid;
  return flags.ellipsoid_synergies ? g.synergy_ellipsoid : g.ellipsoid;
}

std::string ellipsoid_text(const GraspMetrics& g, const OverlayFlags& flags, const mjModel* m) {
  if (!flags.manip_ellipsoid) return "";
  const std::string kind = flags.ellipsoid_force ? "force" : "kinematic";
  const std::string space =
      flags.ellipsoid_synergies ? "synergy space (instance '" + g.synergy_instance + "')" : "joint space";
  const GraspEllipsoid& e = selected_ellipsoid(g, flags);
  if (flags.ellipsoid_synergies && !g.synergy_note.empty()) {
    return "ellipsoid   " + kind + ", synergy space: " + g.synergy_note;
  }
  if (!e.ok) return "ellipsoid   " + kind + ", " + space + ": no grasp to draw";
  char buf[512];
  if (!flags.ellipsoid_force) {
    std::snprintf(buf, sizeof buf,
                  "ellipsoid   kinematic, %s\n  inputs    %d of %d compatible %s\n  semi-axes %.3g %.3g %.3g m/s\n"
                  "  drawn     %.3g m per m/s",
                  space.c_str(), e.compatible_inputs, e.inputs,
                  flags.ellipsoid_synergies ? "synergy speeds" : "joint speeds", e.axes(0), e.axes(1), e.axes(2),
                  ellipsoid_drawn_scale(flags));
    return buf;
  }
  std::string axes;
  for (int i = 0; i < 3; ++i) {
    char a[32];
    std::snprintf(a, sizeof a, "%.3g", e.axes(i));
    axes += std::string(i ? " " : "") + (std::isfinite(e.axes(i)) ? a : "unbounded");
  }
  std::snprintf(buf, sizeof buf, "ellipsoid   force, %s\n  inputs    %d %s\n  semi-axes %s N\n  drawn     %.3g mm per N",
                space.c_str(), e.inputs,
                flags.ellipsoid_synergies ? "synergy forces (unit sigma = S^T tau)" : "joint torques (unit 1 N m)",
                axes.c_str(), 1000 * ellipsoid_drawn_scale(flags));
  std::string s = buf;
  if (e.unbounded > 0) {
    // Forces some contact forces with zero joint torque (synergy force) exert: the structure holds them.
    if (m) {
      std::snprintf(buf, sizeof buf, ", unbounded %.3g m", ellipsoid_unbounded_axis(m, flags, e));
      s += buf;
    }
    std::snprintf(buf, sizeof buf, "\n  %d unbounded: exerted with no input", e.unbounded);
    s += buf;
  }
  return s;
}

void add_ellipsoid_overlay(const mjModel* m, const GraspMetrics& g, const OverlayFlags& flags, mjvScene& scn) {
  const GraspEllipsoid& e = selected_ellipsoid(g, flags);
  if (!flags.manip_ellipsoid || !e.ok) return;
  mjvGeom* geom = next_geom(scn);
  if (!geom) return;
  static const float joint_rgba[4] = {0.6f, 0.25f, 0.95f, 0.5f};
  static const float synergy_rgba[4] = {0.1f, 0.85f, 0.3f, 0.5f};
  static const float force_joint_rgba[4] = {0.95f, 0.55f, 0.1f, 0.5f};
  static const float force_synergy_rgba[4] = {0.1f, 0.55f, 0.95f, 0.5f};
  const float* rgba = flags.ellipsoid_force ? (flags.ellipsoid_synergies ? force_synergy_rgba : force_joint_rgba)
                                            : (flags.ellipsoid_synergies ? synergy_rgba : joint_rgba);
  const Eigen::Vector3d drawn = ellipsoid_drawn_axes(m, flags, e);
  mjtNum size[3], pos[3], mat[9];
  for (int i = 0; i < 3; ++i) {
    size[i] = drawn(i);
    pos[i] = e.centre(i);
    for (int j = 0; j < 3; ++j) mat[3 * i + j] = e.dirs(i, j);  // row-major; geom axis j = direction j
  }
  mjv_initGeom(geom, mjGEOM_ELLIPSOID, size, pos, mat, rgba);
  commit(scn, geom);
}

void add_overlays(const mjModel* m, const mjData* d, const OverlayFlags& flags, mjvScene& scn) {
  const double size = m->stat.meansize > 0 ? m->stat.meansize : 0.01;
  const double extent = m->stat.extent > 0 ? m->stat.extent : 1.0;
  static const float point_rgba[4] = {0.95f, 0.85f, 0.1f, 1};
  static const float force_rgba[4] = {0.95f, 0.3f, 0.1f, 1};
  static const float cone_rgba[4] = {0.2f, 0.8f, 0.9f, 0.8f};
  const double scale = force_arrow_scale(m, flags);
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    if (flags.contact_points) add_sphere(scn, c.pos, 0.15 * size, point_rgba);
    if (flags.contact_forces) {
      mjtNum f6[6], fw[3];
      mj_contactForce(m, d, i, f6);
      // c.frame rows are n, t1, t2: the world force is the transpose applied to the contact-frame force (on geom2).
      mju_mulMatTVec(fw, c.frame, f6, 3, 3);
      const mjtNum end[3] = {c.pos[0] + scale * fw[0], c.pos[1] + scale * fw[1], c.pos[2] + scale * fw[2]};
      if (mju_norm3(fw) * scale > 1e-6) add_connector(scn, mjGEOM_ARROW, 0.08 * size, c.pos, end, force_rgba);
    }
    if (flags.friction_cones && c.dim >= 3) {
      const double mu = c.friction[0];
      const double length = 0.03 * extent;
      const int edges = 8;
      for (int k = 0; k < edges; ++k) {
        const double a = 2 * M_PI * k / edges;
        mjtNum dir[3];
        for (int j = 0; j < 3; ++j) {
          dir[j] = c.frame[j] + mu * (std::cos(a) * c.frame[3 + j] + std::sin(a) * c.frame[6 + j]);
        }
        mju_normalize3(dir);
        const mjtNum end[3] = {c.pos[0] + length * dir[0], c.pos[1] + length * dir[1], c.pos[2] + length * dir[2]};
        add_connector(scn, mjGEOM_LINE, 2.0, c.pos, end, cone_rgba);
      }
    }
  }
  const double frame_len = 0.08 * extent, frame_width = 0.03 * size;
  if (flags.tip_frames) {
    bool any_tip = false;
    for (int s = 0; s < m->nsite; ++s) any_tip |= ends_with_tip(mj_id2name(m, mjOBJ_SITE, s));
    for (int s = 0; s < m->nsite; ++s) {
      if (any_tip && !ends_with_tip(mj_id2name(m, mjOBJ_SITE, s))) continue;
      add_frame(scn, d->site_xpos + 3 * s, d->site_xmat + 9 * s, 0.5 * frame_len, 0.6 * frame_width);
    }
  }
  if (flags.object_frames) {
    for (int b = 1; b < m->nbody; ++b) {
      if (m->body_jntnum[b] >= 1 && m->jnt_type[m->body_jntadr[b]] == mjJNT_FREE) {
        add_frame(scn, d->xpos + 3 * b, d->xmat + 9 * b, frame_len, frame_width);
      }
    }
  }
}

}  // namespace mjhand::view
