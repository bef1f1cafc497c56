// Least-squares identification of a joint coupling from measured angle pairs (BERUL section 3: angles captured per
// frame, written to CSV, a line fitted "by Least Square"), generalised to polynomials up to order 4 (MuJoCo's
// polycoef). Shared by `mjhand fit-coupling` and the image pipeline.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/util/error.h>

namespace mjhand {

// A data problem; what() names the file and, where one line is to blame, the line ("data.csv:7: ...").
class FitError : public Error {
 public:
  using Error::Error;
};

// A CSV file as text fields; numbers are parsed only in the columns a fit uses, so other columns may hold anything.
// The first non-blank line is a header when any of its fields is not a number; blank lines and lines starting
// with '#' are skipped.
struct CsvTable {
  std::string source;                      // file name for messages
  std::vector<std::string> header;         // empty when the file has none
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;                  // 1-based file line of each row
};

// Parses CSV text (comma-separated, fields trimmed; no quoting). `source` is what messages cite.
CsvTable parse_csv_table(const std::string& text, const std::string& source);
// Reads and parses a CSV file; throws FitError when it cannot be read.
CsvTable read_csv_table(const std::string& path);

// Index (0-based) of a column given by header name or by 1-based number ("3"); throws FitError listing the columns.
int csv_column(const CsvTable& table, const std::string& name_or_number);
// A column's name for messages: the header name, or "column N" (1-based).
std::string csv_column_label(const CsvTable& table, int column);

// How the measured columns become angles.
struct AngleInput {
  bool degrees = false;    // the file holds degrees (converted to radians for the fit)
  bool supplement = false;  // the file holds RoboRealm's captured angles: theta = 180 deg - captured (BERUL eq 1)
};

struct CouplingFit {
  CouplingLaw law;       // theta_y = sum c_k theta_x^k, radians
  int order = 1;
  int points = 0;
  double r2 = 0.0;        // coefficient of determination (1 when y is fitted exactly)
  double rms = 0.0;       // residual RMS [rad]
  double max_abs = 0.0;   // largest |residual| [rad]
  std::vector<double> x, y, residual;  // the data as fitted [rad], and y - law(x)
};

// Least squares by column-pivoting Householder QR of the Vandermonde matrix (x centred and scaled first, so order 4
// stays well conditioned). Throws FitError (prefixed by `what`, e.g. the file) when there are fewer points than
// coefficients, x is constant, or x has fewer distinct values than coefficients.
CouplingFit fit_polynomial(const std::vector<double>& x, const std::vector<double>& y, int order,
                           const std::string& what = "data");

// Reads columns x and y of the table as angles and fits y against x. Non-numbers and missing fields in those
// columns are errors naming FILE:LINE and the column.
CouplingFit fit_coupling_table(const CsvTable& table, int x_column, int y_column, int order, AngleInput input);

// The law with theta measured in degrees on both sides: c_k(deg) = c_k(rad) (180/pi)^(1-k).
CouplingLaw law_in_degrees(const CouplingLaw& radians);

}  // namespace mjhand
