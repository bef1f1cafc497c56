// Caller-sized outputs are checked: every public function that writes into an Eigen::Ref or a workspace sized by the
// caller throws std::invalid_argument naming itself, the argument, the expected and the actual size, instead of
// writing past the end (Eigen's own checks are assertions, compiled out in Release). Each case also calls the
// function with the right size, so a check that rejected everything would fail here too.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/wrench_space.h>
#include <mjhand/hand_object/squeeze_distribution.h>
#include <mjhand/kinematics/dls_ik.h>
#include <mjhand/kinematics/forward_kinematics.h>
#include <mjhand/parallel/parallel_jacobians.h>
#include <mjhand/parallel/screws.h>
#include <mjhand/util/size_check.h>
#include "test_util.h"

using namespace mjhand;
using Catch::Contains;

namespace {

// The message of the std::invalid_argument that f throws ("" and a failed check when it throws nothing or another
// type), so each case can check every part of it.
template <typename F>
std::string invalid_argument_message(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL_CHECK("expected std::invalid_argument, got another exception: " << e.what());
    return "";
  }
  FAIL_CHECK("expected std::invalid_argument, nothing was thrown");
  return "";
}

// Two hard fingers and a soft one: total_rows = 3 + 3 + 4 = 10.
std::vector<Contact> three_contacts() {
  return {analytic_contact({0.03, 0, 0}, {-1, 0, 0}), analytic_contact({-0.03, 0, 0}, {1, 0, 0}),
          analytic_contact({0, 0.03, 0}, {0, -1, 0}, ContactModel::kSoftFinger, 0.5, 0.002)};
}

// A palm with a two-joint finger and a free ball: enough for hand_jacobian with a real mjData.
const char* kFingerAndBall = R"(<mujoco><worldbody>
  <body name="palm"><body name="f1"><joint name="j1" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/>
    <body name="f1b" pos="0.1 0 0"><joint name="j2" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/>
    </body></body></body>
  <body name="ball" pos="0.2 0 0.05"><freejoint/><geom type="sphere" size="0.03"/></body>
</worldbody></mujoco>)";

}  // namespace

TEST_CASE("size checks: the message names the function, the argument, the expected and the actual size", "[sizes]") {
  Eigen::MatrixXd M(5, 3);
  CHECK(invalid_argument_message([&] { require_size("f", "M", M, 6, 3, "six rows"); }) ==
        "f: M must be 6 x 3 (six rows), got 5 x 3");
  CHECK_NOTHROW(require_size("f", "M", M, 5, 3));
  CHECK(invalid_argument_message([&] { require_length("g", "v", 4, 7); }) == "g: v must have 7 entries, got 4");
  CHECK(invalid_argument_message([&] { require_at_least("h", "out", 2, 8, "columns", "edges"); }) ==
        "h: out must have at least 8 columns (edges), got 2");
  CHECK_NOTHROW(require_at_least("h", "out", 9, 8, "columns"));
}

TEST_CASE("grasp_matrix and shift_wrench_reference refuse outputs of the wrong size", "[sizes][grasp]") {
  const std::vector<Contact> c = three_contacts();
  const Eigen::Vector3d p = Eigen::Vector3d::Zero();
  Eigen::MatrixXd G(6, 10);
  CHECK_NOTHROW(grasp_matrix(c.data(), 3, p, G));
  CHECK(G.isApprox(grasp_matrix(c, p)));  // the same arithmetic; isApprox: 1e-12 relative
  Eigen::MatrixXd narrow = Eigen::MatrixXd::Constant(6, 9, 7.0);  // one column short: the soft finger's torsion
  CHECK(invalid_argument_message([&] { grasp_matrix(c.data(), 3, p, narrow); }) ==
        "grasp_matrix: G must be 6 x 10 (6 x total_rows(contacts)), got 6 x 9");
  CHECK((narrow.array() == 7.0).all());  // refused before anything was written
  Eigen::MatrixXd wide(6, 11), short_rows(5, 10);
  CHECK_THAT(invalid_argument_message([&] { grasp_matrix(c.data(), 3, p, wide); }), Contains("got 6 x 11"));
  CHECK_THAT(invalid_argument_message([&] { grasp_matrix(c.data(), 3, p, short_rows); }), Contains("got 5 x 10"));
  // A block of a larger preallocated matrix, as compute_grasp passes it, is accepted when it has the right size.
  Eigen::MatrixXd storage = Eigen::MatrixXd::Zero(6, 40);
  CHECK_NOTHROW(grasp_matrix(c.data(), 3, p, storage.leftCols(10)));

  CHECK_NOTHROW(shift_wrench_reference(G, p, Eigen::Vector3d(0.1, 0, 0)));
  Eigen::MatrixXd five(5, 4);
  CHECK(invalid_argument_message([&] { shift_wrench_reference(five, p, p); }) ==
        "shift_wrench_reference: W must be 6 x 4 (wrenches (f, m) as columns), got 5 x 4");
}

TEST_CASE("selection_matrix, joint_torques and balanced_wrench refuse mismatched sizes", "[sizes][grasp]") {
  Eigen::MatrixXd H(4, 6);
  CHECK_NOTHROW(selection_matrix(ContactModel::kSoftFinger, H));
  CHECK(H.leftCols(4).isIdentity());
  Eigen::MatrixXd H3(3, 6);
  CHECK(invalid_argument_message([&] { selection_matrix(ContactModel::kSoftFinger, H3); }) ==
        "selection_matrix: H must be 4 x 6 (contact_rows(model) x 6), got 3 x 6");

  const Eigen::MatrixXd JH = Eigen::MatrixXd::Random(10, 4);
  const Eigen::VectorXd lambda = Eigen::VectorXd::Random(10);
  Eigen::VectorXd tau(4);
  CHECK_NOTHROW(joint_torques(JH, lambda, tau));
  CHECK(tau.isApprox(JH.transpose() * lambda));  // 10-term sums of O(1): rounding ~1e-15
  Eigen::VectorXd tau3(3);
  CHECK(invalid_argument_message([&] { joint_torques(JH, lambda, tau3); }) ==
        "joint_torques: tau must have 4 entries (columns of JH), got 3");
  const Eigen::VectorXd lambda9 = Eigen::VectorXd::Random(9);
  CHECK(invalid_argument_message([&] { joint_torques(JH, lambda9, tau); }) ==
        "joint_torques: lambda must have 10 entries (rows of JH), got 9");

  const Eigen::MatrixXd G = grasp_matrix(three_contacts(), Eigen::Vector3d::Zero());
  CHECK(balanced_wrench(G, lambda).isApprox(-G * lambda));  // rounding of 10-term sums
  CHECK(invalid_argument_message([&] { balanced_wrench(G, lambda9); }) ==
        "balanced_wrench: G must be 6 x 9 (6 x the length of lambda), got 6 x 10");
  const Eigen::MatrixXd G5 = G.topRows(5);
  CHECK_THAT(invalid_argument_message([&] { balanced_wrench(G5, lambda); }), Contains("got 5 x 10"));
}

TEST_CASE("primitive_wrenches needs room for every cone edge", "[sizes][grasp]") {
  const Contact soft = three_contacts()[2];
  Eigen::Matrix<double, 6, Eigen::Dynamic> out(6, 16);
  CHECK(primitive_wrenches(soft, Eigen::Vector3d::Zero(), 8, 0.05, out) == 16);
  Eigen::Matrix<double, 6, Eigen::Dynamic> small(6, 15);
  CHECK(invalid_argument_message([&] { primitive_wrenches(soft, Eigen::Vector3d::Zero(), 8, 0.05, small); }) ==
        "primitive_wrenches: out must have at least 16 columns (1 frictionless, cone_edges hard, 2 cone_edges soft), "
        "got 15");
}

TEST_CASE("hand_jacobian and mujoco_contact_forces check their outputs and the workspace's model", "[sizes][grasp]") {
  ModelPtr m = mjhand_test::load_xml_string(kFingerAndBall);
  DataPtr d = make_data(m.get());
  mj_forward(m.get(), d.get());
  const HandModel hand =
      hand_from_palm(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "ball"), mj_name2id(m.get(), mjOBJ_BODY, "palm"));
  REQUIRE(hand.num_hand_dofs() == 2);
  std::vector<Contact> c = {analytic_contact({0.2, 0, 0.02}, {0, 0, 1})};
  c[0].hand_body = mj_name2id(m.get(), mjOBJ_BODY, "f1b");
  HandJacobianWorkspace ws(m.get());
  Eigen::MatrixXd JH(3, 2);
  CHECK_NOTHROW(hand_jacobian(m.get(), d.get(), hand, c.data(), 1, ws, JH));
  CHECK(JH.isApprox(hand_jacobian(m.get(), d.get(), hand, c)));  // the same mj_jac call: equal
  Eigen::MatrixXd JH_wrong(3, 1);
  CHECK(invalid_argument_message([&] { hand_jacobian(m.get(), d.get(), hand, c.data(), 1, ws, JH_wrong); }) ==
        "hand_jacobian: JH must be 3 x 2 (total_rows(contacts) x hand.num_hand_dofs()), got 3 x 1");
  // A workspace made for a smaller model: mj_jac would write 3 nv numbers into 3 (nv - 6).
  ModelPtr other = mjhand_test::load_xml_string("<mujoco><worldbody><body><joint/><geom size=\"0.1\"/></body>"
                                                "<body pos=\"1 0 0\"><joint/><geom size=\"0.1\"/></body></worldbody>"
                                                "</mujoco>");
  HandJacobianWorkspace small(other.get());
  CHECK(invalid_argument_message([&] { hand_jacobian(m.get(), d.get(), hand, c.data(), 1, small, JH); }) ==
        "hand_jacobian: ws.jacp must have 24 entries (3 m->nv), got 6");

  // Analytic contacts carry no MuJoCo force: with the right size the call gets past the check and says so.
  Eigen::VectorXd lambda(3), lambda4(4);
  CHECK_THROWS_AS(mujoco_contact_forces(m.get(), d.get(), c, lambda), GraspError);
  CHECK(invalid_argument_message([&] { mujoco_contact_forces(m.get(), d.get(), c, lambda4); }) ==
        "mujoco_contact_forces: lambda must have 3 entries (total_rows(contacts)), got 4");
}

TEST_CASE("shift_jp_reference and shift_twist_reference refuse wrong shapes, and J_p is shifted in place", "[sizes][parallel]") {
  const Eigen::Vector3d a(0.1, -0.2, 0.05), b(-0.03, 0.04, 0.2);
  const Eigen::MatrixXd Jp0 = Eigen::MatrixXd::Random(5, 6);
  Eigen::MatrixXd Jp = Jp0;
  shift_jp_reference(Jp, a, b);
  Eigen::MatrixXd W = Jp0.transpose();  // J_p's rows are wrenches: the same as shifting its transpose's columns
  // the same shift arithmetic on O(1) entries and 0.2-m offsets: rounding ~1e-16
  shift_wrench_reference(W, a, b);
  CHECK((Jp - W.transpose()).cwiseAbs().maxCoeff() < 1e-15);
  Eigen::MatrixXd Jp5(5, 5);
  CHECK(invalid_argument_message([&] { shift_jp_reference(Jp5, a, b); }) ==
        "shift_jp_reference: Jp must be 5 x 6 (r x 6), got 5 x 5");
  Eigen::MatrixXd T(6, 2), T7(7, 2);
  CHECK_NOTHROW(shift_twist_reference(T, a, b));
  CHECK(invalid_argument_message([&] { shift_twist_reference(T7, a, b); }) ==
        "shift_twist_reference: T must be 6 x 2 (twists (v, w) as columns), got 7 x 2");
}

TEST_CASE("kinematics refuses a ChainData or DlsWorkspace built for another chain", "[sizes][kinematics]") {
  Chain two, three;
  two.links = {DHLink{0.05, 0, 0, 0}, DHLink{0.04, 0, 0, 0}};
  three.links = {DHLink{0.05, 0, 0, 0}, DHLink{0.04, 0, 0, 0}, DHLink{0.03, 0, 0, 0}};
  const double q[3] = {0.1, 0.2, 0.3};
  ChainData data2(two), data3(three);
  CHECK_NOTHROW(fk_and_jacobian(three, q, data3));
  CHECK(invalid_argument_message([&] { forward_kinematics(three, q, data2); }) ==
        "forward_kinematics: data.frames must have 4 entries (ChainData must be built for this chain), got 3");
  forward_kinematics(two, q, data2);
  CHECK_THAT(invalid_argument_message([&] { compute_jacobian(three, data2); }),
             Contains("compute_jacobian: data.frames must have 4 entries") && Contains("got 3"));

  DlsWorkspace ws2(two), ws3(three);
  double qs[3] = {0.1, 0.2, 0.3};
  CHECK(dls_ik_position(three, Eigen::Vector3d(0.08, 0.06, 0), qs, ws3).converged);
  CHECK(invalid_argument_message([&] { dls_ik_position(three, Eigen::Vector3d(0.08, 0.06, 0), qs, ws2); }) ==
        "dls_ik: ws.jacobian must be 6 x 3 (DlsWorkspace must be built for this chain), got 6 x 2");
}

TEST_CASE("squeeze_forces checks G, lambda and its workspace against the contacts", "[sizes][hand_object]") {
  const std::vector<Contact> c = three_contacts();
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  SqueezeWorkspace ws(10), small(8);
  Eigen::VectorXd lambda(10), lambda9(9);
  const Wrench W = Wrench::Zero();
  CHECK_NOTHROW(squeeze_forces(c.data(), 3, G, W, SqueezeOptions{}, ws, lambda));
  CHECK(invalid_argument_message([&] { squeeze_forces(c.data(), 3, G, W, SqueezeOptions{}, ws, lambda9); }) ==
        "squeeze_forces: lambda must have 10 entries (total_rows(contacts)), got 9");
  CHECK(invalid_argument_message([&] { squeeze_forces(c.data(), 2, G, W, SqueezeOptions{}, ws, lambda); }) ==
        "squeeze_forces: G must be 6 x 6 (6 x total_rows(contacts)), got 6 x 10");
  CHECK(invalid_argument_message([&] { squeeze_forces(c.data(), 3, G, W, SqueezeOptions{}, small, lambda); }) ==
        "squeeze_forces: ws.e must have at least 10 entries (SqueezeWorkspace max_rows), got 8");
}
