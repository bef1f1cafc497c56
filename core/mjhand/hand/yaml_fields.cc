#include <mjhand/hand/yaml_fields.h>

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace mjhand {

namespace {
std::string location(const std::string& file, int line, int column) {
  std::ostringstream s;
  s << file;
  if (line > 0) s << ':' << line << ':' << column;
  return s.str();
}

bool valid_mark(const YAML::Mark& m) { return m.line >= 0 && m.column >= 0; }

std::string kind_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Undefined: return "nothing";
    default: return "\"" + n.Scalar() + "\"";
  }
}
}  // namespace

SpecError::SpecError(const std::string& file_, int line_, int column_, const std::string& path_,
                     const std::string& message_)
    : Error(location(file_, line_, column_) + ": " + (path_.empty() ? "" : path_ + ": ") + message_),
      file(file_),
      path(path_),
      message(message_),
      line(line_),
      column(column_) {}

void Field::fail(const std::string& message) const {
  const bool ok = valid_mark(mark);
  throw SpecError(*file, ok ? mark.line + 1 : 0, ok ? mark.column + 1 : 0, path, message);
}

std::string Field::shown() const { return kind_name(node); }

Field Field::item(std::size_t i) const {
  const YAML::Node child = node[i];
  const YAML::Mark m = valid_mark(child.Mark()) ? child.Mark() : mark;
  return Field{file, child, path + "[" + std::to_string(i) + "]", m};
}

MapReader::MapReader(const Field& field) : self_(field) {
  if (!field.node.IsMap()) field.fail("expected a mapping (key: value lines), got " + field.shown());
  for (auto it = field.node.begin(); it != field.node.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
    const std::string child_path = self_.path.empty() ? key : self_.path + "." + key;
    if (key.empty()) {
      Field{field.file, it->first, self_.path, it->first.Mark()}.fail("keys must be plain names");
    }
    if (entries_.count(key)) Field{field.file, it->first, child_path, it->first.Mark()}.fail("duplicate key");
    Entry e{it->second, it->first.Mark(), it->second.Mark()};
    entries_.emplace(key, e);
    order_.push_back(key);
  }
}

Field MapReader::required(const std::string& key) {
  const std::string child_path = self_.path.empty() ? key : self_.path + "." + key;
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    std::string found;  // listing what is there turns a misspelt key into an obvious fix
    for (const std::string& k : order_) found += (found.empty() ? "" : ", ") + k;
    Field{self_.file, self_.node, child_path, self_.mark}.fail("missing required key (found: " +
                                                               (found.empty() ? "nothing" : found) + ")");
  }
  used_.insert(key);
  const Entry& e = it->second;
  return Field{self_.file, e.value, child_path,
               valid_mark(e.value_mark) && !e.value.IsNull() ? e.value_mark : e.key_mark};
}

Field MapReader::optional(const std::string& key) {
  if (!has(key)) {
    const std::string child_path = self_.path.empty() ? key : self_.path + "." + key;
    return Field{self_.file, YAML::Node(YAML::NodeType::Undefined), child_path, self_.mark};
  }
  return required(key);
}

void MapReader::finish() const {
  for (const std::string& key : order_) {
    if (used_.count(key)) continue;
    const Entry& e = entries_.at(key);
    const std::string child_path = self_.path.empty() ? key : self_.path + "." + key;
    Field{self_.file, e.value, child_path, e.key_mark}.fail("unknown key");
  }
}

double read_number(const Field& f) {
  if (!f.node.IsScalar()) f.fail("expected a number, got " + f.shown());
  const std::string& s = f.node.Scalar();
  for (const char* special : {".inf", "+.inf", "-.inf", ".Inf", "+.Inf", "-.Inf", ".INF", "+.INF", "-.INF", ".nan",
                              ".NaN", ".NAN"}) {
    if (s == special) f.fail("expected a finite number, got " + f.shown());  // YAML spells infinity .inf
  }
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) f.fail("expected a number, got " + f.shown());
  if (!std::isfinite(v)) f.fail("expected a finite number, got " + f.shown());
  return v;
}

double read_positive(const Field& f) {
  const double v = read_number(f);
  if (!(v > 0)) f.fail("must be positive, got " + f.shown());
  return v;
}

double read_nonnegative(const Field& f) {
  const double v = read_number(f);
  if (v < 0) f.fail("must not be negative, got " + f.shown());
  return v;
}

int read_int(const Field& f) {
  const double v = read_number(f);
  if (v != std::floor(v) || std::fabs(v) > 1e9) f.fail("expected an integer, got " + f.shown());
  return static_cast<int>(v);
}

bool read_bool(const Field& f) {
  if (f.node.IsScalar()) {
    const std::string& s = f.node.Scalar();
    if (s == "true") return true;
    if (s == "false") return false;
  }
  f.fail("expected true or false, got " + f.shown());
}

std::string read_string(const Field& f) {
  if (!f.node.IsScalar() || f.node.Scalar().empty()) f.fail("expected a text value, got " + f.shown());
  return f.node.Scalar();
}

std::string read_identifier(const Field& f) {
  const std::string s = read_string(f);
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) f.fail("names may only use letters, digits and '_', got " + f.shown());
  }
  return s;
}

std::vector<Field> read_sequence(const Field& f) {
  if (!f.node.IsSequence()) f.fail("expected a list, got " + f.shown());
  std::vector<Field> items;
  for (std::size_t i = 0; i < f.node.size(); ++i) items.push_back(f.item(i));
  return items;
}

std::vector<double> read_numbers(const Field& f, std::size_t n) {
  if (!f.node.IsSequence() || f.node.size() != n) {
    f.fail("expected a list of " + std::to_string(n) + " numbers, got " + f.shown());
  }
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(read_number(f.item(i)));
  return v;
}

Eigen::Vector3d read_vec3(const Field& f) {
  const std::vector<double> v = read_numbers(f, 3);
  return Eigen::Vector3d(v[0], v[1], v[2]);
}

Eigen::Matrix3d rpy_to_matrix(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Isometry3d read_pose(MapReader& map, bool pos_required) {
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  const Field pos = pos_required ? map.required("pos") : map.optional("pos");
  if (present(pos)) pose.translation() = read_vec3(pos);
  const Field rpy = map.optional("rpy_deg");
  const Field axis = map.optional("axis");
  const Field angle = map.optional("angle_deg");
  if (present(rpy) && (present(axis) || present(angle))) {
    rpy.fail("give the rotation either as rpy_deg or as axis + angle_deg, not both");
  }
  if (present(rpy)) {
    const std::vector<double> v = read_numbers(rpy, 3);
    pose.linear() = rpy_to_matrix(v[0] * kDeg, v[1] * kDeg, v[2] * kDeg);
  } else if (present(axis) || present(angle)) {
    if (!present(axis)) angle.fail("angle_deg needs an axis: [x, y, z] next to it");
    if (!present(angle)) axis.fail("axis needs an angle_deg next to it");
    const Eigen::Vector3d a = read_vec3(axis);
    if (!(a.norm() > 1e-12)) axis.fail("rotation axis must not be zero");
    pose.linear() = Eigen::AngleAxisd(read_number(angle) * kDeg, a.normalized()).toRotationMatrix();
  }
  return pose;
}

}  // namespace mjhand
