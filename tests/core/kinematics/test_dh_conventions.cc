// The DH conventions checked against sources that share no code with dh_chain.cc: the textbook matrices written out
// element by element, and MJCF arms whose body poses were derived by hand. The MuJoCo cross-check of generated
// models cannot catch a convention error, because the writer lays out bodies with the same dh_split as FK.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include <mjhand/kinematics/dh_chain.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include "test_util.h"

using namespace mjhand;

namespace {

// Standard (Paul) A_i = Rz(theta) Tz(d) Tx(a) Rx(alpha), e.g. Spong, Hutchinson & Vidyasagar eq 3.10.
Eigen::Matrix4d paul(double a, double alpha, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha), sa = std::sin(alpha);
  Eigen::Matrix4d m;
  m << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return m;
}

// Modified (Craig) A_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i), Craig eq 3.6.
Eigen::Matrix4d craig(double a, double alpha, double d, double theta) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha), sa = std::sin(alpha);
  Eigen::Matrix4d m;
  m << ct, -st, 0, a,                  //
      st * ca, ct * ca, -sa, -sa * d,  //
      st * sa, ct * sa, ca, ca * d,    //
      0, 0, 0, 1;
  return m;
}

// The row's constant offset plus the joint variable, on theta (revolute) or d (prismatic).
Eigen::Matrix4d textbook(DHConvention convention, const DHLink& l, double q) {
  const double theta = l.theta + (l.kind == JointKind::kRevolute ? q : 0.0);
  const double d = l.d + (l.kind == JointKind::kPrismatic ? q : 0.0);
  return convention == DHConvention::kStandard ? paul(l.a, l.alpha, d, theta) : craig(l.a, l.alpha, d, theta);
}

double max_abs_diff(const Eigen::Matrix4d& a, const Eigen::Matrix4d& b) { return (a - b).cwiseAbs().maxCoeff(); }

const char* name(DHConvention c) { return c == DHConvention::kStandard ? "standard" : "modified"; }

DHLink random_link(std::mt19937& rng, JointKind kind) {
  std::uniform_real_distribution<double> angle(-M_PI, M_PI), length(-0.2, 0.2);
  DHLink l;
  l.a = length(rng);
  l.alpha = angle(rng);
  l.d = length(rng);
  l.theta = angle(rng);
  l.kind = kind;
  return l;
}

double random_q(std::mt19937& rng, JointKind kind) {
  std::uniform_real_distribution<double> angle(-M_PI, M_PI), slide(-0.1, 0.1);
  return kind == JointKind::kRevolute ? angle(rng) : slide(rng);
}

Eigen::Isometry3d random_pose(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond r(n(rng), n(rng), n(rng), n(rng));
  Eigen::Isometry3d t(r.normalized());
  t.translation() = 0.1 * Eigen::Vector3d(n(rng), n(rng), n(rng));
  return t;
}

constexpr DHConvention kConventions[] = {DHConvention::kStandard, DHConvention::kModified};
constexpr JointKind kKinds[] = {JointKind::kRevolute, JointKind::kPrismatic};

}  // namespace

TEST_CASE("dh_transform is the textbook matrix of each convention and joint kind", "[kinematics]") {
  std::mt19937 rng(2024);
  for (DHConvention c : kConventions) {
    for (JointKind kind : kKinds) {
      for (int k = 0; k < 2000; ++k) {
        const DHLink l = random_link(rng, kind);
        const double q = random_q(rng, kind);
        INFO(name(c) << (kind == JointKind::kRevolute ? " revolute" : " prismatic") << " a " << l.a << " alpha "
                     << l.alpha << " d " << l.d << " theta " << l.theta << " q " << q);
        // a few trig products per entry: rounding
        REQUIRE(max_abs_diff(dh_transform(c, l, q).matrix(), textbook(c, l, q)) < 1e-14);
      }
    }
  }

  // One row worked by hand so that a shared mistake in both matrices above would still show: a standard row with
  // alpha = +90 deg maps z_i onto -y_{i-1} and y_i onto z_{i-1}; the modified row puts z_i at -y_{i-1} too, but its
  // link offset d moves along z_i, i.e. along -y_{i-1}.
  DHLink l;
  l.a = 0.1;
  l.alpha = M_PI / 2;
  l.d = 0.2;
  const Eigen::Isometry3d s = dh_transform(DHConvention::kStandard, l, 0.0);
  // exact but for cos(pi/2) = 6e-17 times lengths <= 0.2 m
  REQUIRE((s.linear().col(1) - Eigen::Vector3d::UnitZ()).norm() < 1e-15);
  REQUIRE((s.linear().col(2) + Eigen::Vector3d::UnitY()).norm() < 1e-15);
  REQUIRE((s.translation() - Eigen::Vector3d(0.1, 0, 0.2)).norm() < 1e-15);
  const Eigen::Isometry3d m = dh_transform(DHConvention::kModified, l, 0.0);
  REQUIRE((m.linear().col(2) + Eigen::Vector3d::UnitY()).norm() < 1e-15);
  REQUIRE((m.translation() - Eigen::Vector3d(0.1, -0.2, 0)).norm() < 1e-15);
  // theta and d are not interchangeable: a revolute joint turns the a offset, a prismatic one slides along z.
  l.alpha = 0;
  REQUIRE((dh_transform(DHConvention::kStandard, l, M_PI / 2).translation() - Eigen::Vector3d(0, 0.1, 0.2)).norm() <
          1e-15);
  l.kind = JointKind::kPrismatic;
  REQUIRE((dh_transform(DHConvention::kStandard, l, 0.05).translation() - Eigen::Vector3d(0.1, 0, 0.25)).norm() <
          1e-15);
}

TEST_CASE("forward_kinematics of whole chains is the product of textbook matrices", "[kinematics]") {
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> kind_pick(0, 1), length_pick(1, 7);
  for (DHConvention c : kConventions) {
    for (int k = 0; k < 300; ++k) {
      Chain chain;
      chain.convention = c;
      chain.base = random_pose(rng);
      chain.tool = random_pose(rng);
      const int n = length_pick(rng);
      std::vector<double> q(n);
      for (int i = 0; i < n; ++i) {
        chain.links.push_back(random_link(rng, kKinds[kind_pick(rng)]));
        q[i] = random_q(rng, chain.links[i].kind);
      }
      ChainData data(chain);
      forward_kinematics(chain, q.data(), data);

      Eigen::Matrix4d expected = chain.base.matrix();
      INFO(name(c) << " chain of " << n << ", sample " << k);
      for (int i = 0; i < n; ++i) {
        const Eigen::Matrix4d before = expected;
        expected = expected * textbook(c, chain.links[i], q[i]);
        // up to 9 products of O(1) rotations and O(0.1-m) offsets: rounding ~1e-15
        REQUIRE(max_abs_diff(data.frames[i + 1].matrix(), expected) < 1e-13);
        // The Jacobian is built on these: standard joint i moves about z_{i-1}, modified joint i about z_i.
        const Eigen::Matrix4d& axis_frame = c == DHConvention::kStandard ? before : expected;
        REQUIRE((data.joint_axis[i] - axis_frame.block<3, 1>(0, 2)).norm() < 1e-13);
        // The point may lie anywhere on the axis; for modified DH it is not the frame origin (d slides along it).
        const Eigen::Vector3d offset = data.joint_point[i] - axis_frame.block<3, 1>(0, 3);
        REQUIRE((offset - offset.dot(data.joint_axis[i]) * data.joint_axis[i]).norm() < 1e-13);
      }
      REQUIRE(max_abs_diff(data.tip.matrix(), expected * chain.tool.matrix()) < 1e-13);
    }
  }
}

namespace {

// Standard DH, revolute x3. Rows (a, alpha, d, theta): (0.02, +90deg, 0.01, 0), (0.045, 0, 0, +90deg),
// (0.03, 0, 0.005, 0). Base: translate (0.1, -0.2, 0.3), then Rz(90deg). Tool: Tx(0.01) Ry(90deg).
// Bodies by hand: each body is frame i-1 turned by q_i about its z; its child sits at Rz(theta) Tz(d) Tx(a) Rx(alpha)
// = pos (a cos(theta), a sin(theta), d), rotation Rz(theta) Rx(alpha).
constexpr const char* kStandardArm = R"(
<mujoco model="hand_written_standard_dh_arm">
  <compiler angle="degree"/>
  <worldbody>
    <body name="link1" pos="0.1 -0.2 0.3" axisangle="0 0 1 90">
      <joint name="j1" type="hinge" axis="0 0 1"/>
      <inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/>
      <body name="link2" pos="0.02 0 0.01" axisangle="1 0 0 90">
        <joint name="j2" type="hinge" axis="0 0 1"/>
        <inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/>
        <body name="link3" pos="0 0.045 0" axisangle="0 0 1 90">
          <joint name="j3" type="hinge" axis="0 0 1"/>
          <inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/>
          <site name="tip" pos="0.04 0 0.005" axisangle="0 1 0 90"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";

// Modified DH, revolute / prismatic / revolute. Rows (a_{i-1}, alpha_{i-1}, d_i, theta_i): (0, 0, 0.05, 0),
// (0.03, -90deg, 0.02, 0), (0.04, +90deg, 0, +90deg). Base: translate (-0.1, 0.1, 0.2), then Ry(-90deg).
// Tool: translate (0.01, 0.02, 0.03), then Rx(180deg). Bodies by hand: body i sits at Rx(alpha) Tx(a) Rz(theta) Tz(d)
// = pos (a, -sin(alpha) d, cos(alpha) d), rotation Rx(alpha) Rz(theta), and moves about / along its own z;
// Rx(90) Rz(90) is the quaternion (0.5, 0.5, -0.5, 0.5).
constexpr const char* kModifiedArm = R"(
<mujoco model="hand_written_modified_dh_arm">
  <compiler angle="degree"/>
  <worldbody>
    <body name="base" pos="-0.1 0.1 0.2" axisangle="0 1 0 -90">
      <body name="m1" pos="0 0 0.05">
        <joint name="j1" type="hinge" axis="0 0 1"/>
        <inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/>
        <body name="m2" pos="0.03 0.02 0" axisangle="1 0 0 -90">
          <joint name="j2" type="slide" axis="0 0 1"/>
          <inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/>
          <body name="m3" pos="0.04 0 0" quat="0.5 0.5 -0.5 0.5">
            <joint name="j3" type="hinge" axis="0 0 1"/>
            <inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/>
            <site name="tip" pos="0.01 0.02 0.03" quat="0 1 0 0"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";

// The same arms as DH chains, typed in from the tables above rather than read back from the models.
Chain standard_arm() {
  Chain c;
  c.convention = DHConvention::kStandard;
  c.base = Eigen::Translation3d(0.1, -0.2, 0.3) * Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ());
  c.links = {{0.02, M_PI / 2, 0.01, 0}, {0.045, 0, 0, M_PI / 2}, {0.03, 0, 0.005, 0}};
  c.tool = Eigen::Translation3d(0.01, 0, 0) * Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitY());
  return c;
}

Chain modified_arm() {
  Chain c;
  c.convention = DHConvention::kModified;
  c.base = Eigen::Translation3d(-0.1, 0.1, 0.2) * Eigen::AngleAxisd(-M_PI / 2, Eigen::Vector3d::UnitY());
  c.links = {{0, 0, 0.05, 0}, {0.03, -M_PI / 2, 0.02, 0}, {0.04, M_PI / 2, 0, M_PI / 2}};
  c.links[1].kind = JointKind::kPrismatic;
  c.tool = Eigen::Translation3d(0.01, 0.02, 0.03) * Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX());
  return c;
}

// Puts q into MuJoCo, runs mj_kinematics, and compares the site, joint axes and anchors with mjhand's FK.
void compare_with_mujoco(const mjModel* m, mjData* d, const Chain& chain, const double* q, double tol) {
  ChainData data(chain);
  forward_kinematics(chain, q, data);
  for (int i = 0; i < 3; ++i) d->qpos[m->jnt_qposadr[i]] = q[i];
  mj_kinematics(m, d);
  const int site = mj_name2id(m, mjOBJ_SITE, "tip");
  REQUIRE(site >= 0);
  const Eigen::Map<const Eigen::Vector3d> pos(d->site_xpos + 3 * site);
  const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> rot(d->site_xmat + 9 * site);
  INFO("q = " << q[0] << ", " << q[1] << ", " << q[2]);
  REQUIRE((data.tip.translation() - pos).cwiseAbs().maxCoeff() < tol);
  REQUIRE((data.tip.linear() - rot).cwiseAbs().maxCoeff() < tol);
  for (int i = 0; i < 3; ++i) {
    const Eigen::Map<const Eigen::Vector3d> axis(d->xaxis + 3 * i), anchor(d->xanchor + 3 * i);
    REQUIRE((data.joint_axis[i] - axis).cwiseAbs().maxCoeff() < tol);
    const Eigen::Vector3d offset = data.joint_point[i] - anchor;  // any point of the axis will do
    REQUIRE((offset - offset.dot(axis) * axis).cwiseAbs().maxCoeff() < tol);
  }
}

}  // namespace

TEST_CASE("FK matches MuJoCo on hand-written MJCF arms of both conventions", "[kinematics]") {
  struct Arm {
    const char* xml;
    Chain chain;
    // Tip positions worked out by hand at two postures, so that the MJCF itself is checked against the tables.
    double q_a[3];
    Eigen::Vector3d tip_a;
    double q_b[3];
    Eigen::Vector3d tip_b;
  };
  const Arm arms[] = {
      // q = 0: in frame 0 the tip is at (0.02, -0.005, 0.095) (alpha1 = +90 deg turns link 2 up along z0, and
      // z2 = -y0 carries d3); Rz(90) and the base offset give the world point. q1 = 90 deg turns it once more.
      {kStandardArm, standard_arm(), {0, 0, 0}, {0.105, -0.18, 0.395}, {M_PI / 2, 0, 0}, {0.08, -0.195, 0.395}},
      // q = 0: (0.05, 0.03, 0.08) in the base frame; the prismatic joint slides along z2 = +y of the base frame.
      {kModifiedArm, modified_arm(), {0, 0, 0}, {-0.18, 0.13, 0.25}, {0, 0.01, 0}, {-0.18, 0.14, 0.25}},
  };
  for (const Arm& arm : arms) {
    INFO(name(arm.chain.convention) << " arm");
    const mjhand_test::ModelPtr model = mjhand_test::load_xml_string(arm.xml);
    const mjhand_test::DataPtr data = mjhand_test::make_data(model.get());
    REQUIRE(model->njnt == 3);

    ChainData fk(arm.chain);
    forward_kinematics(arm.chain, arm.q_a, fk);
    // hand-worked tips at multiples of 90 deg: cos(pi/2) = 6e-17 residues and rounding; MuJoCo's FK of the same
    // 17-digit numbers the same
    REQUIRE((fk.tip.translation() - arm.tip_a).norm() < 1e-14);
    forward_kinematics(arm.chain, arm.q_b, fk);
    REQUIRE((fk.tip.translation() - arm.tip_b).norm() < 1e-14);
    compare_with_mujoco(model.get(), data.get(), arm.chain, arm.q_a, 1e-14);
    compare_with_mujoco(model.get(), data.get(), arm.chain, arm.q_b, 1e-14);

    std::mt19937 rng(31);
    for (int k = 0; k < 300; ++k) {
      double q[3];
      for (int i = 0; i < 3; ++i) q[i] = random_q(rng, arm.chain.links[i].kind);
      // random postures: rounding ~1e-15; 1e-12 is loose
      compare_with_mujoco(model.get(), data.get(), arm.chain, q, 1e-12);
    }
  }
}
