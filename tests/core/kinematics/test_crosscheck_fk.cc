// mjhand's DH kinematics against MuJoCo on every shipped model: the chains read back out of a model must put each
// fingertip exactly where MuJoCo puts its site, with the same Jacobian as mj_jacSite.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <random>
#include <set>

#include <mjhand/hand/hand_chains.h>
#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/mjcf_writer.h>
#include <mjhand/hand/model_chains.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include "test_util.h"

using namespace mjhand;

namespace {
// DH FK vs MuJoCo's quaternion FK of the same shortest-round-trip numbers, free palms placed up to a few m away:
// rounding ~1e-15; 1e-9 is loose
constexpr double kTol = 1e-9;

// Random joint values within limits (unlimited hinges over a full turn), random free-joint poses.
void randomize_qpos(const mjModel* m, mjData* d, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int j = 0; j < m->njnt; ++j) {
    mjtNum* q = d->qpos + m->jnt_qposadr[j];
    const int type = m->jnt_type[j];
    if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
      double lo = -M_PI, hi = M_PI;
      if (type == mjJNT_SLIDE) lo = -0.05, hi = 0.05;
      if (m->jnt_limited[j]) lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
      q[0] = lo + (hi - lo) * u(rng);
    } else {
      int rot = 0;
      if (type == mjJNT_FREE) {
        for (int i = 0; i < 3; ++i) q[i] = 0.5 * n(rng);
        rot = 3;
      }
      Eigen::Vector4d quat(n(rng), n(rng), n(rng), n(rng));
      quat.normalize();
      for (int i = 0; i < 4; ++i) q[rot + i] = quat[i];
    }
  }
}

// Dofs that move the palm itself (e.g. its free joint): mj_jacSite has columns there that a finger chain does not.
std::set<int> palm_dofs(const mjModel* m, int palm) {
  std::set<int> dofs;
  for (int v = 0; v < m->nv; ++v) {
    for (int b = palm; b > 0; b = m->body_parentid[b]) {
      if (m->dof_bodyid[v] == b) dofs.insert(v);
    }
  }
  return dofs;
}

// Runs the comparison for `configs` random configurations; returns the number of fingertip comparisons made.
int crosscheck(const mjModel* m, int configs, unsigned seed) {
  auto d = mjhand_test::make_data(m);
  std::vector<TreeChain> chains = read_model_chains(m);
  REQUIRE(!chains.empty());
  std::vector<ChainData> data;
  std::vector<std::set<int>> skip;
  for (const TreeChain& mc : chains) {
    data.emplace_back(mc.dh);
    skip.push_back(palm_dofs(m, mc.root_body));
  }
  std::vector<mjtNum> jacp(3 * m->nv), jacr(3 * m->nv);
  std::mt19937 rng(seed);
  int compared = 0;
  double worst_pos = 0, worst_rot = 0, worst_jac = 0;
  for (int c = 0; c < configs; ++c) {
    randomize_qpos(m, d.get(), rng);
    mj_kinematics(m, d.get());
    mj_comPos(m, d.get());  // mj_jacSite needs the com-based quantities
    set_world_bases(m, d.get(), chains);
    for (std::size_t i = 0; i < chains.size(); ++i) {
      const TreeChain& mc = chains[i];
      std::vector<double> q(mc.dh.dof());
      gather_joint_positions(mc, d->qpos, q.data());
      fk_and_jacobian(mc.dh, q.data(), data[i]);
      const Eigen::Vector3d site_pos = Eigen::Map<const Eigen::Vector3d>(d->site_xpos + 3 * mc.tip_site);
      const Eigen::Matrix3d site_rot =
          Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->site_xmat + 9 * mc.tip_site);
      worst_pos = std::max(worst_pos, (data[i].tip.translation() - site_pos).cwiseAbs().maxCoeff());
      worst_rot = std::max(worst_rot, (data[i].tip.linear() - site_rot).cwiseAbs().maxCoeff());

      mj_jacSite(m, d.get(), jacp.data(), jacr.data(), mc.tip_site);
      std::vector<bool> finger_col(m->nv, false);
      for (int k = 0; k < mc.dh.dof(); ++k) {
        const int v = mc.dof_adr[k];
        finger_col[v] = true;
        for (int r = 0; r < 3; ++r) {
          worst_jac = std::max(worst_jac, std::fabs(data[i].jacobian(r, k) - jacp[r * m->nv + v]));
          worst_jac = std::max(worst_jac, std::fabs(data[i].jacobian(3 + r, k) - jacr[r * m->nv + v]));
        }
      }
      for (int v = 0; v < m->nv; ++v) {
        if (finger_col[v] || skip[i].count(v)) continue;
        for (int r = 0; r < 3; ++r) {
          worst_jac = std::max(worst_jac, std::fabs(jacp[r * m->nv + v]));
          worst_jac = std::max(worst_jac, std::fabs(jacr[r * m->nv + v]));
        }
      }
      ++compared;
    }
  }
  INFO("worst position error " << worst_pos << ", rotation " << worst_rot << ", Jacobian " << worst_jac);
  CHECK(worst_pos < kTol);
  CHECK(worst_rot < kTol);
  CHECK(worst_jac < kTol);
  return compared;
}

// A hand exercising what e_GRASP does not: modified DH, prismatic joints, theta/d offsets, tool rotation, a tilted
// palm on a free joint and a non-unit rotation axis.
const char* kOddHand = R"(
name: odd
convention: modified
palm:
  pos: [0.1, -0.2, 0.5]
  axis: [1, 2, 3]
  angle_deg: 70
  mount: free
  half_size: [0.05, 0.04, 0.01]
  mass: 0.5
fingers:
  - name: a
    base: {pos: [0.01, 0.02, 0.03], rpy_deg: [10, -20, 30]}
    link_radius: 0.008
    link_mass: 0.02
    tool: {pos: [0.02, 0.01, -0.005], rpy_deg: [5, 15, -25]}
    links:
      - {a: 0, alpha_deg: 0, d: 0.01, theta_deg: 15, joint: revolute, range_deg: [-60, 60]}
      - {a: 0.03, alpha_deg: -90, d: 0, theta_deg: 0, joint: prismatic, range: [-0.01, 0.02]}
      - {a: 0.04, alpha_deg: 30, d: 0.005, theta_deg: -20, joint: revolute}
  - name: b
    base: {pos: [-0.03, -0.02, 0.0], axis: [0, 1, 0], angle_deg: -35}
    link_radius: 0.007
    link_mass: 0.01
    links:
      - {a: 0.01, alpha_deg: 90, d: 0.02, theta_deg: 0, joint: revolute, range_deg: [-90, 90]}
      - {a: 0.05, alpha_deg: 0, d: 0, theta_deg: 45, joint: revolute, range_deg: [-10, 100], allow_zero_length: true}
)";
}  // namespace

// True when the model carries at least one embedded DH chain (a hand generated by make-hand, or a scene
// including one). Single-joint controller rigs in models/ are hand-written and carry none.
bool has_embedded_chains(const mjModel* m) {
  for (int i = 0; i < m->nnumeric; ++i) {
    if (std::string(m->names + m->name_numericadr[i]).rfind("mjhand:chain:", 0) == 0) return true;
  }
  return false;
}

TEST_CASE("every model in models/: fingertip FK and Jacobian from the embedded chains equal MuJoCo's", "[hand]") {
  int hands = 0;
  for (const auto& entry : std::filesystem::directory_iterator(mjhand_test::source_path("models"))) {
    if (entry.path().extension() != ".xml") continue;
    auto m = mjhand_test::load_xml_file(entry.path().string());
    if (!has_embedded_chains(m.get())) continue;
    DYNAMIC_SECTION(entry.path().filename().string()) { CHECK(crosscheck(m.get(), 1000, 20240601u) >= 1000); }
    ++hands;
  }
  CHECK(hands >= 3);  // egrasp_hand, egrasp_scene, computed_torque_finger at least
}

TEST_CASE("modified DH, prismatic joints, tool offsets and a free palm also match MuJoCo", "[hand]") {
  const HandSpec spec = parse_hand_spec(kOddHand, "odd.yaml");
  auto m = mjhand_test::load_xml_string(write_mjcf(spec, "odd.yaml"));
  CHECK(crosscheck(m.get(), 1000, 7u) == 2000);

  // A moving palm needs mjData; at qpos0 the data-based bases equal the spec's (initial) world bases.
  std::vector<TreeChain> chains = read_model_chains(m.get());
  CHECK_THROWS_WITH(set_world_bases(m.get(), nullptr, chains), Catch::Matchers::Contains("needs mjData"));
  auto d = mjhand_test::make_data(m.get());
  mj_kinematics(m.get(), d.get());
  set_world_bases(m.get(), d.get(), chains);
  const std::vector<Chain> expected = hand_chains(spec);
  // the spec's base vs MuJoCo's composition of the written body poses: rounding of O(1) products
  for (std::size_t i = 0; i < chains.size(); ++i) {
    CHECK((chains[i].dh.base.matrix() - expected[i].base.matrix()).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("fixed palm: model-constant bases equal the mjData ones", "[hand]") {
  auto m = mjhand_test::load_xml_file(mjhand_test::source_path("models/egrasp_scene.xml"));
  auto d = mjhand_test::make_data(m.get());
  mj_kinematics(m.get(), d.get());
  std::vector<TreeChain> from_model = read_model_chains(m.get()), from_data = from_model;
  set_world_bases(m.get(), nullptr, from_model);
  set_world_bases(m.get(), d.get(), from_data);
  REQUIRE(from_model.size() == 4);
  // body_pos/quat composed by hand vs by mj_kinematics: rounding, ~1e-16
  for (std::size_t i = 0; i < from_model.size(); ++i) {
    CHECK((from_model[i].dh.base.matrix() - from_data[i].dh.base.matrix()).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("egrasp scene: the ball is within reach of every fingertip inside the joint ranges", "[hand]") {
  auto m = mjhand_test::load_xml_file(mjhand_test::source_path("models/egrasp_scene.xml"));
  auto d = mjhand_test::make_data(m.get());
  mj_kinematics(m.get(), d.get());
  const int ball = mj_name2id(m.get(), mjOBJ_GEOM, "ball");
  REQUIRE(ball >= 0);
  const Eigen::Vector3d centre = Eigen::Map<const Eigen::Vector3d>(d->geom_xpos + 3 * ball);
  const double radius = m->geom_size[3 * ball];
  std::vector<TreeChain> chains = read_model_chains(m.get());
  set_world_bases(m.get(), nullptr, chains);
  REQUIRE(chains.size() == 4);
  for (const TreeChain& mc : chains) {
    // Fingertip = the end cap of the last capsule: touching means its centre comes within radius + cap of the ball.
    const int last_geom = m->body_geomadr[m->site_bodyid[mc.tip_site]];
    const double cap = m->geom_size[3 * last_geom];
    ChainData cd(mc.dh);
    double nearest = 1e9, farthest = 0;
    const int steps = 15;
    for (int i = 0; i < steps * steps * steps; ++i) {
      double q[3];
      for (int k = 0, idx = i; k < 3; ++k, idx /= steps) {
        const DHLink& l = mc.dh.links[k];
        q[k] = l.lower + (l.upper - l.lower) * (idx % steps) / (steps - 1);
      }
      forward_kinematics(mc.dh, q, cd);
      const double gap = (cd.tip.translation() - centre).norm() - radius - cap;
      nearest = std::min(nearest, gap);
      farthest = std::max(farthest, gap);
    }
    INFO(mc.dh.name << ": fingertip gap to the ball ranges over [" << nearest << ", " << farthest << "] m");
    CHECK(nearest < -0.003);  // reaches into the ball: contact happens inside the ranges, not at a limit
    CHECK(farthest > 0.0);    // and can also be clear of it
  }
}
