#include "args.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace mjhand::cli {

ArgReader::ArgReader(const Args& args, std::set<std::string> value_options, std::set<std::string> flags,
                     std::set<std::string> repeatable) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a.compare(0, 2, "--") != 0 || a == "--") {
      if (a.size() > 1 && a[0] == '-' && a != "-") throw UsageError("unknown option '" + a + "'");
      positional_.push_back(a);
      continue;
    }
    std::string name = a, value;
    const size_t eq = a.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (flags.count(name)) {
      if (inline_value) throw UsageError("option '" + name + "' takes no value");
      flags_seen_.insert(name);
    } else if (value_options.count(name) || repeatable.count(name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) throw UsageError("option '" + name + "' needs a value");
        value = args[++i];
      }
      if (value.empty()) throw UsageError("option '" + name + "' has an empty value");
      if (repeatable.count(name)) {
        repeated_[name].push_back(value);
        continue;
      }
      if (values_.count(name)) throw UsageError("option '" + name + "' is given twice");
      values_[name] = value;
    } else {
      throw UsageError("unknown option '" + name + "'");
    }
  }
}

std::string ArgReader::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

double ArgReader::get_double(const std::string& name, double fallback, double lo, double hi) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (end != it->second.c_str() + it->second.size() || errno == ERANGE || !std::isfinite(v)) {
    throw UsageError("option '" + name + "': '" + it->second + "' is not a finite number");
  }
  if (v < lo || v > hi) {
    char range[96];
    std::snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
    throw UsageError("option '" + name + "': " + it->second + " is outside " + range);
  }
  return v;
}

std::vector<std::string> ArgReader::all(const std::string& name) const {
  auto it = repeated_.find(name);
  return it == repeated_.end() ? std::vector<std::string>{} : it->second;
}

int ArgReader::get_int(const std::string& name, int fallback, int lo, int hi) const {
  const double v = get_double(name, fallback, lo, hi);
  if (v != std::floor(v)) throw UsageError("option '" + name + "' must be an integer");
  return static_cast<int>(v);
}

std::vector<double> parse_number_list(const std::string& option, const std::string& text, bool positive) {
  std::vector<double> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !std::isfinite(v) || (positive && !(v > 0))) {
      throw UsageError(option + ": '" + item + "' is not a " + (positive ? "positive number" : "number"));
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace mjhand::cli
