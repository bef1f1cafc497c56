// Small command-line option reader shared by the subcommands: every option must be known, every value valid.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"

namespace mjhand::cli {

// Thrown for bad command lines; main() prints it with the subcommand's name and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ArgReader {
 public:
  // value_options take a value (--out DIR or --out=DIR); flags take none; repeatable options may appear many times.
  ArgReader(const Args& args, std::set<std::string> value_options, std::set<std::string> flags,
            std::set<std::string> repeatable = {});

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const { return flags_seen_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback) const;
  // A finite number in [lo, hi], or the fallback when absent.
  double get_double(const std::string& name, double fallback, double lo, double hi) const;
  int get_int(const std::string& name, int fallback, int lo, int hi) const;
  // Every value of a repeatable option, in command-line order.
  std::vector<std::string> all(const std::string& name) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_seen_;
  std::map<std::string, std::vector<std::string>> repeated_;
};

// The comma-separated numbers of option `option` ("160,700,2300"): each must be finite (and > 0 when `positive`),
// else UsageError "OPTION: 'ITEM' is not a number" ("... a positive number").
std::vector<double> parse_number_list(const std::string& option, const std::string& text, bool positive = false);

}  // namespace mjhand::cli
