// A small JSON writer for the CLI's machine-readable output. Debian 12 offers nlohmann-json3-dev, but it is not
// installed on the build machines and the CLI needs only output, so this writer (escaping, shortest round-trip
// numbers, non-finite -> null with a record of where) avoids a new dependency.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace mjhand::cli {

class JsonWriter {
 public:
  // Containers. `inline_items` prints the items on one line (used for vectors and matrix rows).
  void begin_object();
  void end_object();
  void begin_array(bool inline_items = false);
  void end_array();
  // The key of the next value inside an object.
  void key(const std::string& k);

  // Scalars. A non-finite double is written as null and its path (e.g. "quality.uniformity_HO") is recorded.
  void value(double v);
  void value(int v);
  void value(bool v);
  void value(const std::string& v);
  void value(const char* v);
  void null();

  // key + value in one call.
  template <typename T>
  void field(const std::string& k, const T& v) {
    key(k);
    value(v);
  }
  // A vector as an inline array; a matrix as an array of rows (each row inline).
  void vector(const std::string& k, const Eigen::Ref<const Eigen::VectorXd>& v);
  void matrix(const std::string& k, const Eigen::Ref<const Eigen::MatrixXd>& m);
  void strings(const std::string& k, const std::vector<std::string>& items);

  // The document so far, and the paths of every non-finite number that was written as null.
  const std::string& str() const { return out_; }
  const std::vector<std::string>& non_finite_paths() const { return non_finite_; }

 private:
  struct Level {
    bool object;
    bool inline_items;
    int count = 0;
    std::string key;  // key of the value being written (objects)
  };
  void before_value();
  std::string path() const;
  void newline();

  std::string out_;
  std::vector<Level> stack_;
  std::string pending_key_;
  std::vector<std::string> non_finite_;
};

// s as a JSON string literal, quotes included: escapes ", \ and control characters.
std::string json_quote(const std::string& s);

// Shortest decimal form of a finite double that reads back to the same value.
std::string json_number(double v);

}  // namespace mjhand::cli
