// Quasi-static grasp analysis (quasistatic.h): the hand-derived two-finger squeeze, every equation of the model,
// SynGrasp's nested form of the maps, finite differences of a nonlinear spring model, internal forces and rigid-body
// motions, sliding, and the cross-check against a MuJoCo grasp with position servos and soft contacts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/quasistatic.h>
#include <mjhand/grasp/stiffness.h>
#include <mjhand/util/dense_decompositions.h>
#include "six_finger_grasp.h"
#include "two_finger_grasp.h"
#include "test_util.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;

namespace {
constexpr double kA = mjhand_test::kBoxHalfWidth;
using mjhand_test::cartesian_fingers_jacobian;
std::vector<Contact> opposed(ContactModel model, double mu = 0.5) { return mjhand_test::opposed_contacts(model, mu); }

Eigen::MatrixXd random_spd(int n, double scale, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = u(rng);
  return scale * (A * A.transpose() / n + 0.5 * Eigen::MatrixXd::Identity(n, n));
}

Eigen::MatrixXd random_matrix(int r, int c, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::MatrixXd A(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) A(i, j) = u(rng);
  return A;
}

// A generic grasp: three hard fingers on a sphere (G full rank), a random 9 x n hand Jacobian, full (non-diagonal)
// stiffness matrices.
struct RandomGrasp {
  std::vector<Contact> contacts;
  Eigen::MatrixXd G, J, Kc, Kq, S, Kz;
};
RandomGrasp random_grasp(int n, int nz, unsigned seed) {
  std::mt19937 rng(seed);
  RandomGrasp g;
  for (int k = 0; k < 3; ++k) {
    const double a = 2 * M_PI * k / 3 + 0.3 * k;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0.2 * k - 0.2);
    g.contacts.push_back(analytic_contact(0.04 * u.normalized(), -u, ContactModel::kHardFinger));
  }
  g.G = grasp_matrix(g.contacts, Eigen::Vector3d::Zero());
  g.J = 0.05 * random_matrix(9, n, rng);  // ~5 cm lever arms
  g.Kc = random_spd(9, 3000, rng);
  g.Kq = random_spd(n, 2, rng);  // N m/rad
  g.S = random_matrix(n, nz, rng);
  g.Kz = random_spd(nz, 5, rng);
  return g;
}

// Largest |a - b| over max(|b|, floor).
template <typename A, typename B>
double rel(const A& a, const B& b, double floor = 1e-300) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), floor);
}

// True when two orthonormal bases span the same subspace (equal projectors).
bool same_span(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double tol) {
  if (A.cols() != B.cols()) return false;
  return (A * A.transpose() - B * B.transpose()).cwiseAbs().maxCoeff() < tol;
}
}  // namespace

TEST_CASE("two-finger squeeze: du, dlambda and the synergy squeeze equal the hand-derived series springs", "[quasistatic]") {
  const double kn = 2000, kt = 600, kr = 0.3, kq = 1500, kz = 4000;
  const std::vector<Contact> c = opposed(ContactModel::kSoftFinger);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd J = cartesian_fingers_jacobian(c);
  DirectionalStiffness k;
  k.normal = kn;
  k.tangential = kt;
  k.torsional = kr;
  const Eigen::MatrixXd Kc = contact_stiffness(c, k);
  const double kne = kn * kq / (kn + kq), kte = kt * kq / (kt + kq);
  // 1. External wrench, no synergies: du = K_O^-1 dw with the diagonal K_O of test_stiffness.
  const QuasistaticMaps maps = quasistatic_maps(G, J, Kc, joint_stiffness(6, kq), kNoSynergies, kRigid);
  Eigen::VectorXd dw(6);
  dw << 1.2, -0.4, 0.7, 0.01, -0.02, 0.03;
  Eigen::VectorXd du(6);
  du << dw(0) / (2 * kne), dw(1) / (2 * kte), dw(2) / (2 * kte), dw(3) / (2 * kr), dw(4) / (2 * kA * kA * kte),
      dw(5) / (2 * kA * kA * kte);
  const QuasistaticSolution s = quasistatic_solution(maps, dw, Eigen::VectorXd());
  CHECK(rel(s.du, du) < 1e-10);  // rounding of two LLT solves, condition ~1e4
  // The push along +x unloads contact 1 (normal +x) and loads contact 2 by F/2 each; the finger joints yield by
  // the force over kq along their own axis.
  CHECK(s.dlambda(0) == Approx(-dw(0) / 2).epsilon(1e-10));
  CHECK(s.dlambda(4) == Approx(dw(0) / 2).epsilon(1e-10));
  // Finger 1's x joint carries n_x dlambda_n = -F/2 less force, so its spring extends by F/(2 kq) after the object.
  CHECK(s.dq(0) == Approx(dw(0) / 2 / kq).epsilon(1e-10));
  // 2. Reference change of finger 1's x joint by delta (S = I): the object moves delta/2, both normals load by
  // kne delta/2, the joint lags its reference by that force over kq.
  const double delta = 1e-3;
  Eigen::VectorXd dqr = Eigen::VectorXd::Zero(6);
  dqr(0) = delta;
  const QuasistaticSolution r = quasistatic_solution(maps, Eigen::VectorXd(), dqr);
  CHECK(r.du(0) == Approx(delta / 2).epsilon(1e-10));
  CHECK(r.du.tail(5).norm() < 1e-12 * delta);
  CHECK(r.dlambda(0) == Approx(kne * delta / 2).epsilon(1e-10));
  CHECK(r.dlambda(4) == Approx(kne * delta / 2).epsilon(1e-10));
  CHECK(r.dq(0) == Approx(delta - kne * delta / 2 / kq).epsilon(1e-10));
  // 3. Synergies: column 1 squeezes (finger 1 +x, finger 2 -x), column 2 moves both fingers +y; K_z = kz I.
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(6, 2);
  S(0, 0) = 1;
  S(3, 0) = -1;
  S(1, 1) = 1;
  S(4, 1) = 1;
  const QuasistaticMaps sm = quasistatic_maps(G, J, Kc, joint_stiffness(6, kq), S, synergy_stiffness(2, kz));
  const double sq = 1e-3;
  const QuasistaticSolution z = quasistatic_solution(sm, Eigen::VectorXd(), Eigen::Vector2d(sq, 0));
  // Both normal rows see 1/kn + 1/kq plus the shared synergy compliance 1/kz twice (both contacts load the one
  // synergy): f = s / (1/kn + 1/kq + 2/kz); the synergy yields by S^T tau / kz = 2 f / kz; the object stays.
  const double f = sq / (1 / kn + 1 / kq + 2 / kz);
  CHECK(z.dlambda(0) == Approx(f).epsilon(1e-10));
  CHECK(z.dlambda(4) == Approx(f).epsilon(1e-10));
  CHECK(z.du.norm() < 1e-12 * sq);
  CHECK(z.dz(0) == Approx(sq - 2 * f / kz).epsilon(1e-10));
  // Column 2 is a rigid-body motion: the object follows the fingers in y, no force changes, dz = dz_r.
  const QuasistaticSolution y = quasistatic_solution(sm, Eigen::VectorXd(), Eigen::Vector2d(0, sq));
  CHECK(y.du(1) == Approx(sq).epsilon(1e-10));
  CHECK(y.dlambda.norm() < 1e-9 * kn * sq);  // rounding against the force scale kn * s
  const RigidBodyMotions rb = synergy_rigid_body_motions(sm);
  REQUIRE(rb.dz.cols() == 1);
  CHECK(std::abs(rb.dz(1, 0)) == Approx(1.0).epsilon(1e-12));
  CHECK(std::abs(rb.du(1, 0)) == Approx(1.0).epsilon(1e-10));
  const Eigen::MatrixXd E = controllable_internal_forces(sm);
  REQUIRE(E.cols() == 1);  // only the squeeze
  CHECK(std::abs(E(0, 0)) == Approx(std::sqrt(0.5)).epsilon(1e-10));
  CHECK(std::abs(E(4, 0)) == Approx(std::sqrt(0.5)).epsilon(1e-10));
}

TEST_CASE("quasi-static solution satisfies every equation of the model and SynGrasp's nested maps", "[quasistatic]") {
  for (unsigned seed : {1u, 2u, 3u}) {
    const RandomGrasp g = random_grasp(12, 4, seed);
    const QuasistaticMaps maps = quasistatic_maps(g.G, g.J, g.Kc, g.Kq, g.S, g.Kz);
    std::mt19937 rng(seed + 100);
    const Eigen::VectorXd dw = random_matrix(6, 1, rng);
    const Eigen::VectorXd dzr = 0.01 * random_matrix(4, 1, rng);
    const QuasistaticSolution s = quasistatic_solution(maps, dw, dzr);
    const double fs = std::max(dw.norm(), s.dlambda.norm());  // force scale
    // Rounding: the K_O solve has condition up to ~1e6 here (stiff translations, soft rotations about 4 cm arms).
    const double tol = 1e-9;
    CHECK((g.G * s.dlambda + dw).norm() < tol * fs);                                       // object equilibrium
    CHECK((s.dlambda - g.Kc * (g.J * s.dq - g.G.transpose() * s.du)).norm() < tol * fs);    // contact springs
    CHECK((g.J.transpose() * s.dlambda - g.Kq * (g.S * s.dz - s.dq)).norm() < tol * fs);    // joint servos
    CHECK((g.S.transpose() * g.J.transpose() * s.dlambda - g.Kz * (dzr - s.dz)).norm() < tol * fs);  // synergies
    CHECK((s.dtau - g.J.transpose() * s.dlambda).norm() < tol * fs);
    // SynGrasp's SGquasistaticMaps form (no external wrench): contact forces and object motion per joint motion with
    // the object free (P_q, V_q), joints through X = (U_q + K_q)^-1 K_q, synergies through Y = (S^T U_q X S + K_z)^-1 K_z.
    const Eigen::MatrixXd& Kc = g.Kc;
    const Eigen::MatrixXd GKGt_inv = (g.G * Kc * g.G.transpose()).inverse();
    const Eigen::MatrixXd Vq = GKGt_inv * g.G * Kc * g.J;
    const Eigen::MatrixXd Pq = (Eigen::MatrixXd::Identity(9, 9) - Kc * g.G.transpose() * GKGt_inv * g.G) * Kc * g.J;
    const Eigen::MatrixXd Uq = g.J.transpose() * Pq;
    const Eigen::MatrixXd X = (Uq + g.Kq).inverse() * g.Kq;
    const Eigen::MatrixXd Y = (g.S.transpose() * Uq * X * g.S + g.Kz).inverse() * g.Kz;
    CHECK(rel(maps.V, Eigen::MatrixXd(Vq * X * g.S * Y)) < 1e-8);  // two different inversion routes, cond ~1e6
    CHECK(rel(maps.P, Eigen::MatrixXd(Pq * X * g.S * Y)) < 1e-8);
    CHECK(rel(maps.Q, Eigen::MatrixXd(X * g.S * Y)) < 1e-8);
    CHECK(rel(maps.T, Eigen::MatrixXd(Uq * X * g.S * Y)) < 1e-8);
    CHECK(rel(maps.Z, Y) < 1e-8);
    // Internal forces: range(P) lies in null(G); its dimension is rank(P) = n_z - dim ker(P).
    const Eigen::MatrixXd E = controllable_internal_forces(maps);
    const RigidBodyMotions rb = synergy_rigid_body_motions(maps);
    CHECK(E.cols() + rb.dz.cols() == 4);
    CHECK((g.G * E).cwiseAbs().maxCoeff() < 1e-12);  // rounding of an orthonormal basis against |G| ~ 1
    // Rigid-body motions with synergies: no contact deformation, J Q dz - G^T V dz = 0, and dz = dz_r.
    REQUIRE(rb.dz.cols() == 1);  // generic: [J S, -G^T] is 9 x 10
    CHECK((g.J * rb.dq - g.G.transpose() * rb.du).norm() < 1e-10);  // rounding, unit-norm dz
    CHECK((g.J * g.S * rb.dz - g.G.transpose() * rb.du).norm() < 1e-10);
    CHECK((maps.Z * rb.dz - rb.dz).norm() < 1e-10);
    // The kinematic basis without synergies: dim null([J, -G^T]) = 12 + 6 - 9, every column deformation-free.
    const RigidBodyMotions kin = rigid_body_motions(g.G, g.J);
    CHECK(kin.dq.cols() == 9);
    CHECK((g.J * kin.dq - g.G.transpose() * kin.du).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("rigid contacts: the solution deforms no contact, and very stiff contacts approach it", "[quasistatic]") {
  const RandomGrasp g = random_grasp(12, 4, 21);  // 9 rows, 12 joints: J K_q^-1 J^T is invertible
  std::mt19937 rng(3);
  const Eigen::VectorXd dw = random_matrix(6, 1, rng);
  const Eigen::VectorXd dzr = 0.01 * random_matrix(4, 1, rng);
  const QuasistaticSolution r =
      quasistatic_solution(quasistatic_maps(g.G, g.J, kRigid, g.Kq, g.S, g.Kz), dw, dzr);
  // K_c = kRigid: the contact law degenerates to J dq = G^T du; equilibrium still holds.
  CHECK((g.J * r.dq - g.G.transpose() * r.du).norm() < 1e-10 * r.du.norm());  // rounding against the motion scale
  CHECK((g.G * r.dlambda + dw).norm() < 1e-9 * dw.norm());
  // K_c = k I with k -> infinity: the difference shrinks as 1/k (the contact compliance term is O(1/k)).
  double previous = 0;
  for (double k : {1e6, 1e8}) {
    const QuasistaticSolution s =
        quasistatic_solution(quasistatic_maps(g.G, g.J, contact_stiffness(g.contacts, k), g.Kq, g.S, g.Kz), dw, dzr);
    const double e = rel(s.du, r.du);
    if (previous > 0) CHECK(e == Approx(previous / 100).epsilon(0.05));  // 1/k scaling to 5 %: O(1/k^2) remainder
    previous = e;
  }
  CHECK(previous < 1e-4);
}

TEST_CASE("rigid joints and isotropic contacts: controllable internal forces equal the existing P_N J_H basis", "[quasistatic]") {
  const RandomGrasp g = random_grasp(5, 1, 7);
  const std::vector<Contact>& c = g.contacts;
  const QuasistaticMaps maps = quasistatic_maps(g.G, g.J, contact_stiffness(c, 1000.0), kRigid, kNoSynergies, kRigid);
  const Eigen::MatrixXd E = controllable_internal_forces(maps);
  const Eigen::MatrixXd E0 = controllable_internal_force_basis(g.G, g.J);
  CHECK(E.cols() == 3);  // rank(P_N J) = min(5, 9 - 6)
  CHECK(same_span(E, E0, 1e-10));  // rounding of two SVDs
  // With rigid joints and no wrench the joints follow their references exactly.
  CHECK(rel(maps.Q, Eigen::MatrixXd::Identity(5, 5)) < 1e-14);
}

TEST_CASE("quasi-static maps equal finite differences of a nonlinear spring grasp solved by Newton", "[quasistatic]") {
  // Hardening contact springs lambda_j = k_j delta_j + c_j delta_j^3 on linear kinematics (delta = delta0 + J q -
  // G^T u), linear joint servos; the reference is in equilibrium with the preload delta0. The tangent contact
  // stiffness is diag(k + 3 c delta0^2).
  const RandomGrasp g = random_grasp(12, 4, 11);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> uni(0.5, 1.5);
  Eigen::VectorXd kl(9), cl(9), d0(9);
  for (int j = 0; j < 9; ++j) {
    kl(j) = 2000 * uni(rng);
    cl(j) = 2e9 * uni(rng);  // N/m^3: at delta0 ~ 1 mm the cubic term is ~1/2 of the linear one
    d0(j) = 1e-3 * uni(rng);
  }
  auto force = [&](const Eigen::VectorXd& d) { return Eigen::VectorXd(kl.cwiseProduct(d) + cl.cwiseProduct(d.cwiseAbs2().cwiseProduct(d))); };
  auto slope = [&](const Eigen::VectorXd& d) { return Eigen::VectorXd(kl + 3 * cl.cwiseProduct(d.cwiseAbs2())); };
  const Eigen::VectorXd lambda0 = force(d0);
  const Eigen::VectorXd w0 = -g.G * lambda0;
  const Eigen::VectorXd qr0 = g.Kq.llt().solve(g.J.transpose() * lambda0);
  // Equilibrium (u, q) for wrench w and joint reference qr (rigid synergies, S = I).
  auto solve = [&](const Eigen::VectorXd& w, const Eigen::VectorXd& qr) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(18);  // (u, q)
    for (int it = 0; it < 50; ++it) {
      const Eigen::VectorXd d = d0 + g.J * x.tail(12) - g.G.transpose() * x.head(6);
      const Eigen::VectorXd lam = force(d);
      Eigen::VectorXd res(18);
      res << g.G * lam + w, g.J.transpose() * lam - g.Kq * (qr - x.tail(12));
      const Eigen::MatrixXd D = slope(d).asDiagonal();
      Eigen::MatrixXd Jr(18, 18);
      Jr << -g.G * D * g.G.transpose(), g.G * D * g.J, -g.J.transpose() * D * g.G.transpose(),
          g.J.transpose() * D * g.J + g.Kq;
      x -= Jr.lu().solve(res);
      if (res.norm() < 1e-13) break;
    }
    return x;
  };
  const QuasistaticMaps maps =
      quasistatic_maps(g.G, g.J, Eigen::MatrixXd(slope(d0).asDiagonal()), g.Kq, kNoSynergies, kRigid);
  // Central differences: truncation O(h^2) relative. Each step h is chosen so that the largest contact deformation
  // it causes (from the map itself: only the step size depends on it) is 1e-6 m against the ~1e-3 m preload, so the
  // relative truncation is ~(1e-6/1e-3)^2 = 1e-6; Newton's residual 1e-13 N adds ~1e-10.
  const double step = 1e-6;
  double worst_w = 0, worst_q = 0;
  for (int i = 0; i < 6; ++i) {
    const double h = step / (g.G.transpose() * maps.Vw.col(i)).cwiseAbs().maxCoeff();
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(6, i);
    const Eigen::VectorXd fd = (solve(w0 + h * e, qr0) - solve(w0 - h * e, qr0)) / (2 * h);
    worst_w = std::max(worst_w, rel(fd.head(6), maps.Vw.col(i)));
    worst_w = std::max(worst_w, rel(fd.tail(12), maps.Qw.col(i), maps.Qw.cwiseAbs().maxCoeff()));
  }
  for (int i = 0; i < 12; ++i) {
    const double h = step / (g.J * maps.Q.col(i) - g.G.transpose() * maps.V.col(i)).cwiseAbs().maxCoeff();
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(12, i);
    const Eigen::VectorXd fd = (solve(w0, qr0 + h * e) - solve(w0, qr0 - h * e)) / (2 * h);
    worst_q = std::max(worst_q, rel(fd.head(6), maps.V.col(i), maps.V.cwiseAbs().maxCoeff()));
    worst_q = std::max(worst_q, rel(fd.tail(12), maps.Q.col(i)));
  }
  std::printf("[quasistatic] nonlinear springs: max relative |FD - map| = %.2g (dw), %.2g (dz_r)\n", worst_w, worst_q);
  CHECK(worst_w < 1e-5);  // 10x the O(h^2) truncation estimated above
  CHECK(worst_q < 1e-5);
}

TEST_CASE("sliding: a tangential load beyond mu times the preload makes both fingertips slide", "[quasistatic]") {
  const std::vector<Contact> c = opposed(ContactModel::kSoftFinger, 0.5);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd J = cartesian_fingers_jacobian(c);
  const QuasistaticMaps maps = quasistatic_maps(G, J, contact_stiffness(c, 1000.0), joint_stiffness(6, 500.0),
                                                kNoSynergies, kRigid);
  Eigen::VectorXd lambda0 = Eigen::VectorXd::Zero(8);
  lambda0(0) = lambda0(4) = 10;  // 10 N squeeze
  for (double Fy : {8.0, 12.0}) {
    Eigen::VectorXd dw = Eigen::VectorXd::Zero(6);
    dw(1) = Fy;
    const QuasistaticSolution s = quasistatic_solution(maps, dw, Eigen::VectorXd());
    const Eigen::VectorXd margin = contact_margins(c, lambda0, s.dlambda);
    // Each contact carries Fy/2 tangentially: margin = mu f_n - Fy/2 = 5 - Fy/2 (the normal and torsion terms are
    // larger).
    CHECK(margin(0) == Approx(5 - Fy / 2).epsilon(1e-10));
    CHECK(margin(1) == Approx(5 - Fy / 2).epsilon(1e-10));
    CHECK(sliding_contacts(c, lambda0, s.dlambda).size() == (Fy > 10 ? 2u : 0u));
  }
  CHECK_THROWS_WITH(contact_margins(c, Eigen::VectorXd::Zero(7), Eigen::VectorXd::Zero(8)), Catch::Contains("lambda0"));
  CHECK_THROWS_WITH(quasistatic_solution(maps, Eigen::VectorXd::Zero(5), Eigen::VectorXd()), Catch::Contains("dw"));
  CHECK_THROWS_WITH(quasistatic_solution(maps, Eigen::VectorXd(), Eigen::VectorXd::Zero(5)), Catch::Contains("dz_r"));
  // A hard-finger pair cannot resist rotation about the contact line: K_O is singular and the maps are refused.
  const std::vector<Contact> hard = opposed(ContactModel::kHardFinger);
  CHECK_THROWS_WITH(quasistatic_maps(grasp_matrix(hard, Eigen::Vector3d::Zero()), cartesian_fingers_jacobian(hard),
                                     contact_stiffness(hard, 1000.0), joint_stiffness(6, 500.0), kNoSynergies, kRigid),
                    Catch::Contains("singular"));
}

namespace {
using namespace mjhand_test::six_finger;

struct Response {
  Eigen::Vector3d du_sim, du_pred;
  Eigen::VectorXd dl_sim, dl_pred;
  double geometric_ratio = 0;  // max over fingers of |L sin(q0) lambda0| / kp: the neglected term's relative size
};

// Settles the preloaded grasp, builds the quasi-static maps from MuJoCo's own J_H, G and row stiffness, applies the
// force F to the object through xfrc_applied, settles again and returns simulated and predicted changes.
// geometric: add the finger's geometric joint stiffness d(J^T lambda0)/dq = -L sin(q0) lambda0 (SynGrasp's Kjq, which
// the model omits by default) to the servo gain.
// dqr: change of the servo references (S = I, so dz_r = dq_r), applied together with F.
Response apply_force(const Eigen::Vector3d& F, bool geometric, double* law_error = nullptr,
                     const Eigen::VectorXd& dqr = Eigen::VectorXd::Zero(6)) {
  auto m = load_xml_string(six_finger_xml());
  auto d = make_data(m.get());
  for (int k = 0; k < 6; ++k) d->ctrl[k] = kQref;
  settle(m.get(), d.get(), 5000);
  const HandModel hand = hand_from_palm(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "object"),
                                        mj_name2id(m.get(), mjOBJ_BODY, "palm"));
  const std::vector<Contact> c = finger_contacts(m.get(), d.get(), hand);
  REQUIRE(c.size() == 6);
  for (const Contact& ci : c) REQUIRE(ci.model == ContactModel::kFrictionlessPoint);
  Eigen::VectorXd f0, kc, r0;
  contact_rows_of(d.get(), c, f0, kc, r0);
  // MuJoCo at rest: f = -k imp r / R on every active row (v = 0, a = 0 in aref = -b v - k imp r).
  if (law_error) *law_error = rel(f0, Eigen::VectorXd(-kc.cwiseProduct(r0)));
  const Eigen::Vector3d p(d->xpos[3 * hand.object_body], d->xpos[3 * hand.object_body + 1],
                          d->xpos[3 * hand.object_body + 2]);
  const Eigen::MatrixXd G = grasp_matrix(c, p).topRows(3);  // the object only translates: force rows
  const Eigen::MatrixXd J = hand_jacobian(m.get(), d.get(), hand, c);
  Eigen::VectorXd kp(6), dzr = dqr;
  Response out;
  for (int k = 0; k < 6; ++k) {
    kp(k) = m->actuator_gainprm[k * mjNGAIN];  // gear 1: joint stiffness = kp
    const double kjq = -kLink * std::sin(d->qpos[m->jnt_qposadr[k]]) * f0(k);
    out.geometric_ratio = std::max(out.geometric_ratio, std::abs(kjq) / kp(k));
    // J^T dlambda = kp dq_r - (kp + kjq) dq: the reference still acts through kp, i.e. through kp + kjq on the
    // scaled reference kp / (kp + kjq) dq_r.
    if (geometric) {
      dzr(k) *= kp(k) / (kp(k) + kjq);
      kp(k) += kjq;
    }
  }
  const QuasistaticMaps maps = quasistatic_maps(G, J, Eigen::MatrixXd(kc.asDiagonal()), joint_stiffness(kp),
                                                kNoSynergies, kRigid);
  const int ox = m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT, "ox")];
  const Eigen::Vector3d u0(d->qpos[ox], d->qpos[ox + 1], d->qpos[ox + 2]);
  for (int a = 0; a < 3; ++a) d->xfrc_applied[6 * hand.object_body + a] = F(a);
  for (int k = 0; k < 6; ++k) d->ctrl[k] += dqr(k);
  settle(m.get(), d.get(), 5000);
  const std::vector<Contact> c1 = finger_contacts(m.get(), d.get(), hand);
  REQUIRE(c1.size() == 6);
  Eigen::VectorXd f1, k1, r1;
  contact_rows_of(d.get(), c1, f1, k1, r1);
  out.du_sim = Eigen::Vector3d(d->qpos[ox], d->qpos[ox + 1], d->qpos[ox + 2]) - u0;
  // The external wrench increment on the object is F itself (W = -G lambda balances it).
  const QuasistaticSolution s = quasistatic_solution(maps, F, dzr);
  out.du_pred = s.du;
  out.dl_sim = f1 - f0;
  out.dl_pred = s.dlambda;
  return out;
}
}  // namespace

TEST_CASE("MuJoCo cross-check: object displacement and contact forces under a small force match the quasi-static model", "[quasistatic][mujoco]") {
  double law = 0;
  const Eigen::Vector3d F(0.12, -0.08, 0.05);  // N, against ~0.5 N preload per contact: no contact unloads
  const Response a = apply_force(F, false, &law);
  const Response b = apply_force(F / 2, false);
  const Response g = apply_force(F, true);
  const double e_u = rel(a.du_sim, a.du_pred), e_l = rel(a.dl_sim, a.dl_pred);
  const double e_u2 = rel(b.du_sim, b.du_pred), e_l2 = rel(b.dl_sim, b.dl_pred);
  std::printf("[quasistatic] MuJoCo: |f + k imp r / R| / |f| = %.2g at rest\n", law);
  std::printf("[quasistatic] MuJoCo: du_sim = (%.6g %.6g %.6g) m, du_pred = (%.6g %.6g %.6g) m\n", a.du_sim(0),
              a.du_sim(1), a.du_sim(2), a.du_pred(0), a.du_pred(1), a.du_pred(2));
  std::printf("[quasistatic] MuJoCo: relative error du %.3g (F), %.3g (F/2); dlambda %.3g (F), %.3g (F/2)\n", e_u, e_u2,
              e_l, e_l2);
  const double e_ug = rel(g.du_sim, g.du_pred), e_lg = rel(g.dl_sim, g.dl_pred);
  std::printf("[quasistatic] MuJoCo: neglected geometric stiffness %.3g of kp; with it: du %.3g, dlambda %.3g\n",
              a.geometric_ratio, e_ug, e_lg);
  // MuJoCo's soft-contact law at rest, which defines the row stiffness used: measured 6.4e-7 (the settle threshold
  // 1e-9 m/s leaves residual damping forces; the solver tolerance).
  CHECK(law < 1e-5);
  // The model neglects the fingers' geometric stiffness d(J^T lambda0)/dq = -L sin(q0) lambda0 (the preload turns
  // each finger by q0 ~ 5 mrad). That first-order error is a fixed fraction of the response: it stays the same when
  // the force is halved (a linearisation error O(du^2) would halve), and it is bounded by the neglected term's size.
  CHECK(e_u < 2 * a.geometric_ratio);
  CHECK(e_u2 / e_u == Approx(1.0).margin(0.2));  // first order: independent of |F| (measured 1.01)
  // With the geometric term added (SynGrasp's Kjq) du agrees to the at-rest law residual: measured 1e-6.
  CHECK(e_ug < 1e-5);
  CHECK(e_ug < 0.1 * e_u);
  // The force changes are fixed by the object's equilibrium and the near-symmetric stiffness: measured 4e-6 with or
  // without the geometric term (docs/stiffness.md).
  CHECK(e_l < 2e-5);
  CHECK(e_lg < 2e-5);
  // A reference change instead of a force: finger 0 (face +x) pushes 2 mrad further, finger 2 (face +y) backs off
  // 1 mrad. The same geometric term bounds the error.
  Eigen::VectorXd dqr = Eigen::VectorXd::Zero(6);
  dqr(0) = 2e-3;
  dqr(2) = -1e-3;
  const Response r = apply_force(Eigen::Vector3d::Zero(), false, nullptr, dqr);
  const double e_ur = rel(r.du_sim, r.du_pred), e_lr = rel(r.dl_sim, r.dl_pred);
  std::printf("[quasistatic] MuJoCo: reference change: du_sim = (%.6g %.6g %.6g) m, relative error du %.3g, "
              "dlambda %.3g\n", r.du_sim(0), r.du_sim(1), r.du_sim(2), e_ur, e_lr);
  CHECK(r.du_pred(0) < -1e-6);  // the +x finger pushes the object toward -x (not a trivially zero response)
  const Response rg = apply_force(Eigen::Vector3d::Zero(), true, nullptr, dqr);
  const double e_urg = rel(rg.du_sim, rg.du_pred), e_lrg = rel(rg.dl_sim, rg.dl_pred);
  std::printf("[quasistatic] MuJoCo: reference change with the geometric term: du %.3g, dlambda %.3g\n", e_urg, e_lrg);
  // The neglected term changes both the pushing and the opposite finger's compliance: up to twice its size.
  CHECK(e_ur < 2 * r.geometric_ratio);
  CHECK(e_lr < 2 * r.geometric_ratio);
  // With it: measured 5.8e-6 and 9.2e-6, the second-order change of J = L cos q over the 2 mrad step (relative
  // sin(q0) dq ~ 1e-5): 3x that.
  CHECK(e_urg < 3e-5);
  CHECK(e_lrg < 3e-5);
}
