// mjhand-view's grasp box with --palm/--fingers/--with-wrist (issue 18 point 2): the hand of its metrics follows the
// flags; the contact count is checked against MuJoCo's contact list filtered by the named fingers' subtrees.
#if __has_include("session.h") && __has_include("grasp_monitor.h")

#include <catch2/catch.hpp>

#include <string>

#include "grasp_monitor.h"
#include "session.h"
#include "test_util.h"

using namespace mjhand::view;
using mjhand_test::source_path;

namespace {

// Object contacts (dist <= 0) whose other body lies in the subtree of one of the roots.
int contacts_on(const mjModel* m, const mjData* d, int object, const std::vector<std::string>& roots) {
  int n = 0;
  for (int i = 0; i < d->ncon; ++i) {
    const int b1 = m->geom_bodyid[d->contact[i].geom[0]], b2 = m->geom_bodyid[d->contact[i].geom[1]];
    if ((b1 == object) == (b2 == object) || d->contact[i].dist > 0) continue;
    for (int b = b1 == object ? b2 : b1; b > 0; b = m->body_parentid[b]) {
      bool hit = false;
      for (const std::string& r : roots) hit = hit || b == mj_name2id(m, mjOBJ_BODY, r.c_str());
      if (hit) {
        ++n;
        break;
      }
    }
  }
  return n;
}

}  // namespace

TEST_CASE("viewer metrics: --palm/--fingers choose the grasp box's hand", "[viewer]") {
  Session s(source_path("models/real/shadow_scene.xml"));
  s.select_keyframe(s.find_keyframe("grasp"));
  mj_forward(s.m(), s.d());
  const int ball = mj_name2id(s.m(), mjOBJ_BODY, "ball");
  GraspMonitor all(s.m(), "");
  all.update(s.m(), s.d(), &s.instances(), false);
  const int five = contacts_on(s.m(), s.d(), ball,
                               {"rh_ffknuckle", "rh_mfknuckle", "rh_rfknuckle", "rh_lfmetacarpal", "rh_thbase"});
  CHECK(five >= 5);
  CHECK(all.metrics().contacts == five);  // inferred: 5 fingers below rh_palm
  GraspMonitor two(s.m(), "");
  two.set_hand_structure(s.m(), "", "rh_ffknuckle,rh_thbase", false);
  two.update(s.m(), s.d(), &s.instances(), false);
  CHECK(two.metrics().contacts == contacts_on(s.m(), s.d(), ball, {"rh_ffknuckle", "rh_thbase"}));
  CHECK(two.metrics().contacts < five);
  CHECK_THROWS_WITH(two.set_hand_structure(s.m(), "nope", "", false), Catch::Contains("--palm: no body named 'nope'"));
  GraspMonitor overlap(s.m(), "");
  overlap.set_hand_structure(s.m(), "", "rh_ffknuckle,rh_ffmiddle", false);
  overlap.update(s.m(), s.d(), &s.instances(), false);
  CHECK_THAT(overlap.text(), Catch::Contains("finger roots overlap"));
}

#endif
