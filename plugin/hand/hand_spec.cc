#include "hand/hand_spec.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace mjhand {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

PalmSpec parse_palm(const Field& f) {
  MapReader map(f);
  PalmSpec palm;
  palm.pose = read_pose(map, true);
  const Field mount = map.optional("mount");
  if (present(mount)) {
    const std::string m = read_string(mount);
    if (m == "fixed") {
      palm.mount = PalmMount::kFixed;
    } else if (m == "free") {
      palm.mount = PalmMount::kFree;
    } else {
      mount.fail("expected fixed or free, got " + mount.shown());
    }
  }
  const Field hs = map.required("half_size");
  palm.half_size = read_vec3(hs);
  for (int i = 0; i < 3; ++i) {
    if (!(palm.half_size[i] > 0)) hs.item(i).fail("must be positive, got " + hs.item(i).shown());
  }
  const Field box_pos = map.optional("box_pos");
  if (present(box_pos)) palm.box_pos = read_vec3(box_pos);
  palm.mass = read_positive(map.required("mass"));
  map.finish();
  return palm;
}

LinkSpec parse_link(const Field& f, double default_radius, double default_mass) {
  MapReader map(f);
  LinkSpec link;
  link.dh.a = read_number(map.required("a"));
  link.dh.alpha = read_number(map.required("alpha_deg")) * kDeg;
  link.dh.d = read_number(map.required("d"));
  link.dh.theta = read_number(map.required("theta_deg")) * kDeg;
  const Field joint = map.required("joint");
  const std::string kind = read_string(joint);
  if (kind == "revolute") {
    link.dh.kind = JointKind::kRevolute;
  } else if (kind == "prismatic") {
    link.dh.kind = JointKind::kPrismatic;
  } else {
    joint.fail("expected revolute or prismatic, got " + joint.shown());
  }
  const Field range_deg = map.optional("range_deg");
  const Field range = map.optional("range");
  const bool revolute = link.dh.kind == JointKind::kRevolute;
  if (revolute && present(range)) range.fail("a revolute joint takes range_deg (degrees), not range");
  if (!revolute && present(range_deg)) range_deg.fail("a prismatic joint takes range (metres), not range_deg");
  const Field& r = revolute ? range_deg : range;
  link.dh.lower = -kInf;
  link.dh.upper = kInf;
  if (present(r)) {
    const std::vector<double> v = read_numbers(r, 2);
    const double scale = revolute ? kDeg : 1.0;
    if (!(v[0] < v[1])) r.fail("range is inverted or empty: lower must be below upper");
    link.dh.lower = v[0] * scale;
    link.dh.upper = v[1] * scale;
  }
  const Field radius = map.optional("radius");
  link.radius = present(radius) ? read_positive(radius) : default_radius;
  const Field mass = map.optional("mass");
  link.mass = present(mass) ? read_positive(mass) : default_mass;
  const Field zero = map.optional("allow_zero_length");
  if (present(zero)) link.allow_zero_length = read_bool(zero);
  map.finish();
  return link;
}

FingerSpec parse_finger(const Field& f, DHConvention conv) {
  MapReader map(f);
  FingerSpec finger;
  finger.name = read_identifier(map.required("name"));
  {
    MapReader base(map.required("base"));
    finger.base = read_pose(base, true);
    base.finish();
  }
  const double radius = read_positive(map.required("link_radius"));
  const double mass = read_positive(map.required("link_mass"));
  const Field tool = map.optional("tool");
  if (present(tool)) {
    MapReader t(tool);
    finger.tool = read_pose(t, false);
    t.finish();
  }
  const Field damping = map.optional("damping");
  if (present(damping)) finger.damping = read_nonnegative(damping);
  const Field armature = map.optional("armature");
  if (present(armature)) finger.armature = read_nonnegative(armature);
  const Field links = map.required("links");
  const std::vector<Field> rows = read_sequence(links);
  if (rows.empty()) links.fail("a finger needs at least one link");
  for (const Field& row : rows) finger.links.push_back(parse_link(row, radius, mass));
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!finger.links[k].allow_zero_length && link_to_next(conv, finger, k).translation().norm() < kZeroLinkLength) {
      rows[k].fail(
          "zero-length link: its joint and the next joint (or the tool point) coincide (for standard DH: a = d = 0); "
          "set allow_zero_length: true if that is intended");
    }
  }
  map.finish();
  return finger;
}

ActuatorSpec parse_actuator(const Field& f, const HandSpec& spec) {
  MapReader map(f);
  ActuatorSpec act;
  const Field type = map.required("type");
  const std::string t = read_string(type);
  const char* gain_key = nullptr;
  if (t == "position") {
    act.type = ActuatorType::kPosition;
    gain_key = "kp";
  } else if (t == "velocity") {
    act.type = ActuatorType::kVelocity;
    gain_key = "kv";
  } else if (t == "motor") {
    act.type = ActuatorType::kMotor;
    gain_key = "gear";
  } else {
    type.fail("expected position, velocity or motor, got " + type.shown());
  }
  const Field gain = act.type == ActuatorType::kMotor ? map.optional(gain_key) : map.required(gain_key);
  act.gain = present(gain) ? read_positive(gain) : 1.0;

  const Field joints = map.required("joints");
  std::set<JointKind> kinds;
  if (joints.node.IsScalar() && joints.node.Scalar() == "all") {
    for (int i = 0; i < static_cast<int>(spec.fingers.size()); ++i) {
      const FingerSpec& finger = spec.fingers[i];
      for (int k = 0; k < static_cast<int>(finger.links.size()); ++k) {
        act.joints.push_back(joint_name(finger.name, k));
        act.joint_refs.push_back({i, k});
        kinds.insert(finger.links[k].dh.kind);
      }
    }
  } else {
    if (!joints.node.IsSequence()) joints.fail("expected all or a list of joint names, got " + joints.shown());
    const std::vector<Field> items = read_sequence(joints);
    if (items.empty()) joints.fail("the joint list is empty");
    for (const Field& item : items) {
      const std::string name = read_string(item);
      const JointRef ref = find_joint(spec, name);
      if (ref.finger < 0) item.fail("no joint named \"" + name + "\" (joints are <finger>_j<k>, k from 1)");
      act.joints.push_back(name);
      act.joint_refs.push_back(ref);
      kinds.insert(spec.fingers[ref.finger].links[ref.link].dh.kind);
    }
  }

  const Field ctrl_deg = map.optional("ctrlrange_deg");
  const Field ctrl = map.optional("ctrlrange");
  const bool angular = act.type != ActuatorType::kMotor && kinds.count(JointKind::kRevolute);
  if (present(ctrl_deg) || present(ctrl)) {
    if (act.type != ActuatorType::kMotor && kinds.size() > 1) {
      (present(ctrl_deg) ? ctrl_deg : ctrl)
          .fail("the joints mix revolute and prismatic, so one ctrlrange cannot fit both; split the entry");
    }
    if (angular && present(ctrl)) ctrl.fail("controls of revolute joints are angles: use ctrlrange_deg");
    if (!angular && present(ctrl_deg)) {
      ctrl_deg.fail("ctrlrange_deg is only for position/velocity actuators on revolute joints: use ctrlrange");
    }
    const Field& r = angular ? ctrl_deg : ctrl;
    const std::vector<double> v = read_numbers(r, 2);
    if (!(v[0] < v[1])) r.fail("range is inverted or empty: lower must be below upper");
    const double scale = angular ? kDeg : 1.0;
    act.ctrllimited = true;
    act.ctrl_from_joint_range = false;
    act.ctrl_lower = v[0] * scale;
    act.ctrl_upper = v[1] * scale;
  } else {
    act.ctrl_from_joint_range = act.type == ActuatorType::kPosition;
  }
  const Field force = map.optional("forcerange");
  if (present(force)) {
    const std::vector<double> v = read_numbers(force, 2);
    if (!(v[0] < v[1])) force.fail("range is inverted or empty: lower must be below upper");
    act.forcelimited = true;
    act.force_lower = v[0];
    act.force_upper = v[1];
  }
  map.finish();
  return act;
}

std::string config_value(const Field& f) {
  std::string out;
  const auto check = [&](const Field& v) {
    if (!v.node.IsScalar() || v.node.Scalar().empty()) v.fail("expected a plain value, got " + v.shown());
    for (char c : v.node.Scalar()) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '=' || c == ';' || c == '"') {
        v.fail("plugin values must not contain spaces, '=', ';' or quotes (the host splits on them), got " +
               v.shown());
      }
    }
    return v.node.Scalar();
  };
  if (f.node.IsSequence()) {
    for (const Field& item : read_sequence(f)) out += (out.empty() ? "" : ",") + check(item);
    if (out.empty()) f.fail("the list is empty");
    return out;
  }
  return check(f);
}

PluginSpec parse_plugin(const Field& f) {
  MapReader map(f);
  PluginSpec p;
  const Field name = map.required("name");
  p.name = read_identifier(name);
  p.mark = name.mark;
  const Field type = map.required("type");
  p.type = read_identifier(type);
  p.type_mark = type.mark;
  const Field config = map.optional("config");
  if (present(config)) {
    MapReader cfg(config);
    for (auto it = config.node.begin(); it != config.node.end(); ++it) {
      const std::string key = it->first.Scalar();
      const Field value = cfg.required(key);
      if (key == "type") value.fail("'type' is reserved (it names the plugin type)");
      read_identifier(Field{value.file, it->first, value.path, it->first.Mark()});
      p.config.emplace_back(key, config_value(value));
      p.config_marks[key] = value.mark;
    }
    cfg.finish();
  }
  map.finish();
  return p;
}

HandSpec parse_root(const Field& root) {
  MapReader map(root);
  HandSpec spec;
  spec.name = read_identifier(map.required("name"));
  const Field conv = map.required("convention");
  const std::string c = read_string(conv);
  if (c == "standard") {
    spec.convention = DHConvention::kStandard;
  } else if (c == "modified") {
    spec.convention = DHConvention::kModified;
  } else {
    conv.fail("expected standard or modified, got " + conv.shown());
  }
  spec.palm = parse_palm(map.required("palm"));

  const Field fingers = map.required("fingers");
  const std::vector<Field> items = read_sequence(fingers);
  if (items.empty()) fingers.fail("a hand needs at least one finger");
  std::set<std::string> names;
  for (const Field& item : items) {
    spec.fingers.push_back(parse_finger(item, spec.convention));
    if (!names.insert(spec.fingers.back().name).second) {
      MapReader m(item);
      m.required("name").fail("duplicate finger name \"" + spec.fingers.back().name + "\"");
    }
  }

  const Field actuators = map.optional("actuators");
  if (present(actuators)) {
    std::set<std::string> used;
    for (const Field& item : read_sequence(actuators)) {
      spec.actuators.push_back(parse_actuator(item, spec));
      for (const std::string& j : spec.actuators.back().joints) {
        const std::string key = j + "/" + std::to_string(static_cast<int>(spec.actuators.back().type));
        if (!used.insert(key).second) item.fail("joint " + j + " already has an actuator of this type");
      }
    }
  }
  const Field plugins = map.optional("plugins");
  if (present(plugins)) {
    std::set<std::string> pnames;
    for (const Field& item : read_sequence(plugins)) {
      spec.plugins.push_back(parse_plugin(item));
      if (!pnames.insert(spec.plugins.back().name).second) {
        MapReader m(item);
        m.required("name").fail("duplicate plugin instance name \"" + spec.plugins.back().name + "\"");
      }
    }
  }
  const Field nuser = map.optional("nuserdata");
  if (present(nuser)) {
    spec.nuserdata = read_int(nuser);
    if (spec.nuserdata < 0) nuser.fail("must not be negative");
    if (spec.nuserdata > kMaxNuserdata) nuser.fail("must be at most " + std::to_string(kMaxNuserdata));
    spec.nuserdata_mark = nuser.mark;
  }
  const Field self = map.optional("self_collision");
  if (present(self)) spec.self_collision = read_bool(self);
  map.finish();
  return spec;
}
}  // namespace

std::string joint_name(const std::string& finger, int k) { return finger + "_j" + std::to_string(k + 1); }
std::string link_body_name(const std::string& finger, int k) { return finger + "_link" + std::to_string(k + 1); }
std::string tip_site_name(const std::string& finger) { return finger + "_tip"; }

JointRef find_joint(const HandSpec& spec, const std::string& name) {
  for (int i = 0; i < static_cast<int>(spec.fingers.size()); ++i) {
    for (int k = 0; k < static_cast<int>(spec.fingers[i].links.size()); ++k) {
      if (joint_name(spec.fingers[i].name, k) == name) return {i, k};
    }
  }
  return {};
}

const LinkSpec& actuator_link(const HandSpec& spec, const ActuatorSpec& a, std::size_t i) {
  if (a.joint_refs.size() != a.joints.size() || i >= a.joints.size()) {
    throw std::invalid_argument("actuator joint list and joint_refs differ in length; fill ActuatorSpec::joint_refs "
                                "with find_joint when building a spec in code");
  }
  const JointRef& r = a.joint_refs[i];
  const bool valid = r.finger >= 0 && r.finger < static_cast<int>(spec.fingers.size()) && r.link >= 0 &&
                     r.link < static_cast<int>(spec.fingers[r.finger].links.size());
  if (!valid || joint_name(spec.fingers[r.finger].name, r.link) != a.joints[i]) {
    throw std::invalid_argument("actuator joint_refs entry for joint '" + a.joints[i] +
                                "' does not point at that joint; fill it with find_joint");
  }
  return spec.fingers[r.finger].links[r.link];
}

Eigen::Isometry3d link_to_next(DHConvention convention, const FingerSpec& finger, std::size_t k) {
  Eigen::Isometry3d pre, post, next_pre, next_post;
  dh_split(convention, finger.links[k].dh, &pre, &post);
  if (k + 1 == finger.links.size()) return post * finger.tool;
  dh_split(convention, finger.links[k + 1].dh, &next_pre, &next_post);
  return post * next_pre;
}

HandSpec parse_hand_spec(const std::string& yaml_text, const std::string& source_name) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::ParserException& e) {
    throw SpecError(source_name, e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull()) throw SpecError(source_name, 1, 1, "", "the description is empty");
  HandSpec spec = parse_root(Field{&source_name, root, "", root.Mark()});
  spec.source_name = source_name;
  return spec;
}

HandSpec load_hand_spec(const std::string& path) {
  // A directory opens fine as a stream and reads as empty, which would be reported as an empty description.
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) throw std::runtime_error("cannot open hand description " + path + ": no such file");
  if (!std::filesystem::is_regular_file(st)) {
    throw std::runtime_error("cannot read hand description " + path + ": " +
                             (std::filesystem::is_directory(st) ? "it is a directory" : "it is not a regular file"));
  }
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open hand description " + path + ": not readable");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_hand_spec(text.str(), path);
}

}  // namespace mjhand
