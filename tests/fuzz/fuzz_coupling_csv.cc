// libFuzzer target: the coupling CSV reader (core/mjhand/coupling/fit.h) and the fit that consumes it: columns by number
// and by header name, every polynomial order, degrees and RoboRealm's supplementary angles. Documented outcome for
// bad input: FitError; a fit that succeeds must be finite throughout.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <mjhand/coupling/fit.h>
#include "fuzz_util.h"

namespace {
// A fit that returns must be usable: NaN or inf anywhere in it is a finding (bad data must give FitError instead).
void check_finite(const mjhand::CouplingFit& fit) {
  bool finite = std::isfinite(fit.r2) && std::isfinite(fit.rms) && std::isfinite(fit.max_abs);
  for (const double c : fit.law.c) finite = finite && std::isfinite(c);
  for (const double r : fit.residual) finite = finite && std::isfinite(r);
  if (!finite) {
    std::fprintf(stderr, "fit_coupling_table returned a non-finite fit: c = %g %g %g %g %g, r2 = %g, rms = %g\n",
                 fit.law.c[0], fit.law.c[1], fit.law.c[2], fit.law.c[3], fit.law.c[4], fit.r2, fit.rms);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mjhand::CsvTable table;
  try {
    table = mjhand::parse_csv_table(mjhand_fuzz::as_text(data, size), "fuzz.csv");
  } catch (const mjhand::FitError& e) {
    mjhand_fuzz::documented(e);
    return 0;
  }
  const int order = 1 + static_cast<int>(size % 4);
  const mjhand::AngleInput input{size % 2 == 1, size % 3 == 1};
  try {
    const std::string x_name = table.header.empty() ? "1" : table.header.front();
    const int x = mjhand::csv_column(table, x_name);
    const int y = mjhand::csv_column(table, "2");
    mjhand::csv_column_label(table, x);
    const mjhand::CouplingFit fit = mjhand::fit_coupling_table(table, x, y, order, input);
    check_finite(fit);
  } catch (const mjhand::FitError& e) {
    mjhand_fuzz::documented(e);
  }
  return 0;
}
