// mjhand-view's default camera (apps/mjhand-view/camera_framing.h, view core library; no display needed): it frames
// the hand and the grasped object. Checked on a real-hand scene (models/real/shadow_scene.xml, the grasp keyframe)
// and a generated scene (models/scenarios/power_sphere.xml, with a floor and a far ball added): the hand and object
// bodies by name, the lookat against the centre of their geoms' box computed here from each geom box's 8 corners,
// the distance against the bounding sphere and every corner inside MuJoCo's own view frustum (mjv_updateScene's
// camera), floor and far objects left out.
#if __has_include("camera_framing.h") && __has_include("session.h")

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "camera_framing.h"
#include "session.h"
#include "test_util.h"

using namespace mjhand::view;
using mjhand_test::source_path;

namespace {

std::set<std::string> names_of(const mjModel* m, const std::vector<int>& bodies) {
  std::set<std::string> out;
  for (int b : bodies) out.insert(mj_id2name(m, mjOBJ_BODY, b));
  return out;
}

// The 8 world corners of every non-plane geom of `bodies` (geom_aabb's box in the geom frame, moved by geom_xpos and
// geom_xmat): the points the camera must show.
std::vector<std::array<double, 3>> corners(const mjModel* m, const mjData* d, const std::set<std::string>& bodies) {
  std::vector<std::array<double, 3>> out;
  for (int g = 0; g < m->ngeom; ++g) {
    if (m->geom_type[g] == mjGEOM_PLANE || !bodies.count(mj_id2name(m, mjOBJ_BODY, m->geom_bodyid[g]))) continue;
    for (int k = 0; k < 8; ++k) {
      double local[3], world[3];
      for (int i = 0; i < 3; ++i) local[i] = m->geom_aabb[6 * g + i] + ((k >> i) & 1 ? 1 : -1) * m->geom_aabb[6 * g + 3 + i];
      mju_mulMatVec3(world, d->geom_xmat + 9 * g, local);
      out.push_back({world[0] + d->geom_xpos[3 * g], world[1] + d->geom_xpos[3 * g + 1], world[2] + d->geom_xpos[3 * g + 2]});
    }
  }
  return out;
}

// Checks the framing of d's state against the expected hand and object bodies.
void check_framing(const mjModel* m, mjData* d, const std::set<std::string>& hand, const std::set<std::string>& objects) {
  const HandFraming f = frame_hand_and_object(m, d);
  REQUIRE(f.found);
  CHECK(names_of(m, f.hand_bodies) == hand);
  CHECK(names_of(m, f.object_bodies) == objects);
  std::set<std::string> all = hand;
  all.insert(objects.begin(), objects.end());
  const auto pts = corners(m, d, all);
  REQUIRE(!pts.empty());
  std::array<double, 3> lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
  for (const auto& p : pts) {
    for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], p[i]), hi[i] = std::max(hi[i], p[i]);
  }
  double diag2 = 0;
  for (int i = 0; i < 3; ++i) diag2 += (hi[i] - lo[i]) * (hi[i] - lo[i]);
  mjvCamera cam;
  frame_camera(m, f, cam);
  // lookat = the box centre, distance = half-diagonal / sin(fovy/2): the same sums in another order, rounding
  for (int i = 0; i < 3; ++i) CHECK(cam.lookat[i] == Approx(0.5 * (lo[i] + hi[i])).margin(1e-12));
  const double half_fovy = m->vis.global.fovy * mjPI / 360;
  CHECK(cam.distance == Approx(0.5 * std::sqrt(diag2) / std::sin(half_fovy)).epsilon(1e-12));

  // Every corner is in view: its angle from MuJoCo's camera axis (mjv_updateScene's head position and forward
  // direction for this mjvCamera) is within the vertical half field of view (frustum_top / frustum_near). The
  // bounding sphere fits the cone exactly, so the margin is rounding only.
  mjvScene scn;
  mjvOption opt;
  mjv_defaultScene(&scn);
  mjv_defaultOption(&opt);
  mjv_makeScene(m, &scn, 2000);
  mjv_updateScene(m, d, &opt, nullptr, &cam, mjCAT_ALL, &scn);
  double head[3], forward[3], up[3];
  mjv_cameraInModel(head, forward, up, &scn);
  const double half_view = std::atan(scn.camera[0].frustum_top / scn.camera[0].frustum_near);
  CHECK(half_view == Approx(half_fovy).epsilon(1e-6));  // MuJoCo's frustum from fovy (float fields: ~1e-7)
  double widest = 0;
  for (const auto& p : pts) {
    double v[3] = {p[0] - head[0], p[1] - head[1], p[2] - head[2]};
    const double angle = std::acos(std::clamp(mju_dot3(v, forward) / mju_norm3(v), -1.0, 1.0));
    widest = std::max(widest, angle);
  }
  mjv_freeScene(&scn);
  CHECK(widest <= half_fovy * (1 + 1e-6));  // the float frustum/camera fields of mjvGLCamera: ~1e-7 relative
  // ... and the framing is tight: some corner uses at least half the field of view (a whole-scene camera on these
  // models sees the hand within a few degrees).
  CHECK(widest >= 0.5 * half_fovy);
}

}  // namespace

TEST_CASE("viewer camera: frames the Shadow hand and its grasped ball (models/real/shadow_scene.xml)", "[viewer]") {
  Session s(source_path("models/real/shadow_scene.xml"));
  s.select_keyframe(s.find_keyframe("grasp"));
  const mjModel* m = s.m();
  // Hand: the bodies the actuators move = everything from the wrist down; the fixed forearm mount is left out.
  std::set<std::string> hand;
  for (int b = 1; b < m->nbody; ++b) {
    const std::string n = mj_id2name(m, mjOBJ_BODY, b);
    if (n.rfind("rh_", 0) == 0 && n != "rh_forearm") hand.insert(n);
  }
  REQUIRE(hand.size() > 20);
  // The ball touches the fingers in the grasp keyframe: it is framed through the contacts.
  check_framing(m, s.d(), hand, {"ball"});
  const HandFraming f = frame_hand_and_object(m, s.d());
  // the floor (z = 0) is not framed: the box's bottom is the hand's (~0.2 m up), far above it
  CHECK(f.center[2] - f.radius > 0.05);
}

TEST_CASE("viewer camera: frames the generated gripper and the ball it will grasp, not the floor or a far ball",
          "[viewer]") {
  std::string xml = mjhand_test::read_all(source_path("models/scenarios/power_sphere.xml"));
  // A floor under everything and a second ball 1 m away, in the scene's last worldbody (the objects').
  const size_t at = xml.rfind("</worldbody>");
  REQUIRE(at != std::string::npos);
  xml.insert(at, R"(<geom name="floor" type="plane" pos="0 0 -0.2" size="2 2 0.05"/>
    <body name="far_ball" pos="1 0 0.035"><freejoint/><geom type="sphere" size="0.03" density="700"/></body>
)");
  auto model = mjhand_test::load_xml_string(xml);
  const mjModel* m = model.get();
  auto data = mjhand::make_data(m);
  mj_forward(m, data.get());
  std::set<std::string> hand;
  for (const char* f : {"f1", "f2", "f3", "f4"}) {
    for (int k = 1; k <= 3; ++k) hand.insert(std::string(f) + "_link" + std::to_string(k));
  }
  // No finger touches the ball yet (open hand): it is the nearest free body, within one hand radius.
  check_framing(m, data.get(), hand, {"ball"});
  // A floating hand (the palm on a free joint) with the ball moved out of reach: the palm, a free tree overlapping
  // the fingers, is not taken for the object; nothing is.
  std::string floating = xml;
  const std::string palm = "<body name=\"palm\" pos=\"0 0 0\" quat=\"1 0 0 0\">";
  const std::string ball = "<body name=\"ball\" pos=\"-0.01 0 0.035\"";
  REQUIRE(floating.find(palm) != std::string::npos);
  REQUIRE(floating.find(ball) != std::string::npos);
  floating.insert(floating.find(palm) + palm.size(), "<freejoint name=\"palm_free\"/>");
  floating.replace(floating.find(ball), ball.size(), "<body name=\"ball\" pos=\"0 -1 0.035\"");
  {
    auto fm = mjhand_test::load_xml_string(floating);
    auto fd = mjhand::make_data(fm.get());
    mj_forward(fm.get(), fd.get());
    check_framing(fm.get(), fd.get(), hand, {});
  }
  // MuJoCo's default camera looks at the whole scene (floor 4 m wide): the framing is several times closer.
  mjvCamera whole;
  mjv_defaultFreeCamera(m, &whole);
  mjvCamera framed;
  frame_camera(m, frame_hand_and_object(m, data.get()), framed);
  CHECK(framed.distance < 0.25 * whole.distance);
}

TEST_CASE("viewer camera: a model without actuators keeps MuJoCo's default camera", "[viewer]") {
  auto model = mjhand_test::load_xml_string(R"(<mujoco><worldbody><geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.05"/></body></worldbody></mujoco>)");
  auto data = mjhand::make_data(model.get());
  mj_forward(model.get(), data.get());
  const HandFraming f = frame_hand_and_object(model.get(), data.get());
  CHECK_FALSE(f.found);
  mjvCamera cam, def;
  frame_camera(model.get(), f, cam);
  mjv_defaultFreeCamera(model.get(), &def);
  for (int i = 0; i < 3; ++i) CHECK(cam.lookat[i] == def.lookat[i]);
  CHECK(cam.distance == def.distance);
}

#endif
