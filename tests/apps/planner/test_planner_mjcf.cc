// `mjhand plan MODEL.xml` on any MJCF hand (issue 31; apps/planner/mjcf_problem.h, docs/planner.md "Any MJCF hand"):
// the closing directions each real hand's maker implies, a force-closure grasp of each models/real/ hand that
// `mjhand analyze` confirms from the written keyframe in another process, a ranking reproducible by seed and
// independent of the thread count, and named errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <Eigen/Core>
#include <fstream>
#include <string>
#include <vector>

#include <mjhand/grasp/hand_structure.h>

#include "grasp_planner.h"
#include "mjcf_problem.h"
#include "test_util.h"

using Catch::Matchers::Contains;
using mjhand_test::fresh_temp_dir;
using mjhand_test::read_all;
using mjhand_test::run_cli;
using mjhand_test::source_path;
namespace planner = mjhand::planner;

TEST_CASE("planner on MJCF: the probed closing directions are the makers' flexion directions", "[planner]") {
  // Allegro: the 12 flexion actuators of the fingers and the thumb close with rising ctrl; the three finger
  // abductions (symmetric ranges) do not close; the thumb's rotation (actuator_12.0, range [0.26, 1.4] from 0) does.
  const mjhand::ModelPtr a = mjhand_test::load_xml_file(source_path("models/real/allegro_scene.xml"));
  const int ball = planner::mjcf_object(a.get(), "");
  CHECK(std::string(mj_id2name(a.get(), mjOBJ_BODY, ball)) == "ball");
  const planner::ActuatorProbe pa = planner::probe_actuators(a.get(), mjhand::infer_hand_structure(a.get(), ball));
  for (int k = 0; k < a->nu; ++k) {
    INFO(mj_id2name(a.get(), mjOBJ_ACTUATOR, k));
    const bool abduction = k == 0 || k == 4 || k == 8;
    CHECK(pa.sign[k] == (abduction ? 0.0 : 1.0));
    CHECK(pa.position[k] == 1);  // <position> servos: ctrl is the joint target
  }
  // Shadow: the wrist actuators never close (they move no finger joint), the finger flexions and J0 tendons do.
  const mjhand::ModelPtr s = mjhand_test::load_xml_file(source_path("models/real/shadow_scene.xml"));
  const planner::ActuatorProbe ps =
      planner::probe_actuators(s.get(), mjhand::infer_hand_structure(s.get(), planner::mjcf_object(s.get(), "")));
  for (const char* name : {"rh_A_WRJ2", "rh_A_WRJ1", "rh_A_FFJ4"}) {
    INFO(name);
    CHECK(ps.sign[mj_name2id(s.get(), mjOBJ_ACTUATOR, name)] == 0);
  }
  for (const char* name : {"rh_A_FFJ3", "rh_A_FFJ0", "rh_A_THJ1"}) {
    INFO(name);
    CHECK(ps.sign[mj_name2id(s.get(), mjOBJ_ACTUATOR, name)] == 1);
  }
  // 2F-85: its one tendon actuator closes from 0 to 255; no joint-driven closing actuator, so one "close" column
  // from the probed closing motion.
  const mjhand::ModelPtr g = mjhand_test::load_xml_file(source_path("models/real/robotiq_2f85_scene.xml"));
  const planner::PlanProblem pg = planner::mjcf_problem(g.get(), planner::mjcf_object(g.get(), ""));
  REQUIRE(pg.closure.sign.size() == 1);
  CHECK(pg.closure.sign[0] == 1);
  CHECK(pg.eigengrasps.S.cols() == 1);
  CHECK(pg.eigengrasps.S.cwiseAbs().maxCoeff() == 1.0);
}

TEST_CASE("planner on MJCF: each real hand gets a force-closure grasp that analyze confirms", "[planner]") {
  struct Hand {
    const char* scene;
    const char* object;
  };
  for (const Hand& h : {Hand{"allegro_scene.xml", "ball"}, Hand{"shadow_scene.xml", "ball"},
                        Hand{"robotiq_2f85_scene.xml", "box"}}) {
    INFO(h.scene);
    const std::string out = fresh_temp_dir(std::string("plan_mjcf_") + h.scene);
    // By name, as a pip user would (resolve_model finds the shipped model).
    const auto r = run_cli(std::string("plan real/") + h.scene + " --samples 24 --chains 2 --steps 6 --seed 5 "
                           "--jobs 2 --quiet --out " + out);
    INFO(r.output);
    REQUIRE(r.status == 0);  // 0: a force-closure grasp was found
    CHECK_THAT(r.output, Contains("closure: ctrl ramps of the closing actuators"));
    const std::string ctrl = read_all(out + "/best_ctrl.txt");
    const mjhand::ModelPtr m = mjhand_test::load_xml_file(source_path(std::string("models/real/") + h.scene));
    CHECK(std::count(ctrl.begin(), ctrl.end(), ',') == m->nu - 1);  // the final ctrl, one value per actuator
    // Another process reads the written scene (which includes the model) at keyframe best, with its ctrl, and
    // finds force closure from MuJoCo's contacts.
    const auto a = run_cli("analyze " + out + "/scene.xml --keyframe best --object " + h.object + " --json");
    INFO(a.output);
    REQUIRE(a.status == 0);
    const std::size_t fc = a.output.find("\"force_closure\":");
    REQUIRE(fc != std::string::npos);
    CHECK(a.output.substr(fc, 21) == "\"force_closure\": true");
    // The keyframe's ctrl holds the grasp: from keyframe best, 0.3 s more in MuJoCo (gravity off, as planned), the
    // object stays in the hand.
    const mjhand::ModelPtr w = mjhand::load_model(out + "/scene.xml");
    w->opt.disableflags |= mjDSBL_GRAVITY;
    mjhand::DataPtr d = mjhand::make_data(w.get());
    mj_resetDataKeyframe(w.get(), d.get(), mj_name2id(w.get(), mjOBJ_KEY, "best"));
    mj_forward(w.get(), d.get());
    const int body = mj_name2id(w.get(), mjOBJ_BODY, h.object);
    const Eigen::Vector3d before = Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * body);
    for (int k = 0; k < std::lround(0.3 / w->opt.timestep); ++k) mj_step(w.get(), d.get());
    const double moved = (Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * body) - before).norm();
    std::printf("plan %s: the object moves %.3g mm in 0.3 s from keyframe best\n", h.scene, 1e3 * moved);
    CHECK(moved < 2e-3);
  }
}

TEST_CASE("planner on MJCF: the ranking is reproducible by seed and the same with 1 and 2 threads", "[planner]") {
  const mjhand::ModelPtr m = mjhand_test::load_xml_file(source_path("models/real/allegro_scene.xml"));
  m->opt.disableflags |= mjDSBL_GRAVITY;  // as `mjhand plan` does without --gravity
  const planner::PlanProblem p = planner::mjcf_problem(m.get(), planner::mjcf_object(m.get(), ""));
  planner::PlanOptions o;
  o.samples = 8;
  o.chains = 2;
  o.steps = 3;
  o.seed = 7;
  o.jobs = 1;
  const std::string one = planner::ranked_csv(m.get(), p, planner::plan_grasps(m.get(), p, o));
  o.jobs = 2;
  CHECK(planner::ranked_csv(m.get(), p, planner::plan_grasps(m.get(), p, o)) == one);
  CHECK(planner::ranked_csv(m.get(), p, planner::plan_grasps(m.get(), p, o)) == one);  // and again
  o.seed = 8;
  CHECK(planner::ranked_csv(m.get(), p, planner::plan_grasps(m.get(), p, o)) != one);
}

TEST_CASE("planner on MJCF: bad inputs are named errors", "[planner]") {
  const std::string out = fresh_temp_dir("plan_mjcf_bad");
  auto r = run_cli("plan real/allegro_scene.xml --object base_link --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--object: the object 'base_link' must have exactly one free joint"));
  r = run_cli("plan real/allegro_scene.xml --object nope --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--object: no body named 'nope'"));
  r = run_cli("plan real/allegro_scene.xml --servo-kp 3 --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--servo-kp: only for scene descriptions"));
  r = run_cli("plan " + source_path("models/planner/gripper_sphere.yaml") + " --gravity --out " + out);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("--gravity: only for MODEL.xml"));
  // A model whose only free body is the object but whose hand has no actuator: nothing closes it.
  const std::string xml = out + "/no_actuator.xml";
  std::ofstream(xml) << "<mujoco><worldbody><body name=\"palm\"><geom size=\"0.02\"/><body name=\"f1\" pos=\"0.03 0 0\">"
                        "<joint name=\"j1\" axis=\"0 1 0\" range=\"0 1.5\"/><geom type=\"capsule\" fromto=\"0 0 0 0.04 0 0\" "
                        "size=\"0.005\"/></body><body name=\"f2\" pos=\"-0.03 0 0\"><joint name=\"j2\" axis=\"0 1 0\" "
                        "range=\"0 1.5\"/><geom type=\"capsule\" fromto=\"0 0 0 -0.04 0 0\" size=\"0.005\"/></body></body>"
                        "<body name=\"ball\" pos=\"0 0 -0.05\"><freejoint/><geom size=\"0.02\"/></body></worldbody></mujoco>";
  r = run_cli("plan " + xml + " --out " + out);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains("no actuator closes the hand around 'ball'"));
}
