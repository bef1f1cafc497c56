// mjhand-view's manipulability ellipsoid through the model's synergies (issue 19 item 3): on the synergy-driven hand
// holding a free ball (models/direct_drive_synergy_grasp.xml), the synergy-space ellipsoid the viewer draws is
// checked against one computed here from MuJoCo's own contacts (d->contact frames, mj_jac) and S read from the
// committed CSV by hand, by an independent route (LU kernel, QR, complete orthogonal decomposition); it lies inside
// the joint-space one (S has orthonormal columns), and rendered offscreen ([render], under xvfb-run) its pixels lie
// on the drawn ellipsoid and cover a fraction of the joint-space ellipsoid's.
#if __has_include("session.h") && __has_include("grasp_monitor.h") && __has_include("render/offscreen_renderer.h")

#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/hand/synergies.h>
#include <mjhand/util/dense_decompositions.h>
#include "grasp_monitor.h"
#include "overlays.h"
#include "render/gl_context.h"
#include "render/image.h"
#include "render/offscreen_renderer.h"
#include "session.h"
#include "test_util.h"
#include "viewer_grasp_util.h"

using namespace mjhand::view;
using mjhand_test::source_path;
using namespace mjhand_test::viewer;

TEST_CASE("viewer synergy ellipsoid: equals the one from MuJoCo's contacts and the CSV's S, inside the joint one",
          "[viewer]") {
  Session s(source_path(kGraspScene));
  load_grasp(s);
  GraspMonitor mon(s.m(), "");
  mon.update(s.m(), s.d(), &s.instances(), false);
  const GraspMetrics& gm = mon.metrics();
  REQUIRE(gm.object_name == "ball");
  CHECK(gm.synergy_instance == "synergy");
  CHECK(gm.synergy_note.empty());
  REQUIRE(gm.ellipsoid.ok);
  REQUIRE(gm.synergy_ellipsoid.ok);

  std::vector<std::string> joints;
  Eigen::MatrixXd S;
  read_csv(joints, S);
  REQUIRE(S.rows() == 15);
  REQUIRE(S.cols() == 3);
  Eigen::MatrixXd G, J;
  mujoco_grasp(s.m(), s.d(), mj_name2id(s.m(), mjOBJ_BODY, "ball"), joints, G, J);
  CHECK(G.cols() == 7);  // palm (frictionless, 1 row) + fingers 3 and 4 (hard, 3 rows each)
  int compatible_syn = 0, compatible_joint = 0;
  const Eigen::Matrix3d Es = translation_shape(G, J, S, compatible_syn);
  const Eigen::Matrix3d Ej = translation_shape(G, J, Eigen::MatrixXd::Identity(15, 15), compatible_joint);
  const Eigen::Vector3d as = semi_axes(Es), aj = semi_axes(Ej);
  const GraspEllipsoid& syn = gm.synergy_ellipsoid;
  CHECK(syn.inputs == 3);
  CHECK(syn.compatible_inputs == compatible_syn);
  CHECK(compatible_syn == 2);  // measured (the model's comment): 7 rows, rank G = 6, 3 synergies
  CHECK(gm.ellipsoid.compatible_inputs == compatible_joint);
  for (int i = 0; i < 3; ++i) {
    // Rounding of SVD vs LU/QR/eigen routes on J_H entries of a few cm: 1e-9 of the largest axis.
    CHECK(syn.axes(i) == Approx(as(i)).margin(1e-9 * as(0)));
    CHECK(gm.ellipsoid.axes(i) == Approx(aj(i)).margin(1e-9 * aj(0)));
  }
  // Measured figures (docs/mjhand-view.md): joint 0.0492, 0.0283, 0; synergy 0.0332, 0.000406, 0 [m/s per unit].
  CHECK(as(0) == Approx(0.0332).epsilon(0.01));
  CHECK(aj(0) == Approx(0.0492).epsilon(0.01));
  // The major axis is well separated from the next one (ratio ~80): its direction is defined, up to sign.
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(Es);
  CHECK(std::abs(syn.dirs.col(0).dot(es.eigenvectors().col(2))) == Approx(1).epsilon(1e-6));
  CHECK((syn.centre - Eigen::Vector3d(s.d()->xipos + 3 * mj_name2id(s.m(), mjOBJ_BODY, "ball"))).norm() == 0.0);

  // Containment: S's columns are orthonormal (PCA directions), so |S dz| = |dz| and every compatible synergy input
  // is a compatible joint input of the same norm: the synergy ellipsoid lies inside the joint one, Ej - Es is
  // positive semidefinite, and (Weyl) each semi-axis is at most the joint one.
  CHECK((S.transpose() * S - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-12);  // rounding of 15-term sums
  const double lowest = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(Ej - Es).eigenvalues()(0);
  CHECK(lowest > -1e-12 * Ej.norm());  // rounding only
  for (int i = 0; i < 3; ++i) CHECK(syn.axes(i) <= gm.ellipsoid.axes(i) * (1 + 1e-9));
  // Flatter: the second synergy axis is ~1 % of the first (measured 0.012), the joint one 57 %.
  CHECK(syn.axes(1) < 0.05 * syn.axes(0));
  CHECK(gm.ellipsoid.axes(1) > 0.3 * gm.ellipsoid.axes(0));

  // The drawn geom: synergy space when selected, its semi-axes scaled, in green; the text says which.
  mjvScene scn;
  mjv_defaultScene(&scn);
  mjv_makeScene(s.m(), &scn, 10);
  OverlayFlags f;
  f.manip_ellipsoid = true;
  f.ellipsoid_synergies = true;
  add_ellipsoid_overlay(s.m(), gm, f, scn);
  REQUIRE(scn.ngeom == 1);
  for (int i = 0; i < 3; ++i) {
    // mjvGeom stores floats: relative 1e-6.
    CHECK(scn.geoms[0].size[i] == Approx(ellipsoid_drawn_axis(s.m(), f, syn.axes(i))).epsilon(1e-6));
  }
  CHECK(scn.geoms[0].rgba[1] > scn.geoms[0].rgba[0]);
  CHECK_THAT(ellipsoid_text(gm, f), Catch::Contains("synergy space (instance 'synergy')") &&
                                        Catch::Contains("2 of 3 compatible"));
  f.ellipsoid_synergies = false;
  CHECK_THAT(ellipsoid_text(gm, f), Catch::Contains("joint space"));
  mjv_freeScene(&scn);

  // S follows plugin edits (the instance list is rebuilt): S doubled doubles the synergy ellipsoid, not the joint one.
  std::string doubled;
  for (Eigen::Index c = 0; c < 3; ++c) {
    for (Eigen::Index i = 0; i < 15; ++i) doubled += (doubled.empty() ? "" : ",") + std::to_string(2 * S(i, c));
  }
  REQUIRE(s.set_key("synergy", "S", doubled).empty());
  mj_forward(s.m(), s.d());
  mon.update(s.m(), s.d(), &s.instances(), false);
  // std::to_string keeps 6 decimals: S entries to 5e-7 absolute, about 2e-6 relative on the axes.
  CHECK(mon.metrics().synergy_ellipsoid.axes(0) == Approx(2 * as(0)).epsilon(1e-5));
  CHECK(mon.metrics().ellipsoid.axes(0) == Approx(aj(0)).epsilon(1e-9));
}

TEST_CASE("viewer synergy ellipsoid: a model without synergies says so and draws none in synergy space", "[viewer]") {
  Session g(source_path("models/grasp_sensor_scene.xml"));
  mj_forward(g.m(), g.d());
  GraspMonitor mon(g.m(), "");
  mon.update(g.m(), g.d(), &g.instances(), false);
  const GraspMetrics& gm = mon.metrics();
  CHECK(gm.synergy_instance.empty());
  CHECK_THAT(gm.synergy_note, Catch::Contains("no synergy plugin instance"));
  CHECK_FALSE(gm.synergy_ellipsoid.ok);
  mjvScene scn;
  mjv_defaultScene(&scn);
  mjv_makeScene(g.m(), &scn, 10);
  OverlayFlags f;
  f.manip_ellipsoid = f.ellipsoid_synergies = true;
  add_ellipsoid_overlay(g.m(), gm, f, scn);
  CHECK(scn.ngeom == 0);
  mjv_freeScene(&scn);
  CHECK_THAT(ellipsoid_text(gm, f), Catch::Contains("no synergy plugin instance"));
  // The dof mapping refuses a synergy set whose resolved joints do not match it.
  mjhand::Synergies s;
  s.joints = {"a", "b"};
  s.q0 = Eigen::Vector2d::Zero();
  s.S = Eigen::MatrixXd::Ones(2, 1);
  CHECK_THROWS_WITH(mjhand::synergy_matrix_on_dofs(s, mjhand::SynergyJoints{}, {0, 1}),
                    Catch::Contains("synergy_matrix_on_dofs") && Catch::Contains("0 resolved joints"));
}

namespace {

// Pixels where two renders differ by more than 24 in some channel (the ellipsoid's footprint; rendering is
// deterministic, so identical scenes give identical pixels).
std::vector<char> footprint(const mjhand::render::RgbImage& a, const mjhand::render::RgbImage& b) {
  std::vector<char> out(static_cast<size_t>(a.width) * a.height, 0);
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      const unsigned char *p = a.at(x, y), *q = b.at(x, y);
      for (int k = 0; k < 3; ++k) out[static_cast<size_t>(y) * a.width + x] |= std::abs(p[k] - q[k]) > 24;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("viewer synergy ellipsoid rendered: on the drawn ellipsoid, a sliver of the joint-space one", "[render]") {
  if (mjhand_test::skip_without(mjhand::render::display_available(),
                                "an X display (ctest runs these cases under xvfb-run)")) {
    return;
  }
  Session s(source_path(kGraspScene));
  load_grasp(s);
  const mjModel* m = s.m();
  GraspMonitor mon(m, "");
  mon.update(m, s.d(), &s.instances(), false);
  const GraspMetrics& gm = mon.metrics();
  REQUIRE(gm.synergy_ellipsoid.ok);
  // Look at the ellipsoid centre along the joint ellipse's normal (its zero axis; the synergy ellipse lies in the same
  // plane), from the palm's open side (+Y), the elevation kept within +-80 deg (MuJoCo's free camera is undefined
  // straight up or down); the rays below use MuJoCo's free-camera frame for that azimuth and elevation.
  Eigen::Vector3d fwd = gm.ellipsoid.dirs.col(2);
  if (fwd.y() > 0) fwd = -fwd;
  const double el = std::max(-80.0, std::min(80.0, std::asin(fwd.z()) * 180 / M_PI));
  const double az = std::atan2(fwd.y(), fwd.x()) * 180 / M_PI, dist = 0.6;
  const double ce = std::cos(el * M_PI / 180), se = std::sin(el * M_PI / 180);
  const double ca = std::cos(az * M_PI / 180), sa = std::sin(az * M_PI / 180);
  const Eigen::Vector3d f(ce * ca, ce * sa, se), up(-se * ca, -se * sa, ce), right = f.cross(up);
  const Eigen::Vector3d c = gm.ellipsoid.centre, eye = c - dist * f;
  const mjhand::render::CameraView view =
      mjhand::render::CameraView::free({c.x(), c.y(), c.z()}, dist, az, el);
  const int W = 320, H = 240;
  mjhand::render::OffscreenRenderer r(m, W, H);
  OverlayFlags flags;
  flags.contact_points = flags.contact_forces = flags.tip_frames = flags.object_frames = false;
  auto shot = [&](bool on, bool synergies) {
    flags.manip_ellipsoid = on;
    flags.ellipsoid_synergies = synergies;
    mjhand::render::RenderHooks hooks;
    hooks.add_geoms = [&](mjvScene& scn) { add_ellipsoid_overlay(m, gm, flags, scn); };
    mjhand::render::RgbImage img;
    r.render(s.d(), view, img, &hooks);
    return img;
  };
  const mjhand::render::RgbImage none = shot(false, false), joint = shot(true, false), syn = shot(true, true);
  const std::vector<char> fj = footprint(none, joint), fs = footprint(none, syn);
  // Whether the ray through pixel (x, y) meets the drawn ellipsoid e, its semi-axes grown by `grow` [m].
  const double t = std::tan(0.5 * m->vis.global.fovy * M_PI / 180);
  auto hits = [&](const GraspEllipsoid& e, int x, int y, double grow) {
    const Eigen::Vector3d ray =
        f + t * ((x + 0.5 - 0.5 * W) / (0.5 * H)) * right + t * ((0.5 * H - y - 0.5) / (0.5 * H)) * up;
    Eigen::Vector3d inv;
    for (int i = 0; i < 3; ++i) inv(i) = 1 / (ellipsoid_drawn_axis(m, flags, e.axes(i)) + grow);
    const Eigen::Vector3d o = inv.asDiagonal() * (e.dirs.transpose() * (eye - c)),
                          v = inv.asDiagonal() * (e.dirs.transpose() * ray);
    const double b = o.dot(v), disc = b * b - v.squaredNorm() * (o.squaredNorm() - 1);
    return disc >= 0;
  };
  const double px = 2 * dist * t / H;  // one pixel at the ellipsoid's distance [m]
  long nj = 0, ns = 0, ns_outside = 0, nj_outside = 0, ns_in_joint = 0, joint_expected = 0;
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      const size_t i = static_cast<size_t>(y) * W + x;
      nj += fj[i];
      ns += fs[i];
      // Antialiasing (multisampling) and the perspective's few-% depth spread: 2 pixels of slack.
      nj_outside += fj[i] && !hits(gm.ellipsoid, x, y, 2 * px);
      ns_outside += fs[i] && !hits(gm.synergy_ellipsoid, x, y, 2 * px);
      ns_in_joint += fs[i] && fj[i];
      joint_expected += hits(gm.ellipsoid, x, y, -2 * px);
    }
  }
  INFO("joint " << nj << " px (expected region " << joint_expected << "), synergy " << ns << " px");
  CHECK(nj_outside == 0);  // every changed pixel lies on the drawn ellipsoid
  CHECK(ns_outside == 0);
  // The ball and fingers hide part of the joint ellipse (the ball's disc is ~8 % of it here); the rest shows.
  CHECK(nj > joint_expected / 2);
  CHECK(ns > 0);
  // The synergy ellipse is a sliver inside the joint one: second semi-axis 1.2 % of the first.
  CHECK(ns < nj / 5);
  CHECK(ns_in_joint >= ns * 9 / 10);  // inside, up to the antialiased rim of the joint ellipse (measured: all)
}

#endif
