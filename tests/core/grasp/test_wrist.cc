// Compliant wrist (SynGrasp SGwristStiffness, the extended Jacobian J_ext = [J_H, J_w] of SGslide) and SynGrasp's
// compliant force manipulability ellipsoid: closed forms on the two-finger pinch, SGslide's own linear system,
// finite differences of a nonlinear spring model with wrist springs, wrist_jacobian against mj_jac, a MuJoCo grasp
// whose palm hangs on six servoed joints, and the force ellipsoid against SynGrasp's kernel of M_h.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/hand_jacobian.h>
#include <mjhand/grasp/manipulability.h>
#include <mjhand/grasp/quasistatic.h>
#include <mjhand/grasp/stiffness.h>
#include <mjhand/util/dense_decompositions.h>
#include "six_finger_grasp.h"
#include "test_util.h"
#include "two_finger_grasp.h"

using namespace mjhand;
using mjhand_test::load_xml_string;
using mjhand_test::make_data;

namespace {

// Largest |a - b| over max(|b|, floor).
template <typename A, typename B>
double rel(const A& a, const B& b, double floor = 1e-300) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), floor);
}

Eigen::MatrixXd random_matrix(int r, int c, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  return Eigen::MatrixXd::NullaryExpr(r, c, [&] { return u(rng); });
}

Eigen::MatrixXd random_spd(int n, double scale, std::mt19937& rng) {
  const Eigen::MatrixXd A = random_matrix(n, n, rng);
  return scale * (A * A.transpose() / n + 0.5 * Eigen::MatrixXd::Identity(n, n));
}

// Three hard fingers on a 4 cm sphere (G full rank), a random 9 x n hand Jacobian (~5 cm lever arms).
struct Grasp {
  std::vector<Contact> contacts;
  Eigen::MatrixXd G, J;
};
Grasp three_fingers(int n, std::mt19937& rng) {
  Grasp g;
  for (int k = 0; k < 3; ++k) {
    const double a = 2 * M_PI * k / 3 + 0.3 * k;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0.2 * k - 0.2);
    g.contacts.push_back(analytic_contact(0.04 * u.normalized(), -u, ContactModel::kHardFinger));
  }
  g.G = grasp_matrix(g.contacts, Eigen::Vector3d::Zero());
  g.J = 0.05 * random_matrix(9, n, rng);
  return g;
}

// Rigid motion dx (at point p) seen at point r: (v + w x (r - p), w).
Eigen::VectorXd shift_twist(const Eigen::VectorXd& dx, const Eigen::Vector3d& p, const Eigen::Vector3d& r) {
  Eigen::VectorXd out = dx;
  out.head<3>() += dx.tail<3>().cross(r - p);
  return out;
}
}  // namespace

TEST_CASE("wrist stiffness: SGwristStiffness's diagonal and named errors", "[wrist]") {
  const Eigen::MatrixXd K = wrist_stiffness(400.0, 3.0);
  REQUIRE(K.rows() == 6);
  CHECK(K.diagonal().head<3>() == Eigen::Vector3d::Constant(400.0));
  CHECK(K.diagonal().tail<3>() == Eigen::Vector3d::Constant(3.0));
  CHECK((K - Eigen::MatrixXd(K.diagonal().asDiagonal())).norm() == 0);
  CHECK_THROWS_WITH(wrist_stiffness(400.0, 0.0), Catch::Contains("k_rotation"));
  CHECK_THROWS_WITH(wrist_stiffness(Eigen::VectorXd::Ones(5)), Catch::Contains("6 entries"));
  const std::vector<Contact> c = mjhand_test::opposed_contacts(ContactModel::kSoftFinger);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd J = mjhand_test::cartesian_fingers_jacobian(c);
  const Eigen::MatrixXd Jw = wrist_jacobian(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd Kc = contact_stiffness(c, 1000.0), Kq = joint_stiffness(6, 500.0);
  CHECK_THROWS_WITH(wrist_quasistatic_maps(G, J, Jw.leftCols(5), Kc, Kq, K, kNoSynergies, kRigid),
                    Catch::Contains("Jw"));
  CHECK_THROWS_WITH(wrist_quasistatic_maps(G, J, Jw, Kc, Kq, -K, kNoSynergies, kRigid),
                    Catch::Contains("Kw must be positive definite"));
  CHECK_THROWS_WITH(slide_displacements(J, Jw, Kc, Kq, K, Eigen::VectorXd::Zero(5), Eigen::VectorXd()),
                    Catch::Contains("dq_r"));
  CHECK_THROWS_WITH(slide_displacements(J, Jw, Kc, Kq, K, Eigen::VectorXd(), Eigen::VectorXd::Zero(3)),
                    Catch::Contains("dx_r"));
}

TEST_CASE("wrist: the two-finger pinch on a compliant wrist equals the hand-derived series springs", "[wrist]") {
  // Two Cartesian fingers pinch a box at (-+a, 0, 0) (soft contacts k_n, k_t, k_r; joints k_q); both fingers sit on
  // a palm whose wrist point is h below the box (0, 0, -h), held by k_tw (translations) and k_rw (rotations).
  const double kn = 2000, kt = 600, kr = 0.3, kq = 1500, ktw = 800, krw = 5, h = 0.08;
  const std::vector<Contact> c = mjhand_test::opposed_contacts(ContactModel::kSoftFinger);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd J = mjhand_test::cartesian_fingers_jacobian(c);
  const Eigen::Vector3d pw(0, 0, -h);
  const Eigen::MatrixXd Jw = wrist_jacobian(c, pw);
  DirectionalStiffness k;
  k.normal = kn;
  k.tangential = kt;
  k.torsional = kr;
  const QuasistaticMaps maps = wrist_quasistatic_maps(G, J, Jw, contact_stiffness(c, k), joint_stiffness(6, kq),
                                                      wrist_stiffness(ktw, krw), kNoSynergies, kRigid);
  REQUIRE(maps.Q.rows() == 12);
  REQUIRE(maps.V.cols() == 12);
  // 1. A force F along the pinch axis. The contacts carry -+F/2 as without a wrist; the hand passes F to the wrist,
  // at height h above the wrist point: moment h F about y. The wrist yields F / k_tw and h F / k_rw, moving hand and
  // object rigidly; on top the object moves F / (2 k_ne) against the two finger chains, 1/k_ne = 1/k_n + 1/k_q.
  const double F = 0.7, kne = kn * kq / (kn + kq);
  Eigen::VectorXd dw = Eigen::VectorXd::Zero(6);
  dw(0) = F;
  const QuasistaticSolution s = quasistatic_solution(maps, dw, Eigen::VectorXd());
  const double theta = h * F / krw;
  Eigen::VectorXd du = Eigen::VectorXd::Zero(6), dxw = Eigen::VectorXd::Zero(6), dq = Eigen::VectorXd::Zero(6);
  du(0) = F / (2 * kne) + F / ktw + h * theta;  // rotation theta about y at (0, 0, -h) moves the origin by h theta
  du(4) = theta;
  dxw(0) = F / ktw;
  dxw(4) = theta;
  dq(0) = dq(3) = F / (2 * kq);  // both x joints yield toward +x
  CHECK(rel(s.du, du) < 1e-10);  // rounding: LLT solves with condition ~1e5
  CHECK(rel(s.dq.tail(6), dxw) < 1e-10);
  CHECK(rel(s.dq.head(6), dq) < 1e-10);
  CHECK(s.dlambda(0) == Approx(-F / 2).epsilon(1e-10));
  CHECK(s.dlambda(4) == Approx(F / 2).epsilon(1e-10));
  // The wrist carries the contact wrench about its point: force -F (the hand pushes the object back), moment -h F.
  CHECK(s.dtau(6) == Approx(-F).epsilon(1e-10));
  CHECK(s.dtau(10) == Approx(-h * F).epsilon(1e-10));
  // 2. Moving the wrist's reference moves hand and object rigidly: no force, no joint motion, du = dx_r carried
  // from the wrist point to the object's reference point.
  Eigen::VectorXd dxr(6);
  dxr << 1e-3, -2e-3, 0.5e-3, 4e-3, -3e-3, 2e-3;
  Eigen::VectorXd dzr = Eigen::VectorXd::Zero(12);
  dzr.tail(6) = dxr;
  const QuasistaticSolution r = quasistatic_solution(maps, Eigen::VectorXd(), dzr);
  CHECK(rel(r.du, shift_twist(dxr, pw, Eigen::Vector3d::Zero())) < 1e-10);
  CHECK(rel(r.dq.tail(6), dxr) < 1e-12);
  CHECK(r.dq.head(6).norm() < 1e-12 * dxr.norm());   // rounding against the motion scale
  CHECK(r.dlambda.norm() < 1e-9 * kn * dxr.norm());  // rounding against the force scale k_n |dx_r|
  // 3. A fixed wrist (kRigid) is the plain model: the first 6 inputs give quasistatic_maps' maps.
  const QuasistaticMaps fixed = wrist_quasistatic_maps(G, J, Jw, contact_stiffness(c, k), joint_stiffness(6, kq),
                                                       kRigid, kNoSynergies, kRigid);
  const QuasistaticMaps plain = quasistatic_maps(G, J, contact_stiffness(c, k), joint_stiffness(6, kq), kNoSynergies,
                                                 kRigid);
  CHECK(rel(fixed.Vw, plain.Vw) < 1e-10);
  CHECK(rel(fixed.P.leftCols(6), plain.P) < 1e-10);
  CHECK(fixed.Qw.bottomRows(6).norm() == 0);
}

TEST_CASE("SGslide: a finger pushing a fixed object through a compliant wrist, closed form and SynGrasp's system",
          "[wrist]") {
  // The pinch pressing on a FIXED box, wrist point on the pinch axis (no moment). Finger 1's x reference moves by
  // delta into the box: its chain k_f = (1/k_n + 1/k_q)^-1 pushes the palm back by X, which presses finger 2:
  //   f1 = k_f (delta + X), f2 = -k_f X, k_tw X = f2 - f1  =>  X = -k_f delta / (k_tw + 2 k_f).
  const double kn = 2000, kt = 600, kr = 0.3, kq = 1500, ktw = 800, krw = 5, delta = 1e-3;
  const std::vector<Contact> c = mjhand_test::opposed_contacts(ContactModel::kSoftFinger);
  const Eigen::MatrixXd J = mjhand_test::cartesian_fingers_jacobian(c);
  const Eigen::MatrixXd Jw = wrist_jacobian(c, Eigen::Vector3d::Zero());
  DirectionalStiffness k;
  k.normal = kn;
  k.tangential = kt;
  k.torsional = kr;
  const Eigen::MatrixXd Kc = contact_stiffness(c, k), Kq = joint_stiffness(6, kq), Kw = wrist_stiffness(ktw, krw);
  Eigen::VectorXd dqr = Eigen::VectorXd::Zero(6);
  dqr(0) = delta;
  const SlideSolution s = slide_displacements(J, Jw, Kc, Kq, Kw, dqr, Eigen::VectorXd());
  const double kf = kn * kq / (kn + kq), X = -kf * delta / (ktw + 2 * kf);
  CHECK(s.dx_w(0) == Approx(X).epsilon(1e-10));
  CHECK(s.dx_w.tail(5).norm() < 1e-12 * delta);
  CHECK(s.dlambda(0) == Approx(kf * (delta + X)).epsilon(1e-10));
  CHECK(s.dlambda(4) == Approx(-kf * X).epsilon(1e-10));
  CHECK(s.dwrench(0) == Approx(kf * delta + 2 * kf * X).epsilon(1e-10));  // f1 - f2 along x = -k_tw X
  // SynGrasp's SGslide system written out as it is coded, unknowns (dcontact, dq_ext, dtau_ext, dlambda), solved by
  // LU: a different route from slide_displacements' compliance form. Also with a wrist reference change and full
  // (non-diagonal) stiffness on a random grasp.
  std::mt19937 rng(4);
  const Grasp g = three_fingers(7, rng);
  const Eigen::MatrixXd Jw3 = wrist_jacobian(g.contacts, Eigen::Vector3d(0.01, -0.02, -0.09));
  const Eigen::MatrixXd Kc3 = random_spd(9, 3000, rng), Kq3 = random_spd(7, 2, rng);
  Eigen::MatrixXd Kw3 = random_spd(6, 1, rng);
  Kw3.topLeftCorner(3, 3) *= 500;  // N/m against N m/rad: scale the translation block
  Kw3.topRightCorner(3, 3) *= std::sqrt(500.0);
  Kw3.bottomLeftCorner(3, 3) *= std::sqrt(500.0);
  const Eigen::VectorXd dq3 = 1e-3 * random_matrix(7, 1, rng), dx3 = 1e-3 * random_matrix(6, 1, rng);
  const SlideSolution t = slide_displacements(g.J, Jw3, Kc3, Kq3, Kw3, dq3, dx3);
  const int m = 9, N = 13;
  Eigen::MatrixXd Jext(m, N), Kext = Eigen::MatrixXd::Zero(N, N);
  Jext << g.J, Jw3;
  Kext.topLeftCorner(7, 7) = Kq3;
  Kext.bottomRightCorner(6, 6) = Kw3;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * m + 2 * N, 2 * m + 2 * N);
  A.block(0, 0, m, m).setIdentity();
  A.block(0, m, m, N) = -Jext;
  A.block(m, m + N, N, N).setIdentity();
  A.block(m, m + 2 * N, N, m) = -Jext.transpose();
  A.block(m + N, m, N, N) = Kext;
  A.block(m + N, m + N, N, N).setIdentity();
  A.block(m + 2 * N, 0, m, m) = -Kc3;
  A.block(m + 2 * N, m + 2 * N, m, m).setIdentity();
  Eigen::VectorXd b = Eigen::VectorXd::Zero(2 * m + 2 * N), qr(N);
  qr << dq3, dx3;
  b.segment(m + N, N) = Kext * qr;
  const Eigen::VectorXd x = A.fullPivLu().solve(b);
  // Rounding: LU of a 44 x 44 system mixing stiffness ~1e3 and lever arms ~1e-2 (condition ~1e7).
  CHECK(rel(t.dcontact, Eigen::VectorXd(x.head(m))) < 1e-8);
  CHECK(rel(t.dq, Eigen::VectorXd(x.segment(m, 7))) < 1e-8);
  CHECK(rel(t.dx_w, Eigen::VectorXd(x.segment(m + 7, 6))) < 1e-8);
  CHECK(rel(t.dtau, Eigen::VectorXd(x.segment(m + N, 7))) < 1e-8);
  CHECK(rel(t.dwrench, Eigen::VectorXd(x.segment(m + N + 7, 6))) < 1e-8);
  CHECK(rel(t.dlambda, Eigen::VectorXd(x.tail(m))) < 1e-8);
}

TEST_CASE("wrist maps equal finite differences of a nonlinear spring grasp with wrist springs solved by Newton",
          "[wrist]") {
  // Hardening contact springs lambda_j = k_j delta_j + c_j delta_j^3 with delta = delta0 + J q + J_w x - G^T u,
  // linear joint servos K_q and a linear wrist spring K_w (full 6 x 6); the references are in equilibrium with the
  // preload delta0. The tangent contact stiffness is diag(k + 3 c delta0^2).
  std::mt19937 rng(9);
  const int n = 7;
  const Grasp g = three_fingers(n, rng);
  const Eigen::Vector3d pw(0.01, -0.02, -0.09);
  const Eigen::MatrixXd Jw = wrist_jacobian(g.contacts, pw);
  const Eigen::MatrixXd Kq = random_spd(n, 2, rng);
  Eigen::MatrixXd Kw = random_spd(6, 1, rng);
  Kw.topLeftCorner(3, 3) *= 500;
  Kw.topRightCorner(3, 3) *= std::sqrt(500.0);
  Kw.bottomLeftCorner(3, 3) *= std::sqrt(500.0);
  std::uniform_real_distribution<double> uni(0.5, 1.5);
  Eigen::VectorXd kl(9), cl(9), d0(9);
  for (int j = 0; j < 9; ++j) {
    kl(j) = 2000 * uni(rng);
    cl(j) = 2e9 * uni(rng);  // at delta0 ~ 1 mm the cubic term is ~1/2 of the linear one
    d0(j) = 1e-3 * uni(rng);
  }
  auto force = [&](const Eigen::VectorXd& d) {
    return Eigen::VectorXd(kl.cwiseProduct(d) + cl.cwiseProduct(d.cwiseAbs2().cwiseProduct(d)));
  };
  auto slope = [&](const Eigen::VectorXd& d) { return Eigen::VectorXd(kl + 3 * cl.cwiseProduct(d.cwiseAbs2())); };
  const Eigen::VectorXd lambda0 = force(d0);
  const Eigen::VectorXd w0 = -g.G * lambda0;
  const Eigen::VectorXd qr0 = Kq.llt().solve(g.J.transpose() * lambda0);
  const Eigen::VectorXd xr0 = Kw.llt().solve(Jw.transpose() * lambda0);
  const int N = 6 + n + 6;  // (u, q, x)
  Eigen::MatrixXd B(9, N);  // d delta / d(u, q, x)
  B << -g.G.transpose(), g.J, Jw;
  Eigen::MatrixXd Ks = Eigen::MatrixXd::Zero(N, N);  // joint and wrist springs
  Ks.block(6, 6, n, n) = Kq;
  Ks.bottomRightCorner(6, 6) = Kw;
  auto solve = [&](const Eigen::VectorXd& w, const Eigen::VectorXd& qr, const Eigen::VectorXd& xr) {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(N), ref(N);
    ref << Eigen::VectorXd::Zero(6), qr, xr;
    for (int it = 0; it < 50; ++it) {
      const Eigen::VectorXd d = d0 + B * y;
      const Eigen::VectorXd lam = force(d);
      // Equilibrium: G lambda + w = 0 (object), J^T lambda = K_q (q_r - q), J_w^T lambda = K_w (x_r - x).
      Eigen::VectorXd res = B.transpose() * lam + Ks * (y - ref);
      res.head(6) = g.G * lam + w;
      Eigen::MatrixXd Jr = B.transpose() * slope(d).asDiagonal() * B + Ks;
      Jr.topRows(6) = g.G * slope(d).asDiagonal() * B;
      y -= Jr.lu().solve(res);
      if (res.norm() < 1e-13) break;
    }
    return y;
  };
  const QuasistaticMaps maps = wrist_quasistatic_maps(g.G, g.J, Jw, Eigen::MatrixXd(slope(d0).asDiagonal()), Kq, Kw,
                                                      kNoSynergies, kRigid);
  Eigen::MatrixXd Jext(9, n + 6);
  Jext << g.J, Jw;
  // Central differences, truncation O(h^2): each step makes a largest contact deformation of 1e-6 m against the
  // ~1e-3 m preload (relative truncation ~1e-6); Newton's residual 1e-13 N adds ~1e-10.
  const double step = 1e-6;
  double worst_w = 0, worst_r = 0;
  for (int i = 0; i < 6; ++i) {
    const double h = step / (Jext * maps.Qw.col(i) - g.G.transpose() * maps.Vw.col(i)).cwiseAbs().maxCoeff();
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(6, i);
    const Eigen::VectorXd fd = (solve(w0 + h * e, qr0, xr0) - solve(w0 - h * e, qr0, xr0)) / (2 * h);
    worst_w = std::max(worst_w, rel(fd.head(6), maps.Vw.col(i)));
    worst_w = std::max(worst_w, rel(fd.tail(n + 6), maps.Qw.col(i), maps.Qw.cwiseAbs().maxCoeff()));
  }
  for (int i = 0; i < n + 6; ++i) {
    const double h = step / (Jext * maps.Q.col(i) - g.G.transpose() * maps.V.col(i)).cwiseAbs().maxCoeff();
    Eigen::VectorXd eq = Eigen::VectorXd::Zero(n), ex = Eigen::VectorXd::Zero(6);
    if (i < n) eq(i) = h; else ex(i - n) = h;
    const Eigen::VectorXd fd = (solve(w0, qr0 + eq, xr0 + ex) - solve(w0, qr0 - eq, xr0 - ex)) / (2 * h);
    worst_r = std::max(worst_r, rel(fd.head(6), maps.V.col(i), maps.V.cwiseAbs().maxCoeff()));
    worst_r = std::max(worst_r, rel(fd.tail(n + 6), maps.Q.col(i), maps.Q.cwiseAbs().maxCoeff()));
  }
  std::printf("[wrist] nonlinear springs: max relative |FD - map| = %.2g (dw), %.2g (dq_r, dx_r)\n", worst_w, worst_r);
  CHECK(worst_w < 1e-5);  // 10x the O(h^2) truncation estimated above
  CHECK(worst_r < 1e-5);
}

namespace {
// A palm with two hinge fingers (two links each) and an object; `base` is the palm's joint set.
std::string palm_xml(const std::string& base, const std::string& palm_pose) {
  std::ostringstream x;
  x << "<mujoco><worldbody><body name=\"palm\" " << palm_pose << ">" << base
    << "<geom type=\"box\" size=\"0.04 0.04 0.01\" mass=\"0.2\"/>"
       "<body name=\"f0\" pos=\"0.03 0 0.01\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
       "<geom type=\"capsule\" fromto=\"0 0 0 0 0 0.05\" size=\"0.008\"/>"
       "<body pos=\"0 0 0.05\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
       "<geom type=\"capsule\" fromto=\"0 0 0 0 0 0.04\" size=\"0.007\"/></body></body>"
       "<body name=\"f1\" pos=\"-0.03 0 0.01\"><joint type=\"hinge\" axis=\"0 1 0\"/>"
       "<geom type=\"capsule\" fromto=\"0 0 0 0 0 0.05\" size=\"0.008\"/>"
       "<body pos=\"0 0 0.05\"><joint type=\"hinge\" axis=\"1 0 0\"/>"
       "<geom type=\"capsule\" fromto=\"0 0 0 0 0 0.04\" size=\"0.007\"/></body></body></body>"
       "<body name=\"object\" pos=\"0 0 0.2\"><freejoint/><geom type=\"sphere\" size=\"0.03\" mass=\"0.1\"/></body>"
       "</worldbody></mujoco>";
  return x.str();
}

// Contacts (soft, hard, complete) on each distal link, at points and normals fixed in the link frames.
std::vector<Contact> link_contacts(const mjModel* m, const mjData* d) {
  std::vector<Contact> c;
  const ContactModel models[3] = {ContactModel::kSoftFinger, ContactModel::kHardFinger, ContactModel::kCompleteConstraint};
  int k = 0;
  for (int b = 0; b < m->nbody; ++b) {
    if (m->body_parentid[b] == 0 || m->body_jntnum[b] != 1 || m->jnt_type[m->body_jntadr[b]] != mjJNT_HINGE) continue;
    const int parent = m->body_parentid[b];
    if (m->body_parentid[parent] == 0) continue;  // proximal link: its parent is the palm, whose parent is the world
    const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(d->xmat + 9 * b);
    const Eigen::Vector3d o(d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2]);
    for (int s = 0; s < 2; ++s, ++k) {
      const Eigen::Vector3d p = o + R * Eigen::Vector3d(0.007 * (s ? 1 : -1), 0.003, 0.02 + 0.01 * s);
      const Eigen::Vector3d n = R * Eigen::Vector3d(s ? -1 : 1, 0.2, 0.1);
      Contact ci = analytic_contact(p, n.normalized(), models[k % 3]);
      ci.hand_body = b;
      c.push_back(ci);
    }
  }
  return c;
}
}  // namespace

TEST_CASE("wrist_jacobian equals mj_jac's columns of a palm on six joints and of a free palm", "[wrist][mujoco]") {
  const Eigen::Vector3d pw(0.01, -0.02, -0.12);  // the wrist point, below the palm
  std::ostringstream joints;
  joints << "<joint type=\"slide\" axis=\"1 0 0\"/><joint type=\"slide\" axis=\"0 1 0\"/>"
            "<joint type=\"slide\" axis=\"0 0 1\"/>";
  for (const char* a : {"1 0 0", "0 1 0", "0 0 1"}) {
    joints << "<joint type=\"hinge\" pos=\"" << pw.transpose() << "\" axis=\"" << a << "\"/>";
  }
  double worst = 0;
  for (int variant = 0; variant < 2; ++variant) {
    // 0: six joints at zero angle (the wrist coordinates); 1: a free joint with the palm turned and moved.
    auto m = load_xml_string(variant == 0 ? palm_xml(joints.str(), "")
                                          : palm_xml("<freejoint/>", "pos=\"0.02 0.01 0.03\" euler=\"20 -35 50\""));
    auto d = make_data(m.get());
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] == mjJNT_HINGE && m->jnt_bodyid[j] != 1) d->qpos[m->jnt_qposadr[j]] = 0.3 + 0.2 * j;
    }
    mj_forward(m.get(), d.get());
    const HandModel hand = hand_from_palm(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "object"),
                                          mj_name2id(m.get(), mjOBJ_BODY, "palm"));
    REQUIRE(hand.num_hand_dofs() == 10);  // the palm's 6 dofs are ancestors of the fingers: columns 0..5
    std::vector<Contact> c = link_contacts(m.get(), d.get());
    REQUIRE(c.size() == 4);
    for (Contact& ci : c) ci.finger = hand.finger_of_body[ci.hand_body];
    const Eigen::MatrixXd JH = hand_jacobian(m.get(), d.get(), hand, c);
    Eigen::MatrixXd Jw;
    if (variant == 0) {
      Jw = wrist_jacobian(c, pw);
    } else {
      // MuJoCo's free joint: linear velocity of the body origin, angular velocity in the body frame.
      const int palm = mj_name2id(m.get(), mjOBJ_BODY, "palm");
      const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> R(d->xmat + 9 * palm);
      Eigen::MatrixXd T = Eigen::MatrixXd::Identity(6, 6);
      T.bottomRightCorner(3, 3) = R;
      Jw = wrist_jacobian(c, Eigen::Vector3d(d->xpos[3 * palm], d->xpos[3 * palm + 1], d->xpos[3 * palm + 2])) * T;
    }
    worst = std::max(worst, (JH.leftCols(6) - Jw).cwiseAbs().maxCoeff());
    CHECK(JH.leftCols(6).cwiseAbs().maxCoeff() > 0.1);  // not trivially zero: unit columns and ~0.2 m lever arms
  }
  std::printf("[wrist] wrist_jacobian vs mj_jac: max |difference| = %.2g\n", worst);
  CHECK(worst < 1e-14);  // rounding of ~10 products of unit vectors and lengths < 1 m
}

namespace {
using namespace mjhand_test::six_finger;

struct WristResponse {
  Eigen::Vector3d du_sim, du_pred;
  Eigen::VectorXd dx_sim, dx_pred, dl_sim, dl_pred;
  double geometric_ratio = 0;  // largest neglected geometric stiffness over the stiffness it adds to
};

// The six-finger grasp of test_quasistatic.cc with its palm on a compliant wrist: settles, predicts with
// wrist_quasistatic_maps from MuJoCo's contacts, J_H (finger columns), wrist_jacobian and row stiffness, applies F to
// the object and/or moves the wrist servos' references by dxr, settles again and returns simulated and predicted
// changes. geometric: add the first-order geometric stiffness the model neglects (SynGrasp's K_jq for the fingers,
// -L sin(q0) lambda0, as in test_quasistatic.cc; for the palm, whose preloaded contacts keep their directions n_i
// (the box only translates) while their lines of action, through the tip centres r_i, turn with it: the contact
// moment about the wrist point changes by -K_g dtheta, K_g = sum_i lambda_i ((n_i . r_i) I - r_i n_i^T)).
WristResponse wrist_response(const WristServos& ws, const Eigen::Vector3d& F, const Eigen::VectorXd& dxr,
                             bool geometric) {
  auto m = load_xml_string(six_finger_xml(&ws));
  auto d = make_data(m.get());
  for (int k = 0; k < 6; ++k) d->ctrl[k] = kQref;
  settle(m.get(), d.get(), 8000);
  const HandModel hand = hand_from_palm(m.get(), mj_name2id(m.get(), mjOBJ_BODY, "object"),
                                        mj_name2id(m.get(), mjOBJ_BODY, "palm"));
  REQUIRE(hand.num_hand_dofs() == 12);  // wrist dofs 0..5, fingers 6..11
  const std::vector<Contact> c = finger_contacts(m.get(), d.get(), hand);
  REQUIRE(c.size() == 6);
  Eigen::VectorXd f0, kc, r0;
  contact_rows_of(d.get(), c, f0, kc, r0);
  const Eigen::Vector3d p(d->xpos[3 * hand.object_body], d->xpos[3 * hand.object_body + 1],
                          d->xpos[3 * hand.object_body + 2]);
  Eigen::VectorXd x0(6);
  for (int i = 0; i < 6; ++i) x0(i) = d->qpos[i];  // the wrist's joints: qpos 0..5
  const int wrx = mj_name2id(m.get(), mjOBJ_JOINT, "wrx");
  const Eigen::Vector3d pw(d->xanchor[3 * wrx], d->xanchor[3 * wrx + 1], d->xanchor[3 * wrx + 2]);
  const Eigen::MatrixXd G = grasp_matrix(c, p).topRows(3);  // the object only translates: force rows
  const Eigen::MatrixXd JH = hand_jacobian(m.get(), d.get(), hand, c).rightCols(6);
  const Eigen::MatrixXd Jw = wrist_jacobian(c, pw);
  Eigen::VectorXd kp(6);
  WristResponse out;
  for (int k = 0; k < 6; ++k) {
    kp(k) = m->actuator_gainprm[k * mjNGAIN];
    const double kjq = -kLink * std::sin(d->qpos[m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT,
                                                                            ("j" + std::to_string(k)).c_str())]]) *
                       f0(k);
    out.geometric_ratio = std::max(out.geometric_ratio, std::abs(kjq) / kp(k));
    if (geometric) kp(k) += kjq;
  }
  Eigen::Matrix3d Kg = Eigen::Matrix3d::Zero();
  for (int i = 0; i < 6; ++i) {
    const int tip = mj_name2id(m.get(), mjOBJ_GEOM, ("tip" + std::to_string(c[i].finger)).c_str());
    const Eigen::Vector3d r = Eigen::Vector3d(d->geom_xpos[3 * tip], d->geom_xpos[3 * tip + 1],
                                              d->geom_xpos[3 * tip + 2]) - pw;
    const Eigen::Vector3d n = c[i].normal();
    Kg += f0(i) * (n.dot(r) * Eigen::Matrix3d::Identity() - r * n.transpose());
  }
  const Eigen::MatrixXd Kw0 = wrist_stiffness(ws.kp_translation, ws.kp_rotation);
  Eigen::MatrixXd Kw = Kw0;
  out.geometric_ratio = std::max(out.geometric_ratio, Kg.norm() / ws.kp_rotation);
  Eigen::VectorXd dzr = Eigen::VectorXd::Zero(12);
  dzr.tail(6) = dxr;
  if (geometric) {
    Kw.bottomRightCorner(3, 3) -= 0.5 * (Kg + Kg.transpose());  // symmetric to the settle residual
    // J_w^T dlambda = K_w dx_r - (K_w - K_g) dx_w: the reference acts through K_w.
    dzr.tail(6) = Kw.llt().solve(Kw0 * dxr);
  }
  const QuasistaticMaps maps = wrist_quasistatic_maps(G, JH, Jw, Eigen::MatrixXd(kc.asDiagonal()), joint_stiffness(kp),
                                                      Kw, kNoSynergies, kRigid);
  const int ox = m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT, "ox")];
  const Eigen::Vector3d u0(d->qpos[ox], d->qpos[ox + 1], d->qpos[ox + 2]);
  for (int a = 0; a < 3; ++a) d->xfrc_applied[6 * hand.object_body + a] = F(a);
  for (int k = 0; k < 6; ++k) d->ctrl[6 + k] += dxr(k);
  settle(m.get(), d.get(), 8000);
  const std::vector<Contact> c1 = finger_contacts(m.get(), d.get(), hand);
  REQUIRE(c1.size() == 6);
  Eigen::VectorXd f1, k1, r1;
  contact_rows_of(d.get(), c1, f1, k1, r1);
  out.du_sim = Eigen::Vector3d(d->qpos[ox], d->qpos[ox + 1], d->qpos[ox + 2]) - u0;
  out.dx_sim.resize(6);
  for (int i = 0; i < 6; ++i) out.dx_sim(i) = d->qpos[i] - x0(i);
  const QuasistaticSolution s = quasistatic_solution(maps, F, dzr);
  out.du_pred = s.du;
  out.dx_pred = s.dq.tail(6);
  out.dl_sim = f1 - f0;
  out.dl_pred = s.dlambda;
  return out;
}
}  // namespace

TEST_CASE("MuJoCo cross-check: a grasp on a compliant wrist under a force and a wrist reference change",
          "[wrist][mujoco]") {
  WristServos ws;
  ws.point = Eigen::Vector3d(0.0, 0.0, -0.1);  // 10 cm below the box centre: loads rotate the palm
  ws.kp_translation = 400;                     // N/m
  ws.kp_rotation = 20;                         // N m/rad
  const Eigen::Vector3d F(0.12, -0.08, 0.05);  // N, against ~0.5 N preload per contact: no contact unloads
  const Eigen::VectorXd none = Eigen::VectorXd::Zero(6);
  Eigen::VectorXd dxr = Eigen::VectorXd::Zero(6);  // 1 mm along y and 1 mrad about x through the wrist point
  dxr(1) = 1e-3;
  dxr(3) = 1e-3;
  struct Case {
    const char* name;
    Eigen::Vector3d F;
    Eigen::VectorXd dxr;
    bool geometric;
    WristResponse r;
    double e_u = 0, e_x = 0, e_l = 0;
  };
  std::vector<Case> cases = {{"F", F, none, false, {}},
                             {"F/2", F / 2, none, false, {}},
                             {"F, geometric", F, none, true, {}},
                             {"F/2, geometric", F / 2, none, true, {}},
                             {"dx_r", Eigen::Vector3d::Zero(), dxr, false, {}},
                             {"dx_r, geometric", Eigen::Vector3d::Zero(), dxr, true, {}}};
  for (Case& k : cases) {
    k.r = wrist_response(ws, k.F, k.dxr, k.geometric);
    k.e_u = rel(k.r.du_sim, k.r.du_pred);
    k.e_x = rel(k.r.dx_sim, k.r.dx_pred);
    k.e_l = rel(k.r.dl_sim, k.r.dl_pred);
    std::printf("[wrist] MuJoCo %-16s du_sim (%.5g %.5g %.5g) m, dx_w_sim (%.4g %.4g %.4g | %.4g %.4g %.4g); relative "
                "error du %.3g, dx_w %.3g, dlambda %.3g (max |dlambda| %.3g N; geometric bound %.3g)\n", k.name,
                k.r.du_sim(0), k.r.du_sim(1), k.r.du_sim(2), k.r.dx_sim(0), k.r.dx_sim(1), k.r.dx_sim(2),
                k.r.dx_sim(3), k.r.dx_sim(4), k.r.dx_sim(5), k.e_u, k.e_x, k.e_l, k.r.dl_sim.cwiseAbs().maxCoeff(),
                k.r.geometric_ratio);
  }
  const Case &a = cases[0], &b = cases[1], &ag = cases[2], &bg = cases[3], &r = cases[4], &rg = cases[5];
  // The wrist takes a sizeable part of the motion: its translation and the palm's rotation (lever 0.1 m) each move
  // the object by more than a tenth of its whole displacement.
  CHECK(a.r.dx_pred.head(3).norm() > 0.1 * a.r.du_pred.norm());
  CHECK(0.1 * a.r.dx_pred.tail(3).norm() > 0.1 * a.r.du_pred.norm());
  // Without the neglected first-order geometric stiffness (fingers and preloaded palm) the error is bounded by its
  // relative size, and does not shrink with |F| (a linearisation error O(du^2) would halve): measured du 3.4e-4,
  // dx_w 3.1e-3, dlambda 6.1e-5 against a bound of 4.9e-3.
  for (const Case* k : {&a, &b}) {
    CHECK(k->e_u < 2 * k->r.geometric_ratio);
    CHECK(k->e_x < 2 * k->r.geometric_ratio);
    CHECK(k->e_l < 2 * k->r.geometric_ratio);
  }
  CHECK(b.e_u / a.e_u == Approx(1.0).margin(0.2));
  CHECK(b.e_x / a.e_x == Approx(1.0).margin(0.2));
  // With the geometric terms added the error falls by an order of magnitude (measured du 5.5e-5, dx_w 2.7e-4,
  // dlambda 6.1e-5), and what remains is second order: it halves with |F| (measured ratio 0.54 for dx_w).
  for (const Case* k : {&ag, &bg}) {
    CHECK(k->e_u < 0.2 * a.e_u);
    CHECK(k->e_x < 0.2 * a.e_x);
    CHECK(k->e_l < 0.1 * k->r.geometric_ratio);
  }
  CHECK(bg.e_x / ag.e_x == Approx(0.5).margin(0.15));
  // Moving the wrist's reference moves hand and box rigidly (the box follows the palm's turn by translating: a rigid
  // turn moves the two tips of an opposite pair equally along their normal), so the model predicts no force change
  // and du, dx_w = dx_r. The preloaded palm's geometric stiffness turns the palm less than its reference (first
  // order, bounded as above: measured 2.8e-3); with it the turn agrees to 5e-8. du's remainder is the second-order
  // part of the 1 mrad turn: relative 1e-3 at most (measured 3.1e-4; 2.5e-3 for 5 mrad).
  for (const Case* k : {&r, &rg}) {
    CHECK(k->r.dl_pred.norm() < 1e-12);  // N: rounding
    CHECK(k->r.dl_sim.cwiseAbs().maxCoeff() < 1e-4);  // N: against ~0.5 N preload (measured 7e-6)
    CHECK(k->e_u < 1e-3);
  }
  CHECK(r.e_x < 2 * r.r.geometric_ratio);
  CHECK(rg.e_x < 0.01 * r.e_x);
}

namespace {
// SynGrasp's SGquasistaticHsolution matrix M_h (its rows as coded, including the sign of dz_r in the last row),
// unknowns (dw, dlambda, dtau, dsigma, du, dq, dz, dz_r).
Eigen::MatrixXd syngrasp_Mh(const Eigen::MatrixXd& G, const Eigen::MatrixXd& J, const Eigen::MatrixXd& S,
                            const Eigen::MatrixXd& Kc, const Eigen::MatrixXd& Kq, const Eigen::MatrixXd& Kz) {
  const int nd = 6, nl = static_cast<int>(J.rows()), nq = static_cast<int>(J.cols()), nz = static_cast<int>(S.cols());
  const int cw = 0, cl = nd, ct = cl + nl, cs = ct + nq, cu = cs + nz, cq = cu + nd, cz = cq + nq, czr = cz + nz;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(nd + 2 * nq + 2 * nz + nl, czr + nz);
  int r = 0;
  M.block(r, cw, nd, nd).setIdentity();  // dw + G dlambda = 0
  M.block(r, cl, nd, nl) = G;
  r += nd;
  M.block(r, cl, nq, nl) = -J.transpose();  // dtau = J^T dlambda
  M.block(r, ct, nq, nq).setIdentity();
  r += nq;
  M.block(r, ct, nz, nq) = -S.transpose();  // dsigma = S^T dtau
  M.block(r, cs, nz, nz).setIdentity();
  r += nz;
  M.block(r, cl, nl, nl).setIdentity();  // dlambda = K_c (J dq - G^T du)
  M.block(r, cu, nl, nd) = Kc * G.transpose();
  M.block(r, cq, nl, nq) = -Kc * J;
  r += nl;
  M.block(r, ct, nq, nq).setIdentity();  // dtau = K_q (S dz - dq)
  M.block(r, cq, nq, nq) = Kq;
  M.block(r, cz, nq, nz) = -Kq * S;
  r += nq;
  M.block(r, cs, nz, nz).setIdentity();  // SynGrasp: dsigma + K_z dz + K_z dz_r = 0
  M.block(r, cz, nz, nz) = Kz;
  M.block(r, czr, nz, nz) = Kz;
  return M;
}

// The gauge min |sigma| over SynGrasp's kernel columns with Gamma_w x = w: x = x_p + N y with N an orthonormal basis
// of null(Gamma_w) and x_p the least-norm solution (both from one SVD of Gamma_w), y by least squares. Rank threshold
// 1e-10 relative for both: exact zeros that round-off leaves at ~1e-16.
double least_sigma(const Eigen::MatrixXd& Gw, const Eigen::MatrixXd& Gs, const Eigen::VectorXd& w) {
  Eigen::JacobiSVD<Eigen::MatrixXd> sw(Gw, Eigen::ComputeFullU | Eigen::ComputeFullV);
  sw.setThreshold(1e-10);
  const Eigen::Index r = sw.rank();
  const Eigen::VectorXd xp = sw.solve(w);
  const Eigen::MatrixXd N = sw.matrixV().rightCols(Gw.cols() - r);
  Eigen::JacobiSVD<Eigen::MatrixXd> sn(Gs * N, Eigen::ComputeThinU | Eigen::ComputeThinV);
  sn.setThreshold(1e-10);
  const Eigen::VectorXd y = sn.solve(Eigen::VectorXd(-Gs * xp));
  return (Gs * (xp + N * y)).norm();
}

// sqrt(sum over finite nonzero axes of (coordinate / a_i)^2): the ellipsoid's gauge of w.
double gauge(const Ellipsoid& e, const Eigen::VectorXd& w) {
  double q = 0;
  for (int i = 0; i < e.semi_axes.size(); ++i) {
    const double a = e.semi_axes(i);
    if (std::isfinite(a) && a > 0) q += std::pow(e.directions.col(i).dot(w) / a, 2);
  }
  return std::sqrt(q);
}
}  // namespace

TEST_CASE("compliant force manipulability: the pinch by hand, SynGrasp's kernel of M_h, and the rigid ellipsoid",
          "[wrist][manipulability]") {
  // 1. The soft-finger pinch with S = I (hand-derived): whatever w, the contacts take -K G^T K_O^-1 w, i.e. (-f/2
  // -+ (0, m_z, -m_y) / (2a)) per finger, and the only controllable internal force is the squeeze along x, which
  // cannot lower |sigma|: |sigma|^2 = |f|^2 / 2 + (m_y^2 + m_z^2) / (2 a^2). m_x goes to torsion, which no joint
  // feels: unbounded. Semi-axes: sqrt 2 (forces), sqrt 2 a (m_y, m_z), +inf (m_x); any stiffness.
  const std::vector<Contact> c = mjhand_test::opposed_contacts(ContactModel::kSoftFinger);
  const Eigen::MatrixXd G = grasp_matrix(c, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd J = mjhand_test::cartesian_fingers_jacobian(c);
  for (double kq : {300.0, 3000.0}) {
    DirectionalStiffness k;
    k.normal = 2000;
    k.tangential = 700;
    k.torsional = 0.2;
    const ManipulabilityEllipsoid e = compliant_force_manipulability(
        quasistatic_maps(G, J, contact_stiffness(c, k), joint_stiffness(6, kq), kNoSynergies, kRigid));
    REQUIRE(e.full.unbounded == 1);
    REQUIRE(e.full.finite_rank == 5);
    CHECK(std::abs(e.full.directions(3, 0)) == Approx(1.0).epsilon(1e-12));  // the unbounded axis is m_x
    for (int i = 1; i <= 3; ++i) CHECK(e.full.semi_axes(i) == Approx(std::sqrt(2.0)).epsilon(1e-10));
    for (int i = 4; i <= 5; ++i) CHECK(e.full.semi_axes(i) == Approx(std::sqrt(2.0) * mjhand_test::kBoxHalfWidth).epsilon(1e-10));
  }
  // 2. Random grasps with full K_c, K_q, K_z and 7 synergies on 9 joints: the gauge of 2000 random wrenches equals
  // min |sigma| over SynGrasp's kernel of M_h (FullPivLU kernel, QR least squares), and the ellipsoid equals the
  // rigid force_manipulability (the stiffness drops out, docs/grasp-analysis.md).
  std::mt19937 rng(17);
  double worst_gauge = 0, worst_rigid = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const Grasp g = three_fingers(9, rng);
    const Eigen::MatrixXd S = random_matrix(9, 7, rng);
    const Eigen::MatrixXd Kc = random_spd(9, 3000, rng), Kq = random_spd(9, 2, rng), Kz = random_spd(7, 5, rng);
    const ManipulabilityEllipsoid e = compliant_force_manipulability(quasistatic_maps(g.G, g.J, Kc, Kq, S, Kz));
    const Eigen::MatrixXd K = Eigen::FullPivLU<Eigen::MatrixXd>(syngrasp_Mh(g.G, g.J, S, Kc, Kq, Kz)).kernel();
    REQUIRE(K.cols() == 6 + 7);  // n_d + n_z solutions: every (dw, dz_r)
    const Eigen::MatrixXd Gw = K.topRows(6), Gs = K.middleRows(6 + 9 + 9, 7);
    CHECK(e.full.unbounded == 2);  // 9 - 7 joint directions the synergies do not feel
    std::normal_distribution<double> n01;
    for (int s = 0; s < 2000; ++s) {
      const Eigen::VectorXd w = Eigen::VectorXd::NullaryExpr(6, [&] { return n01(rng); });
      const double g1 = least_sigma(Gw, Gs, w), g2 = gauge(e.full, w);
      worst_gauge = std::max(worst_gauge, std::abs(g1 - g2) / std::max(g1, 1e-300));
    }
    const ManipulabilityEllipsoid r = force_manipulability(g.G, g.J, S);
    REQUIRE(r.full.unbounded == e.full.unbounded);
    REQUIRE(r.full.finite_rank == e.full.finite_rank);
    worst_rigid = std::max(worst_rigid, rel(e.full.semi_axes.tail(4), r.full.semi_axes.tail(4)));
    // Same finite directions: equal projectors onto each finite axis.
    for (int i = 2; i < 6; ++i) {
      const Eigen::VectorXd a = e.full.directions.col(i), b = r.full.directions.col(i);
      worst_rigid = std::max(worst_rigid, (a * a.transpose() - b * b.transpose()).cwiseAbs().maxCoeff());
    }
  }
  std::printf("[wrist] compliant force ellipsoid: gauge vs M_h kernel %.2g, vs rigid ellipsoid %.2g\n", worst_gauge,
              worst_rigid);
  CHECK(worst_gauge < 1e-8);  // rounding: kernel, QR and SVDs of matrices mixing stiffness ~1e3 and arms ~1e-2
  CHECK(worst_rigid < 1e-8);
  // 3. With a compliant wrist: the wrist is six more unactuated-by-synergy joints whose reference is an input, so
  // the ellipsoid is the rigid one of J_ext = [J_H, J_w], S_ext = blkdiag(S, I_6).
  const Grasp g = three_fingers(9, rng);
  const Eigen::MatrixXd S = random_matrix(9, 2, rng);
  const Eigen::MatrixXd Jw = wrist_jacobian(g.contacts, Eigen::Vector3d(0, 0, -0.1));
  const QuasistaticMaps wm = wrist_quasistatic_maps(g.G, g.J, Jw, random_spd(9, 3000, rng), random_spd(9, 2, rng),
                                                    wrist_stiffness(500, 10), S, random_spd(2, 5, rng));
  Eigen::MatrixXd Jext(9, 15);
  Jext << g.J, Jw;
  const ManipulabilityEllipsoid ew = compliant_force_manipulability(wm);
  const ManipulabilityEllipsoid rw = force_manipulability(g.G, Jext, wm.S);
  REQUIRE(ew.full.finite_rank == rw.full.finite_rank);
  REQUIRE(ew.full.unbounded == rw.full.unbounded);
  const int u = ew.full.unbounded, f = ew.full.finite_rank;
  CHECK(rel(ew.full.semi_axes.segment(u, f), rw.full.semi_axes.segment(u, f)) < 1e-8);  // as above
  CHECK_THROWS_WITH(compliant_force_manipulability(quasistatic_maps(g.G.topRows(3), g.J, random_spd(9, 3000, rng),
                                                                    kRigid, kNoSynergies, kRigid)),
                    Catch::Contains("6 object rows"));
}
