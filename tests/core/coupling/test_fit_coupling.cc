// Coupling identification (core/mjhand/coupling/fit.h, `mjhand fit-coupling`): the BERUL laws recovered from captured
// angles, exact polynomials of every order, MuJoCo's polycoef convention, and the bad-CSV messages.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/coupling/fit.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::source_path;

namespace {
constexpr double kPi = 3.14159265358979323846;

std::string fit_error(const std::string& csv, const std::string& x, const std::string& y, int order) {
  try {
    const CsvTable t = parse_csv_table(csv, "bad.csv");
    fit_coupling_table(t, csv_column(t, x), csv_column(t, y), order, AngleInput{});
  } catch (const FitError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// tests/data/berul_thumb_capture.csv is not BERUL's data (the paper prints only its fitted lines): it is angles
// synthesised from eqs 4-5 and written the way RoboRealm reports them (eq 1's supplement, 0.001 deg). The first case
// regenerates every row from the equations, so the file's origin is checked rather than asserted; the second shows
// that the fit recovers the generating coefficients, which tests the estimator, not the paper.
TEST_CASE("the thumb data file is eqs 4-5 sampled at 41 theta_1 and rounded to 0.001 deg", "[fitcoupling]") {
  const CsvTable t = read_csv_table(source_path("tests/data/berul_thumb_capture.csv"));
  REQUIRE(t.rows.size() == 41);
  auto captured = [](double theta) { return std::round((180.0 - theta * 180.0 / kPi) * 1000.0) / 1000.0; };
  for (int i = 0; i < 41; ++i) {
    const double t1 = -0.06 + 0.42 * i / 40.0, t2 = 1.0078 + 1.0552 * t1, t3 = -0.1006 + 1.3805 * t2;
    INFO("row " << i);
    CHECK(std::stod(t.rows[i][1]) == captured(t1));
    CHECK(std::stod(t.rows[i][2]) == captured(t2));
    CHECK(std::stod(t.rows[i][3]) == captured(t3));
  }
}

TEST_CASE("fit-coupling recovers the coefficients of angles synthesised from BERUL eqs 4-5", "[fitcoupling]") {
  const CsvTable t = read_csv_table(source_path("tests/data/berul_thumb_capture.csv"));
  REQUIRE(t.rows.size() == 41);
  const AngleInput captured{true, true};  // degrees, 180 deg - captured (eq 1)
  const CouplingFit f12 = fit_coupling_table(t, csv_column(t, "joint_1"), csv_column(t, "joint_2"), 1, captured);
  const CouplingFit f23 = fit_coupling_table(t, csv_column(t, "joint_2"), csv_column(t, "joint_3"), 1, captured);
  // The printed coefficients have 4 decimals (half a unit: 5e-5); the data carry 0.0005 deg rounding.
  CHECK(f12.law.c[1] == Approx(1.0552).margin(5e-5));
  CHECK(f12.law.c[0] == Approx(1.0078).margin(5e-5));
  CHECK(f23.law.c[1] == Approx(1.3805).margin(5e-5));
  CHECK(f23.law.c[0] == Approx(-0.1006).margin(5e-5));
  CHECK(f12.r2 > 0.99999);  // 1 - r2 ~ (4e-4 deg rms / 7.5 deg spread)^2 = 3e-9
  CHECK(f12.max_abs < 0.0011 * kPi / 180);  // only the data rounding (0.0005 deg in x and y) is left
  // The estimator against the textbook closed form of a straight-line least-squares fit (slope = cov / var), an
  // independent computation on the same converted data.
  double mx = 0, my = 0;
  for (size_t i = 0; i < f12.x.size(); ++i) mx += f12.x[i] / f12.x.size(), my += f12.y[i] / f12.y.size();
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < f12.x.size(); ++i) sxy += (f12.x[i] - mx) * (f12.y[i] - my), sxx += (f12.x[i] - mx) * (f12.x[i] - mx);
  // the same least-squares line two ways, 41 points, x spread 24 deg: rounding
  CHECK(f12.law.c[1] == Approx(sxy / sxx).epsilon(1e-12));
  CHECK(f12.law.c[0] == Approx(my - sxy / sxx * mx).epsilon(1e-12));
  // Degrees (eqs 2-3): slope unchanged, offset x 180/pi. Eq 3's -5.7672 deg matches eq 5; eq 2's printed
  // 57.7723 deg does not match eq 4's 1.0078 rad (= 57.7427 deg): the erratum in docs/berul-coupling.md.
  const CouplingLaw d12 = law_in_degrees(f12.law), d23 = law_in_degrees(f23.law);
  CHECK(d12.c[1] == Approx(f12.law.c[1]).epsilon(1e-12));  // x 180/pi on both sides: rounding
  // 4-decimal radian coefficients are +-5e-5 rad = +-0.003 deg; eq 2's erratum is 0.03 deg off: 0.02 tells them apart
  CHECK(d23.c[0] == Approx(-5.7672).margin(0.02));
  CHECK(d12.c[0] == Approx(57.7427).margin(0.02));
  CHECK(std::fabs(d12.c[0] - 57.7723) > 0.02);
}

TEST_CASE("fit_polynomial reproduces exact polynomials of order 1 to 4", "[fitcoupling]") {
  const CouplingLaw truth = coupling_law({0.3, -1.2, 0.7, 0.25, -0.4});
  for (int order = 1; order <= 4; ++order) {
    CouplingLaw p;
    for (int k = 0; k <= order; ++k) p.c[k] = truth.c[k];
    std::vector<double> x, y;
    for (int i = 0; i < 15; ++i) {
      x.push_back(-0.5 + 1.7 * i / 14.0);
      y.push_back(p.value(x.back()));
    }
    const CouplingFit f = fit_polynomial(x, y, order);
    // exact data: rounding; the centred-and-scaled Vandermonde (order <= 4, 15 points) keeps its condition ~1e2-1e3
    for (int k = 0; k <= kMaxCouplingOrder; ++k) CHECK(f.law.c[k] == Approx(p.c[k]).margin(1e-10));
    CHECK(f.max_abs < 1e-12);
    CHECK(f.r2 == Approx(1.0).margin(1e-12));
  }
  // A lower order than the data's is a real least-squares fit: the residual is what the missing term leaves.
  std::vector<double> x, y;
  for (int i = 0; i < 11; ++i) {
    x.push_back(i / 10.0);
    y.push_back(x.back() * x.back());
  }
  const CouplingFit line = fit_polynomial(x, y, 1);
  // the exact least-squares answer (slope 1, offset -0.15): rounding of an 11-point QR
  CHECK(line.law.c[1] == Approx(1.0).margin(1e-12));  // LSQ line through y = x^2 on 0..1 (symmetric grid)
  CHECK(line.law.c[0] == Approx(-0.15).margin(1e-12));
  CHECK(line.r2 < 1.0);
}

TEST_CASE("mujoco_polycoef matches MuJoCo's joint equality about qpos0", "[fitcoupling]") {
  // Two hinges with ref (qpos0) 0.3 and -0.2; the law is stated in angles theta = q + offset.
  const double ref_x = 0.3, ref_y = -0.2, off_x = 0.1, off_y = 0.5;
  const CouplingLaw law = coupling_law({0.4, 0.8, -0.3, 0.2});
  const auto a = mujoco_polycoef(law, ref_x, ref_y, off_x, off_y);
  char xml[2048];
  std::snprintf(xml, sizeof xml,
                "<mujoco><compiler angle=\"radian\"/><worldbody><body><joint name=\"x\" axis=\"0 0 1\" ref=\"%.17g\"/>"
                "<geom type=\"capsule\" size=\"0.01\" fromto=\"0 0 0 0.1 0 0\"/><body pos=\"0.1 0 0\"><joint name=\"y\" axis=\"0 0 1\" "
                "ref=\"%.17g\"/><geom type=\"capsule\" size=\"0.01\" fromto=\"0 0 0 0.1 0 0\"/></body></body></worldbody>"
                "<equality><joint joint1=\"y\" joint2=\"x\" polycoef=\"%.17g %.17g %.17g %.17g %.17g\"/></equality>"
                "</mujoco>",
                ref_x, ref_y, a[0], a[1], a[2], a[3], a[4]);
  const auto m = mjhand_test::load_xml_string(xml);
  const auto d = mjhand_test::make_data(m.get());
  for (double tx : {-0.4, 0.0, 0.35, 0.9}) {
    for (double dev : {0.0, 0.05}) {
      d->qpos[0] = tx - off_x;
      d->qpos[1] = law.value(tx) - off_y + dev;
      mj_forward(m.get(), d.get());
      int row = -1;
      for (int i = 0; i < d->nefc; ++i) {
        if (d->efc_type[i] == mjCNSTR_EQUALITY) row = i;
      }
      REQUIRE(row >= 0);
      CHECK(d->efc_pos[row] == Approx(dev).margin(1e-12));  // zero on the law, the deviation off it
    }
  }
  // And the plain law back out of the conversion: q_y = law(q_x + off_x) - off_y.
  const CouplingLaw q = law_in_joint_angles(law, off_x, off_y);
  CHECK(q.value(0.2) == Approx(law.value(0.3) - off_y).margin(1e-14));  // polynomial shift algebra: rounding
}

TEST_CASE("fit-coupling rejects bad CSVs with file and line", "[fitcoupling]") {
  const std::string ok = "a,b\n0,1\n1,3\n2,5\n";
  CHECK(fit_error(ok, "a", "b", 1).empty());
  CHECK_THAT(fit_error("a,b\n0,1\n1\n2,5\n", "a", "b", 1),
             Catch::Contains("bad.csv:3:") && Catch::Contains("'b' is missing"));
  CHECK_THAT(fit_error("a,b\n0,1\n1,x3\n2,5\n", "a", "b", 1),
             Catch::Contains("bad.csv:3:") && Catch::Contains("'b' is not a number: 'x3'"));
  CHECK_THAT(fit_error("# note\na,b\n\n0,1\n1,nan\n", "a", "b", 1), Catch::Contains("bad.csv:5:"));
  CHECK_THAT(fit_error("a,b\n0,1\n1,3\n", "a", "b", 2),
             Catch::Contains("bad.csv:2-3") && Catch::Contains("2 data points") &&
                 Catch::Contains("need at least 3"));
  CHECK_THAT(fit_error("a,b\n2,1\n2,3\n2,5\n", "a", "b", 1),
             Catch::Contains("bad.csv:2-4") && Catch::Contains("constant"));
  CHECK_THAT(fit_error("a,b\n0,1\n0,3\n1,5\n1,6\n", "a", "b", 2), Catch::Contains("fewer distinct values"));
  CHECK_THAT(fit_error(ok, "a", "theta", 1), Catch::Contains("no column 'theta'") && Catch::Contains("a, b"));
  CHECK_THAT(fit_error("0,1\n1,3\n2,5\n", "1", "3", 1), Catch::Contains("bad.csv:1:") && Catch::Contains("column 3"));
  CHECK(fit_error("0,1\n1,3\n2,5\n", "1", "2", 1).empty());  // headerless: 1-based numbers
}

