#include <mjhand/hand/mjcf_writer.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <mjhand/coupling/coupling_law.h>
#include <mjhand/hand/chain_encoding.h>
#include <mjhand/hand/hand_chains.h>
#include <mjhand/hand/number_format.h>
#include <mjhand/io/xml_text.h>

namespace mjhand {

namespace {
// Full precision (format_exact reads back bit-identical) so MuJoCo's sites match DH FK to 1e-9; values below 1e-15
// are sin/cos rounding noise, far below any tolerance, and are written as 0 to keep the file readable.
std::string mjcf_number(double v) {
  if (std::fabs(v) < 1e-15) v = 0.0;
  return format_exact(v);
}

std::string nums(std::initializer_list<double> values) {
  std::string s;
  for (double v : values) s += (s.empty() ? "" : " ") + mjcf_number(v);
  return s;
}

std::string pose_attrs(const Eigen::Isometry3d& pose) {
  const Eigen::Vector3d p = pose.translation();
  const Eigen::Quaterniond q = canonical_quaternion(pose.linear());
  return "pos=\"" + nums({p.x(), p.y(), p.z()}) + "\" quat=\"" + nums({q.w(), q.x(), q.y(), q.z()}) + "\"";
}

// "--" may not appear inside an XML comment.
std::string comment_safe(std::string s) {
  for (std::size_t i; (i = s.find("--")) != std::string::npos;) s.replace(i, 2, "- -");
  return s;
}

struct Writer {
  const HandSpec& spec;
  std::ostringstream out;
  std::string geom_contact;  // contype/conaffinity attributes for hand geoms

  void indent(int depth) { out << std::string(2 * depth, ' '); }

  void finger(const FingerSpec& f) {
    const int n = static_cast<int>(f.links.size());
    Eigen::Isometry3d pre0, unused_post;
    dh_split(spec.convention, f.links[0].dh, &pre0, &unused_post);
    Eigen::Isometry3d body_pose = f.base * pre0;  // link k's body sits at its joint frame
    for (int k = 0; k < n; ++k) {
      const LinkSpec& l = f.links[k];
      const int depth = 3 + k;
      const bool revolute = l.dh.kind == JointKind::kRevolute;
      indent(depth);
      out << "<body name=\"" << link_body_name(f.name, k) << "\" " << pose_attrs(body_pose) << ">\n";
      indent(depth + 1);
      if (l.has_inertial) {  // MuJoCo then ignores the geom's mass (inertiafromgeom="auto")
        const Eigen::Vector3d& c = l.inertial.pos;
        const Eigen::Vector3d& I = l.inertial.diaginertia;
        out << "<inertial pos=\"" << nums({c.x(), c.y(), c.z()}) << "\" mass=\"" << mjcf_number(l.mass)
            << "\" diaginertia=\"" << nums({I.x(), I.y(), I.z()}) << "\"/>\n";
        indent(depth + 1);
      }
      out << "<joint name=\"" << joint_name(f.name, k) << "\" type=\"" << (revolute ? "hinge" : "slide")
          << "\" pos=\"0 0 0\" axis=\"0 0 1\"";
      if (std::isfinite(l.dh.lower)) {
        out << " limited=\"true\" range=\"" << nums({l.dh.lower, l.dh.upper}) << "\"";
      } else {
        out << " limited=\"false\"";
      }
      out << " damping=\"" << mjcf_number(f.damping) << "\" armature=\"" << mjcf_number(f.armature) << "\"/>\n";
      const Eigen::Isometry3d to_next = link_to_next(spec.convention, f, k);
      const Eigen::Vector3d end = to_next.translation();
      indent(depth + 1);
      out << "<geom name=\"" << link_body_name(f.name, k) << "_geom\" ";
      if (end.norm() < kZeroLinkLength) {  // allowed zero-length link: a sphere keeps it massive and visible
        out << "type=\"sphere\" size=\"" << mjcf_number(l.radius) << "\"";
      } else {
        out << "type=\"capsule\" fromto=\"0 0 0 " << nums({end.x(), end.y(), end.z()}) << "\" size=\""
            << mjcf_number(l.radius) << "\"";
      }
      if (!l.has_inertial) out << " mass=\"" << mjcf_number(l.mass) << "\"";
      out << geom_contact << " rgba=\"0.85 0.7 0.6 1\"/>\n";
      if (k + 1 < n) body_pose = to_next;
    }
    indent(3 + n);
    out << "<site name=\"" << tip_site_name(f.name) << "\" " << pose_attrs(link_to_next(spec.convention, f, n - 1))
        << " size=\"0.004\" rgba=\"1 0.2 0.2 1\"/>\n";
    for (int k = n - 1; k >= 0; --k) {
      indent(3 + k);
      out << "</body>\n";
    }
  }

  void actuators() {
    if (spec.actuators.empty()) return;
    out << "  <actuator>\n";
    for (const ActuatorSpec& a : spec.actuators) {
      const char* tag = a.type == ActuatorType::kPosition   ? "position"
                        : a.type == ActuatorType::kVelocity ? "velocity"
                        : a.type == ActuatorType::kPlugin   ? "plugin"
                                                            : "motor";
      for (std::size_t i = 0; i < a.joints.size(); ++i) {
        const std::string& j = a.joints[i];
        out << "    <" << tag << " name=\"" << j << "_" << tag << "\" joint=\"" << j << "\"";
        if (a.type == ActuatorType::kPlugin) out << " instance=\"" << xml_escape(a.instance) << "\"";
        if (a.type == ActuatorType::kPosition) out << " kp=\"" << mjcf_number(a.gain) << "\"";
        if (a.type == ActuatorType::kVelocity) out << " kv=\"" << mjcf_number(a.gain) << "\"";
        if (a.type == ActuatorType::kMotor || a.type == ActuatorType::kPlugin) out << " gear=\"" << mjcf_number(a.gain) << "\"";
        double lo = a.ctrl_lower, hi = a.ctrl_upper;
        bool limited = a.ctrllimited;
        if (a.ctrl_from_joint_range) {
          const DHLink& l = actuator_link(spec, a, i).dh;
          limited = std::isfinite(l.lower);
          lo = l.lower;
          hi = l.upper;
        }
        if (limited) {
          out << " ctrllimited=\"true\" ctrlrange=\"" << nums({lo, hi}) << "\"";
        } else {
          out << " ctrllimited=\"false\"";
        }
        if (a.forcelimited) out << " forcelimited=\"true\" forcerange=\"" << nums({a.force_lower, a.force_upper}) << "\"";
        out << "/>\n";
      }
    }
    out << "  </actuator>\n";
  }

  void keyframes() {
    if (spec.keyframes.empty()) return;
    std::size_t joints = 0;
    for (const FingerSpec& f : spec.fingers) joints += f.links.size();
    out << "  <keyframe>\n";
    for (const KeyframeSpec& k : spec.keyframes) {
      if (k.qpos.size() != joints) {
        throw std::invalid_argument("keyframe '" + k.name + "' has " + std::to_string(k.qpos.size()) +
                                    " joint values; the hand has " + std::to_string(joints) + " joints");
      }
      std::string q;
      if (spec.palm.mount == PalmMount::kFree) {  // the free joint's 7 values come first in qpos
        const Eigen::Vector3d p = spec.palm.pose.translation();
        const Eigen::Quaterniond r = canonical_quaternion(spec.palm.pose.linear());
        q = nums({p.x(), p.y(), p.z(), r.w(), r.x(), r.y(), r.z()}) + " ";
      }
      for (std::size_t i = 0; i < k.qpos.size(); ++i) q += (i ? " " : "") + mjcf_number(k.qpos[i]);
      out << "    <key name=\"" << k.name << "\" qpos=\"" << q << "\"/>\n";
    }
    out << "  </keyframe>\n";
  }

  // Joint equalities for the couplings: the law is in DH angles, MuJoCo's polycoef in q - qpos0 (qpos0 = 0 here).
  void equalities() {
    if (spec.couplings.empty()) return;
    out << "  <equality>\n";
    for (const CouplingSpec& c : spec.couplings) {
      const double ox = spec.fingers[c.driver_ref.finger].links[c.driver_ref.link].dh.theta;
      const double oy = spec.fingers[c.joint_ref.finger].links[c.joint_ref.link].dh.theta;
      const auto a = mujoco_polycoef(coupling_law(c.coef), 0.0, 0.0, ox, oy);
      out << "    <joint name=\"couple_" << c.joint << "\" joint1=\"" << c.joint << "\" joint2=\"" << c.driver
          << "\" polycoef=\"" << nums({a[0], a[1], a[2], a[3], a[4]}) << "\"";
      if (!c.solref.empty()) out << " solref=\"" << nums({c.solref[0], c.solref[1]}) << "\"";
      out << "/>\n";
    }
    out << "  </equality>\n";
  }

  void extension() {
    if (spec.plugins.empty()) return;
    out << "  <extension>\n";
    for (const PluginSpec& p : spec.plugins) {
      out << "    <plugin plugin=\"mjhand." << xml_escape(p.type) << "\">\n";
      out << "      <instance name=\"" << xml_escape(p.name) << "\">\n";
      for (const auto& kv : p.config) {
        out << "        <config key=\"" << xml_escape(kv.first) << "\" value=\"" << xml_escape(kv.second) << "\"/>\n";
      }
      out << "      </instance>\n    </plugin>\n";
    }
    out << "  </extension>\n";
  }

  void custom() {
    out << "  <custom>\n";
    const std::vector<Chain> chains = hand_chains_in_palm(spec);
    for (const Chain& c : chains) {
      const std::vector<double> data = encode_chain(c);
      out << "    <numeric name=\"" << chain_field_name(c.name) << "\" size=\"" << data.size() << "\" data=\"";
      for (std::size_t i = 0; i < data.size(); ++i) out << (i ? " " : "") << mjcf_number(data[i]);
      out << "\"/>\n";
    }
    out << "  </custom>\n";
  }
};
}  // namespace

std::string write_mjcf(const HandSpec& spec, const std::string& source_name) {
  Writer w{spec, {}, spec.self_collision ? "" : " contype=\"0\" conaffinity=\"1\""};
  std::ostringstream& out = w.out;
  out << "<!-- Generated by `mjhand make-hand` from " << comment_safe(source_name)
      << ". Do not edit by hand: edit the description and regenerate. -->\n";
  out << "<mujoco model=\"" << spec.name << "\">\n";
  out << "  <compiler angle=\"radian\"/>\n";
  w.extension();
  out << "  <worldbody>\n";
  out << "    <body name=\"palm\" " << pose_attrs(spec.palm.pose) << ">\n";
  if (spec.palm.mount == PalmMount::kFree) out << "      <freejoint name=\"palm_free\"/>\n";
  const Eigen::Vector3d h = spec.palm.half_size, b = spec.palm.box_pos;
  out << "      <geom name=\"palm_geom\" type=\"box\" size=\"" << nums({h.x(), h.y(), h.z()}) << "\" pos=\""
      << nums({b.x(), b.y(), b.z()}) << "\" mass=\"" << mjcf_number(spec.palm.mass) << "\"" << w.geom_contact
      << " rgba=\"0.75 0.6 0.5 1\"/>\n";
  for (const FingerSpec& f : spec.fingers) w.finger(f);
  out << "    </body>\n";
  out << "  </worldbody>\n";
  w.equalities();
  w.actuators();
  w.custom();
  w.keyframes();
  out << "</mujoco>\n";
  return out.str();
}

}  // namespace mjhand
