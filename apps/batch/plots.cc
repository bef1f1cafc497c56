#include "plots.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "gnuplot.h"
#include "output_dir.h"
#include <mjhand/io/text_file.h>

namespace mjhand::batch {

namespace {
namespace fs = std::filesystem;

// Runs script with gnuplot; PNGs are drawn under NAME.tmp and renamed, so a failed run leaves no half image.
std::vector<std::string> plot_with_gnuplot(const std::string& dir, const std::string& script_name,
                                           const std::string& script, const std::vector<std::string>& pngs) {
  require_gnuplot();  // before the script is written: a missing gnuplot leaves nothing behind
  const std::string path = dir + "/" + script_name;
  write_file_atomically(path, script);
  run_gnuplot(path, dir + "/gnuplot.log");
  for (const std::string& png : pngs) fs::rename(png + ".tmp", png);
  return pngs;
}

std::string quoted_dir(const std::string& out_dir) {
  ensure_writable_dir(out_dir);
  const std::string dir = fs::absolute(out_dir).lexically_normal().string();
  if (dir.find('\'') != std::string::npos) throw std::runtime_error("output folder '" + dir + "' contains a quote");
  return dir;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.10g", v);
  return buf;
}

// strtod, not std::stod: a subnormal such as 4.9e-324 is a number here, where stod throws out_of_range.
double to_double(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

bool numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

// Fingers x phalanges: scalar joints grouped by the name before their last '_' (f1_j2 -> f1), in column order.
std::vector<std::vector<std::pair<std::string, int>>> joint_grid(const std::vector<std::string>& cols) {
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::pair<std::string, int>>> by;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i].rfind("qpos:", 0) != 0 || cols[i].find('[') != std::string::npos) continue;
    const std::string name = cols[i].substr(5);
    const std::size_t us = name.rfind('_');
    const std::string g = us == std::string::npos || us == 0 ? name : name.substr(0, us);
    if (!by.count(g)) groups.push_back(g);
    by[g].emplace_back(name, static_cast<int>(i) + 1);
  }
  std::vector<std::vector<std::pair<std::string, int>>> out;
  for (const std::string& g : groups) out.push_back(by[g]);
  return out;
}
}  // namespace

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else if (ch != '\r') {
      out.back() += ch;
    }
  }
  return out;
}

std::vector<std::string> plot_rollout(const std::string& csv, const std::string& out_dir) {
  // A directory, FIFO or device; no size limit: the file is read line by line, and long rollouts are large.
  const std::string problem = text_file_problem(csv, UINTMAX_MAX);
  if (!problem.empty()) throw std::runtime_error(csv + ": cannot read: it " + problem);
  std::ifstream in(csv);
  if (!in) throw std::runtime_error(csv + ": cannot open");
  std::string line, status;
  int line_no = 0;
  while (std::getline(in, line) && (++line_no, line.rfind("#", 0) == 0)) {
    if (line.rfind("# status: ", 0) == 0) status = line.substr(10);
  }
  const std::vector<std::string> cols = split_csv_line(line);
  if (cols.empty() || cols[0] != "time") {
    throw std::runtime_error(csv + ": not a rollout time series (the first column must be 'time')");
  }
  // gnuplot would skip a malformed record silently and draw a plot of what is left: every row is checked first.
  int rows = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line.rfind("#", 0) == 0) continue;
    const std::vector<std::string> cells = split_csv_line(line);
    const std::string where = csv + ":" + std::to_string(line_no) + ": ";
    if (cells.size() != cols.size()) {
      throw std::runtime_error(where + "expected " + std::to_string(cols.size()) + " fields as in the header, got " +
                               std::to_string(cells.size()));
    }
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (!numeric(cells[k])) throw std::runtime_error(where + "'" + cols[k] + "' is not a number: '" + cells[k] + "'");
    }
    ++rows;
  }
  if (rows == 0) throw std::runtime_error(csv + ": has no data rows");
  const std::string dir = quoted_dir(out_dir);
  const std::string data = fs::absolute(csv).lexically_normal().string();
  if (data.find('\'') != std::string::npos) throw std::runtime_error(csv + ": the path contains a quote");
  const std::string stem = dir + "/" + fs::path(csv).stem().string();
  // The header line is not numeric: gnuplot skips it as an invalid record; '#' lines are comments.
  std::string gp = "set datafile separator ','\nset terminal png size 1200,900 noenhanced\nset grid\nset key off\n";
  std::vector<std::string> pngs;
  const auto grid = joint_grid(cols);
  if (!grid.empty()) {
    std::size_t ncol = 0;
    for (const auto& g : grid) ncol = std::max(ncol, g.size());
    pngs.push_back(stem + "_joints.png");
    gp += "set output '" + pngs.back() + ".tmp'\nset multiplot layout " + std::to_string(grid.size()) + "," +
          std::to_string(ncol) + " title '" + fs::path(csv).stem().string() + ": joint positions [rad or m] vs time [s]" +
          (status.empty() || status == "ok" ? "" : " (" + status + ")") + "'\n";
    for (const auto& g : grid) {
      for (std::size_t k = 0; k < ncol; ++k) {
        if (k < g.size()) {
          gp += "set title '" + g[k].first + "'\nplot '" + data + "' using 1:" + std::to_string(g[k].second) +
                " with lines lw 2\n";
        } else {
          gp += "set multiplot next\n";
        }
      }
    }
    gp += "unset multiplot\nunset title\n";
  }
  // Contact signals: the contact_detection channels (contact:NAME), else any other sensor named *contact* (not the
  // contact point/normal sensors).
  std::vector<std::pair<std::string, int>> contact, legacy, object;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    std::string lower = cols[i];
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (cols[i].rfind("contact:", 0) == 0) contact.emplace_back(cols[i].substr(8), static_cast<int>(i) + 1);
    if (lower.rfind("sensor:", 0) == 0 && lower.find("contact") != std::string::npos &&
        lower.find("where") == std::string::npos) {
      legacy.emplace_back(cols[i].substr(7), static_cast<int>(i) + 1);
    }
    if (cols[i].rfind("object:", 0) == 0) object.emplace_back(cols[i].substr(7), static_cast<int>(i) + 1);
  }
  if (contact.empty()) contact = legacy;
  gp += "set key outside right\n";
  if (!contact.empty()) {
    // One step trace per signal, 1.5 apart, labelled on the y axis (from the top: first signal first).
    pngs.push_back(stem + "_contacts.png");
    const std::size_t n = contact.size();
    gp += "set output '" + pngs.back() + ".tmp'\nset title 'contact signals (0/1)'\nset key off\n"
          "set xlabel 'time [s]'\nset yrange [-0.5:" + std::to_string(1.5 * static_cast<double>(n)) + "]\nset ytics (";
    for (std::size_t k = 0; k < n; ++k) {
      const double offset = 1.5 * static_cast<double>(n - 1 - k);
      gp += std::string(k ? ", " : "") + "'" + contact[k].first + "' " + std::to_string(offset);
    }
    gp += ")\nplot";
    for (std::size_t k = 0; k < n; ++k) {
      gp += std::string(k ? "," : "") + " '" + data + "' using 1:($" + std::to_string(contact[k].second) + "+" +
            std::to_string(1.5 * static_cast<double>(n - 1 - k)) + ") with steps lw 2 lc " + std::to_string(k % 8 + 1);
    }
    gp += "\nset ytics autofreq\nset autoscale y\nset key outside right\nunset title\n";
  }
  if (object.size() == 10) {
    pngs.push_back(stem + "_object.png");
    gp += "set output '" + pngs.back() + ".tmp'\nset multiplot layout 2,1 title 'object pose'\nset xlabel 'time [s]'\n"
          "set ylabel 'position [m]'\nplot";
    for (int k : {0, 1, 2}) {
      gp += std::string(k ? "," : "") + " '" + data + "' using 1:" + std::to_string(object[k].second) +
            " with lines lw 2 title '" + object[k].first + "'";
    }
    gp += "\nset ylabel 'ZYX Euler angles [rad]'\nplot";
    for (int k : {7, 8, 9}) {
      gp += std::string(k > 7 ? "," : "") + " '" + data + "' using 1:" + std::to_string(object[k].second) +
            " with lines lw 2 title '" + object[k].first + "'";
    }
    gp += "\nunset multiplot\n";
  }
  if (pngs.empty()) throw std::runtime_error(csv + ": nothing to plot (no scalar joints, contact sensors or object)");
  gp += "unset output\n";
  return plot_with_gnuplot(dir, fs::path(csv).stem().string() + ".gp", gp, pngs);
}

std::vector<std::string> plot_campaign(const std::string& campaign_dir, const std::string& out_dir, std::string x,
                                       std::vector<std::string> ys) {
  const std::string summary = campaign_dir + "/summary.csv";
  const std::string problem = text_file_problem(summary, UINTMAX_MAX);
  if (!problem.empty()) throw std::runtime_error(summary + ": cannot read: it " + problem);
  std::ifstream in(summary);
  if (!in) throw std::runtime_error(summary + ": cannot open (run mjhand batch first, or --merge)");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(summary + ": empty");
  const std::vector<std::string> head = split_csv_line(line);
  auto column = [&](const std::string& name) -> int {
    const auto it = std::find(head.begin(), head.end(), name);
    return it == head.end() ? -1 : static_cast<int>(it - head.begin());
  };
  std::vector<std::vector<std::string>> rows;
  std::vector<int> row_lines;  // line of each row in the file
  for (int line_no = 2; std::getline(in, line); ++line_no) {
    if (line.empty()) continue;
    rows.push_back(split_csv_line(line));
    row_lines.push_back(line_no);
    if (rows.back().size() != head.size()) {
      throw std::runtime_error(summary + ":" + std::to_string(line_no) + ": expected " +
                               std::to_string(head.size()) + " fields, got " + std::to_string(rows.back().size()));
    }
  }
  const int status = column("status"), scenario = column("scenario"), seed = column("seed");
  if (status < 0 || scenario < 0 || seed < 0) throw std::runtime_error(summary + ": not a batch summary");
  const std::vector<std::string> params(head.begin() + seed + 1, head.begin() + status);
  std::vector<const std::vector<std::string>*> ok;
  for (const auto& r : rows) {
    if (r[status] == "ok") ok.push_back(&r);
  }
  if (ok.empty()) throw std::runtime_error(summary + ": no successful rollout to plot");
  if (x.empty()) {
    for (const std::string& p : params) {
      const int c = column(p);
      if (std::all_of(ok.begin(), ok.end(), [&](const auto* r) { return numeric((*r)[c]); })) {
        x = p;
        break;
      }
    }
    if (x.empty()) throw std::runtime_error(summary + ": no grid parameter with numeric values to plot against");
  }
  const int xc = column(x);
  if (xc < 0) throw std::runtime_error(summary + ": no column '" + x + "'");
  // Default: the final object pose (one PNG per coordinate and both panels together), else the final time.
  const int obj_x = column("obj_x");
  const bool pose = ys.empty() && obj_x >= 0 && numeric((*ok.front())[obj_x]);
  if (pose) {
    ys = {"obj_x", "obj_y", "obj_z", "obj_rz", "obj_ry", "obj_rx"};
  } else if (ys.empty()) {
    ys = {"final_time"};
  }
  const std::string dir = quoted_dir(out_dir);
  std::string gp = "set terminal png size 900,560 noenhanced\nset grid\nset key outside right\n";
  // Densities and similar sweeps span decades: a logarithmic x axis when all x > 0 and max / min >= 20.
  double xmin = 0, xmax = 0;
  for (const auto* r : ok) {
    if (!numeric((*r)[xc])) continue;
    const double v = to_double((*r)[xc]);
    xmin = xmin == 0 && xmax == 0 ? v : std::min(xmin, v);
    xmax = std::max(xmax, v);
  }
  if (xmin > 0 && xmax / xmin >= 20) gp += "set logscale x\n";
  std::vector<std::string> pngs;
  std::map<std::string, std::string> curves;  // y -> its plot clauses (for the combined pose figure)
  for (const std::string& y : ys) {
    const int yc = column(y);
    if (yc < 0) throw std::runtime_error(summary + ": no column '" + y + "'");
    // One data file per (scenario, seed): x y, sorted by x.
    std::map<std::string, std::vector<std::pair<double, double>>> series;
    for (const auto* r : ok) {
      // An empty cell is "not applicable" (a metric without an object, a parameter of another scenario); anything
      // else that is not a number is a damaged file, not a point to leave out quietly.
      for (const int c : {xc, yc}) {
        if (!(*r)[c].empty() && !numeric((*r)[c])) {
          throw std::runtime_error(summary + ":" + std::to_string(row_lines[r - rows.data()]) + ": '" + head[c] +
                                   "' is not a number: '" + (*r)[c] + "'");
        }
      }
      if ((*r)[xc].empty() || (*r)[yc].empty()) continue;
      std::string label = (*r)[scenario];  // one line per combination of everything but x
      for (const std::string& p : params) {
        if (p != x) label += " " + p + "=" + (*r)[column(p)];
      }
      series[label + " seed " + (*r)[seed]].emplace_back(to_double((*r)[xc]), to_double((*r)[yc]));
    }
    if (series.empty()) throw std::runtime_error(summary + ": column '" + y + "' has no numbers to plot");
    const std::string base = "summary_" + y + "_vs_" + x;
    std::string dat;
    std::string plot = "plot";
    int block = 0;
    for (auto& [label, pts] : series) {
      std::sort(pts.begin(), pts.end());
      for (const auto& [a, b] : pts) dat += num(a) + " " + num(b) + "\n";
      dat += "\n\n";
      const std::string clause =
          " '" + dir + "/" + base + ".dat' index " + std::to_string(block) + " with linespoints lw 2";
      plot += std::string(block ? "," : "") + clause + " title '" + label + "'";
      curves[y] += std::string(curves[y].empty() ? "" : ",") + clause + " title '" + y.substr(y.find('_') + 1) +
                   (series.size() > 1 ? " " + label : "") + "'";
      ++block;
    }
    write_file_atomically(dir + "/" + base + ".dat", dat);
    pngs.push_back(dir + "/" + base + ".png");
    gp += "set output '" + pngs.back() + ".tmp'\nset title '" + y + " vs " + x + "'\nset xlabel '" + x +
          "'\nset ylabel '" + y + "'\n" + plot + "\n";
  }
  if (pose) {
    pngs.push_back(dir + "/summary_pose_vs_" + x + ".png");
    gp += "set terminal png size 900,800 noenhanced\nset output '" + pngs.back() + ".tmp'\n"
          "set multiplot layout 2,1 title 'final object pose vs " + x + "'\nunset title\n"
          "set ylabel 'position [m]'\nplot" + curves["obj_x"] + "," + curves["obj_y"] + "," + curves["obj_z"] +
          "\nset ylabel 'ZYX Euler angles [rad]'\nplot" + curves["obj_rz"] + "," + curves["obj_ry"] + "," +
          curves["obj_rx"] + "\nunset multiplot\n";
  }
  gp += "unset output\n";
  return plot_with_gnuplot(dir, "summary.gp", gp, pngs);
}

}  // namespace mjhand::batch
