// The direct-drive hand model: section 3.1's part model recomputed against the printed table, the generated MJCF's
// masses, centres of mass, inertias, joints, motors and sites, and appendix F.2's presets as keyframes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <mjhand/direct_drive/finger.h>
#include <mjhand/direct_drive/part_model.h>
#include <mjhand/hand/model_chains.h>
#include "test_util.h"

using namespace mjhand;

namespace {
ModelPtr hand() { return mjhand_test::load_xml_file(mjhand_test::source_path("models/direct_drive_hand.xml")); }
}  // namespace

TEST_CASE("section 3.1's part model reproduces the printed m_i, r_Ci and I_zzi", "[direct_drive]") {
  const std::array<LinkParts, 3> parts = paper_link_parts();
  const std::array<PrintedLinkValues, 3> printed = paper_printed_link_values();
  for (int i = 0; i < 3; ++i) {
    INFO("link " << i + 1);
    const LinkMassProperties as_printed = link_mass_properties(parts[i], CoilShift::kPrinted);
    const LinkMassProperties corrected = link_mass_properties(parts[i], CoilShift::kBothCoils);
    // m_i = 2 m_C + m_T + m_M is printed exactly (100.5, 76.5, 31.2 g).
    CHECK(as_printed.mass == Approx(printed[i].mass).epsilon(1e-12));  // sum of part masses: rounding
    // r_Ci is printed to 3 significant digits: within half a unit of the last digit (0.005 cm; 0.0005 cm for r_C3).
    CHECK(std::fabs(as_printed.r_c - printed[i].r_c) <= (i < 2 ? 0.5e-4 : 0.5e-5) + 1e-15);
    // I_zzi: the printed formula reproduces the table to one unit of its last digit (link 2: 5.8575e-5 recomputed,
    // 5.85e-5 printed, i.e. truncated where 5.86 would be the rounded value).
    CHECK(std::fabs(as_printed.inertia.z() - printed[i].i_zz) <= 0.01 * std::pow(10.0, std::floor(std::log10(printed[i].i_zz))));
    // The pair of coils weighs 2 m_C: the parallel-axis term with 2 m_C adds m_C (r_C - l)^2, 22 % and 26 % of the
    // printed I_zz1 and I_zz2 (link 3 has no coils and is unchanged).
    const double extra = parts[i].m_C * (corrected.r_c - parts[i].l) * (corrected.r_c - parts[i].l);
    // the same parallel-axis term added: rounding
    CHECK(corrected.inertia.z() == Approx(as_printed.inertia.z() + extra).epsilon(1e-14));
    if (i < 2) {
      CHECK(corrected.inertia.z() > 1.2 * printed[i].i_zz);
    } else {
      CHECK(corrected.inertia.z() == as_printed.inertia.z());
    }
    // Principal moments of a rigid body: each at most the sum of the other two.
    const Eigen::Vector3d I = corrected.inertia;
    CHECK(I.x() <= I.y() + I.z());
    CHECK(I.y() <= I.x() + I.z());
    CHECK(I.z() <= I.x() + I.y());
  }
  // Link 1: 7.95e-5 printed, 7.951e-5 (printed formula), 9.689e-5 (both coils).
  // values quoted to 4-5 digits: half a unit of the last is <= 6e-5 relative
  CHECK(link_mass_properties(parts[0], CoilShift::kPrinted).inertia.z() == Approx(7.951e-5).epsilon(1e-4));
  CHECK(link_mass_properties(parts[0]).inertia.z() == Approx(9.6885e-5).epsilon(1e-4));
}

TEST_CASE("the generated hand carries the part model's masses, centres of mass and inertias", "[direct_drive]") {
  auto m = hand();
  REQUIRE(m->nbody == 1 + 1 + 15);
  for (int j = 1; j <= 5; ++j) {
    const DirectDriveFinger f = paper_finger(j);
    for (int i = 0; i < 3; ++i) {
      const std::string body = "f" + std::to_string(j) + "_link" + std::to_string(i + 1);
      INFO(body);
      const int b = mj_name2id(m.get(), mjOBJ_BODY, body.c_str());
      REQUIRE(b >= 0);
      const LinkMassProperties p = link_mass_properties(paper_link_parts()[i]);
      // the MJCF carries these as shortest round-trip text: equal up to MuJoCo's own rounding
      CHECK(m->body_mass[b] == Approx(p.mass).epsilon(1e-12));
      CHECK(m->body_ipos[3 * b] == Approx(p.r_c).epsilon(1e-12));
      CHECK(m->body_ipos[3 * b + 1] == 0.0);
      CHECK(m->body_ipos[3 * b + 2] == 0.0);
      for (int k = 0; k < 3; ++k) CHECK(m->body_inertia[3 * b + k] == Approx(p.inertia[k]).epsilon(1e-12));
      CHECK(m->body_iquat[4 * b] == 1.0);  // principal axes = frame {i}
      CHECK(f.i_zz[i] == p.inertia.z());
    }
  }
}

TEST_CASE("the generated hand: phi joints in 0..90 deg, torque motors, fingertip sites, palm offsets f",
          "[direct_drive]") {
  auto m = hand();
  REQUIRE(m->njnt == 15);
  REQUIRE(m->nu == 15);
  for (int j = 0; j < 15; ++j) {
    CHECK(m->jnt_type[j] == mjJNT_HINGE);
    CHECK(m->jnt_limited[j]);
    CHECK(m->jnt_range[2 * j] == 0.0);
    CHECK(m->jnt_range[2 * j + 1] == Approx(M_PI / 2).epsilon(1e-15));  // 90 deg x pi/180: rounding
    CHECK(m->qpos0[j] == 0.0);
    CHECK(m->dof_armature[j] == 0.0);
    CHECK(m->dof_damping[j] == 0.0);
    // Controllers write joint torque: a motor with gain 1, gear 1, no bias, no control limits.
    CHECK(m->actuator_trnid[2 * j] == j);
    CHECK(m->actuator_gaintype[j] == mjGAIN_FIXED);
    CHECK(m->actuator_gainprm[mjNGAIN * j] == 1.0);
    CHECK(m->actuator_biastype[j] == mjBIAS_NONE);
    CHECK(m->actuator_gear[6 * j] == 1.0);
    CHECK_FALSE(m->actuator_ctrllimited[j]);
  }
  std::vector<TreeChain> chains = read_model_chains(m.get());
  REQUIRE(chains.size() == 5);
  const Eigen::Matrix<double, 3, 5> f = paper_palm_offsets();
  CHECK(f(0, 0) == -0.030);
  CHECK(f(2, 4) == -0.075);
  for (int j = 0; j < 5; ++j) {
    CHECK(chains[j].dh.name == "f" + std::to_string(j + 1));
    CHECK(chains[j].tip_site == mj_name2id(m.get(), mjOBJ_SITE, ("f" + std::to_string(j + 1) + "_tip").c_str()));
    // from the body's pos/quat (shortest round-trip text): rounding of a quaternion -> matrix
    CHECK((chains[j].base_in_root.translation() - f.col(j)).norm() < 1e-15);
    const Eigen::Matrix3d R = paper_finger(j + 1).base.linear();
    CHECK((chains[j].base_in_root.linear() - R).norm() < 1e-15);
    // parsed back from exact text
    CHECK(chains[j].dh.links[0].theta == Approx(actuator_offset_alpha()).epsilon(1e-15));
    CHECK(chains[j].dh.links[1].theta == 0.0);
    CHECK(chains[j].dh.links[2].theta == Approx(-actuator_offset_alpha()).epsilon(1e-15));  // as above
  }
  // The thumb's base is turned 180 deg about the palm's Y axis (B.3): its X and Z point along -X and -Z.
  // 180 deg about Y: sin(pi) = 1.2e-16 residues; isApprox's 1e-12 relative
  CHECK(paper_finger(1).base.linear().isApprox(Eigen::Vector3d(-1, 1, -1).asDiagonal().toDenseMatrix()));
}

TEST_CASE("appendix F.2's presets are the model's keyframes", "[direct_drive]") {
  auto m = hand();
  // Per preset, which fingers (1 = thumb .. 5) are extended (phi = 0); the others are closed (phi = 90 deg).
  const std::map<std::string, std::vector<int>> extended = {
      {"open_hand", {1, 2, 3, 4, 5}}, {"close_hand", {}},        {"point_finger", {2}},
      {"count_1", {1}},              {"count_2", {1, 2}},        {"count_3", {1, 2, 3}},
      {"count_4", {1, 2, 3, 4}},     {"count_5", {1, 2, 3, 4, 5}}};
  REQUIRE(m->nkey == static_cast<int>(extended.size()));
  for (const auto& [name, open] : extended) {
    INFO(name);
    const int k = mj_name2id(m.get(), mjOBJ_KEY, name.c_str());
    REQUIRE(k >= 0);
    for (int finger = 1; finger <= 5; ++finger) {
      const bool is_open = std::find(open.begin(), open.end(), finger) != open.end();
      for (int i = 0; i < 3; ++i) {
        const int j = 3 * (finger - 1) + i;
        const double q = m->key_qpos[k * m->nq + j];
        CHECK(q == Approx(is_open ? 0.0 : M_PI / 2).margin(1e-15));  // deg -> rad: rounding
        CHECK(q >= m->jnt_range[2 * j]);
        CHECK(q <= m->jnt_range[2 * j + 1]);
      }
    }
    for (int i = 0; i < m->nv; ++i) CHECK(m->key_qvel[k * m->nv + i] == 0.0);
  }
  // "Count 5: ... (same as Open Hand)".
  const int c5 = mj_name2id(m.get(), mjOBJ_KEY, "count_5"), open = mj_name2id(m.get(), mjOBJ_KEY, "open_hand");
  for (int j = 0; j < m->nq; ++j) CHECK(m->key_qpos[c5 * m->nq + j] == m->key_qpos[open * m->nq + j]);
}
