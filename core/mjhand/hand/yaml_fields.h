// Checked access to YAML nodes: every failure names FILE:LINE:COLUMN and the field path, so a bad hand
// description points the user at the exact spot to fix instead of at a yaml-cpp conversion error.
#pragma once

#include <yaml-cpp/yaml.h>

#include <Eigen/Geometry>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <mjhand/util/error.h>

namespace mjhand {

// Radians per degree: degrees exist only in the YAML (keys ending in _deg), so this is the one conversion factor.
constexpr double kDeg = 3.14159265358979323846 / 180.0;

// A description error; what() is "FILE:LINE:COLUMN: PATH: MESSAGE" (line and column 1-based), or "FILE: PATH: MESSAGE"
// when line is 0 (a spec built in code has no position to cite).
class SpecError : public Error {
 public:
  SpecError(const std::string& file, int line, int column, const std::string& path, const std::string& message);
  std::string file, path, message;
  int line, column;
};

// One YAML node plus where it came from; the unit every checked read works on.
struct Field {
  const std::string* file;  // source name used in messages
  YAML::Node node;
  std::string path;       // e.g. "fingers[1].links[2].a"
  YAML::Mark mark;        // position of the value (or of its key when the value has none)

  // Throws SpecError at this field's position.
  [[noreturn]] void fail(const std::string& message) const;
  // Element i of a sequence field.
  Field item(std::size_t i) const;
  // Human-readable rendering of the value for "got ..." in messages.
  std::string shown() const;
};

// A mapping whose keys are checked: required/optional reads record what was used, finish() rejects the rest.
class MapReader {
 public:
  // Fails unless the field is a mapping; duplicate keys are rejected here because yaml-cpp keeps them silently.
  explicit MapReader(const Field& field);

  // Whether the key is present, without marking it used (for either/or keys).
  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  // The value of a key that must be present.
  Field required(const std::string& key);
  // The value of a key, or a field whose node is undefined when absent (test with present()).
  Field optional(const std::string& key);
  // Rejects every key that was not read: unknown keys are typos that must not be silently ignored.
  void finish() const;

 private:
  struct Entry {
    YAML::Node value;
    YAML::Mark key_mark, value_mark;
  };
  Field self_;
  std::map<std::string, Entry> entries_;
  std::vector<std::string> order_;
  std::set<std::string> used_;
};

// True when an optional() read found the key.
inline bool present(const Field& f) { return f.node.IsDefined(); }

double read_number(const Field& f);                 // finite real number
double read_positive(const Field& f);               // > 0
double read_nonnegative(const Field& f);            // >= 0
int read_int(const Field& f);                       // integer-valued scalar
bool read_bool(const Field& f);                     // true/false
std::string read_string(const Field& f);            // non-empty scalar
std::string read_identifier(const Field& f);        // [A-Za-z0-9_]+, usable inside MuJoCo names
std::vector<double> read_numbers(const Field& f, std::size_t n);  // sequence of exactly n numbers
std::vector<Field> read_sequence(const Field& f);   // the items of a sequence field
Eigen::Vector3d read_vec3(const Field& f);

// Reads {pos, rpy_deg | axis + angle_deg} from a mapping, marking those keys used; rotation defaults to identity.
Eigen::Isometry3d read_pose(MapReader& map, bool pos_required);

// Rotation R = Rz(yaw) Ry(pitch) Rx(roll) from roll, pitch, yaw in radians (fixed-axis x-y-z order).
Eigen::Matrix3d rpy_to_matrix(double roll, double pitch, double yaw);

}  // namespace mjhand
