// What each plugin type needs from a model (the "What it needs from a model" sections of the plugin pages,
// docs/native-plugins.md's table): for every requirement a page states whose load error no other test checks, a
// minimal model that breaks it and the message the user sees. The other requirements point to their own tests.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_util.h"

using mjhand_test::attach_error;
using mjhand_test::read_all;
using mjhand_test::source_path;

namespace {

// <extension> with one instance `name` of mjhand.TYPE configured by "k=v k=v ...".
std::string instance(const std::string& type, const std::string& name, const std::string& config) {
  std::string x = "<extension><plugin plugin=\"mjhand." + type + "\"><instance name=\"" + name + "\">";
  size_t start = 0;
  while (start < config.size()) {
    size_t end = config.find(' ', start);
    if (end == std::string::npos) end = config.size();
    const std::string kv = config.substr(start, end - start);
    const size_t eq = kv.find('=');
    if (!kv.empty()) x += "<config key=\"" + kv.substr(0, eq) + "\" value=\"" + kv.substr(eq + 1) + "\"/>";
    start = end + 1;
  }
  return x + "</instance></plugin></extension>";
}

// A one-body arm on joint "j" of the given type (hinge, slide, ball) with a site "tip", inside <mujoco>, plus `rest`.
std::string arm(const std::string& joint_type, const std::string& rest, const std::string& joint_extra = "") {
  return "<mujoco><worldbody><body name=\"base\"><geom type=\"box\" size=\"0.02 0.02 0.02\" mass=\"0.5\"/>"
         "<body name=\"link\" pos=\"0 0 0.05\"><joint name=\"j\" type=\"" + joint_type + "\" " + joint_extra +
         "/><geom type=\"capsule\" fromto=\"0 0 0 0 0 0.05\" size=\"0.01\" mass=\"0.05\"/>"
         "<site name=\"tip\" pos=\"0 0 0.05\"/></body></body></worldbody>" + rest + "</mujoco>";
}

struct Need {
  const char* what;   // the requirement, as the page states it
  std::string xml;    // a model that breaks it
  std::vector<std::string> expect;  // substrings of the load error
};

}  // namespace

TEST_CASE("model needs: each plugin's stated model requirement is a load error naming it", "[model_needs]") {
  // The generated power-grasp scene (contact_detection "contacts", hand_closure "closure" on its 12 finger joints),
  // with one more slide joint outside the fingers driven by the closure instance.
  std::string closure = read_all(source_path("models/scenarios/power_sphere.xml"));
  REQUIRE(!closure.empty());
  closure.insert(closure.find("</worldbody>"),
                 "<body name=\"extra\" pos=\"0.3 0 0.3\"><joint name=\"extra\" type=\"slide\"/>"
                 "<geom type=\"box\" size=\"0.01 0.01 0.01\" mass=\"0.1\"/></body>");
  closure.insert(closure.find("</actuator>"), "<plugin name=\"extra_plugin\" joint=\"extra\" instance=\"closure\"/>");

  const std::vector<Need> needs = {
      {"posture: actuators=all means the instance's own actuators",
       arm("hinge", instance("posture", "p", "actuators=all target=0.1 kp=1"), ""),
       {"key 'actuators'", "none is"}},
      {"hand_closure: every actuator drives a finger joint the detector watches",
       closure, {"key 'actuators'", "'extra_plugin'", "drives joint 'extra', which is no finger joint watched by 'contacts'"}},
      {"fingertip_kinematics: a sensor on a site or a body",
       arm("hinge", instance("fingertip_kinematics", "fk", "sensors=s") +
                        "<sensor><plugin name=\"s\" instance=\"fk\" objtype=\"joint\" objname=\"j\"/></sensor>"),
       {"key 'sensors'", "needs objtype=\"site\" or objtype=\"body\""}},
      {"joint_signal: a hinge or slide joint",
       arm("ball", instance("joint_signal", "js", "joint=j sensor=s gain=1 offset=0") +
                       "<sensor><plugin name=\"s\" instance=\"js\"/></sensor>"),
       {"key 'joint'", "is not a hinge or slide"}},
      {"joint_signal: angles=dh needs a DH chain embedded in the model",
       arm("hinge", instance("joint_signal", "js", "joint=j sensor=s gain=1 offset=0 angles=dh") +
                        "<sensor><plugin name=\"s\" instance=\"js\"/></sensor>"),
       {"key 'angles'", "belongs to no DH chain embedded in the model"}},
      {"contact_detection: fingers=all needs a hand (a generated hand's chains, else jointed fingers to infer)",
       "<mujoco><worldbody><body name=\"base\"><geom type=\"box\" size=\"0.02 0.02 0.02\"/></body></worldbody>" +
           instance("contact_detection", "cd", "sensor=s") +
           "<sensor><plugin name=\"s\" instance=\"cd\"/></sensor></mujoco>",
       {"key 'fingers'", "no fingers to watch"}},
      {"contact_detection: a listed finger is a generated finger or a body",
       arm("hinge", instance("contact_detection", "cd", "sensor=s fingers=nothing") +
                        "<sensor><plugin name=\"s\" instance=\"cd\"/></sensor>"),
       {"key 'fingers'", "finger 'nothing' is neither a generated hand's finger"}},
      {"coupling: hinge or slide joints",
       "<mujoco><worldbody><body><joint name=\"x\"/><geom size=\"0.01\" mass=\"0.01\"/><body><joint name=\"y\" "
       "type=\"ball\"/><geom size=\"0.01\" mass=\"0.01\"/></body></body></worldbody>" +
           instance("coupling", "c", "driver=x joint=y coef=0,1 stiffness=1") + "</mujoco>",
       {"key 'joint'", "is not a hinge or slide"}},
      {"pid: joints= needs exactly one actuator on each joint",
       arm("hinge", instance("pid", "pid", "joints=j setpoint=0 kp=1 period=0.002")),
       {"key 'joints'", "is driven by 0 actuators"}},
      {"dc_motor: its actuators drive a joint",
       "<mujoco><worldbody><body><joint name=\"j\" armature=\"0.003\"/><geom size=\"0.01\" mass=\"0.01\"/>"
       "<site name=\"s\"/></body></worldbody>" +
           instance("dc_motor", "m", "actuators=a R=2 ki=0.02 kb=0.02 Jm=1e-6 n=0.02") +
           "<actuator><plugin name=\"a\" site=\"s\" instance=\"m\"/></actuator></mujoco>",
       {"key 'actuators'", "must drive a joint"}},
      {"coil_actuator: its actuators drive a hinge",
       arm("slide", instance("coil_actuator", "coil", "actuators=a thermal=false link=1") +
                        "<actuator><plugin name=\"a\" joint=\"j\" instance=\"coil\"/></actuator>"),
       {"key 'actuators'", "not a hinge"}},
      {"coil_actuator: no ctrlrange (the coil clips the current itself)",
       arm("hinge", instance("coil_actuator", "coil", "actuators=a thermal=false link=1") +
                        "<actuator><plugin name=\"a\" joint=\"j\" instance=\"coil\" ctrllimited=\"true\" "
                        "ctrlrange=\"-1 1\"/></actuator>"),
       {"key 'actuators'", "must not be ctrllimited"}},
      {"computed_torque: one motor actuator on each joint",
       arm("hinge", instance("computed_torque", "ct", "joints=j trajectory=quintic q0=0 q1=0.1 T=1")),
       {"key 'joints'", "has no motor actuator"}},
      {"computed_torque: trajectory=via needs a finger (a DH chain, a tip site or a body)",
       arm("hinge", instance("computed_torque", "ct", "finger=f1 trajectory=via points=0,0,0.1 T=1") +
                        "<actuator><plugin name=\"a\" joint=\"j\" instance=\"ct\"/></actuator>"),
       {"key 'finger'", "no embedded DH chain, site or body 'f1'"}},
      {"synergy: one of the instance's actuators on every synergy joint (the inputs give no force)",
       arm("hinge", instance("synergy", "syn", "joints=j q0=0 S=1 inputs=z kq=1") +
                        "<actuator><plugin name=\"z\" joint=\"j\" instance=\"syn\"/></actuator>"),
       {"key 'actuators'", "no actuator drives synergy joint 'j'"}},
      {"hand_object: a motor on every hand joint",
       "<mujoco><worldbody><body name=\"palm\"><geom type=\"box\" size=\"0.05 0.05 0.01\"/><body name=\"f1\" "
       "pos=\"0.05 0 0\"><joint name=\"f1_j1\"/><geom size=\"0.01\" mass=\"0.01\"/></body></body>"
       "<body name=\"ball\" pos=\"0 0 0.1\"><freejoint/><geom size=\"0.02\" mass=\"0.05\"/></body></worldbody>" +
           instance("hand_object", "hold", "object=ball palm=palm") + "</mujoco>",
       {"key 'palm'", "hand joint", "f1_j1", "has no actuator; add <actuator><plugin joint=\"f1_j1\" instance=\"hold\"/>"}},
      {"hand_object: the torque actuators are the instance's own (a <motor> is not)",
       "<mujoco><worldbody><body name=\"palm\"><geom type=\"box\" size=\"0.05 0.05 0.01\"/><body name=\"f1\" "
       "pos=\"0.05 0 0\"><joint name=\"f1_j1\"/><geom size=\"0.01\" mass=\"0.01\"/></body></body>"
       "<body name=\"ball\" pos=\"0 0 0.1\"><freejoint/><geom size=\"0.02\" mass=\"0.05\"/></body></worldbody>" +
           instance("hand_object", "hold", "object=ball palm=palm") +
           "<actuator><motor name=\"m1\" joint=\"f1_j1\"/></actuator></mujoco>",
       {"actuator 'm1' is neither bound to this instance"}},
  };
  for (const Need& n : needs) {
    const std::string msg = attach_error(n.xml);
    INFO(n.what << "\n -> " << msg);
    CHECK_THAT(msg, Catch::Contains("mjhand: plugin instance"));
    for (const std::string& e : n.expect) CHECK_THAT(msg, Catch::Contains(e));
  }
}
