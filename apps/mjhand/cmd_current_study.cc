// mjhand current-study: the direct-drive hand's current-requirement study (Ebner & Wallace 1994, Figures 2-4 and the
// static holding currents of section 5) in one command: CSVs, a text report and, with gnuplot, PNG plots.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"
#include "current_study.h"

namespace mjhand::cli {

namespace {
const char* kUsage =
    "usage: mjhand current-study [--out DIR] [--models DIR] [--kt poly|sin2] [--limit-plant] [--no-plots]\n"
    "\n"
    "Runs the direct-drive hand's current-requirement study (docs/direct-drive-hand.md): the quintic 90 -> 0 deg\n"
    "move in 1 s at 100 Hz with gravity along Z_P (Figure 2) and +-Y_P (Figure 3), the cosine cycle three times in\n"
    "2 s at 1 kHz (Figure 4), computed torque k_p = 1000, k_v = 63.2 on all 15 joints, coil currents\n"
    "I = tau / K_T(phi), power and coil heating; and the static current to hold a finger horizontal.\n"
    "  --out DIR       output folder (default out/current_study): <run>.csv, max_currents.csv,\n"
    "                  static_holding.csv, report.txt and <run>_{current,power,temperature}.png\n"
    "  --models DIR    folder with direct_drive_palm_{sideways,down,up}.xml (default models)\n"
    "  --kt MODEL      torque constant: poly (5.5 quartic fit, default) or sin2 (section 4.1)\n"
    "  --limit-plant   apply only the current the driver can give (3 A, 40 V supply) instead of the required one\n"
    "  --no-plots      skip the PNG plots\n"
    "Exit status: 0 done, 1 simulation error or gnuplot missing/failed (the CSVs are written first), 2 bad command\n"
    "line.\n";
}  // namespace

// mjhand current-study [--out DIR] [...]: runs the study, writes the outputs, prints the report.
int cmd_current_study(const Args& args) {
  if (wants_help(args)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const ArgReader reader(args, {"--out", "--models", "--kt"}, {"--limit-plant", "--no-plots"});
  if (!reader.positional().empty()) throw UsageError("unexpected argument '" + reader.positional()[0] + "'");
  CurrentStudyOptions options;
  const std::string kt = reader.get("--kt", "poly");
  if (kt == "poly") {
    options.kt_model = KtModel::kPoly;
  } else if (kt == "sin2") {
    options.kt_model = KtModel::kSin2;
  } else {
    throw UsageError("--kt must be poly or sin2, not '" + kt + "'");
  }
  options.limit_plant = reader.flag("--limit-plant");
  const std::string out = reader.get("--out", "out/current_study");
  const std::string models = reader.get("--models", "models");

  std::vector<CurrentStudyResult> results;
  for (const CurrentStudyRun& run : paper_current_runs(models)) results.push_back(run_current_study(run, options));
  const std::vector<HoldingRow> rows = static_holding_currents(options);
  std::fputs(current_study_report(results, rows).c_str(), stdout);
  for (const std::string& path : write_current_study(out, results, rows)) std::printf("wrote %s\n", path.c_str());
  if (!reader.flag("--no-plots")) {
    for (const std::string& path : plot_current_study(out, results)) std::printf("wrote %s\n", path.c_str());
  }
  return 0;
}

}  // namespace mjhand::cli
