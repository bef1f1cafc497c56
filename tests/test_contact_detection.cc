// contact_detection: a scripted contact on one phalanx of the paper's gripper raises exactly that phalanx's signal
// after N samples, a spike shorter than N samples never does, and the reported point and normal sit on the link.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <mjhand/native/native_plugins.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>
#include <mjhand/sensors/contact_detection.h>
#include "test_util.h"

using Catch::Matchers::Contains;
using mjhand_test::source_path;

namespace {

// The gripper with a fixed box penetrating 0.5 mm into finger f2's middle phalanx (+x side) at q = 0; the closure
// controller is switched off by the test, so the joints hold q = 0.
mjhand::BuiltScene scripted_scene(int samples) {
  const std::string text = R"(name: scripted
hand: ../gripper4x3.yaml
timestep: 1.0e-4
objects:
  - {name: block, shape: box, size: [0.01, 0.01, 0.01], pos: [-0.0325, -0.03, 0.0725], mount: fixed, density: 700}
grasp: {threshold: 0.01, samples: )" + std::to_string(samples) + "}\n";
  return mjhand::build_scene(mjhand::parse_scene_spec(text, "scripted.yaml", source_path("models/scenarios")));
}

struct Rig {
  mjhand::BuiltScene scene;
  mjhand::DataPtr d;
  int signal_adr = 0, where_adr = 0, channels = 0, block = 0;
  explicit Rig(int samples) : scene(scripted_scene(samples)) {
    const mjModel* m = scene.model.get();
    d = mjhand_test::make_data(m);
    mjhand::set_native_enabled(m, d.get(), mj_name2id(m, mjOBJ_PLUGIN, mjhand::kSceneCloser), false);
    const int s = mj_name2id(m, mjOBJ_SENSOR, mjhand::kSceneDetector);
    signal_adr = m->sensor_adr[s];
    channels = m->sensor_dim[s];
    where_adr = m->sensor_adr[mj_name2id(m, mjOBJ_SENSOR, mjhand::kSceneWhereSensor)];
    block = mj_name2id(m, mjOBJ_BODY, "block");
  }
  double signal(int c) const { return d->sensordata[signal_adr + c]; }
  int active() const {
    int n = 0;
    for (int c = 0; c < channels; ++c) n += signal(c) > 0.5;
    return n;
  }
  // Moves the welded block out of reach (model constant; mj_step recomputes the kinematics).
  void move_block_away() { scene.model->body_pos[3 * block + 2] += 0.5; }
  void move_block_back() { scene.model->body_pos[3 * block + 2] -= 0.5; }
};

}  // namespace

TEST_CASE("Contact detection layout follows the gripper's fingers and the palm", "[contact_detection]") {
  Rig rig(10);
  const mjhand::ContactLayout layout = mjhand::declared_contact_layout(rig.scene.model.get(), "contacts", nullptr);
  CHECK(layout.fingers == std::vector<std::string>{"f1", "f2", "f3", "f4"});
  CHECK(layout.phalanges == 3);
  CHECK(layout.channels() == 13);
  CHECK(rig.channels == 13);
}

TEST_CASE("Contact detection fires on the touched phalanx after N samples, not before", "[contact_detection]") {
  Rig rig(10);
  const mjModel* m = rig.scene.model.get();
  const int f2_p2 = 1 * 3 + 1;
  for (int step = 1; step <= 12; ++step) {
    mj_step(m, rig.d.get());
    INFO("step " << step);
    CHECK(rig.signal(f2_p2) == (step >= 10 ? 1.0 : 0.0));  // steps at t = 0 .. (step-1) h: `step` samples
    CHECK(rig.active() == (step >= 10 ? 1 : 0));
  }
  // Evaluations at one instant are one sample: mj_forward at the new time adds it, repeating it adds nothing, and
  // the next mj_step (same time) recomputes it.
  Rig again(10);
  for (int step = 1; step <= 9; ++step) {
    mj_step(again.scene.model.get(), again.d.get());
    for (int k = 0; k < 3; ++k) mj_forward(again.scene.model.get(), again.d.get());
    INFO("step " << step << " + mj_forward");
    CHECK(again.active() == (step + 1 >= 10 ? 1 : 0));  // samples at t = 0 .. step h
  }
  // Where: on the middle phalanx's capsule (radius 8 mm around the link's x axis, between 0 and a = 35 mm), with the
  // normal pointing out of the link toward the block (+x in the world; checked through the link's pose).
  const mjtNum* w = rig.d->sensordata + rig.where_adr + 6 * f2_p2;
  const double radial = std::hypot(w[1], w[2]);
  CHECK(radial == Approx(0.008).margin(0.0006));  // the contact point is mid-penetration (0.5 mm deep)
  CHECK(w[0] > 0.0);
  CHECK(w[0] < 0.035);
  const int link = mj_name2id(m, mjOBJ_BODY, "f2_link2");
  mjtNum n_world[3];
  mju_mulMatVec(n_world, rig.d->xmat + 9 * link, w + 3, 3, 3);
  CHECK(n_world[0] == Approx(1.0).margin(1e-6));  // outward from the link toward the block: +x in the world
  // every other channel reports nothing
  for (int c = 0; c < rig.channels; ++c) {
    if (c == f2_p2) continue;
    for (int k = 0; k < 6; ++k) CHECK(rig.d->sensordata[rig.where_adr + 6 * c + k] == 0.0);
  }
  // The signal drops at the first sample without force.
  rig.move_block_away();
  mj_step(m, rig.d.get());
  CHECK(rig.active() == 0);
}

TEST_CASE("Contact detection never fires on a spike shorter than N samples", "[contact_detection]") {
  Rig rig(10);
  const mjModel* m = rig.scene.model.get();
  for (int spike : {1, 9}) {
    CAPTURE(spike);
    rig.move_block_away();
    for (int i = 0; i < 5; ++i) mj_step(m, rig.d.get());
    rig.move_block_back();
    for (int i = 0; i < spike; ++i) {
      mj_step(m, rig.d.get());
      CHECK(rig.active() == 0);
    }
    rig.move_block_away();
    for (int i = 0; i < 20; ++i) {
      mj_step(m, rig.d.get());
      CHECK(rig.active() == 0);
    }
  }
  // samples=1 turns the debounce off: the same one-sample spike is reported.
  Rig eager(1);
  mj_step(eager.scene.model.get(), eager.d.get());
  CHECK(eager.active() == 1);
}

TEST_CASE("Contact detection rejects bad configurations with the key named", "[contact_detection]") {
  const std::string xml = scripted_scene(10).xml;
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string x = xml;
    REQUIRE(x.find(from) != std::string::npos);
    x.replace(x.find(from), from.size(), to);
    try {
      mjhand_test::load_xml_string(x);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto config = [](const std::string& key, const std::string& value) {
    return "<config key=\"" + key + "\" value=\"" + value + "\"/>";
  };
  // The signal sensor must be the instance's own <sensor><plugin> (its width then follows the layout: 13).
  CHECK_THAT(edited("<plugin name=\"contacts\" instance=\"contacts\"/>",
                    "<framepos name=\"contacts\" objtype=\"body\" objname=\"palm\"/>"),
             Contains("key 'sensor'") && Contains("not bound to this instance"));
  CHECK_THAT(edited(config("fingers", "all"), config("fingers", "f1,f9")), Contains("key 'fingers'") && Contains("finger 'f9'"));
  CHECK_THAT(edited(config("palm", "palm"), config("palm", "hand")), Contains("key 'palm'") && Contains("'hand' does not exist"));
  CHECK_THAT(edited(config("threshold", "0.01"), config("threshold", "-1")), Contains("key 'threshold'"));
  CHECK_THAT(edited(config("samples", "10"), config("samples", "0")), Contains("key 'samples'"));
  CHECK_THAT(edited(config("samples", "10"), config("samples", "10") + config("sample", "3")), Contains("sample"));
  // The closure's own keys: one increment per actuator, and no absurd step.
  const std::string base = source_path("models/scenarios");
  auto closure_error = [&](const std::string& grasp_text) {
    try {
      const std::string text = "name: bad\nhand: ../gripper4x3.yaml\nobjects:\n  - {name: b, shape: sphere, size: [0.01], "
                               "pos: [0, 0, 0.3]}\ngrasp: " + grasp_text + "\n";
      mjhand::build_scene(mjhand::parse_scene_spec(text, "bad.yaml", base));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(closure_error("{increment: [0.1, 0.2]}"), Contains("increment") && Contains("one per actuator"));
  CHECK_THAT(closure_error("{increment: 0.5}"), Contains("increment"));
}
