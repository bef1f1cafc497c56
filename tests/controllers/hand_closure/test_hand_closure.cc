// hand_closure: every step each setpoint advances by its increment exactly when no contact signal of its phalanx or a
// more distal one of its finger was 1 (the paper's OR of the distal signals), holds otherwise, and resumes when the
// contact is lost.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <mjhand/hand_closure/hand_closure.h>
#include <mjhand/native/native_plugins.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>
#include "test_util.h"

using mjhand_test::source_path;

namespace {

mjhand::BuiltScene precision_sphere() {
  return mjhand::build_scene(mjhand::load_scene_spec(source_path("models/scenarios/precision_sphere.yaml")));
}

// The closure instance's setpoints (its native state: time of the last update, then one setpoint per actuator) and
// their upper limit, the joint's range (the servo clamps there, as the position actuators clamped to their ctrlrange).
const mjtNum* setpoints(const mjModel* m, mjData* d) {
  return mjhand::native_state(m, d, mj_name2id(m, mjOBJ_PLUGIN, mjhand::kSceneCloser)) + 1;
}
double upper(const mjModel* m, int a) { return m->jnt_range[2 * m->actuator_trnid[2 * a] + 1]; }

// Blocking rule of the gripper's layout: actuator f*3+k (finger f, phalanx k) is held by signals f*3+k .. f*3+2.
bool blocked(const std::vector<double>& signals, int actuator) {
  const int f = actuator / 3, k = actuator % 3;
  for (int j = k; j < 3; ++j) {
    if (signals[f * 3 + j] > 0.5) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("Hand closure advances each joint until its phalanx or a distal one touches, then holds", "[hand_closure]") {
  const mjhand::BuiltScene scene = precision_sphere();
  const mjModel* m = scene.model.get();
  REQUIRE(m->nu == 12);
  auto d = mjhand_test::make_data(m);
  const int adr = m->sensor_adr[mj_name2id(m, mjOBJ_SENSOR, mjhand::kSceneDetector)];
  const double inc = 5e-4;
  std::vector<double> signals(13, 0.0), ctrl(12, 0.0);
  int held_steps = 0, advanced_steps = 0;
  std::vector<int> first_hold(12, -1);
  for (int step = 0; step < 6000; ++step) {
    mj_step(m, d.get());
    const mjtNum* sp = setpoints(m, d.get());
    for (int a = 0; a < 12; ++a) {
      const double hi = upper(m, a);
      // The controller ran before this step's constraint solve, so it saw the signals of the previous step.
      const double expected = blocked(signals, a) ? ctrl[a] : std::min(ctrl[a] + inc, hi);
      INFO("step " << step << " actuator " << a);
      // the plugin adds the same 5e-4 to the same setpoint (< 2 rad) or holds it: equal up to rounding
      REQUIRE(sp[a] == Approx(expected).margin(1e-12));
      if (blocked(signals, a)) {
        ++held_steps;
        if (first_hold[a] < 0) first_hold[a] = step;
      } else {
        ++advanced_steps;
      }
      ctrl[a] = sp[a];
    }
    for (int c = 0; c < 13; ++c) signals[c] = d->sensordata[adr + c];
  }
  // Every joint was stopped by a contact at some point and the rule was exercised both ways.
  for (int a = 0; a < 12; ++a) CHECK(first_hold[a] >= 0);
  CHECK(held_steps > 1000);
  CHECK(advanced_steps > 1000);
  // At the end each finger is stopped at its tip and no setpoint reached its upper limit (the sphere stopped them).
  for (int f = 0; f < 4; ++f) CHECK(signals[f * 3 + 2] == 1.0);
  for (int a = 0; a < 12; ++a) CHECK(setpoints(m, d.get())[a] < upper(m, a));
}

TEST_CASE("Hand closure resumes when the contact is lost", "[hand_closure]") {
  mjhand::BuiltScene scene = precision_sphere();
  mjModel* m = scene.model.get();
  auto d = mjhand_test::make_data(m);
  for (int step = 0; step < 6000; ++step) mj_step(m, d.get());
  std::vector<double> held(setpoints(m, d.get()), setpoints(m, d.get()) + m->nu);
  for (int step = 0; step < 200; ++step) mj_step(m, d.get());
  for (int a = 0; a < m->nu; ++a) CHECK(setpoints(m, d.get())[a] == held[a]);  // grasp closed: nothing moves
  // Take the (welded) sphere away: every signal drops, every setpoint advances again.
  m->body_pos[3 * mj_name2id(m, mjOBJ_BODY, "object") + 2] += 1.0;
  for (int step = 0; step < 100; ++step) mj_step(m, d.get());
  for (int a = 0; a < m->nu; ++a) CHECK(setpoints(m, d.get())[a] > held[a] + 0.02);
}

TEST_CASE("Hand closure rejects a detector that does not exist or is not a contact_detection", "[hand_closure]") {
  const std::string xml = R"(<mujoco>
  <extension><plugin plugin="mjhand.hand_closure"><instance name="close">
    <config key="detector" value="nope"/><config key="increment" value="0.001"/><config key="kp" value="1"/>
  </instance></plugin></extension>
  <worldbody><body name="palm"><body name="f1_link1"><joint name="f1_j1"/><geom size="0.01"/></body></body></worldbody>
  <actuator><plugin name="a" joint="f1_j1" instance="close"/></actuator>
</mujoco>)";
  CHECK_THAT(mjhand_test::attach_error(xml), Catch::Matchers::Contains("detector") &&
                                                 Catch::Matchers::Contains("no plugin instance 'nope'"));
  std::string wrong = xml;
  const std::string nope = "<config key=\"detector\" value=\"nope\"/>";
  wrong.replace(wrong.find(nope), nope.size(), "<config key=\"detector\" value=\"close\"/>");
  CHECK_THAT(mjhand_test::attach_error(wrong), Catch::Matchers::Contains("not contact_detection"));
}
