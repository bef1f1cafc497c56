// The coupling spring in your own loop (core/mjhand/coupling/coupling_spring.h): a plugin-free model with
// add_coupling_force between mj_step1 and mj_step2 moves exactly as the same model with the `coupling` plugin, for
// the explicit and the implicit form; and the force is J^T f on the coupling coordinate.
#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <cmath>
#include <string>

#include <mjhand/coupling/coupling_spring.h>
#include "test_util.h"

using namespace mjhand;

namespace {

// Two hinges in a row, x (driver) and y (driven); with `plugin` a coupling instance q_y = 0.2 + 0.8 q_x.
std::string two_hinges(const std::string& plugin) {
  return "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.002\" gravity=\"0 0 0\"/>" + plugin +
         "<worldbody><body name=\"l1\"><joint name=\"x\" axis=\"0 0 1\" range=\"-1 1\"/><geom type=\"capsule\" "
         "fromto=\"0 0 0 0.05 0 0\" size=\"0.008\" mass=\"0.05\"/><body name=\"l2\" pos=\"0.05 0 0\"><joint name=\"y\" "
         "axis=\"0 0 1\" range=\"-1.5 1.5\"/><geom type=\"capsule\" fromto=\"0 0 0 0.04 0 0\" size=\"0.008\" "
         "mass=\"0.04\"/></body></body></worldbody></mujoco>";
}

std::string coupling_instance(bool implicit) {
  return std::string("<extension><plugin plugin=\"mjhand.coupling\"><instance name=\"c\">") +
         "<config key=\"joint\" value=\"y\"/><config key=\"driver\" value=\"x\"/><config key=\"coef\" value=\"0.2,0.8\"/>"
         "<config key=\"stiffness\" value=\"0.5\"/><config key=\"damping\" value=\"0.002\"/><config key=\"integration\" "
         "value=\"" + (implicit ? "implicit" : "explicit") + "\"/></instance></plugin></extension>";
}

}  // namespace

TEST_CASE("add_coupling_force in a plain loop moves as the coupling plugin does", "[coupling]") {
  for (const bool implicit : {false, true}) {
    INFO((implicit ? "implicit" : "explicit"));
    auto with_plugin = mjhand_test::load_xml_string(two_hinges(coupling_instance(implicit)));
    auto plain = mjhand_test::load_xml_string(two_hinges(""));
    auto dp = mjhand_test::make_data(with_plugin.get());
    auto dq = mjhand_test::make_data(plain.get());
    CouplingSpring spring;
    spring.law.c[0] = 0.2;
    spring.law.c[1] = 0.8;
    spring.qx = 0;
    spring.qy = 1;
    spring.vx = 0;
    spring.vy = 1;
    spring.stiffness = 0.5;
    spring.damping = 0.002;
    spring.implicit = implicit;
    dp->qpos[0] = dq->qpos[0] = 0.4;  // off the law: the spring pulls y toward 0.2 + 0.8 * 0.4
    double worst = 0, pull = 0;
    for (int k = 0; k < 500; ++k) {
      mj_step(with_plugin.get(), dp.get());
      mj_step1(plain.get(), dq.get());
      const double before = dq->qfrc_passive[1];
      add_coupling_force(plain.get(), dq.get(), spring);
      if (k == 0) pull = dq->qfrc_passive[1] - before;
      mj_step2(plain.get(), dq.get());
      for (int i = 0; i < 2; ++i) worst = std::max(worst, std::abs(dp->qpos[i] - dq->qpos[i]));
    }
    CHECK(worst < 1e-12);
    CHECK(pull > 0);  // y starts at 0 below its law value 0.52: pulled up
    // The driven joint has settled near the law.
    CHECK(std::abs(dq->qpos[1] - (0.2 + 0.8 * dq->qpos[0])) < 0.05);
  }
}
