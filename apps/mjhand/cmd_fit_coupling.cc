// mjhand fit-coupling DATA.csv: least-squares coupling law between two measured joint angles (BERUL section 3).
#include <cmath>
#include <cstdio>
#include <string>

#include "args.h"
#include "commands.h"
#include <mjhand/coupling/fit.h>

namespace mjhand::cli {

namespace {
void print_help() {
  std::printf(
      "usage: mjhand fit-coupling DATA.csv [--x COL] [--y COL] [--order N] [--deg] [--supplement]\n"
      "                           [--mjcf --joint1 NAME --joint2 NAME [--ref1 Q] [--ref2 Q]]\n\n"
      "Fits y = c0 + c1 x + ... + cN x^N (least squares, Householder QR) to two columns of a CSV file, e.g. the\n"
      "joint angles captured per camera frame, and prints the coefficients, R^2 and the residual RMS and max.\n"
      "The first line is a header when any of its fields is not a number; '#' lines and blank lines are skipped.\n\n"
      "options:\n"
      "  --x COL         driving angle: header name or 1-based column number (default 1)\n"
      "  --y COL         driven angle (default 2)\n"
      "  --order N       polynomial order 1..4 (default 1, the paper's straight line)\n"
      "  --deg           the file holds degrees; coefficients are printed in degrees and in radians\n"
      "  --supplement    the file holds captured angles: theta = 180 deg - value (pi - value without --deg),\n"
      "                  the paper's eq (1)\n"
      "  --mjcf          also print <equality><joint joint1=.. joint2=.. polycoef=..>: MuJoCo constrains\n"
      "                  q1 - ref1 = sum a_k (q2 - ref2)^k, so the law is re-expanded about the refs\n"
      "  --joint1 NAME   driven joint (y) for --mjcf;  --joint2 NAME  driving joint (x)\n"
      "  --ref1 Q, --ref2 Q   the joints' qpos0 (their `ref`) in radians, default 0\n"
      "  -h, --help      show this help\n");
}

void print_law(const char* unit, const CouplingLaw& law, int order) {
  std::printf("coefficients [%s]:", unit);
  for (int k = 0; k <= order; ++k) std::printf(" c%d=%.10g", k, law.c[k]);
  std::printf("\n  %s\n", format_law(law, "x", "y").c_str());
}
}  // namespace

int cmd_fit_coupling(const Args& args) {
  if (wants_help(args)) {
    print_help();
    return 0;
  }
  const ArgReader reader(args, {"--x", "--y", "--order", "--joint1", "--joint2", "--ref1", "--ref2"},
                         {"--deg", "--supplement", "--mjcf"});
  if (reader.positional().size() != 1) throw UsageError("give exactly one CSV file (usage: fit-coupling DATA.csv)");
  const int order = reader.get_int("--order", 1, 1, kMaxCouplingOrder);
  const bool mjcf = reader.flag("--mjcf");
  if (mjcf && (!reader.has("--joint1") || !reader.has("--joint2"))) {
    throw UsageError("--mjcf needs --joint1 (driven) and --joint2 (driving)");
  }
  if (!mjcf && (reader.has("--joint1") || reader.has("--joint2") || reader.has("--ref1") || reader.has("--ref2"))) {
    throw UsageError("--joint1/--joint2/--ref1/--ref2 only make sense with --mjcf");
  }
  const double ref1 = reader.get_double("--ref1", 0.0, -1e6, 1e6);
  const double ref2 = reader.get_double("--ref2", 0.0, -1e6, 1e6);

  const CsvTable table = read_csv_table(reader.positional()[0]);
  const int xc = csv_column(table, reader.get("--x", "1"));
  const int yc = csv_column(table, reader.get("--y", "2"));
  AngleInput input;
  input.degrees = reader.flag("--deg");
  input.supplement = reader.flag("--supplement");
  const CouplingFit fit = fit_coupling_table(table, xc, yc, order, input);

  std::printf("fit of %s (y) against %s (x): order %d, %d points%s\n", csv_column_label(table, yc).c_str(),
              csv_column_label(table, xc).c_str(), order, fit.points,
              input.supplement ? ", angles = 180 deg - captured" : "");
  if (input.degrees) print_law("deg", law_in_degrees(fit.law), order);
  print_law("rad", fit.law, order);
  const double to_unit = input.degrees ? 180.0 / 3.14159265358979323846 : 1.0;
  std::printf("R^2 = %.8f\nresidual RMS = %.6g %s, max |residual| = %.6g %s\n", fit.r2, fit.rms * to_unit,
              input.degrees ? "deg" : "rad", fit.max_abs * to_unit, input.degrees ? "deg" : "rad");
  if (mjcf) {
    const auto a = mujoco_polycoef(fit.law, ref2, ref1);
    std::printf("<equality>\n  <joint joint1=\"%s\" joint2=\"%s\" polycoef=\"%.10g %.10g %.10g %.10g %.10g\"/>\n"
                "</equality>\n",
                reader.get("--joint1", "").c_str(), reader.get("--joint2", "").c_str(), a[0], a[1], a[2], a[3], a[4]);
  }
  return 0;
}

}  // namespace mjhand::cli
