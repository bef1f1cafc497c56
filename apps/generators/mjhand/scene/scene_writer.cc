#include <mjhand/scene/scene_writer.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>

#include <mjhand/hand/mjcf_writer.h>
#include <mjhand/native/native_plugins.h>
#include <mjhand/hand/number_format.h>

namespace mjhand {

namespace {

namespace fs = std::filesystem;

ModelPtr compile(const std::string& xml, const std::string& file) {
  std::string error;
  ModelPtr m = compile_xml_string(xml, file, error);
  if (!m) throw ModelRejectedError("MuJoCo rejected the generated scene: " + error, xml);
  return m;
}

[[noreturn]] void fail_at(const SceneSpec& spec, const YAML::Mark& mark, const std::string& path,
                          const std::string& message) {
  const std::string file = spec.source_name.empty() ? "scene description" : spec.source_name;
  if (mark.is_null()) throw SpecError(file, 0, 0, path, message);
  throw SpecError(file, mark.line + 1, mark.column + 1, path, message);
}

std::string num(double v) { return format_exact(v); }

std::string val(const SceneNumber& n, bool keep) { return keep && !n.placeholder.empty() ? "${" + n.placeholder + "}" : num(n.value); }

std::string vals(const std::vector<SceneNumber>& v, bool keep) {
  std::string s;
  for (const SceneNumber& n : v) s += (s.empty() ? "" : " ") + val(n, keep);
  return s;
}

std::string object_xml(const SceneSpec& spec, const ObjectSpec& o, const MujocoContact& mc, bool keep,
                       const std::string& mesh_ref) {
  std::ostringstream x;
  const Eigen::Quaterniond q = o.quat.normalized();
  x << "    <body name=\"" << o.name << "\" pos=\"" << vals(o.pos_values, keep) << "\" quat=\"" << num(q.w()) << ' '
    << num(q.x()) << ' ' << num(q.y()) << ' ' << num(q.z()) << "\">\n";
  if (o.free) x << "      <freejoint name=\"" << o.name << "_free\"/>\n";
  x << "      <geom name=\"" << o.name << "_geom\" type=\"";
  switch (o.shape) {
    case ObjectShape::kSphere: x << "sphere\" size=\"" << vals(o.size, keep) << "\""; break;
    case ObjectShape::kCylinder: x << "cylinder\" size=\"" << vals(o.size, keep) << "\""; break;
    case ObjectShape::kBox: x << "box\" size=\"" << vals(o.size, keep) << "\""; break;
    case ObjectShape::kMesh: x << "mesh\" mesh=\"" << mesh_ref << "\""; break;
  }
  if (o.has_mass) {
    x << " mass=\"" << val(o.mass, keep) << "\"";
  } else {
    x << " density=\"" << val(o.density, keep) << "\"";
  }
  std::vector<SceneNumber> friction = o.friction;
  for (size_t i = friction.size(); i < 3; ++i) friction.push_back({spec.friction[i], ""});
  x << " friction=\"" << vals(friction, keep) << "\"";
  // priority 1: the object's solver parameters and friction govern every contact it takes part in.
  x << " priority=\"1\" condim=\"3\" solref=\"" << num(mc.solref[0]) << ' ' << num(mc.solref[1]) << "\" solimp=\""
    << num(mc.solimp[0]) << ' ' << num(mc.solimp[1]) << ' ' << num(mc.solimp[2]) << ' ' << num(mc.solimp[3]) << ' '
    << num(mc.solimp[4]) << "\" rgba=\"" << o.rgba << "\"/>\n";
  x << "    </body>\n";
  return x.str();
}

std::string mesh_path(const ObjectSpec& o, const SceneWriteOptions& options) {
  if (options.output_dir.empty()) return o.mesh_file;
  return fs::path(o.mesh_file).lexically_relative(fs::absolute(options.output_dir).lexically_normal()).string();
}

// The stiffness of the hand's position actuators, which become the closure instance's servos (one gain for all:
// hand_closure has one kp); the hand's actuators are rewritten as <actuator><plugin instance="closure">.
double closure_servo_gain(const SceneSpec& spec, HandSpec& hand) {
  double kp = 0;
  for (ActuatorSpec& a : hand.actuators) {
    if (a.type != ActuatorType::kPosition) {
      fail_at(spec, YAML::Mark::null_mark(), "grasp",
              "hand_closure closes the hand through position actuators; the hand has another kind");
    }
    if (kp > 0 && a.gain != kp) {
      fail_at(spec, YAML::Mark::null_mark(), "grasp",
              "the hand's position actuators have different kp (" + num(kp) + ", " + num(a.gain) +
                  "): hand_closure's servos share one");
    }
    kp = a.gain;
    a.type = ActuatorType::kPlugin;
    a.instance = kSceneCloser;
    a.gain = 1.0;  // gear
    a.ctrl_from_joint_range = false;
    a.ctrllimited = false;
  }
  if (!(kp > 0)) fail_at(spec, YAML::Mark::null_mark(), "grasp", "the hand has no position actuators to close it");
  return kp;
}

std::string scene_xml(const SceneSpec& spec, const std::vector<MujocoContact>& contacts, const SceneWriteOptions& options, bool keep) {
  HandSpec hand = spec.hand;
  // The closure instance drives the hand natively: its position actuators become its servos (ServoPlugin) with the
  // same stiffness.
  double kp = 0;
  if (spec.grasp.enabled) kp = closure_servo_gain(spec, hand);
  std::string xml = write_mjcf(hand, spec.source_name.empty() ? "a scene built in code"
                                                             : fs::path(spec.source_name).filename().string());
  const std::size_t end = xml.rfind("</mujoco>");
  xml.erase(end);
  std::ostringstream x;
  x << "  <!-- Scene '" << spec.name << "' (mjhand make-scene): objects, Kelvin-Voigt contact, grasp plugins. -->\n";
  x << "  <option timestep=\"" << num(spec.timestep) << "\" gravity=\"" << (spec.gravity ? "0 0 -9.81" : "0 0 0")
    << "\" cone=\"elliptic\"/>\n";
  bool any_mesh = false;
  for (const ObjectSpec& o : spec.objects) any_mesh = any_mesh || o.shape == ObjectShape::kMesh;
  if (any_mesh) {
    x << "  <asset>\n";
    for (const ObjectSpec& o : spec.objects) {
      if (o.shape != ObjectShape::kMesh) continue;
      std::vector<SceneNumber> scale = o.size;
      if (scale.size() == 1) scale = {scale[0], scale[0], scale[0]};
      x << "    <mesh name=\"" << o.name << "_mesh\" file=\"" << mesh_path(o, options) << "\" scale=\""
        << vals(scale, keep) << "\" inertia=\"exact\"/>\n";
      // inertia="exact": MuJoCo's default ("legacy") gives a mesh the mass of its equivalent inertia box (+15% for
      // the wedge), not its volume's.
    }
    x << "  </asset>\n";
  }
  x << "  <worldbody>\n";
  if (spec.floor) x << "    <geom name=\"floor\" type=\"plane\" size=\"1 1 0.05\" rgba=\"0.4 0.45 0.5 1\"/>\n";
  for (size_t i = 0; i < spec.objects.size(); ++i) {
    x << object_xml(spec, spec.objects[i], contacts[i], keep, spec.objects[i].name + "_mesh");
  }
  x << "  </worldbody>\n";
  x << "  <sensor>\n";
  for (const ObjectSpec& o : spec.objects) {
    x << "    <framepos name=\"" << o.name << "_pos\" objtype=\"xbody\" objname=\"" << o.name << "\"/>\n";
    x << "    <framequat name=\"" << o.name << "_quat\" objtype=\"xbody\" objname=\"" << o.name << "\"/>\n";
  }
  if (spec.grasp.enabled) {
    x << "    <plugin name=\"" << kSceneDetector << "\" instance=\"" << kSceneDetector << "\"/>\n";
    if (spec.grasp.where) x << "    <plugin name=\"" << kSceneWhereSensor << "\" instance=\"" << kSceneDetector << "\"/>\n";
  }
  x << "  </sensor>\n";
  if (spec.grasp.enabled) {
    const GraspSetup& g = spec.grasp;
    std::string increments;
    if (g.increments.empty()) {
      increments = num(g.increment);
    } else {
      for (size_t i = 0; i < g.increments.size(); ++i) increments += (i ? "," : "") + num(g.increments[i]);
    }
    auto config = [&x](const std::string& key, const std::string& value) {
      x << "        <config key=\"" << key << "\" value=\"" << value << "\"/>\n";
    };
    x << "  <extension>\n";
    x << "    <plugin plugin=\"mjhand.contact_detection\">\n      <instance name=\"" << kSceneDetector << "\">\n";
    config("sensor", kSceneDetector);
    if (g.where) config("where", kSceneWhereSensor);
    config("fingers", "all");
    config("palm", "palm");
    config("threshold", num(g.threshold));
    config("samples", std::to_string(g.samples));
    x << "      </instance>\n    </plugin>\n";
    x << "    <plugin plugin=\"mjhand.hand_closure\">\n      <instance name=\"" << kSceneCloser << "\">\n";
    config("detector", kSceneDetector);
    config("increment", increments);
    config("start", num(g.start));
    config("kp", num(kp));
    x << "      </instance>\n    </plugin>\n";
    x << "  </extension>\n";
  }
  x << "</mujoco>\n";
  return xml + x.str();
}

std::string vfs_name(const SceneSpec& spec, const SceneWriteOptions& options) {
  const std::string file = spec.name + ".xml";
  return options.output_dir.empty() ? file : (fs::absolute(options.output_dir) / file).string();
}

}  // namespace

BuiltScene build_scene(const SceneSpec& spec, const SceneWriteOptions& options) {
  register_native_plugins();
  for (const ObjectSpec& o : spec.objects) {
    if (options.keep_placeholders) {
      for (const SceneNumber& n : o.contact_numbers) {
        if (!n.placeholder.empty()) {
          fail_at(spec, o.mark, "objects." + o.name + ".contact",
                  "${" + n.placeholder + "} in stiffness/damping cannot be kept in the MJCF: solref is derived from "
                  "them; sweep it through the scene description instead");
        }
      }
    }
  }
  // Pass 1: provisional contact parameters, to let MuJoCo compute the masses (meshes, densities) the mapping needs.
  std::vector<MujocoContact> contacts;
  for (const ObjectSpec& o : spec.objects) {
    try {
      contacts.push_back(kelvin_voigt_to_mujoco(o.contact, o.reference_mass > 0 ? o.reference_mass : 1.0));
    } catch (const std::invalid_argument& e) {
      fail_at(spec, o.mark, "objects." + o.name + ".contact", e.what());
    }
  }
  const std::string file = vfs_name(spec, options);
  ModelPtr model = compile(scene_xml(spec, contacts, options, false), file);

  BuiltScene out;
  // MuJoCo's own effective mass of a contact on a body is 1/body_invweight0 (what its diagApprox uses): the object's
  // for a free object; for a fixed one the moving side is a finger, so the mean over the fingertip links.
  double tip_mass = 0;
  int tips = 0;
  for (const FingerSpec& f : spec.hand.fingers) {
    const int b = mj_name2id(model.get(), mjOBJ_BODY, link_body_name(f.name, static_cast<int>(f.links.size()) - 1).c_str());
    if (b > 0 && model->body_invweight0[2 * b] > 0) {
      tip_mass += 1 / model->body_invweight0[2 * b];
      ++tips;
    }
  }
  tip_mass = tips ? tip_mass / tips : 0.01;
  for (size_t i = 0; i < spec.objects.size(); ++i) {
    const ObjectSpec& o = spec.objects[i];
    const int b = mj_name2id(model.get(), mjOBJ_BODY, o.name.c_str());
    ObjectContact oc;
    oc.object = o.name;
    oc.mass = model->body_mass[b];
    if (o.reference_mass > 0) {
      oc.reference_mass = o.reference_mass;
    } else if (o.free) {
      oc.reference_mass = model->body_invweight0[2 * b] > 0 ? 1 / model->body_invweight0[2 * b] : oc.mass;
    } else {
      oc.reference_mass = tip_mass;
    }
    oc.mujoco = kelvin_voigt_to_mujoco(o.contact, oc.reference_mass);
    contacts[i] = oc.mujoco;
    out.contacts.push_back(oc);
  }
  out.model = compile(scene_xml(spec, contacts, options, false), file);  // every plugin instance validated by init
  out.xml = scene_xml(spec, contacts, options, options.keep_placeholders);
  return out;
}

}  // namespace mjhand
