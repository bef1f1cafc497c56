// The fields of mjhand's CSV files (coupling data, synergies, postures): one line split at commas, blanks trimmed,
// numbers parsed strictly (the whole field, finite).
#pragma once

#include <string>
#include <vector>

namespace mjhand {

// s without leading and trailing spaces, tabs and carriage returns.
std::string trim_blanks(const std::string& s);

// The comma-separated fields of s exactly as written (not trimmed; "a,,b" and "a," keep their empty fields, "" is
// one empty field): the lists of plugin keys and options, whose callers name an empty item as the error.
std::vector<std::string> split_commas(const std::string& s);

// The comma-separated fields of one line, each trimmed; a trailing comma gives a last empty field.
std::vector<std::string> split_csv_line(const std::string& line);

// True and v = the number when the whole of s is one finite number (strtod), false otherwise (v unspecified).
bool parse_finite_number(const std::string& s, double& v);

}  // namespace mjhand
