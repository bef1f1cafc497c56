#include <mjhand/coupling/fit.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <mjhand/io/csv_fields.h>
#include <mjhand/io/text_file.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

CsvTable parse_csv_table(const std::string& text, const std::string& source) {
  CsvTable t;
  t.source = source;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool first = true;
  while (std::getline(in, line)) {
    ++number;
    const std::string s = trim_blanks(line);
    if (s.empty() || s[0] == '#') continue;
    std::vector<std::string> fields = split_csv_line(s);
    if (first) {
      first = false;
      double v;
      const bool numeric = std::all_of(fields.begin(), fields.end(), [&](const std::string& f) {
        return parse_finite_number(f, v);
      });
      if (!numeric) {
        t.header = std::move(fields);
        continue;
      }
    }
    t.rows.push_back(std::move(fields));
    t.lines.push_back(number);
  }
  return t;
}

CsvTable read_csv_table(const std::string& path) {
  const std::string problem = text_file_problem(path);  // a directory, FIFO, device or huge file
  if (!problem.empty()) throw FitError(path + ": cannot read the file: it " + problem);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw FitError(path + ": cannot open the file");
  std::ostringstream s;
  s << f.rdbuf();
  return parse_csv_table(s.str(), path);
}

std::string csv_column_label(const CsvTable& t, int column) {
  if (column >= 0 && column < static_cast<int>(t.header.size())) return "'" + t.header[column] + "'";
  return "column " + std::to_string(column + 1);
}

int csv_column(const CsvTable& t, const std::string& name) {
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    if (t.header[i] == name) return static_cast<int>(i);
  }
  double v;
  if (parse_finite_number(name, v) && v == std::floor(v) && v >= 1 && v <= 100000) return static_cast<int>(v) - 1;
  std::string known;
  for (const std::string& h : t.header) known += (known.empty() ? "" : ", ") + h;
  throw FitError(t.source + ": no column '" + name + "' (" +
                 (t.header.empty() ? std::string("the file has no header: give a 1-based column number")
                                   : "columns: " + known + ", or a 1-based number") +
                 ")");
}

CouplingLaw law_in_degrees(const CouplingLaw& rad) {
  CouplingLaw deg;
  for (int k = 0; k <= kMaxCouplingOrder; ++k) deg.c[k] = rad.c[k] * std::pow(180.0 / kPi, 1 - k);
  return deg;
}

CouplingFit fit_polynomial(const std::vector<double>& x, const std::vector<double>& y, int order,
                           const std::string& what) {
  if (order < 1 || order > kMaxCouplingOrder) {
    throw FitError(what + ": order " + std::to_string(order) + " is outside 1..4");
  }
  if (x.size() != y.size()) throw FitError(what + ": x and y have different lengths");
  const int n = static_cast<int>(x.size()), p = order + 1;
  if (n < p) {
    throw FitError(what + ": " + std::to_string(n) + " data points for an order-" + std::to_string(order) +
                   " fit, which has " + std::to_string(p) + " coefficients: need at least " + std::to_string(p));
  }
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  const double centre = 0.5 * (*lo + *hi), scale = 0.5 * (*hi - *lo);
  if (!(scale > 1e-12 * std::max(1.0, std::fabs(centre)))) {
    std::ostringstream m;
    m << what << ": the input column is constant (all " << n << " values are " << *lo
      << "): the output cannot be fitted against it";
    throw FitError(m.str());
  }
  // Vandermonde in u = (x - centre) / scale in [-1, 1].
  Eigen::MatrixXd a(n, p);
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) {
    const double u = (x[i] - centre) / scale;
    double pw = 1.0;
    for (int k = 0; k < p; ++k, pw *= u) a(i, k) = pw;
    b(i) = y[i];
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  if (qr.rank() < p) {
    throw FitError(what + ": the input column has fewer distinct values than the " + std::to_string(p) +
                   " coefficients of an order-" + std::to_string(order) + " fit");
  }
  const Eigen::VectorXd cu = qr.solve(b);
  // Back to powers of x: sum_k cu_k ((x - centre)/scale)^k, expanded with coupling_law's shift.
  CouplingLaw in_u;
  for (int k = 0; k < p; ++k) in_u.c[k] = cu(k) / std::pow(scale, k);  // now in powers of (x - centre)
  CouplingFit fit;
  fit.law = law_in_joint_angles(in_u, -centre, 0.0);  // p(x - centre)
  fit.order = order;
  fit.points = n;
  fit.x = x;
  fit.y = y;
  fit.residual.resize(n);
  double ss_res = 0.0, ss_tot = 0.0, mean = b.mean();
  for (int i = 0; i < n; ++i) {
    const double r = y[i] - (a.row(i) * cu)(0);
    fit.residual[i] = r;
    ss_res += r * r;
    ss_tot += (y[i] - mean) * (y[i] - mean);
    fit.max_abs = std::max(fit.max_abs, std::fabs(r));
  }
  fit.rms = std::sqrt(ss_res / n);
  fit.r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res == 0 ? 1.0 : 0.0);
  // Values of astronomical size (|x| ~ 1e77, |y| ~ 1e154 and beyond) overflow the expansion into powers of x or the
  // residual sums (found by tests/fuzz/fuzz_coupling_csv): an error, not NaN coefficients or statistics.
  bool finite = std::isfinite(fit.rms) && std::isfinite(fit.r2);
  for (const double c : fit.law.c) finite = finite && std::isfinite(c);
  if (!finite) {
    std::ostringstream m;
    m << what << ": the fit overflows for values up to |x| = " << std::max(-*lo, *hi)
      << ", |y| = " << b.cwiseAbs().maxCoeff() << " (are these angles?)";
    throw FitError(m.str());
  }
  return fit;
}

CouplingFit fit_coupling_table(const CsvTable& t, int xc, int yc, int order, AngleInput input) {
  std::vector<double> x, y;
  x.reserve(t.rows.size());
  y.reserve(t.rows.size());
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::string where = t.source + ":" + std::to_string(t.lines[r]);
    double v[2];
    const int cols[2] = {xc, yc};
    for (int i = 0; i < 2; ++i) {
      const int c = cols[i];
      if (c >= static_cast<int>(t.rows[r].size())) {
        throw FitError(where + ": the line has " + std::to_string(t.rows[r].size()) + " fields, so " +
                       csv_column_label(t, c) + " is missing");
      }
      if (!parse_finite_number(t.rows[r][c], v[i])) {
        throw FitError(where + ": " + csv_column_label(t, c) + " is not a number: '" + t.rows[r][c] + "'");
      }
      if (input.supplement) v[i] = (input.degrees ? 180.0 : kPi) - v[i];
      if (input.degrees) v[i] *= kPi / 180.0;
    }
    x.push_back(v[0]);
    y.push_back(v[1]);
  }
  std::string what = t.source;
  if (!t.lines.empty()) {
    what += ":" + std::to_string(t.lines.front()) + "-" + std::to_string(t.lines.back());
  }
  what += " (" + csv_column_label(t, yc) + " against " + csv_column_label(t, xc) + ")";
  return fit_polynomial(x, y, order, what);
}

}  // namespace mjhand
