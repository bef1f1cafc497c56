// PCR and PGR (Pozzi, Malvezzi & Prattichizzo, RA-L 2017; SynGrasp SG_PCR, SG_PGRbruteforce): closed forms for two
// opposed contacts and a symmetric three-finger grasp, the quasi-static internal-force basis against a direct solve
// of the quasi-static equations, and the max-min definition of PGR checked by rank tests and random sampling.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include <mjhand/grasp/contact_frames.h>
#include <mjhand/grasp/contact_robustness.h>
#include <mjhand/grasp/grasp_matrix.h>
#include <mjhand/grasp/grasp_statics.h>
#include <mjhand/util/dense_decompositions.h>

using namespace mjhand;

namespace {

std::vector<Contact> equilateral(double R, double mu) {
  std::vector<Contact> c;
  for (int i = 0; i < 3; ++i) {
    const double a = 2 * M_PI * i / 3;
    const Eigen::Vector3d u(std::cos(a), std::sin(a), 0);
    c.push_back(analytic_contact(R * u, -u, ContactModel::kHardFinger, mu));
  }
  return c;
}

// Four hard contacts at the vertices of a regular tetrahedron, normals toward the centre: not planar, so some
// contacts can slide or detach while the rest still hold the object.
std::vector<Contact> tetrahedral(double R, double mu) {
  std::vector<Contact> c;
  for (const Eigen::Vector3d& v : {Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(1, -1, -1), Eigen::Vector3d(-1, 1, -1),
                                   Eigen::Vector3d(-1, -1, 1)}) {
    const Eigen::Vector3d u = v.normalized();
    c.push_back(analytic_contact(R * u, -u, ContactModel::kHardFinger, mu));
  }
  return c;
}

// Per-contact cost of a pure normal force f (no tangential part) in the barrier's outer branch, its minimum over f by
// bisection on the derivative (g is convex on (fmin, fmax)): the closed form the symmetric grasps reduce to.
double min_normal_cost(double fmin, double fmax, double mu) {
  const double d = 1 - 1 / std::sqrt(1 + mu * mu);  // sigma_3 = -d f
  auto dg = [&](double f) { return -1 / std::pow(f - fmin, 3) + 1 / std::pow(fmax - f, 3) - 1 / (d * d * f * f * f); };
  double lo = fmin + 1e-9, hi = fmax - 1e-9;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (dg(mid) < 0 ? lo : hi) = mid;
  }
  const double f = 0.5 * (lo + hi);
  return 0.5 / std::pow(f - fmin, 2) + 0.5 / std::pow(fmax - f, 2) + 0.5 / std::pow(d * f, 2);
}

RobustnessOptions options() {
  RobustnessOptions o;
  o.cost.fmin = 1.0;
  o.cost.fmax = 30.0;
  o.cost.k = 0.001;  // SG_PCR's values
  o.y0 = 1.0;
  return o;
}

// Fully actuated "Cartesian" fingers: J = I (each joint moves its contact point along one contact axis).
QuasiStaticGrasp cartesian_grasp(const std::vector<Contact>& c, double kc, double kq) {
  QuasiStaticGrasp g;
  const int m = total_rows(c);
  g.G = grasp_matrix(c, Eigen::Vector3d::Zero());
  g.J = Eigen::MatrixXd::Identity(m, m);
  g.Kc = kc * Eigen::MatrixXd::Identity(m, m);
  g.Kq = kq * Eigen::MatrixXd::Identity(m, m);
  return g;
}

}  // namespace

TEST_CASE("PCR of two opposed contacts and of a symmetric three-finger grasp equals the closed form", "[robustness]") {
  const RobustnessOptions o = options();
  const double mu = 0.8;
  const double g = min_normal_cost(o.cost.fmin, o.cost.fmax, mu);
  // Two opposed contacts, E = the squeeze: lambda_i = (f, 0, 0), PCR = n_c / (n_c g) = 1 / g.
  const std::vector<Contact> two = {analytic_contact({0.03, 0, 0}, {-1, 0, 0}, ContactModel::kHardFinger, mu),
                                    analytic_contact({-0.03, 0, 0}, {1, 0, 0}, ContactModel::kHardFinger, mu)};
  const Eigen::MatrixXd G2 = grasp_matrix(two, Eigen::Vector3d::Zero());
  VcostOptimum opt;
  const double pcr2 = potential_contact_robustness(two, pseudo_inverse(G2), internal_force_basis(G2), o, &opt);
  std::printf("[robustness] two opposed: PCR %.9g, closed form %.9g (%d evaluations)\n", pcr2, 1 / g, opt.evaluations);
  CHECK(pcr2 == Approx(1 / g).epsilon(1e-8));  // Nelder-Mead's f_tol 1e-12 relative; V is flat at its minimum
  CHECK(opt.lambda(0) == Approx(opt.lambda(3)).epsilon(1e-12));
  // Three contacts at 120 deg with every internal force available (3-D E): by symmetry and convexity the optimum is
  // the pure normal squeeze, so PCR = 1 / g again.
  const std::vector<Contact> three = equilateral(0.04, mu);
  const Eigen::MatrixXd G3 = grasp_matrix(three, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd N3 = internal_force_basis(G3);
  REQUIRE(N3.cols() == 3);
  const double pcr3 = potential_contact_robustness(three, pseudo_inverse(G3), N3, o, &opt);
  std::printf("[robustness] symmetric three-finger: PCR %.9g, closed form %.9g (%d evaluations)\n", pcr3, 1 / g,
              opt.evaluations);
  CHECK(pcr3 == Approx(1 / g).epsilon(1e-7));  // a 3-D Nelder-Mead search, f_tol 1e-12; V flat at its minimum
  for (int i = 0; i < 3; ++i) CHECK(std::hypot(opt.lambda(3 * i + 1), opt.lambda(3 * i + 2)) < 1e-3 * opt.lambda(0));
  // A hand that can only squeeze two of the three contacts' tangential directions is worse.
  const double pcr_less = potential_contact_robustness(three, pseudo_inverse(G3), N3.leftCols(1), o);
  CHECK(pcr_less <= pcr3 * (1 + 1e-9));
  CHECK_THROWS_WITH(potential_contact_robustness({}, Eigen::MatrixXd(0, 6), Eigen::MatrixXd(0, 0), o),
                    Catch::Contains("no contacts"));
}

TEST_CASE("quasi-static internal-force basis equals a direct solve of the quasi-static equations", "[robustness]") {
  // Three contacts, a 9-joint hand with a random J, two synergies, non-isotropic stiffnesses.
  const std::vector<Contact> c = equilateral(0.04, 0.8);
  QuasiStaticGrasp g;
  g.G = grasp_matrix(c, Eigen::Vector3d(0.001, -0.002, 0.003));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  g.J = Eigen::MatrixXd::NullaryExpr(9, 9, [&] { return 0.05 * u(rng); });
  g.S = Eigen::MatrixXd::NullaryExpr(9, 2, [&] { return u(rng); });
  const Eigen::VectorXd kc = Eigen::VectorXd::NullaryExpr(9, [&] { return 1000 * (1.5 + u(rng)); });
  g.Kc = kc.asDiagonal();
  g.Kq = Eigen::VectorXd::NullaryExpr(9, [&] { return 2 + u(rng); }).asDiagonal();
  g.Kz = Eigen::Vector2d(3, 5).asDiagonal();
  const Eigen::MatrixXd E = quasistatic_internal_force_basis(g);
  REQUIRE(E.cols() == 2);  // two synergies control at most two internal forces
  // Direct: unknowns (dq 9, du 6, dz 2, lambda 9) for a synergy reference change dz_r:
  //   lambda = Kc (J dq - G^T du), G lambda = 0, J^T lambda = Kq (S dz - dq), S^T J^T lambda = Kz (dz_r - dz).
  for (int col = 0; col < 2; ++col) {
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(26, 26);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(26);
    const int q = 0, uo = 9, z = 15, l = 17;
    A.block(0, l, 9, 9) = Eigen::MatrixXd::Identity(9, 9);
    A.block(0, q, 9, 9) = -g.Kc * g.J;
    A.block(0, uo, 9, 6) = g.Kc * g.G.transpose();
    A.block(9, l, 6, 9) = g.G;
    A.block(15, l, 9, 9) = g.J.transpose();
    A.block(15, z, 9, 2) = -g.Kq * g.S;
    A.block(15, q, 9, 9) += g.Kq;
    A.block(24, l, 2, 9) = g.S.transpose() * g.J.transpose();
    A.block(24, z, 2, 2) = g.Kz;
    b.segment(24, 2) = g.Kz.col(col);
    const Eigen::VectorXd x = A.fullPivLu().solve(b);
    REQUIRE((A * x - b).norm() < 1e-9 * b.norm());  // the system is regular: rounding only
    const Eigen::VectorXd lambda = x.segment(l, 9);
    const double outside = (lambda - E * (E.transpose() * lambda)).norm() / lambda.norm();
    std::printf("[robustness] synergy %d: |lambda| %.4g, part outside range(E) %.2g\n", col, lambda.norm(), outside);
    CHECK(outside < 1e-9);  // rounding of the 26 x 26 solve and of the map's inverses
    CHECK((g.G * lambda).norm() < 1e-9 * lambda.norm());
  }
  // Fully actuated Cartesian fingers, isotropic K: E spans all of null(G).
  const QuasiStaticGrasp full = cartesian_grasp(c, 1.0, 10.0);
  const Eigen::MatrixXd Ef = quasistatic_internal_force_basis(full);
  const Eigen::MatrixXd N = internal_force_basis(full.G);
  REQUIRE(Ef.cols() == N.cols());
  CHECK((Ef * Ef.transpose() - N * N.transpose()).cwiseAbs().maxCoeff() < 1e-12);  // same projector, rounding
  QuasiStaticGrasp bad = full;
  bad.Kq.resize(3, 3);
  CHECK_THROWS_WITH(quasistatic_internal_force_basis(bad), Catch::Contains("grasp.Kq"));
}

TEST_CASE("PGR: max over contact states of the best cost, checked by rank tests and sampling", "[robustness]") {
  const std::vector<Contact> c = tetrahedral(0.04, 0.8);
  const QuasiStaticGrasp g = cartesian_grasp(c, 1.0, 10.0);
  const RobustnessOptions o = options();
  const PgrResult r = potential_grasp_robustness(c, g, o);
  REQUIRE(r.quality.size() == 81);
  std::printf("[robustness] PGR %.6g, PCR %.6g, %d of 81 combinations feasible, best states %d %d %d %d\n", r.pgr,
              r.pcr, r.feasible, int(r.best[0]), int(r.best[1]), int(r.best[2]), int(r.best[3]));
  // All sticking = PCR with E = null(G) (isotropic K, J = I); the tetrahedral symmetry makes the optimum the pure
  // normal squeeze (the normals sum to zero and pass through the centre), so it is the closed form 1 / g.
  const double gmin = min_normal_cost(o.cost.fmin, o.cost.fmax, 0.8);
  CHECK(r.pcr == Approx(1 / gmin).epsilon(1e-7));  // Nelder-Mead f_tol 1e-12; V flat at its minimum
  CHECK(r.pgr >= r.pcr);
  double best = 0;
  int feasible = 0;
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (int idx = 0; idx < 81; ++idx) {
    std::vector<ContactState> s(4);
    std::vector<Contact> kept;
    std::vector<int> rows;
    for (int i = 0, rest = idx; i < 4; ++i, rest /= 3) {
      s[i] = static_cast<ContactState>(rest % 3);
      if (s[i] == ContactState::kDetached) continue;
      Contact k = c[i];
      if (s[i] == ContactState::kSliding) {
        k.model = ContactModel::kFrictionlessPoint;
        rows.push_back(3 * i);
      } else {
        for (int j = 0; j < 3; ++j) rows.push_back(3 * i + j);
      }
      kept.push_back(k);
    }
    Eigen::MatrixXd Gs(6, rows.size());
    for (size_t a = 0; a < rows.size(); ++a) Gs.col(a) = g.G.col(rows[a]);
    const bool full_rank = rows.size() >= 6 && Eigen::FullPivLU<Eigen::MatrixXd>(Gs).rank() == 6;
    CHECK((r.quality[idx] > 0) == full_rank);  // infeasible (rank < 6) combinations score 0
    if (!full_rank) continue;
    ++feasible;
    best = std::max(best, r.quality[idx]);
    // The inner minimum: with J = I and K = I the combination's E is null(G_S); no random internal force near the
    // optimum (or anywhere in a wide box) has a lower cost.
    const StateCombination sc = evaluate_state_combination(c, g, s, o);
    CHECK(sc.quality == Approx(r.quality[idx]).epsilon(1e-15));  // the same computation, deterministic
    const Eigen::MatrixXd Ns = internal_force_basis(Gs);
    const double vmin = sc.optimum.cost;
    int lower = 0;
    for (int t = 0; t < 400; ++t) {
      const double scale = t < 200 ? 0.05 : 5.0;
      Eigen::VectorXd z(Ns.cols());
      for (int j = 0; j < z.size(); ++j) z(j) = scale * noise(rng);
      const double v = force_closure_cost(kept, sc.optimum.lambda + Ns * z, o.cost);
      if (v < vmin * (1 - 1e-9)) ++lower;  // 1e-9: Nelder-Mead's f_tol 1e-12 plus rounding, with margin
    }
    CHECK(lower == 0);
    CHECK(r.quality[idx] == Approx(kept.size() / vmin).epsilon(1e-15));
  }
  CHECK(feasible == r.feasible);
  CHECK(feasible > 1);  // some combinations with sliding or detached contacts still hold the object
  CHECK(r.pgr == best);
  // Contact limit and contact type refusals.
  CHECK_THROWS_WITH(potential_grasp_robustness(c, g, o, 3), Catch::Contains("max_contacts is 3"));
  std::vector<Contact> soft = c;
  soft[1].model = ContactModel::kSoftFinger;
  CHECK_THROWS_WITH(potential_grasp_robustness(soft, g, o), Catch::Contains("contact 1 is a soft finger"));
}

TEST_CASE("PGR heuristics h1..h4: SynGrasp's combination lists, their PGR the brute force's maximum over them",
          "[robustness]") {
  // Five hard contacts: the tetrahedral four plus one off-axis, so the PCR optimum is not symmetric.
  std::vector<Contact> c = tetrahedral(0.04, 0.8);
  const Eigen::Vector3d u = Eigen::Vector3d(0.3, -0.8, 0.5).normalized();
  c.push_back(analytic_contact(0.04 * u, -u, ContactModel::kHardFinger, 0.8));
  const QuasiStaticGrasp g = cartesian_grasp(c, 1.0, 10.0);
  const RobustnessOptions o = options();
  const PgrResult all = potential_grasp_robustness(c, g, o);
  REQUIRE(all.quality.size() == 243);
  auto index = [](const std::vector<ContactState>& s) {
    int idx = 0;
    for (int i = static_cast<int>(s.size()) - 1; i >= 0; --i) idx = 3 * idx + static_cast<int>(s[i]);
    return idx;
  };
  auto count = [](const std::vector<ContactState>& s, ContactState x) {
    return static_cast<int>(std::count(s.begin(), s.end(), x));
  };
  // Each list: distinct combinations, each scored exactly as the brute force scored it (the same deterministic
  // evaluation), PGR = the largest of those scores <= the brute force's PGR, PCR the all-sticking score.
  auto check_list = [&](const StateCombinations& list, const char* name) {
    std::set<int> seen;
    for (const auto& s : list) seen.insert(index(s));
    CHECK(seen.size() == list.size());
    const PgrResult h = pgr_over_combinations(c, g, list, o);
    double best = 0;
    for (size_t k = 0; k < list.size(); ++k) {
      CHECK(h.quality[k] == all.quality[index(list[k])]);
      best = std::max(best, h.quality[k]);
    }
    CHECK(h.pgr == best);
    CHECK(h.pgr <= all.pgr);
    CHECK(h.pcr == all.pcr);
    std::printf("[robustness] %s: %zu of 243 combinations, PGR %.6g (brute force %.6g)\n", name, list.size(), h.pgr,
                all.pgr);
    return h;
  };
  const StateCombinations h2 = pgr_h2_combinations(5, 3);
  REQUIRE(h2.size() == 10);  // C(5, 3)
  for (const auto& s : h2) CHECK((count(s, ContactState::kSticking) == 3 && count(s, ContactState::kDetached) == 2));
  check_list(h2, "h2 (3 sticking)");
  const StateCombinations h3 = pgr_h3_combinations(5, 2);
  REQUIRE(h3.size() == 80);  // C(5, 2) 2^3
  for (const auto& s : h3) CHECK(count(s, ContactState::kSticking) == 2);
  check_list(h3, "h3 (2 sticking)");
  // h3 with every contact free to stick (sticking = 0 .. n_c) together covers all 3^n_c: the brute force.
  std::set<int> union_h3;
  for (int k = 0; k <= 5; ++k)
    for (const auto& s : pgr_h3_combinations(5, k)) union_h3.insert(index(s));
  CHECK(union_h3.size() == 243);
  const StateCombinations h4 = pgr_h4_combinations(5);
  REQUIRE(h4.size() == 40);  // C(5, 2) (C(3, 2) + C(3, 3))
  for (const auto& s : h4) {
    CHECK(count(s, ContactState::kSticking) == 2);
    const int sl = count(s, ContactState::kSliding);
    CHECK((sl == 2 || sl == 3));
  }
  check_list(h4, "h4");
  CHECK(pgr_h4_combinations(3).size() == 27);  // below 4 contacts SynGrasp falls back to the brute force
  CHECK(pgr_h4_combinations(4).size() == 6);   // C(4, 2) C(2, 2); SynGrasp's SG_PGRh4 errors here (nchoosek(2, 3), no n_c = 4 case)
  // h1 from the PCR optimum: contacts whose force is within 1 degree of the normal or of the cone edge slide.
  VcostOptimum opt;
  potential_contact_robustness(c, pseudo_inverse(g.G), quasistatic_internal_force_basis(g), o, &opt);
  std::vector<bool> flagged(5);
  int free = 0;
  for (int i = 0; i < 5; ++i) {
    const double alpha = std::atan2(std::hypot(opt.lambda(3 * i + 1), opt.lambda(3 * i + 2)), opt.lambda(3 * i));
    const double deg = M_PI / 180;
    flagged[i] = alpha < deg || std::atan(0.8) - alpha < deg;
    free += flagged[i] ? 0 : 1;
    std::printf("[robustness] h1: contact %d force at %.3g deg from its normal (cone edge %.3g deg)\n", i,
                alpha / deg, std::atan(0.8) / deg);
  }
  const StateCombinations h1 = pgr_h1_combinations(c, opt.lambda);
  REQUIRE(h1.size() == static_cast<size_t>(std::pow(3, free)));
  for (const auto& s : h1)
    for (int i = 0; i < 5; ++i)
      if (flagged[i]) CHECK(s[i] == ContactState::kSliding);
  check_list(h1, "h1");
  // The symmetric tetrahedral grasp: PCR's forces lie along the normals, so h1 fixes every contact to sliding (what
  // SynGrasp's code does, though it comments the case as a lost contact) and evaluates that one combination.
  const std::vector<Contact> t = tetrahedral(0.04, 0.8);
  const QuasiStaticGrasp gt = cartesian_grasp(t, 1.0, 10.0);
  potential_contact_robustness(t, pseudo_inverse(gt.G), quasistatic_internal_force_basis(gt), o, &opt);
  const StateCombinations h1t = pgr_h1_combinations(t, opt.lambda);
  REQUIRE(h1t.size() == 1);
  CHECK(count(h1t[0], ContactState::kSliding) == 4);
  // Bad input is named.
  CHECK_THROWS_WITH(pgr_h2_combinations(3, 4), Catch::Contains("sticking"));
  CHECK_THROWS_WITH(pgr_h1_combinations(c, opt.lambda.head(3)), Catch::Contains("lambda0"));
  CHECK_THROWS_WITH(pgr_over_combinations(c, g, {std::vector<ContactState>(4)}, o), Catch::Contains("combination 0"));
}

// A heuristic list longer than 1e5 combinations is refused before it is built (h3 with 40 contacts would need
// 780 x 2^38 entries); lists just under the limit are built (C(17, 8) = 24310).
TEST_CASE("PGR heuristics: lists beyond the size limit are refused by name", "[robustness]") {
  CHECK_THROWS_WITH(pgr_h3_combinations(40, 2), Catch::Contains("pgr_h3_combinations") && Catch::Contains("exceed the limit"));
  CHECK_THROWS_WITH(pgr_h2_combinations(40, 20), Catch::Contains("pgr_h2_combinations") && Catch::Contains("exceed the limit"));
  CHECK_THROWS_WITH(pgr_h4_combinations(60), Catch::Contains("pgr_h4_combinations") && Catch::Contains("exceed the limit"));
  CHECK(pgr_h2_combinations(17, 8).size() == 24310);
}
