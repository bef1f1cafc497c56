// Postural synergies (core/mjhand/hand/synergies.h): PCA against a known generating subspace, the CSV file's exact round
// trip, every bad file naming its line, and joint resolution against a compiled model.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <mjhand/hand/synergies.h>
#include <mjhand/util/dense_decompositions.h>
#include "test_util.h"

using namespace mjhand;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

std::vector<std::string> joint_names(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("j" + std::to_string(i));
  return out;
}

// An n x k matrix with orthonormal columns from a seeded Gaussian matrix (Householder QR).
Eigen::MatrixXd random_basis(int n, int k, std::mt19937& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  Eigen::MatrixXd a(n, k);
  for (int c = 0; c < k; ++c)
    for (int r = 0; r < n; ++r) a(r, c) = g(rng);
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(a);
  return qr.householderQ() * Eigen::MatrixXd::Identity(n, k);
}

// Sine of the largest principal angle between range(A) and range(B) (both orthonormal columns): the largest
// singular value of (I - B B^T) A. Computed this way, not as acos of a cosine, so that small angles keep their
// precision.
double largest_subspace_sine(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  const Eigen::MatrixXd residual = A - B * (B.transpose() * A);
  return Eigen::JacobiSVD<Eigen::MatrixXd>(residual).singularValues()(0);
}

std::string write_text(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("synergies: PCA recovers the subspace that generated the postures", "[synergies]") {
  std::mt19937 rng(19);
  const int n = 15, k = 3, samples = 60;
  const Eigen::MatrixXd B = random_basis(n, k, rng);
  Eigen::VectorXd q0(n);
  std::uniform_real_distribution<double> u(-0.5, 1.0);
  for (int i = 0; i < n; ++i) q0(i) = u(rng);
  // Amplitudes with clearly different spreads (0.8, 0.4, 0.1 rad) so the components are ordered by variance.
  const double spread[k] = {0.8, 0.4, 0.1};
  std::normal_distribution<double> g(0.0, 1.0);
  Eigen::MatrixXd postures(samples, n);
  for (int s = 0; s < samples; ++s) {
    Eigen::VectorXd z(k);
    for (int c = 0; c < k; ++c) z(c) = spread[c] * g(rng);
    postures.row(s) = (q0 + B * z).transpose();
  }
  const SynergyFit fit = fit_synergies(joint_names(n), postures, k);
  const Synergies& s = fit.synergies;

  // Mean by a plain loop, independent of Eigen's colwise reduction.
  for (int i = 0; i < n; ++i) {
    double sum = 0;
    for (int r = 0; r < samples; ++r) sum += postures(r, i);
    CHECK(std::abs(s.q0(i) - sum / samples) <= 64 * kEps);  // rounding of a 60-term sum of O(1) values
  }
  // S orthonormal and spanning range(B): the SVD's rounding is ~ n eps relative to sigma_max, and the
  // rank-k data has no noise, so both errors are rounding only.
  CHECK((s.S.transpose() * s.S - Eigen::MatrixXd::Identity(k, k)).cwiseAbs().maxCoeff() <= 1e3 * kEps);
  CHECK(largest_subspace_sine(s.S, B) <= 1e-10);
  CHECK(largest_subspace_sine(B, s.S) <= 1e-10);
  // All variance in the first k components (rank k data); the rest is rounding.
  CHECK(fit.explained(k - 1) == Approx(1.0).margin(1e-12));
  CHECK(fit.explained(0) < fit.explained(1));
  // Total variance equals the trace of the sample covariance computed directly.
  const Eigen::MatrixXd centred = postures.rowwise() - postures.colwise().mean();
  const double trace = (centred.transpose() * centred).trace() / (samples - 1);
  CHECK(fit.variance.sum() == Approx(trace).epsilon(1e-12));  // rounding of two different sums
  // The first direction explains the variance along it: S1^T C S1 == variance(0).
  const Eigen::MatrixXd C = centred.transpose() * centred / (samples - 1);
  CHECK(s.S.col(0).dot(C * s.S.col(0)) == Approx(fit.variance(0)).epsilon(1e-12));  // rounding
  // Sign convention: the largest-magnitude entry of every column is positive.
  for (int c = 0; c < k; ++c) {
    Eigen::Index imax;
    s.S.col(c).cwiseAbs().maxCoeff(&imax);
    CHECK(s.S(imax, c) > 0);
  }
  // synergy_posture reproduces a generated sample from its projected amplitudes (q lies in q0 + range(S)).
  const Eigen::VectorXd q = postures.row(7).transpose();
  const Eigen::VectorXd z = synergy_amplitudes(s, q);
  Eigen::VectorXd expected = s.q0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < k; ++c) expected(i) += s.S(i, c) * z(c);
  CHECK((synergy_posture(s, z) - expected).cwiseAbs().maxCoeff() <= 16 * kEps);  // same sums, other order
  CHECK((synergy_posture(s, z) - q).cwiseAbs().maxCoeff() <= 1e-12);  // rounding of the SVD and the projection

  CHECK_THROWS_WITH(fit_synergies(joint_names(n), postures, 0), Catch::Contains("k = 0 must be in 1..15"));
  CHECK_THROWS_WITH(fit_synergies(joint_names(n - 1), postures, 2), Catch::Contains("15 columns for 14 joints"));
  CHECK_THROWS_WITH(fit_synergies(joint_names(n), postures.topRows(3), 3), Catch::Contains("must be in 1..2"));
  CHECK_THROWS_WITH(synergy_posture(s, Eigen::VectorXd::Zero(2)), Catch::Contains("z must have 3 entries"));
}

TEST_CASE("synergies: write then read gives back the same bits", "[synergies]") {
  const std::string dir = mjhand_test::fresh_temp_dir("synergies_roundtrip");
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Synergies s;
  s.joints = {"thumb_j1", "index_j1", "index_j2", "middle_j1"};
  s.q0.resize(4);
  s.S.resize(4, 2);
  for (int i = 0; i < 4; ++i) {
    s.q0(i) = u(rng);
    for (int c = 0; c < 2; ++c) s.S(i, c) = u(rng) * std::pow(10.0, 3 * c - 2);  // 1e-2 and 1e+1 scales
  }
  s.S(1, 1) = 1e-300;  // extremes survive too
  s.q0(3) = -0.0;
  const std::string path = dir + "/s.csv";
  write_synergies(path, s, "a test\nsecond line");
  const Synergies r = read_synergies(path);
  CHECK(r.joints == s.joints);
  REQUIRE(r.q0.size() == 4);
  REQUIRE(r.S.rows() == 4);
  REQUIRE(r.S.cols() == 2);
  for (int i = 0; i < 4; ++i) {
    CHECK(std::memcmp(&r.q0(i), &s.q0(i), sizeof(double)) == 0);
    for (int c = 0; c < 2; ++c) CHECK(std::memcmp(&r.S(i, c), &s.S(i, c), sizeof(double)) == 0);
  }
  CHECK(mjhand_test::read_all(path).find("# a test\n# second line\nrow,thumb_j1,") != std::string::npos);
}

TEST_CASE("synergies: every bad file names the file and the line", "[synergies]") {
  const std::string dir = mjhand_test::fresh_temp_dir("synergies_bad");
  struct Case {
    const char* text;
    const char* where;  // expected "FILE" suffix ":LINE"
    const char* what;
  };
  const Case cases[] = {
      {"# only a comment\nq0,1,2\n", ":2:", "the header must start with 'row'"},
      {"row\nq0\n", ":1:", "the header names no joints"},
      {"row,a,a\n", ":1:", "joint 'a' is listed twice"},
      {"row,a,\n", ":1:", "an empty joint name"},
      {"row,a,b\ns1,1,2\n", ":2:", "expected row 'q0', got 's1'"},
      {"row,a,b\nq0,1,2\ns2,1,2\n", ":3:", "expected row 's1', got 's2'"},
      {"row,a,b\nq0,1\n", ":2:", "row 'q0' has 1 values for 2 joints"},
      {"row,a,b\nq0,1,2\n\ns1,1,2,3\n", ":4:", "row 's1' has 3 values for 2 joints"},
      {"row,a,b\nq0,1,x\n", ":2:", "joint 'b': not a finite number: 'x'"},
      {"row,a,b\nq0,1,nan\n", ":2:", "not a finite number: 'nan'"},
      {"row,a,b\nq0,1,1e999\n", ":2:", "not a finite number: '1e999'"},
      {"row,a,b\nq0,1,2\n", ":3:", "no synergy rows"},
      {"row,a,b\n# nothing else\n", ":3:", "no 'q0' row"},
  };
  int index = 0;
  for (const Case& c : cases) {
    const std::string path = write_text(dir, "bad" + std::to_string(index++) + ".csv", c.text);
    INFO(c.text);
    CHECK_THROWS_WITH(read_synergies(path), Catch::StartsWith(path + c.where) && Catch::Contains(c.what));
  }
  const std::string empty = write_text(dir, "empty.csv", "# nothing\n");
  CHECK_THROWS_WITH(read_synergies(empty), Catch::StartsWith(empty + ": no header row"));
  CHECK_THROWS_WITH(read_synergies(dir + "/missing.csv"), Catch::StartsWith(dir + "/missing.csv: cannot open"));
  CHECK_THROWS_WITH(read_synergies(dir), Catch::StartsWith(dir + ": cannot read the synergy file: it is a directory"));
}

TEST_CASE("synergies: joints resolve to qpos and dof addresses, unknown joints are named", "[synergies]") {
  auto m = mjhand_test::load_xml_string(R"(<mujoco><worldbody>
      <body name="b"><freejoint name="free"/><geom size="0.1"/>
        <body><joint name="h1" axis="0 1 0"/><geom size="0.05"/>
          <body><joint name="s1" type="slide"/><geom size="0.05"/></body></body></body>
    </worldbody></mujoco>)");
  Synergies s;
  s.joints = {"s1", "h1"};
  s.q0 = Eigen::Vector2d(0.1, 0.2);
  s.S = Eigen::Vector2d(1.0, -1.0);
  const SynergyJoints j = resolve_synergy_joints(m.get(), s, "test");
  CHECK(j.joint == std::vector<int>{2, 1});
  CHECK(j.qpos == std::vector<int>{8, 7});  // after the free joint's 7 qpos
  CHECK(j.dof == std::vector<int>{7, 6});   // after its 6 dofs
  std::vector<double> qpos(m->nq, -1.0);
  scatter_synergy_joints(j, synergy_posture(s, Eigen::VectorXd::Constant(1, 0.5)), qpos.data());
  CHECK(qpos[8] == 0.1 + 0.5);
  CHECK(qpos[7] == 0.2 - 0.5);
  CHECK(qpos[0] == -1.0);
  Eigen::VectorXd back(2);
  gather_synergy_joints(j, qpos.data(), back);
  CHECK(back(0) == qpos[8]);

  s.joints = {"s1", "nope"};
  CHECK_THROWS_WITH(resolve_synergy_joints(m.get(), s, "synergy.csv"),
                    Catch::StartsWith("synergy.csv: joint 'nope' is not in the model (its hinge and slide joints: h1, s1)"));
  s.joints = {"s1", "free"};
  CHECK_THROWS_WITH(resolve_synergy_joints(m.get(), s, "x"), Catch::Contains("joint 'free' is a free joint"));
}
