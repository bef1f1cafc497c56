#include <mjhand/coil_actuator/coil_fit.h>

#include <Eigen/Dense>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <mjhand/io/labels.h>
#include <mjhand/util/dense_decompositions.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

namespace {
constexpr double kMilli = 1e-3;  // the tables print tau in 1e-3 N m and K_T in 1e-3 N m/A

// One CSV line split at commas, with its file and line for messages.
struct CsvRow {
  std::vector<std::string> cells;
  std::string where;
  double number(size_t i) const {
    if (i >= cells.size()) throw std::runtime_error(where + ": expected at least " + std::to_string(i + 1) + " fields");
    const std::string& s = cells[i];
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v)) {
      throw std::runtime_error(where + ": field " + std::to_string(i + 1) + " '" + s + "' is not a number");
    }
    return v;
  }
};

// Non-comment, non-empty lines of a CSV file.
std::vector<CsvRow> read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<CsvRow> rows;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    CsvRow r;
    r.where = path + ":" + std::to_string(n);
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) r.cells.push_back(cell);
    rows.push_back(std::move(r));
  }
  return rows;
}

bool starts_with_letter(const CsvRow& r) {
  return !r.cells.empty() && !r.cells[0].empty() && std::isalpha(static_cast<unsigned char>(r.cells[0][0]));
}

double rms(const std::vector<double>& e) {
  double s = 0;
  for (double x : e) s += x * x;
  return e.empty() ? 0.0 : std::sqrt(s / e.size());
}

// Residuals dT_model - dT_table of all runs, t = 0 rows skipped.
std::vector<double> thermal_residuals(const std::vector<HeatingRun>& runs, double C, double G, double alpha) {
  std::vector<double> r;
  for (const HeatingRun& run : runs) {
    const std::vector<double> sim = simulate_heating(run, C, 1.0 / G, alpha);
    for (size_t i = 0; i < run.t.size(); ++i) {
      if (run.t[i] > 0) r.push_back(sim[i] - run.dT[i]);
    }
  }
  return r;
}
}  // namespace

TorqueTable load_torque_table(const std::string& path) {
  TorqueTable t;
  t.path = path;
  double first_used_U = -1;
  for (const CsvRow& r : read_csv(path)) {
    const std::string& key = r.cells.empty() ? std::string() : r.cells[0];
    if (key == "R_ohm") {
      t.R = r.number(1);
    } else if (key == "first_used_U_V") {
      first_used_U = r.number(1);
    } else if (key == "kt_printed") {
      for (size_t i = 1; i < r.cells.size(); ++i) t.kt_printed.push_back(r.number(i) * kMilli);
    } else if (key == "U_V") {
      // Header: tau_phiX columns name the angles in degrees.
      for (size_t i = 2; i < r.cells.size(); ++i) {
        const std::string& h = r.cells[i];
        if (h.rfind("tau_phi", 0) != 0) throw std::runtime_error(r.where + ": column '" + h + "' is not tau_phiDEG");
        CsvRow deg{{h.substr(7)}, r.where};
        t.phi.push_back(deg.number(0) * kPi / 180);
      }
    } else if (starts_with_letter(r)) {
      throw std::runtime_error(r.where + ": unknown row '" + key + "'");
    } else {
      t.U.push_back(r.number(0));
      t.I.push_back(r.number(1));
      std::vector<double> tau;
      for (size_t i = 2; i < r.cells.size(); ++i) tau.push_back(r.number(i) * kMilli);
      if (tau.size() != t.phi.size()) throw std::runtime_error(r.where + ": expected one torque per angle");
      if (!(t.I.back() > 0)) throw std::runtime_error(r.where + ": current must be positive");
      t.tau.push_back(std::move(tau));
    }
  }
  if (t.phi.empty() || t.tau.empty() || !(t.R > 0) || t.kt_printed.size() != t.phi.size()) {
    throw std::runtime_error(path + ": needs R_ohm, the U_V header, rows and kt_printed (one per angle)");
  }
  t.first_used_row = -1;
  for (size_t i = 0; i < t.U.size(); ++i) {
    if (t.U[i] == first_used_U) t.first_used_row = static_cast<int>(i);
  }
  if (t.first_used_row < 0) throw std::runtime_error(path + ": first_used_U_V names no row's U");
  return t;
}

std::vector<double> kt_mean_ratio(const TorqueTable& t, int first_row) {
  std::vector<double> kt(t.phi.size(), 0.0);
  const int n = static_cast<int>(t.tau.size()) - first_row;
  if (first_row < 0 || n <= 0) throw std::invalid_argument("kt_mean_ratio: no rows from " + std::to_string(first_row));
  for (size_t a = 0; a < t.phi.size(); ++a) {
    for (size_t r = first_row; r < t.tau.size(); ++r) kt[a] += t.tau[r][a] / t.I[r];
    kt[a] /= n;
  }
  return kt;
}

std::array<double, 5> fit_quartic(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 5) throw std::invalid_argument("fit_quartic needs >= 5 points");
  Eigen::MatrixXd A(x.size(), 5);
  Eigen::VectorXd b(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double p = 1;
    for (int k = 0; k < 5; ++k, p *= x[i]) A(i, k) = p;
    b(i) = y[i];
  }
  const Eigen::VectorXd c = A.colPivHouseholderQr().solve(b);
  return {c(0), c(1), c(2), c(3), c(4)};
}

KtFit fit_torque_constant(const TorqueTable& t) {
  KtFit f;
  f.kt = kt_mean_ratio(t, t.first_used_row);
  int at45 = -1;
  for (size_t a = 0; a < t.phi.size(); ++a) {
    if (std::abs(t.phi[a] - kPi / 4) < 1e-12) at45 = static_cast<int>(a);
  }
  if (at45 < 0) throw std::runtime_error(t.path + ": no column at 45 deg (K_Tmax)");
  f.kt_max = f.kt[at45];
  f.poly = fit_quartic(t.phi, f.kt);
  const TorqueConstant sin2 = TorqueConstant::sin2(f.kt_max);
  const TorqueConstant poly = TorqueConstant::polynomial(f.poly);
  std::vector<double> e_kt_s, e_kt_p, e_tau_s, e_tau_p;
  for (size_t a = 0; a < t.phi.size(); ++a) {
    e_kt_s.push_back(sin2(t.phi[a]) - f.kt[a]);
    e_kt_p.push_back(poly(t.phi[a]) - f.kt[a]);
    for (size_t r = t.first_used_row; r < t.tau.size(); ++r) {
      e_tau_s.push_back(sin2(t.phi[a]) * t.I[r] - t.tau[r][a]);
      e_tau_p.push_back(poly(t.phi[a]) * t.I[r] - t.tau[r][a]);
    }
  }
  f.rms_kt_sin2 = rms(e_kt_s);
  f.rms_kt_poly = rms(e_kt_p);
  f.rms_tau_sin2 = rms(e_tau_s);
  f.rms_tau_poly = rms(e_tau_p);
  f.n_tau = static_cast<int>(e_tau_s.size());
  return f;
}

std::vector<HeatingRun> load_heating_table(const std::string& path) {
  std::vector<HeatingRun> runs(3);
  bool have_u = false;
  for (const CsvRow& r : read_csv(path)) {
    const std::string& key = r.cells.empty() ? std::string() : r.cells[0];
    if (key == "U_coil_V") {
      for (int k = 0; k < 3; ++k) {
        runs[k].link = k + 1;
        runs[k].U = r.number(1 + k);
      }
      have_u = true;
    } else if (key == "t_s") {
      continue;  // header
    } else if (starts_with_letter(r)) {
      throw std::runtime_error(r.where + ": unknown row '" + key + "'");
    } else {
      if (r.cells.size() != 10) throw std::runtime_error(r.where + ": expected t and 3 x (I, tau, dT)");
      for (int k = 0; k < 3; ++k) {
        runs[k].t.push_back(r.number(0));
        runs[k].I.push_back(r.number(1 + 3 * k));
        runs[k].dT.push_back(r.number(3 + 3 * k));
      }
    }
  }
  if (!have_u || runs[0].t.size() < 3 || runs[0].t[0] != 0.0) {
    throw std::runtime_error(path + ": needs U_coil_V and rows starting at t = 0");
  }
  return runs;
}

std::vector<double> simulate_heating(const HeatingRun& run, double C, double R_th, double alpha_R,
                                     std::vector<double>* current) {
  const double R0 = run.R0(), U = run.U, G = 1.0 / R_th;
  auto amps = [&](double dT) { return U / (R0 * (1.0 + alpha_R * dT)); };
  auto rate = [&](double dT) { return (U * amps(dT) - G * dT) / C; };
  constexpr double h = 0.01;
  std::vector<double> out;
  if (current) current->clear();
  double T = 0.0, t = 0.0;
  for (double t_next : run.t) {
    const long steps = std::lround((t_next - t) / h);
    for (long s = 0; s < steps; ++s) {
      const double k1 = rate(T), k2 = rate(T + 0.5 * h * k1), k3 = rate(T + 0.5 * h * k2), k4 = rate(T + h * k3);
      T += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    t = t_next;
    out.push_back(T);
    if (current) current->push_back(amps(T));
  }
  return out;
}

ThermalFit fit_thermal(const std::vector<HeatingRun>& runs, double alpha_R) {
  // Start: C dT/dt + G dT = U I(t) at the interior samples (central differences), linear least squares.
  std::vector<std::array<double, 3>> eq;
  for (const HeatingRun& run : runs) {
    for (size_t i = 1; i + 1 < run.t.size(); ++i) {
      const double rate = (run.dT[i + 1] - run.dT[i - 1]) / (run.t[i + 1] - run.t[i - 1]);
      eq.push_back({rate, run.dT[i], run.U * run.I[i]});
    }
  }
  Eigen::MatrixXd A(eq.size(), 2);
  Eigen::VectorXd b(eq.size());
  for (size_t i = 0; i < eq.size(); ++i) {
    A(i, 0) = eq[i][0];
    A(i, 1) = eq[i][1];
    b(i) = eq[i][2];
  }
  Eigen::Vector2d p = A.colPivHouseholderQr().solve(b);
  if (!(p(0) > 0)) p(0) = 1.0;  // a start only: LM needs a positive heat capacity to integrate

  auto cost_of = [&](const Eigen::Vector2d& q, std::vector<double>* res) {
    *res = thermal_residuals(runs, q(0), q(1), alpha_R);
    double s = 0;
    for (double x : *res) s += x * x;
    return s;
  };
  std::vector<double> r;
  double cost = cost_of(p, &r);
  double lambda = 1e-3;
  ThermalFit fit;
  for (fit.iterations = 0; fit.iterations < 500; ++fit.iterations) {
    Eigen::MatrixXd J(r.size(), 2);
    for (int j = 0; j < 2; ++j) {
      const double step = 1e-6 * std::max(std::abs(p(j)), 1e-3);
      Eigen::Vector2d hi = p, lo = p;
      hi(j) += step;
      lo(j) -= step;
      const std::vector<double> rh = thermal_residuals(runs, hi(0), hi(1), alpha_R);
      const std::vector<double> rl = thermal_residuals(runs, lo(0), lo(1), alpha_R);
      for (size_t i = 0; i < r.size(); ++i) J(i, j) = (rh[i] - rl[i]) / (2 * step);
    }
    const Eigen::Map<const Eigen::VectorXd> rv(r.data(), r.size());
    const Eigen::Matrix2d JtJ = J.transpose() * J;
    const Eigen::Vector2d g = J.transpose() * rv;
    bool accepted = false;
    Eigen::Vector2d delta = Eigen::Vector2d::Zero();
    for (int tries = 0; tries < 30 && !accepted; ++tries) {
      Eigen::Matrix2d M = JtJ;
      M.diagonal() *= 1.0 + lambda;
      delta = -M.ldlt().solve(g);
      const Eigen::Vector2d q = p + delta;
      std::vector<double> rq;
      const double cq = q(0) > 0 ? cost_of(q, &rq) : INFINITY;
      if (cq <= cost) {
        p = q;
        r = std::move(rq);
        cost = cq;
        lambda = std::max(lambda / 3, 1e-12);
        accepted = true;
      } else {
        lambda *= 4;
      }
    }
    if (!accepted || (std::abs(delta(0)) <= 1e-13 * std::abs(p(0)) && std::abs(delta(1)) <= 1e-13 * std::abs(p(1)))) {
      fit.converged = true;
      break;
    }
  }
  fit.C = p(0);
  fit.G = p(1);
  fit.R_th = 1.0 / p(1);
  fit.n = static_cast<int>(r.size());
  fit.rms = std::sqrt(cost / r.size());
  for (const HeatingRun& run : runs) fit.rms_run.push_back(rms(thermal_residuals({run}, fit.C, fit.G, alpha_R)));
  return fit;
}

CoilFit fit_coil_link(const std::string& data_dir, int link) {
  if (link < 1 || link > 3) throw std::invalid_argument("link must be 1, 2 or 3, got " + std::to_string(link));
  CoilFit f;
  f.link = link;
  f.table = load_torque_table(data_dir + "/torque_link" + std::to_string(link) + ".csv");
  f.kt = fit_torque_constant(f.table);
  for (const char* file : {"/heating_40V.csv", "/heating_20V.csv"}) {
    f.runs.push_back(load_heating_table(data_dir + file).at(link - 1));
  }
  f.thermal = fit_thermal(f.runs);
  return f;
}

CoilLinkPreset preset_from_fit(const CoilFit& fit) {
  try {
    check_thermal_params(fit.thermal.C, fit.thermal.R_th);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("thermal fit of link " + std::to_string(fit.link) + ": " + e.what());
  }
  CoilLinkPreset p;
  p.link = fit.link;
  p.kt_max = fit.kt.kt_max;
  p.kt_poly = fit.kt.poly;
  p.R0 = fit.table.R;
  p.C = fit.thermal.C;
  p.R_th = fit.thermal.R_th;
  return p;
}

std::string coil_fit_report(const std::string& data_dir) {
  std::ostringstream os;
  char buf[512];
  std::ostringstream code;
  for (int link = 1; link <= 3; ++link) {
    const CoilFit f = fit_coil_link(data_dir, link);
    os << "link " << link << " (" << f.table.path << ", R = " << f.table.R << " ohm, rows from U = "
       << f.table.U[f.table.first_used_row] << " V)\n";
    os << "  K_T per angle [mN m/A]  computed:";
    for (double k : f.kt.kt) os << " " << format_value(k * 1e3);
    os << "\n                          printed: ";
    for (double k : f.table.kt_printed) os << " " << format_value(k * 1e3);
    std::snprintf(buf, sizeof buf,
                  "\n  sin2: K_Tmax = %.4f mN m/A; RMS vs K_T points %.3f mN m/A, vs %d torques %.3f mN m\n"
                  "  poly: RMS vs K_T points %.2e mN m/A, vs torques %.3f mN m\n",
                  f.kt.kt_max * 1e3, f.kt.rms_kt_sin2 * 1e3, f.kt.n_tau, f.kt.rms_tau_sin2 * 1e3,
                  f.kt.rms_kt_poly * 1e3, f.kt.rms_tau_poly * 1e3);
    os << buf;
    std::snprintf(buf, sizeof buf,
                  "  thermal: C = %.4f J/K, R_th = %.4f K/W (tau_th = %.1f s), RMS %.3f K over %d points "
                  "(40 V %.3f K, 20 V %.3f K), %d iterations%s\n",
                  f.thermal.C, f.thermal.R_th, f.thermal.C * f.thermal.R_th, f.thermal.rms, f.thermal.n,
                  f.thermal.rms_run[0], f.thermal.rms_run[1], f.thermal.iterations,
                  f.thermal.converged ? "" : " (NOT converged)");
    os << buf;
    for (const HeatingRun& run : f.runs) {
      std::snprintf(buf, sizeof buf, "    run U = %.1f V: R0 = U / I(0) = %.3f ohm\n", run.U, run.R0());
      os << buf;
    }
    std::snprintf(buf, sizeof buf,
                  "    {%d, %.17g, {%.17g, %.17g, %.17g, %.17g, %.17g}, %.17g, %.17g, %.17g},\n", link,
                  f.kt.kt_max, f.kt.poly[0], f.kt.poly[1], f.kt.poly[2], f.kt.poly[3], f.kt.poly[4], f.table.R,
                  f.thermal.C, f.thermal.R_th);
    code << buf;
  }
  os << "coil_presets.cc initialisers {link, kt_max, {c0..c4}, R0, C, R_th}:\n" << code.str();
  return os.str();
}

}  // namespace mjhand
