#include <mjhand/hand/hand_spec.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/io/text_file.h>
#include <mjhand/util/numbers.h>

namespace mjhand {

namespace {

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
  const Field inertial = map.optional("inertial");
  if (present(inertial)) {
    if (present(mass)) mass.fail("this link has an inertial: give its mass there, not next to it");
    MapReader in(inertial);
    link.inertial.pos = read_vec3(in.required("pos"));
    link.mass = read_positive(in.required("mass"));
    const Field diag = in.required("diaginertia");
    link.inertial.diaginertia = read_vec3(diag);
    const Eigen::Vector3d& I = link.inertial.diaginertia;
    for (int i = 0; i < 3; ++i) {
      if (!(I[i] > 0)) diag.item(i).fail("must be positive, got " + diag.item(i).shown());
    }
    for (int i = 0; i < 3; ++i) {
      if (I[i] > I[(i + 1) % 3] + I[(i + 2) % 3]) {
        diag.fail("no rigid body has these principal moments: each must be at most the sum of the other two");
      }
    }
    in.finish();
    link.has_inertial = true;
  } else if (present(mass)) {
    link.mass = read_positive(mass);
  } else if (default_mass > 0) {
    link.mass = default_mass;
  } else {
    f.fail("this link has no mass: give it a mass or an inertial, or give the finger a link_mass");
  }
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
  const Field link_mass = map.optional("link_mass");  // optional when every row has its own mass or inertial
  const double mass = present(link_mass) ? read_positive(link_mass) : 0.0;
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
  } else if (t == "plugin") {
    act.type = ActuatorType::kPlugin;
    gain_key = "gear";
    const Field instance = map.required("instance");
    act.instance = read_string(instance);
    if (act.instance.empty()) instance.fail("the plugin instance name is empty");
  } else {
    type.fail("expected position, velocity, motor or plugin, got " + type.shown());
  }
  const bool force_input = act.type == ActuatorType::kMotor || act.type == ActuatorType::kPlugin;
  const Field gain = force_input ? map.optional(gain_key) : map.required(gain_key);
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
  const bool angular = !force_input && kinds.count(JointKind::kRevolute);
  if (present(ctrl_deg) || present(ctrl)) {
    if (!force_input && kinds.size() > 1) {
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

// The value of key `key` of a mapping field, as a Field that reports at the key (for "no such finger/joint").
Field key_field(const Field& map_field, const YAML::Node& key) {
  return Field{map_field.file, key, map_field.path + "." + key.Scalar(), key.Mark()};
}

KeyframeSpec parse_keyframe(const Field& f, const HandSpec& spec) {
  MapReader map(f);
  KeyframeSpec key;
  key.name = read_identifier(map.required("name"));
  std::vector<const LinkSpec*> links;  // every finger joint in spec order, the order of key.qpos
  std::vector<std::string> names;
  std::map<std::string, std::size_t> index;
  for (const FingerSpec& finger : spec.fingers) {
    for (std::size_t k = 0; k < finger.links.size(); ++k) {
      index[joint_name(finger.name, static_cast<int>(k))] = links.size();
      names.push_back(joint_name(finger.name, static_cast<int>(k)));
      links.push_back(&finger.links[k]);
    }
  }
  key.qpos.assign(links.size(), 0.0);
  // Where each value was given, for range errors. Kept as path + mark, not as Field: assigning a Field assigns its
  // YAML::Node, which in yaml-cpp rewrites the document node it refers to.
  std::vector<std::pair<std::string, YAML::Mark>> source(links.size(), {f.path, f.mark});
  std::vector<bool> explicitly(links.size(), false);  // named by fingers_deg, joints_deg or joints
  const auto set = [&](std::size_t i, double v, const Field& where) {
    if (explicitly[i]) where.fail("joint " + names[i] + " is given twice in this keyframe");
    explicitly[i] = true;
    key.qpos[i] = v;
    source[i] = {where.path, where.mark};
  };
  const Field def = map.optional("default_deg");
  if (present(def)) {
    const double v = read_number(def) * kDeg;
    for (std::size_t i = 0; i < links.size(); ++i) {
      if (links[i]->dh.kind == JointKind::kRevolute) {
        key.qpos[i] = v;
        source[i] = {def.path, def.mark};
      }
    }
  }
  const Field fingers = map.optional("fingers_deg");
  if (present(fingers)) {
    MapReader fm(fingers);
    for (auto it = fingers.node.begin(); it != fingers.node.end(); ++it) {
      const std::string name = it->first.Scalar();
      const Field values = fm.required(name);
      const FingerSpec* finger = nullptr;
      for (const FingerSpec& candidate : spec.fingers) {
        if (candidate.name == name) finger = &candidate;
      }
      if (!finger) key_field(fingers, it->first).fail("no finger named \"" + name + "\"");
      const std::vector<double> v = read_numbers(values, finger->links.size());
      for (std::size_t k = 0; k < v.size(); ++k) {
        const std::size_t i = index.at(joint_name(name, static_cast<int>(k)));
        if (links[i]->dh.kind != JointKind::kRevolute) {
          values.item(k).fail("joint " + names[i] + " is prismatic: give it in metres under joints");
        }
        set(i, v[k] * kDeg, values.item(k));
      }
    }
    fm.finish();
  }
  for (const bool angular : {true, false}) {
    const Field joints = map.optional(angular ? "joints_deg" : "joints");
    if (!present(joints)) continue;
    MapReader jm(joints);
    for (auto it = joints.node.begin(); it != joints.node.end(); ++it) {
      const std::string name = it->first.Scalar();
      const Field value = jm.required(name);
      const auto found = index.find(name);
      if (found == index.end()) {
        key_field(joints, it->first).fail("no joint named \"" + name + "\" (joints are <finger>_j<k>, k from 1)");
      }
      const bool revolute = links[found->second]->dh.kind == JointKind::kRevolute;
      if (angular && !revolute) value.fail("joint " + name + " is prismatic: give it in metres under joints");
      if (!angular && revolute) value.fail("joint " + name + " is revolute: give it in degrees under joints_deg");
      set(found->second, read_number(value) * (angular ? kDeg : 1.0), value);
    }
    jm.finish();
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    const DHLink& dh = links[i]->dh;
    if (key.qpos[i] < dh.lower - 1e-12 || key.qpos[i] > dh.upper + 1e-12) {
      const bool revolute = dh.kind == JointKind::kRevolute;
      const double s = revolute ? kDeg : 1.0;
      std::ostringstream msg;
      msg << "joint " << names[i] << " at " << key.qpos[i] / s << (revolute ? " deg" : " m") << " lies outside its range ["
          << dh.lower / s << ", " << dh.upper / s << "]";
      Field{f.file, YAML::Node(), source[i].first, source[i].second}.fail(msg.str());
    }
  }
  map.finish();
  return key;
}

// A coupling entry: both joints must exist and differ, and over the driver's range the law must keep the driven
// joint inside its range (checked in joint angles q, i.e. after removing both rows' theta offsets).
CouplingSpec parse_coupling(const Field& f, const HandSpec& spec) {
  MapReader map(f);
  CouplingSpec c;
  c.mark = f.mark;
  const Field joint = map.required("joint"), driver = map.required("driver");
  c.joint = read_identifier(joint);
  c.driver = read_identifier(driver);
  c.joint_ref = find_joint(spec, c.joint);
  c.driver_ref = find_joint(spec, c.driver);
  if (c.joint_ref.finger < 0) joint.fail("no joint \"" + c.joint + "\" in the hand");
  if (c.driver_ref.finger < 0) driver.fail("no joint \"" + c.driver + "\" in the hand");
  if (c.joint == c.driver) driver.fail("a joint cannot drive itself");
  const Field coef = map.required("coef");
  const std::vector<Field> items = read_sequence(coef);
  if (items.empty() || items.size() > kMaxCouplingOrder + 1) {
    coef.fail("needs 1 to 5 coefficients c0..c4 (polynomial order up to 4), got " + std::to_string(items.size()));
  }
  for (const Field& i : items) c.coef.push_back(read_number(i));
  const Field solref = map.optional("solref");
  if (present(solref)) {
    c.solref = read_numbers(solref, 2);
    if (!(c.solref[0] > 0) || !(c.solref[1] > 0)) solref.fail("timeconst and dampratio must be positive");
  }
  map.finish();
  const DHLink& x = spec.fingers[c.driver_ref.finger].links[c.driver_ref.link].dh;
  const DHLink& y = spec.fingers[c.joint_ref.finger].links[c.joint_ref.link].dh;
  const CouplingLaw law_q = law_in_joint_angles(coupling_law(c.coef), x.theta, y.theta);
  const RangeViolation v = check_coupling_range(law_q, x.lower, x.upper, y.lower, y.upper);
  if (v.violated) {
    // Revolute values in rad with degrees alongside (the YAML's unit), prismatic ones in m.
    const auto shown = [](double v, const DHLink& l) {
      std::ostringstream o;
      o.precision(6);
      o << v;
      if (l.kind == JointKind::kRevolute) o << " (" << v / kDeg << " deg)";
      return o.str();
    };
    const double s = y.kind == JointKind::kRevolute ? kDeg : 1.0;
    std::ostringstream m;
    m.precision(6);
    m << "the law drives joint " << c.joint << " to q = " << shown(v.value, y) << " at " << c.driver << " = "
      << shown(v.driver, x) << ", outside its range [" << y.lower / s << ", " << y.upper / s << "]"
      << (y.kind == JointKind::kRevolute ? " deg" : " m")
      << (std::isfinite(x.lower) ? "" : " (the driver has no range, so a non-constant law leaves any finite one)");
    coef.fail(m.str());
  }
  return c;
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
  const Field keyframes = map.optional("keyframes");
  if (present(keyframes)) {
    std::set<std::string> knames;
    for (const Field& item : read_sequence(keyframes)) {
      spec.keyframes.push_back(parse_keyframe(item, spec));
      if (!knames.insert(spec.keyframes.back().name).second) {
        MapReader m(item);
        m.required("name").fail("duplicate keyframe name \"" + spec.keyframes.back().name + "\"");
      }
    }
  }
  const Field couplings = map.optional("couplings");
  if (present(couplings)) {
    std::set<std::string> driven;
    for (const Field& item : read_sequence(couplings)) {
      spec.couplings.push_back(parse_coupling(item, spec));
      if (!driven.insert(spec.couplings.back().joint).second) {
        MapReader m(item);
        m.required("joint").fail("joint " + spec.couplings.back().joint + " is already driven by another coupling");
      }
    }
    for (const Field& item : read_sequence(couplings)) {  // a driver chain must end at a free joint
      MapReader m(item);
      std::string j = read_identifier(m.required("joint"));
      for (std::size_t steps = 0; steps <= spec.couplings.size(); ++steps) {
        const auto it = std::find_if(spec.couplings.begin(), spec.couplings.end(),
                                     [&](const CouplingSpec& c) { return c.joint == j; });
        if (it == spec.couplings.end()) break;
        j = it->driver;
        if (steps == spec.couplings.size()) m.required("driver").fail("the couplings form a cycle");
      }
    }
  }
  const Field nuser = map.optional("nuserdata");
  if (present(nuser)) {
    nuser.fail("is no longer used: mjhand's plugins keep their state in MuJoCo's d->plugin_state (remove the line)");
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
  const std::string problem = text_file_problem(path);  // a directory, FIFO, device or huge file
  if (!problem.empty()) throw std::runtime_error("cannot read hand description " + path + ": it " + problem);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open hand description " + path + ": not readable");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_hand_spec(text.str(), path);
}

}  // namespace mjhand
