// DH identification (kinematics/dh_identification.h) of general serial chains: the identified DH chain's FK and
// Jacobian equal the serial chain's at random joint vectors (standard and modified), on random chains with every
// degenerate axis pair (parallel, intersecting, coincident, tool on the last axis), on every finger of the three
// real hands (whose tree FK equals MuJoCo's, test_tree_chains.cc); the Allegro index finger's identified table is
// compared with the maker's published link lengths; the 4-bar gripper's closed loop is reported.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <mjhand/hand/tree_chains.h>
#include <mjhand/kinematics/dh_identification.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include "random_chains.h"
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_file;
using mjhand_test::random_serial_chain;
using mjhand_test::source_path;

namespace {

// Two FKs of the same chain through different transform sequences (~2n+2 compositions at the <= 1 m scale) and
// the identification's line intersections and atan2 (rounding ~1e-16 each, amplified by 1/sin of the angle between
// consecutive axes, which random skew axes make small now and then): 1e-12 (measured: 1.8e-13 over the 50 random
// chains of seed 21, 7.8e-16 on the real hands' fingers).
constexpr double kTol = 1e-12;

// Largest difference of tip pose and Jacobian between the serial chain and its DH table, over random q.
double worst_difference(const SerialChain& s, const Chain& dh, std::mt19937& rng, int configs) {
  ChainData ds(s), dd(dh);
  std::vector<double> q(s.dof());
  double worst = 0;
  for (int c = 0; c < configs; ++c) {
    mjhand_test::random_joint_vector(s, rng, q.data());
    fk_and_jacobian(s, q.data(), ds);
    fk_and_jacobian(dh, q.data(), dd);
    worst = std::max(worst, (ds.tip.matrix() - dd.tip.matrix()).cwiseAbs().maxCoeff());
    worst = std::max(worst, (ds.jacobian - dd.jacobian).cwiseAbs().maxCoeff());
  }
  return worst;
}

int body(const mjModel* m, const char* name) {
  const int b = mj_name2id(m, mjOBJ_BODY, name);
  REQUIRE(b >= 0);
  return b;
}

}  // namespace

TEST_CASE("DH identification: random and degenerate serial chains, standard and modified", "[dh_identification]") {
  std::mt19937 rng(21);
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + trial % 6;
    const SerialChain s = random_serial_chain(rng, trial, n);
    for (DHConvention c : {DHConvention::kStandard, DHConvention::kModified}) {
      const Chain dh = identify_dh(s, c);
      REQUIRE(dh.dof() == n);
      CHECK(dh.convention == c);
      worst = std::max(worst, worst_difference(s, dh, rng, 10));
    }
  }
  INFO("worst FK / Jacobian difference " << worst);
  CHECK(worst < kTol);
}

TEST_CASE("DH identification: every finger of the real hands, and the Allegro index finger's table is the URDF's",
          "[dh_identification]") {
  std::mt19937 rng(22);
  double worst = 0;
  for (const char* file : {"allegro_hand.xml", "shadow_hand.xml", "robotiq_2f85.xml"}) {
    auto m = load_xml_file(source_path(std::string("models/real/") + file));
    for (const TreeChain& tc : model_finger_chains(m.get())) {
      for (DHConvention c : {DHConvention::kStandard, DHConvention::kModified}) {
        worst = std::max(worst, worst_difference(tc.chain, identify_dh(tc.chain, c), rng, 10));
      }
    }
  }
  INFO("worst FK / Jacobian difference " << worst);
  CHECK(worst < kTol);
  // Allegro index (docs/real-hands.md, [U]): joint_0.0 about the finger's length, three parallel flexion axes
  // 16.4, 54 and 38.4 mm apart along it, the tip sphere's pole 26.7 + 12 mm past joint_3.0. Standard DH: a = 0,
  // 0.054, 0.0384, 0.0387; alpha = +-90 deg, 0, 0, 0; d = 0 (the first normal's foot is at joint_1.0).
  auto m = load_xml_file(source_path("models/real/allegro_hand.xml"));
  const Chain dh =
      identify_dh(tree_chain(m.get(), body(m.get(), "base_link"), default_fingertip(m.get(), body(m.get(), "link_3.0_tip"))).chain);
  const double a[4] = {0, 0.054, 0.0384, 0.0267 + 0.012};
  for (int i = 0; i < 4; ++i) {
    INFO("row " << i + 1);
    // the URDF's numbers, composed through quaternions and line intersections: rounding
    CHECK(dh.links[i].a == Approx(a[i]).margin(1e-12));
    CHECK(dh.links[i].d == Approx(0).margin(1e-12));
    CHECK(std::abs(dh.links[i].alpha) == Approx(i == 0 ? M_PI / 2 : 0).margin(1e-12));
  }
}

TEST_CASE("DH identification: the 4-bar gripper's closed loop and coupling are reported, free hands are not",
          "[dh_identification]") {
  auto g = load_xml_file(source_path("models/real/robotiq_2f85.xml"));
  const TreeChain pad = tree_chain(g.get(), "robotiq_arg2f_base_link", "right_inner_finger_pad");
  const std::string why = serial_obstruction(g.get(), pad);
  INFO(why);
  CHECK_THAT(why, Catch::Contains("'right_loop' (connect) ties body 'right_inner_knuckle' to body 'right_inner_finger'") &&
                      Catch::Contains("closed kinematic loop") &&
                      Catch::Contains("'fingers_equal' (joint) couples joint 'right_outer_knuckle_joint' to joint 'finger_joint'"));
  for (const char* file : {"allegro_hand.xml", "shadow_hand.xml"}) {
    auto m = load_xml_file(source_path(std::string("models/real/") + file));
    for (const TreeChain& tc : model_finger_chains(m.get())) CHECK(serial_obstruction(m.get(), tc).empty());
  }
}
