// Scene builder: every object shape compiles with the right mass, errors cite the description, placeholders survive
// into the MJCF for `mjhand batch`, and the Kelvin-Voigt mapping reproduces the static penetration and the rebound
// the Kelvin-Voigt model predicts.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>

#include <mjhand/hand/yaml_fields.h>
#include <mjhand/scene/kelvin_voigt.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>
#include "test_util.h"

using Catch::Matchers::Contains;
using mjhand_test::source_path;

namespace {

// A one-finger hand inline, far from the objects, so only the objects and the floor interact.
const std::string kHand = R"(hand:
  name: stub
  convention: standard
  palm: {pos: [0, 0, 0.5], half_size: [0.02, 0.02, 0.005], mass: 0.2}
  fingers:
    - name: f1
      base: {pos: [0, 0, 0]}
      link_radius: 0.005
      link_mass: 0.01
      links:
        - {a: 0.03, alpha_deg: 0, d: 0, theta_deg: 0, joint: revolute, range_deg: [-10, 90]}
  actuators:
    - {type: position, joints: all, kp: 1}
)";

mjhand::SceneSpec parse(const std::string& text) {
  return mjhand::parse_scene_spec(text, "scene.yaml", source_path("models/scenarios"));
}

std::string error_of(const std::string& text) {
  try {
    mjhand::build_scene(parse(text));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// A free sphere of `mass` above a floor plane, the contact mapped from kv.
mjhand::BuiltScene drop_scene(const mjhand::KelvinVoigt& kv, double mass, double height, double timestep) {
  mjhand::SceneSpec s = parse("name: drop\nfloor: true\ngravity: true\n" + kHand +
                              "objects:\n  - {name: ball, shape: sphere, size: [0.02], pos: [0.3, 0, 0.1], mass: 1}\n");
  s.timestep = timestep;
  s.objects[0].mass.value = mass;
  s.objects[0].pos = Eigen::Vector3d(0.3, 0, 0.02 + height);
  s.objects[0].pos_values = {{0.3, ""}, {0, ""}, {0.02 + height, ""}};
  s.objects[0].contact = kv;
  return mjhand::build_scene(s);
}

}  // namespace

TEST_CASE("Scene builder compiles every object shape with its mass and friction", "[scene]") {
  const mjhand::SceneSpec spec = parse("name: shapes\ngravity: true\nself_collision: true\n" + kHand + R"(objects:
  - {name: ball, shape: sphere, size: [0.02], pos: [0.2, 0, 0.1], density: 1000, friction: 0.7}
  - {name: can, shape: cylinder, size: [0.02, 0.03], pos: [0.3, 0, 0.1], mass: 0.25, mount: fixed}
  - {name: brick, shape: box, size: [0.01, 0.02, 0.03], pos: [0.4, 0, 0.1], density: 500, rpy_deg: [0, 0, 30]}
  - {name: peanut, shape: mesh, file: ../objects/peanut.obj, pos: [0.5, 0, 0.1], density: 700}
  - {name: wedge, shape: mesh, file: ../objects/wedge.stl, pos: [0.6, 0, 0.1], density: 700, friction: [0.9, 0.01]}
)");
  const mjhand::BuiltScene built = mjhand::build_scene(spec);
  const mjModel* m = built.model.get();
  auto body = [&](const char* n) { return mj_name2id(m, mjOBJ_BODY, n); };
  // MuJoCo's sphere and box masses from density: the same products, rounding; 1e-9 is loose. Approx's default (1e-5
  // relative) on values given or parsed as such (mass, friction, gravity, solimp): equal in practice
  CHECK(m->body_mass[body("ball")] == Approx(1000 * 4.0 / 3 * M_PI * 0.02 * 0.02 * 0.02).epsilon(1e-9));
  CHECK(m->body_mass[body("can")] == Approx(0.25));
  CHECK(m->body_mass[body("brick")] == Approx(500 * 8 * 0.01 * 0.02 * 0.03).epsilon(1e-9));
  // binary STL keeps float32 vertices (6e-8 relative each): the volume to ~2e-7; 1e-5 is loose
  // The wedge prism's volume is (base x height / 2) x depth = 0.05 x 0.035 / 2 x 0.04 m^3 (make_objects.py).
  CHECK(m->body_mass[body("wedge")] == Approx(700 * 0.05 * 0.035 / 2 * 0.04).epsilon(1e-5));
  CHECK(m->body_mass[body("peanut")] > 0);
  // free objects get a freejoint, fixed ones none
  CHECK(m->body_jntnum[body("ball")] == 1);
  CHECK(m->body_jntnum[body("can")] == 0);
  const int ball_geom = mj_name2id(m, mjOBJ_GEOM, "ball_geom");
  CHECK(m->geom_friction[3 * ball_geom] == Approx(0.7));
  CHECK(m->geom_priority[ball_geom] == 1);
  const int wedge_geom = mj_name2id(m, mjOBJ_GEOM, "wedge_geom");
  CHECK(m->geom_friction[3 * wedge_geom + 1] == Approx(0.01));
  CHECK(m->opt.gravity[2] == Approx(-9.81));
  // self_collision: true gives the hand geoms the default contype instead of 0
  CHECK(m->geom_contype[mj_name2id(m, mjOBJ_GEOM, "f1_link1_geom")] == 1);
  // solref is the direct form, solimp's dmax the chosen impedance
  CHECK(m->geom_solref[2 * ball_geom] < 0);
  CHECK(m->geom_solimp[5 * ball_geom + 1] == Approx(0.9));
}

TEST_CASE("Scene description errors name file, line and key", "[scene]") {
  const std::string head = "name: bad\n" + kHand + "objects:\n";
  CHECK_THAT(error_of(head + "  - {name: x, shape: cone, size: [1], pos: [0, 0, 0]}\n"),
             Contains("scene.yaml:16:22:") && Contains("objects[0].shape") && Contains("unknown shape"));
  CHECK_THAT(error_of(head + "  - {name: x, shape: sphere, pos: [0, 0, 0]}\n"), Contains("size") && Contains("missing"));
  CHECK_THAT(error_of(head + "  - {name: x, shape: sphere, size: [0.01], pos: [0, 0, 0], colour: red}\n"),
             Contains("objects[0].colour") && Contains("unknown key"));
  CHECK_THAT(error_of(head + "  - {name: x, shape: sphere, size: [0.01], pos: [0, 0, 0], density: \"${rho}\"}\n"),
             Contains("${rho}") && Contains("parameters"));
  CHECK_THAT(error_of(head + "  - {name: x, shape: mesh, file: nothere.obj, pos: [0, 0, 0]}\n"),
             Contains("objects[0].file") && Contains("no such mesh file"));
  CHECK_THAT(error_of(head + "  - {name: x, shape: sphere, size: [-0.01], pos: [0, 0, 0]}\n"),
             Contains("objects[0].size[0]"));
  CHECK_THAT(error_of(head + "  - {name: x, shape: sphere, size: [0.01], pos: [0, 0, 0], density: 1, mass: 1}\n"),
             Contains("density or mass"));
  CHECK_THAT(error_of("name: bad\ncontact: {impedance: 1.5}\n" + kHand + "objects:\n  - {name: x, shape: sphere, size: [0.01], pos: [0, 0, 0]}\n"),
             Contains("contact.impedance"));
}

TEST_CASE("Placeholders are kept in the MJCF and substitute back to the default build", "[scene]") {
  const std::string text = "name: ph\nparameters: {density: 700, mu: 0.5}\n" + kHand +
                           "objects:\n  - {name: ball, shape: sphere, size: [0.02], pos: [0.3, 0, 0.1], "
                           "density: \"${density}\", friction: \"${mu}\", contact: {reference_mass: 0.1}}\n";
  const mjhand::SceneSpec spec = parse(text);
  mjhand::SceneWriteOptions keep;
  keep.keep_placeholders = true;
  const mjhand::BuiltScene kept = mjhand::build_scene(spec, keep);
  const mjhand::BuiltScene plain = mjhand::build_scene(spec);
  REQUIRE_THAT(kept.xml, Contains("density=\"${density}\"") && Contains("friction=\"${mu} "));
  std::string substituted = kept.xml;
  for (auto [token, value] : {std::pair<std::string, std::string>{"${density}", "700"}, {"${mu}", "0.5"}}) {
    for (size_t i; (i = substituted.find(token)) != std::string::npos;) substituted.replace(i, token.size(), value);
  }
  CHECK(substituted == plain.xml);
  // A swept density reaches MuJoCo: the mass follows it.
  std::string heavy = kept.xml;
  heavy.replace(heavy.find("${density}"), 10, "7860");
  heavy.replace(heavy.find("${mu}"), 5, "0.5");
  const auto m = mjhand_test::load_xml_string(heavy);
  // density x volume: rounding
  CHECK(m->body_mass[mj_name2id(m.get(), mjOBJ_BODY, "ball")] == Approx(7860 * 4.0 / 3 * M_PI * 8e-6).epsilon(1e-9));
}

TEST_CASE("Kelvin-Voigt contact: static penetration of a resting sphere is m g / K", "[scene][kelvin_voigt]") {
  mjhand::KelvinVoigt kv;
  kv.stiffness = 1e4;
  kv.damping = 20;
  kv.transition_width = 1e-5;
  kv.impedance = 0.9;
  const double mass = 0.1, g = 9.81;
  const mjhand::BuiltScene built = drop_scene(kv, mass, 0.0, 1e-4);
  const mjModel* m = built.model.get();
  // MuJoCo's 1/(1/m) for a sphere hit through its centre: rounding
  REQUIRE(built.contacts[0].reference_mass == Approx(mass).epsilon(1e-9));  // 1/body_invweight0 of a free sphere
  auto d = mjhand_test::make_data(m);
  for (int i = 0; i < 20000; ++i) mj_step(m, d.get());  // 2 s: the transient (zeta ~ 0.3) has long decayed
  REQUIRE(d->ncon == 1);
  const double penetration = -d->contact[0].dist;
  const double expected = mjhand::kv_static_penetration(kv, mass, g);
  INFO("penetration " << penetration << " m, Kelvin-Voigt " << expected << " m");
  // Beyond the transition width the MuJoCo equilibrium (1-d) g = s0 delta is m g / K exactly; what is left is the
  // decayed transient (e^-25) and round-off.
  CHECK(penetration > 5 * kv.transition_width);
  CHECK(penetration == Approx(expected).epsilon(1e-6));
  // The contact force balances the weight.
  mjtNum f[6];
  mj_contactForce(m, d.get(), 0, f);
  CHECK(f[0] == Approx(mass * g).epsilon(1e-6));  // docs/scenes.md: measured within 1e-6
}

TEST_CASE("Kelvin-Voigt contact: a dropped sphere rebounds with the Kelvin-Voigt restitution", "[scene][kelvin_voigt]") {
  mjhand::KelvinVoigt kv;
  kv.stiffness = 1e4;
  kv.damping = 2;
  kv.transition_width = 1e-5;
  kv.impedance = 0.9;
  const double mass = 0.1, g = 9.81, h = 2e-5;
  const mjhand::BuiltScene built = drop_scene(kv, mass, 0.01, h);
  const mjModel* m = built.model.get();
  auto d = mjhand_test::make_data(m);
  const int dof = m->jnt_dofadr[mj_name2id(m, mjOBJ_JOINT, "ball_free")];
  double v_in = 0, v_out = 0, t_in = -1, t_out = -1;
  for (int i = 0; i < 200000 && t_out < 0; ++i) {
    const double v = d->qvel[dof + 2];
    mj_step(m, d.get());
    if (t_in < 0 && d->ncon > 0) {
      t_in = d->time;
      v_in = -v;
    }
    if (t_in >= 0 && d->ncon == 0) {
      t_out = d->time;
      v_out = d->qvel[dof + 2];
    }
  }
  REQUIRE(t_out > 0);
  // MuJoCo's contact is the Kelvin-Voigt equation in the time tau = sqrt(1-d) t: impact speed v_in/sqrt(1-d) there.
  const double s = std::sqrt(1 - kv.impedance);
  const double predicted = s * mjhand::kv_rebound_speed(kv, mass, g, v_in / s);
  const double e_free = mjhand::kv_restitution(kv, mass);
  INFO("impact " << v_in << " m/s, rebound " << v_out << " m/s (predicted " << predicted << "), e = " << v_out / v_in
                 << " (no-gravity e " << e_free << "), contact " << t_out - t_in << " s");
  // Tolerance 0.3%: semi-implicit Euler with omega h = sqrt(s0) h = 0.002 (O(omega h) on the damping work), the
  // transition width (w / delta_max ~ 0.2%, where the force ramps instead of jumping, acts on both legs alike), and
  // the one-step granularity of the separation (a h / v ~ 0.06%). Measured: 0.04%.
  CHECK(v_out == Approx(predicted).epsilon(0.003));
  CHECK(v_out / v_in == Approx(e_free).epsilon(0.02));  // gravity shifts e by ~ m g / (K delta_max) ~ 1%
  // The transient is stretched by 1/sqrt(1-d): half a damped period of the scaled oscillator.
  const double omega = std::sqrt(kv.stiffness / mass), zeta = mjhand::kv_damping_ratio(kv, mass);
  // docs/scenes.md: measured 31.9 against 31.4 ms (1.6 %); the transition width's ramp and gravity lengthen the contact
  CHECK((t_out - t_in) == Approx(M_PI / (omega * std::sqrt(1 - zeta * zeta)) / s).epsilon(0.05));
}

TEST_CASE("make-scene writes a scene that loads from where it is saved, and reports bad input", "[scene][cli]") {
  const std::string dir = mjhand_test::fresh_temp_dir("scene_cli");
  const std::string out = dir + "/peanut.xml";
  const auto ok = mjhand_test::run_cli("make-scene " + source_path("models/scenarios/precision_peanut.yaml") + " -o " + out);
  INFO(ok.output);
  REQUIRE(ok.status == 0);
  CHECK_THAT(ok.output, Contains("solref="));
  // The mesh is referenced relative to the saved file: MuJoCo finds it when loading from disk.
  const std::string xml = mjhand_test::read_all(out);
  CHECK_THAT(xml, Contains("peanut.obj") && !Contains("\"/work"));
  const auto m = mjhand::load_model(out);
  CHECK(m->nmesh == 1);
  // --keep-placeholders leaves the density token for mjhand batch.
  const auto kept = mjhand_test::run_cli("make-scene " + source_path("models/scenarios/power_sphere.yaml") + " -o " +
                                         dir + "/ps.xml --keep-placeholders");
  REQUIRE(kept.status == 0);
  CHECK_THAT(mjhand_test::read_all(dir + "/ps.xml"), Contains("density=\"${density}\""));
  // A wrong field: status 1, the file, line and key in the message, nothing written.
  const std::string bad = dir + "/bad.yaml";
  {
    std::ofstream f(bad);
    f << "name: bad\nhand: " << source_path("models/gripper4x3.yaml")
      << "\nobjects:\n  - {name: b, shape: sphere, size: [0.01], pos: [0, 0, 0.2], mount: floating}\n";
  }
  const auto err = mjhand_test::run_cli("make-scene " + bad + " -o " + dir + "/bad.xml");
  CHECK(err.status == 1);
  CHECK_THAT(err.output, Contains("bad.yaml:4:") && Contains("objects[0].mount"));
  CHECK(mjhand_test::read_all(dir + "/bad.xml").empty());
  CHECK(mjhand_test::run_cli("make-scene " + bad).status == 2);  // no -o
}
