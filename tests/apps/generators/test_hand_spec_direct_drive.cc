// Hand-description extensions the direct-drive hand needs: explicit link inertials (section 3.1's part model is not
// a uniform capsule) and keyframes (appendix F.2's presets). Every new key reaches the compiled model, round-trips
// through YAML, and every mistake names FILE:LINE:COLUMN and the field.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <mjhand/generators/build_model.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/mjcf_writer.h>
#include "test_util.h"

using namespace mjhand;
using Catch::Matchers::Contains;

namespace {
// A two-finger hand: "a" has explicit inertials and no link_mass, "b" has a prismatic joint and capsule masses.
const char* kSpec = R"(name: inertial_hand
convention: modified
palm: {pos: [0, 0, 0.1], mount: fixed, half_size: [0.02, 0.02, 0.01], mass: 0.2}
fingers:
  - name: a
    base: {pos: [0.02, 0, 0]}
    link_radius: 0.005
    tool: {pos: [0.03, 0, 0]}
    links:
      - {a: 0, alpha_deg: 0, d: 0, theta_deg: 5, joint: revolute, range_deg: [0, 90],
         inertial: {pos: [0.01, 0, 0.002], mass: 0.05, diaginertia: [1e-6, 4e-6, 4.5e-6]}}
      - {a: 0.04, alpha_deg: 0, d: 0, theta_deg: 0, joint: revolute, range_deg: [-10, 90],
         inertial: {pos: [0.02, 0.001, 0], mass: 0.03, diaginertia: [2e-6, 3e-6, 3.5e-6]}}
  - name: b
    base: {pos: [-0.02, 0, 0]}
    link_radius: 0.005
    link_mass: 0.02
    tool: {pos: [0.02, 0, 0]}
    links:
      - {a: 0, alpha_deg: 0, d: 0, theta_deg: 0, joint: revolute, range_deg: [-45, 45]}
      - {a: 0.03, alpha_deg: 0, d: 0, theta_deg: 0, joint: prismatic, range: [0, 0.02]}
keyframes:
  - {name: rest}
  - {name: bent, default_deg: 30, fingers_deg: {a: [10, 20]}, joints_deg: {b_j1: -40}, joints: {b_j2: 0.015}}
)";

std::string spec_with(const std::string& from, const std::string& to) {
  std::string s = kSpec;
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  s.replace(at, from.size(), to);
  return s;
}

std::string spec_error(const std::string& yaml) {
  try {
    parse_hand_spec(yaml, "dd.yaml");
  } catch (const SpecError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("explicit link inertials reach MuJoCo instead of the capsule's mass", "[hand]") {
  const HandSpec spec = parse_hand_spec(kSpec, "dd.yaml");
  REQUIRE(spec.fingers[0].links[0].has_inertial);
  CHECK(spec.fingers[0].links[0].mass == 0.05);
  CHECK_FALSE(spec.fingers[1].links[0].has_inertial);
  const auto built = build_hand_model(spec);
  CHECK_THAT(built.xml, Contains("<inertial pos=\"0.01 0 0.002\" mass=\"0.05\" diaginertia=\"1e-06 4e-06 4.5e-06\"/>"));
  const mjModel* m = built.model.get();
  const int a1 = mj_name2id(m, mjOBJ_BODY, "a_link1"), a2 = mj_name2id(m, mjOBJ_BODY, "a_link2");
  const int b1 = mj_name2id(m, mjOBJ_BODY, "b_link1");
  CHECK(m->body_mass[a1] == 0.05);
  CHECK(m->body_mass[a2] == 0.03);
  CHECK(m->body_ipos[3 * a1] == 0.01);
  CHECK(m->body_ipos[3 * a1 + 2] == 0.002);
  CHECK(m->body_ipos[3 * a2 + 1] == 0.001);
  CHECK(m->body_inertia[3 * a1 + 2] == 4.5e-6);
  CHECK(m->body_inertia[3 * a2] == 2e-6);
  // MuJoCo sums the capsule's mass from geom mass="0.02" over its volume parts: rounding
  CHECK(m->body_mass[b1] == Approx(0.02).epsilon(1e-12));  // capsule mass as before
}

TEST_CASE("inertial mistakes name the line and the field", "[hand]") {
  CHECK_THAT(spec_error(spec_with("diaginertia: [1e-6, 4e-6, 4.5e-6]", "diaginertia: [1e-6, 4e-6, 6e-6]")),
             Contains("dd.yaml:11:69: fingers[0].links[0].inertial.diaginertia: no rigid body"));
  CHECK_THAT(spec_error(spec_with("diaginertia: [1e-6, 4e-6, 4.5e-6]", "diaginertia: [0, 4e-6, 4.5e-6]")),
             Contains("fingers[0].links[0].inertial.diaginertia[0]: must be positive"));
  CHECK_THAT(spec_error(spec_with("mass: 0.05,", "mass: -1,")),
             Contains("fingers[0].links[0].inertial.mass: must be positive"));
  CHECK_THAT(spec_error(spec_with("inertial: {pos: [0.01, 0, 0.002], mass: 0.05,", "mass: 0.1, inertial: {pos: [0.01, 0, 0.002], mass: 0.05,")),
             Contains("fingers[0].links[0].mass: this link has an inertial"));
  CHECK_THAT(spec_error(spec_with("inertial: {pos: [0.01, 0, 0.002], mass: 0.05, diaginertia: [1e-6, 4e-6, 4.5e-6]}",
                                  "radius: 0.004")),
             Contains("dd.yaml:10:9: fingers[0].links[0]: this link has no mass"));
  CHECK_THAT(spec_error(spec_with("inertial: {pos: [0.01, 0, 0.002],", "inertial: {where: 1, pos: [0.01, 0, 0.002],")),
             Contains("fingers[0].links[0].inertial.where: unknown key"));
}

TEST_CASE("keyframes become MJCF keys in qpos order, with defaults, per finger and per joint", "[hand]") {
  const HandSpec spec = parse_hand_spec(kSpec, "dd.yaml");
  REQUIRE(spec.keyframes.size() == 2);
  const auto built = build_hand_model(spec);
  const mjModel* m = built.model.get();
  REQUIRE(m->nkey == 2);
  REQUIRE(m->nq == 4);
  const int bent = mj_name2id(m, mjOBJ_KEY, "bent");
  REQUIRE(bent == 1);
  for (int i = 0; i < 4; ++i) CHECK(m->key_qpos[i] == 0.0);  // "rest": qpos0
  const double deg = M_PI / 180;
  // degrees x pi/180 through the MJCF's shortest round-trip text: one or two roundings (relative ~1e-16)
  CHECK(m->key_qpos[4 + 0] == Approx(10 * deg).epsilon(1e-15));  // fingers_deg overrides default_deg
  CHECK(m->key_qpos[4 + 1] == Approx(20 * deg).epsilon(1e-15));
  CHECK(m->key_qpos[4 + 2] == Approx(-40 * deg).epsilon(1e-15));  // joints_deg
  CHECK(m->key_qpos[4 + 3] == 0.015);                             // prismatic, metres; default_deg does not touch it
  // A free palm keeps its initial pose in every key.
  const HandSpec free_palm = parse_hand_spec(spec_with("mount: fixed", "mount: free"), "dd.yaml");
  const auto fb = build_hand_model(free_palm);
  REQUIRE(fb.model->nq == 11);
  CHECK(fb.model->key_qpos[11 + 2] == 0.1);
  CHECK(fb.model->key_qpos[11 + 3] == 1.0);
  CHECK(fb.model->key_qpos[11 + 7] == Approx(10 * deg).epsilon(1e-15));  // as above
  // A spec built in code with the wrong number of values is refused before MuJoCo sees it.
  HandSpec wrong = spec;
  wrong.keyframes[0].qpos.pop_back();
  CHECK_THROWS_WITH(write_mjcf(wrong, "code"), Contains("keyframe 'rest' has 3 joint values; the hand has 4 joints"));
}

TEST_CASE("keyframe mistakes name the line and the field", "[hand]") {
  CHECK_THAT(spec_error(spec_with("fingers_deg: {a: [10, 20]}", "fingers_deg: {c: [10, 20]}")),
             Contains("dd.yaml:24:49: keyframes[1].fingers_deg.c: no finger named \"c\""));
  CHECK_THAT(spec_error(spec_with("fingers_deg: {a: [10, 20]}", "fingers_deg: {a: [10]}")),
             Contains("keyframes[1].fingers_deg.a: expected a list of 2 numbers"));
  CHECK_THAT(spec_error(spec_with("fingers_deg: {a: [10, 20]}", "fingers_deg: {a: [10, 95]}")),
             Contains("keyframes[1].fingers_deg.a[1]: joint a_j2 at 95 deg lies outside its range [-10, 90]"));
  CHECK_THAT(spec_error(spec_with("{name: rest}", "{name: rest, default_deg: 60}")),
             Contains("dd.yaml:23:31: keyframes[0].default_deg: joint b_j1 at 60 deg lies outside its range [-45, 45]"));
  CHECK_THAT(spec_error(spec_with("joints: {b_j2: 0.015}", "joints: {b_j2: 0.05}")),
             Contains("keyframes[1].joints.b_j2: joint b_j2 at 0.05 m lies outside its range [0, 0.02]"));
  CHECK_THAT(spec_error(spec_with("joints_deg: {b_j1: -40}", "joints_deg: {b_j2: 1}")),
             Contains("keyframes[1].joints_deg.b_j2: joint b_j2 is prismatic: give it in metres under joints"));
  CHECK_THAT(spec_error(spec_with("joints: {b_j2: 0.015}", "joints: {b_j1: 0.015}")),
             Contains("keyframes[1].joints.b_j1: joint b_j1 is revolute: give it in degrees under joints_deg"));
  CHECK_THAT(spec_error(spec_with("joints_deg: {b_j1: -40}", "joints_deg: {a_j1: 3}")),
             Contains("keyframes[1].joints_deg.a_j1: joint a_j1 is given twice in this keyframe"));
  CHECK_THAT(spec_error(spec_with("joints_deg: {b_j1: -40}", "joints_deg: {z_j1: 3}")),
             Contains("keyframes[1].joints_deg.z_j1: no joint named \"z_j1\""));
  CHECK_THAT(spec_error(spec_with("{name: rest}", "{name: bent}")),
             Contains("keyframes[1].name: duplicate keyframe name \"bent\""));
  CHECK_THAT(spec_error(spec_with("{name: rest}", "{name: rest, pose: 1}")), Contains("keyframes[0].pose: unknown key"));
}

TEST_CASE("inertials and keyframes round-trip through YAML", "[hand]") {
  const HandSpec a = parse_hand_spec(kSpec, "dd.yaml");
  const std::string yaml = hand_spec_to_yaml(a);
  INFO(yaml);
  const HandSpec b = parse_hand_spec(yaml, "roundtrip.yaml");
  for (std::size_t f = 0; f < a.fingers.size(); ++f) {
    for (std::size_t k = 0; k < a.fingers[f].links.size(); ++k) {
      const LinkSpec &la = a.fingers[f].links[k], &lb = b.fingers[f].links[k];
      CHECK(lb.has_inertial == la.has_inertial);
      CHECK(lb.mass == la.mass);
      CHECK(lb.inertial.pos == la.inertial.pos);
      CHECK(lb.inertial.diaginertia == la.inertial.diaginertia);
    }
  }
  REQUIRE(b.keyframes.size() == a.keyframes.size());
  for (std::size_t i = 0; i < a.keyframes.size(); ++i) {
    CHECK(b.keyframes[i].name == a.keyframes[i].name);
    REQUIRE(b.keyframes[i].qpos.size() == a.keyframes[i].qpos.size());
    for (std::size_t j = 0; j < a.keyframes[i].qpos.size(); ++j) {
      // degrees and back: rounding of values < 1
      CHECK(b.keyframes[i].qpos[j] == Approx(a.keyframes[i].qpos[j]).margin(1e-15));
    }
  }
}
