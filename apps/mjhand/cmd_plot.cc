// mjhand plot: PNG plots of a batch rollout CSV (joints, contacts, object pose) or of a campaign folder's summary
// (a summary column against a grid parameter), drawn by gnuplot.
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include "args.h"
#include "commands.h"
#include "plots.h"

namespace mjhand::cli {

namespace {
const char* kUsage =
    "usage: mjhand plot ROLLOUT.csv|CAMPAIGN_DIR --out DIR [--x PARAM] [--y COL1,COL2,...]\n"
    "\n"
    "ROLLOUT.csv (from mjhand batch): DIR/ID_joints.png (joint positions, one row of panels per finger),\n"
    "DIR/ID_contacts.png (sensors named *contact*), DIR/ID_object.png (object position and ZYX Euler angles).\n"
    "CAMPAIGN_DIR (holding summary.csv): DIR/summary_Y_vs_X.png for each Y, one line per scenario,\n"
    "other grid values and seed.\n"
    "  --out DIR   where the PNGs go (required)\n"
    "  --x PARAM   campaign plots: the grid parameter on the x axis (default: the first numeric one)\n"
    "  --y COLS    campaign plots: summary columns to plot (default obj_x,obj_y,obj_z, else final_time)\n"
    "Exit status: 0 plotted, 1 unreadable input or gnuplot missing/failed, 2 bad command line.\n";
}  // namespace

int cmd_plot(const Args& args) {
  if (wants_help(args)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  ArgReader r(args, {"--out", "--x", "--y"}, {});
  if (r.positional().size() != 1) throw UsageError("expected one ROLLOUT.csv or CAMPAIGN_DIR");
  if (!r.has("--out")) throw UsageError("--out DIR is required");
  const std::string input = r.positional()[0], out = r.get("--out", "");
  std::vector<std::string> pngs;
  std::error_code ec;  // a path that cannot be inspected is treated as a file, whose reader then names the problem
  if (std::filesystem::is_directory(input, ec)) {
    std::vector<std::string> ys;
    std::istringstream list(r.get("--y", ""));
    for (std::string y; std::getline(list, y, ',');) {
      if (!y.empty()) ys.push_back(y);
    }
    pngs = batch::plot_campaign(input, out, r.get("--x", ""), ys);
  } else {
    if (r.has("--x") || r.has("--y")) throw UsageError("--x and --y apply to campaign folders only");
    pngs = batch::plot_rollout(input, out);
  }
  for (const std::string& p : pngs) std::printf("wrote %s\n", p.c_str());
  return 0;
}

}  // namespace mjhand::cli
