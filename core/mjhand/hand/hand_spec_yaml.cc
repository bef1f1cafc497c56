// hand_spec_to_yaml: the inverse of parse_hand_spec, so tools can edit a spec in code and save it for humans.
#include <cmath>

#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/number_format.h>

namespace mjhand {

namespace {
void emit_numbers(YAML::Emitter& out, std::initializer_list<double> values) {
  out << YAML::Flow << YAML::BeginSeq;
  for (double v : values) out << format_exact(v);
  out << YAML::EndSeq;
}

void emit_pose(YAML::Emitter& out, const Eigen::Isometry3d& pose) {
  const Eigen::Vector3d p = pose.translation();
  out << YAML::Key << "pos" << YAML::Value;
  emit_numbers(out, {p.x(), p.y(), p.z()});
  const Eigen::AngleAxisd aa(pose.linear());
  if (aa.angle() != 0.0) {
    out << YAML::Key << "axis" << YAML::Value;
    emit_numbers(out, {aa.axis().x(), aa.axis().y(), aa.axis().z()});
    out << YAML::Key << "angle_deg" << YAML::Value << format_exact(aa.angle() / kDeg);
  }
}

// The parser rejects a ctrlrange on mixed joint kinds, so the first joint speaks for the entry.
bool actuator_is_angular(const HandSpec& spec, const ActuatorSpec& a) {
  return a.type != ActuatorType::kMotor && a.type != ActuatorType::kPlugin &&
         actuator_link(spec, a, 0).dh.kind == JointKind::kRevolute;
}

void emit_link(YAML::Emitter& out, const LinkSpec& l) {
  const bool revolute = l.dh.kind == JointKind::kRevolute;
  out << YAML::BeginMap;
  out << YAML::Key << "a" << YAML::Value << format_exact(l.dh.a);
  out << YAML::Key << "alpha_deg" << YAML::Value << format_exact(l.dh.alpha / kDeg);
  out << YAML::Key << "d" << YAML::Value << format_exact(l.dh.d);
  out << YAML::Key << "theta_deg" << YAML::Value << format_exact(l.dh.theta / kDeg);
  out << YAML::Key << "joint" << YAML::Value << (revolute ? "revolute" : "prismatic");
  if (std::isfinite(l.dh.lower)) {
    const double s = revolute ? kDeg : 1.0;
    out << YAML::Key << (revolute ? "range_deg" : "range") << YAML::Value;
    emit_numbers(out, {l.dh.lower / s, l.dh.upper / s});
  }
  out << YAML::Key << "radius" << YAML::Value << format_exact(l.radius);
  if (l.has_inertial) {
    const Eigen::Vector3d& c = l.inertial.pos;
    const Eigen::Vector3d& I = l.inertial.diaginertia;
    out << YAML::Key << "inertial" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "pos" << YAML::Value;
    emit_numbers(out, {c.x(), c.y(), c.z()});
    out << YAML::Key << "mass" << YAML::Value << format_exact(l.mass);
    out << YAML::Key << "diaginertia" << YAML::Value;
    emit_numbers(out, {I.x(), I.y(), I.z()});
    out << YAML::EndMap;
  } else {
    out << YAML::Key << "mass" << YAML::Value << format_exact(l.mass);
  }
  if (l.allow_zero_length) out << YAML::Key << "allow_zero_length" << YAML::Value << "true";
  out << YAML::EndMap;
}
}  // namespace

std::string hand_spec_to_yaml(const HandSpec& spec) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << spec.name;
  out << YAML::Key << "convention" << YAML::Value
      << (spec.convention == DHConvention::kStandard ? "standard" : "modified");
  out << YAML::Key << "palm" << YAML::Value << YAML::BeginMap;
  emit_pose(out, spec.palm.pose);
  out << YAML::Key << "mount" << YAML::Value << (spec.palm.mount == PalmMount::kFixed ? "fixed" : "free");
  out << YAML::Key << "half_size" << YAML::Value;
  emit_numbers(out, {spec.palm.half_size.x(), spec.palm.half_size.y(), spec.palm.half_size.z()});
  out << YAML::Key << "box_pos" << YAML::Value;
  emit_numbers(out, {spec.palm.box_pos.x(), spec.palm.box_pos.y(), spec.palm.box_pos.z()});
  out << YAML::Key << "mass" << YAML::Value << format_exact(spec.palm.mass);
  out << YAML::EndMap;

  out << YAML::Key << "fingers" << YAML::Value << YAML::BeginSeq;
  for (const FingerSpec& f : spec.fingers) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << f.name;
    out << YAML::Key << "base" << YAML::Value << YAML::BeginMap;
    emit_pose(out, f.base);
    out << YAML::EndMap;
    // Per-link radius and mass are written on every row, so the finger-level values are only placeholders.
    out << YAML::Key << "link_radius" << YAML::Value << format_exact(f.links.front().radius);
    out << YAML::Key << "link_mass" << YAML::Value << format_exact(f.links.front().mass);
    out << YAML::Key << "tool" << YAML::Value << YAML::BeginMap;
    emit_pose(out, f.tool);
    out << YAML::EndMap;
    out << YAML::Key << "damping" << YAML::Value << format_exact(f.damping);
    out << YAML::Key << "armature" << YAML::Value << format_exact(f.armature);
    out << YAML::Key << "links" << YAML::Value << YAML::BeginSeq;
    for (const LinkSpec& l : f.links) emit_link(out, l);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;

  if (!spec.actuators.empty()) {
    out << YAML::Key << "actuators" << YAML::Value << YAML::BeginSeq;
    for (const ActuatorSpec& a : spec.actuators) {
      out << YAML::BeginMap;
      const char* type = a.type == ActuatorType::kPosition   ? "position"
                         : a.type == ActuatorType::kVelocity ? "velocity"
                         : a.type == ActuatorType::kPlugin   ? "plugin"
                                                             : "motor";
      const char* gain = a.type == ActuatorType::kPosition ? "kp" : a.type == ActuatorType::kVelocity ? "kv" : "gear";
      out << YAML::Key << "type" << YAML::Value << type;
      if (a.type == ActuatorType::kPlugin) out << YAML::Key << "instance" << YAML::Value << a.instance;
      out << YAML::Key << "joints" << YAML::Value << YAML::Flow << a.joints;
      out << YAML::Key << gain << YAML::Value << format_exact(a.gain);
      if (a.ctrllimited && !a.ctrl_from_joint_range) {
        const bool angular = actuator_is_angular(spec, a);
        const double s = angular ? kDeg : 1.0;
        out << YAML::Key << (angular ? "ctrlrange_deg" : "ctrlrange") << YAML::Value;
        emit_numbers(out, {a.ctrl_lower / s, a.ctrl_upper / s});
      }
      if (a.forcelimited) {
        out << YAML::Key << "forcerange" << YAML::Value;
        emit_numbers(out, {a.force_lower, a.force_upper});
      }
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!spec.plugins.empty()) {
    out << YAML::Key << "plugins" << YAML::Value << YAML::BeginSeq;
    for (const PluginSpec& p : spec.plugins) {
      out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
      out << YAML::Key << "type" << YAML::Value << p.type;
      if (!p.config.empty()) {
        out << YAML::Key << "config" << YAML::Value << YAML::BeginMap;
        for (const auto& kv : p.config) out << YAML::Key << kv.first << YAML::Value << kv.second;
        out << YAML::EndMap;
      }
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!spec.keyframes.empty()) {
    out << YAML::Key << "keyframes" << YAML::Value << YAML::BeginSeq;
    for (const KeyframeSpec& k : spec.keyframes) {
      out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << k.name;
      for (const bool angular : {true, false}) {  // revolute joints in joints_deg, prismatic ones in joints
        bool open = false;
        std::size_t i = 0;
        for (const FingerSpec& f : spec.fingers) {
          for (std::size_t j = 0; j < f.links.size(); ++j, ++i) {
            if ((f.links[j].dh.kind == JointKind::kRevolute) != angular || i >= k.qpos.size()) continue;
            if (!open) out << YAML::Key << (angular ? "joints_deg" : "joints") << YAML::Value << YAML::BeginMap;
            open = true;
            out << YAML::Key << joint_name(f.name, static_cast<int>(j)) << YAML::Value
                << format_exact(k.qpos[i] / (angular ? kDeg : 1.0));
          }
        }
        if (open) out << YAML::EndMap;
      }
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!spec.couplings.empty()) {
    out << YAML::Key << "couplings" << YAML::Value << YAML::BeginSeq;
    for (const CouplingSpec& c : spec.couplings) {
      out << YAML::BeginMap << YAML::Key << "joint" << YAML::Value << c.joint;
      out << YAML::Key << "driver" << YAML::Value << c.driver;
      out << YAML::Key << "coef" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (double v : c.coef) out << format_exact(v);
      out << YAML::EndSeq;
      if (!c.solref.empty()) {
        out << YAML::Key << "solref" << YAML::Value;
        emit_numbers(out, {c.solref[0], c.solref[1]});
      }
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::Key << "self_collision" << YAML::Value << (spec.self_collision ? "true" : "false");
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace mjhand
