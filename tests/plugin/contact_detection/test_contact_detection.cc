// contact_detection: a scripted contact on one phalanx of the paper's gripper raises exactly that phalanx's signal
// after N samples, a spike shorter than N samples never does, and the reported point and normal sit on the link; one
// sample per step under every integrator, none in mj_forward; and sampling at the end of the step moves the campaign
// scene exactly as the acceleration-stage detector it replaced.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <cstring>
#include <string>
#include <vector>

#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand_closure/hand_closure.h>
#include <mjhand/host/controller_plugin.h>
#include <mjhand/host/registry.h>
#include <mjhand/native/native_plugins.h>
#include <mjhand/scene/scene_spec.h>
#include <mjhand/scene/scene_writer.h>
#include <mjhand/contact_detection/contact_detection_plugin.h>
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
  // The detector's sensors in d (default: the rig's own): signals, then where-values.
  std::vector<mjtNum> outputs(const mjData* x = nullptr) const {
    const mjtNum* s = (x ? x : d.get())->sensordata;
    std::vector<mjtNum> out(s + signal_adr, s + signal_adr + channels);
    out.insert(out.end(), s + where_adr, s + where_adr + 6 * channels);
    return out;
  }
  int active(const mjData* x = nullptr) const {
    int n = 0;
    for (int c = 0; c < channels; ++c) n += (x ? x : d.get())->sensordata[signal_adr + c] > 0.5;
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
  // mj_forward takes no sample: the signals and the where-values stay those the last step ended with, so nothing the
  // program computes between steps moves the count.
  Rig again(10);
  for (int step = 1; step <= 12; ++step) {
    mj_step(again.scene.model.get(), again.d.get());
    const std::vector<mjtNum> after_step = again.outputs();
    for (int k = 0; k < 3; ++k) mj_forward(again.scene.model.get(), again.d.get());
    INFO("step " << step << " + mj_forward");
    CHECK(again.outputs() == after_step);
    CHECK(again.active() == (step >= 10 ? 1 : 0));
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
  // a box face's normal (exact but for rounding) seen through the link's pose: 1e-6 = 1 - cos of a 1.4e-3-rad tilt,
  // far more than the held joints move in 1.2 ms
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

TEST_CASE("Contact detection samples once at the end of every step under every integrator", "[contact_detection]") {
  const int f2_p2 = 1 * 3 + 1;
  for (int integrator : {mjINT_EULER, mjINT_RK4, mjINT_IMPLICIT, mjINT_IMPLICITFAST}) {
    CAPTURE(integrator);
    Rig rig(10);
    rig.scene.model->opt.integrator = integrator;
    for (int step = 1; step <= 12; ++step) {
      mj_step(rig.scene.model.get(), rig.d.get());
      INFO("step " << step);
      CHECK(rig.signal(f2_p2) == (step >= 10 ? 1.0 : 0.0));
      CHECK(rig.active() == (step >= 10 ? 1 : 0));
    }
    CHECK(rig.d->sensordata[rig.where_adr + 6 * f2_p2] > 0.0);  // the point along the link, from the last sample
  }
}

TEST_CASE("Contact detection writes its sensors from its state: copies, resets, carried state, sensors disabled",
          "[contact_detection]") {
  Rig rig(10);
  mjModel* m = rig.scene.model.get();
  const int closer = mj_name2id(m, mjOBJ_PLUGIN, mjhand::kSceneCloser);
  for (int step = 0; step < 12; ++step) mj_step(m, rig.d.get());
  REQUIRE(rig.active() == 1);
  const std::vector<mjtNum> fired = rig.outputs();

  // The whole integration state (plugin state included) put into a fresh mjData, whose sensordata is still zero:
  // its first mj_forward shows the same signals and where-values, though it takes no sample.
  mjhand::DataPtr fresh = mjhand_test::make_data(m);
  std::vector<mjtNum> state(mj_stateSize(m, mjSTATE_INTEGRATION));
  mj_getState(m, rig.d.get(), state.data(), mjSTATE_INTEGRATION);
  mj_setState(m, fresh.get(), state.data(), mjSTATE_INTEGRATION);
  CHECK(rig.active(fresh.get()) == 0);
  mj_forward(m, fresh.get());
  CHECK(rig.outputs(fresh.get()) == fired);

  // A copy steps on exactly like the original.
  mjhand::DataPtr copy(mj_copyData(nullptr, m, rig.d.get()));
  for (int step = 0; step < 5; ++step) {
    mj_step(m, rig.d.get());
    mj_step(m, copy.get());
  }
  CHECK(std::memcmp(copy->sensordata, rig.d->sensordata, sizeof(mjtNum) * m->nsensordata) == 0);

  // After mj_resetData the count starts again: mj_forward at the reset state (block still in contact) shows 0.
  mj_resetData(m, rig.d.get());
  mjhand::set_native_enabled(m, rig.d.get(), closer, false);  // the reset switched the closure on again
  mj_forward(m, rig.d.get());
  CHECK(rig.active() == 0);
  for (int step = 1; step <= 10; ++step) {
    mj_step(m, rig.d.get());
    CHECK(rig.active() == (step == 10 ? 1 : 0));
  }
  // Even with samples=1 (a contact shows after one sample) mj_forward alone raises nothing: only a step samples.
  Rig eager(1);
  mj_forward(eager.scene.model.get(), eager.d.get());
  CHECK(eager.active() == 0);
  mj_step(eager.scene.model.get(), eager.d.get());
  CHECK(eager.active() == 1);

  // With MuJoCo's sensors disabled the detector takes no sample (as a sensor stage would not run), and the count
  // resumes where it was when they are enabled again.
  mj_resetData(m, rig.d.get());
  mjhand::set_native_enabled(m, rig.d.get(), closer, false);
  for (int step = 0; step < 5; ++step) mj_step(m, rig.d.get());
  m->opt.disableflags |= mjDSBL_SENSOR;
  for (int step = 0; step < 20; ++step) mj_step(m, rig.d.get());
  CHECK(rig.active() == 0);
  m->opt.disableflags &= ~mjDSBL_SENSOR;
  for (int step = 1; step <= 5; ++step) {
    mj_step(m, rig.d.get());
    CHECK(rig.active() == (step == 5 ? 1 : 0));  // samples 6 .. 10
  }
}

namespace {

// The detector as it was before it sampled at the end of the step, kept here as the reference: an acceleration-stage
// sensor (MuJoCo then runs mj_rnePostConstraint before it every step), sampling in every evaluation and counting
// once per d->time. State: [time of the current sample, per channel the run length before it and including it].
class AccStageDetector : public mjhand::Plugin {
 public:
  AccStageDetector(const mjModel* m, mjhand::ContactLayout layout, int signal, int where, double threshold, int samples)
      : layout_(std::move(layout)), signal_(signal), where_(where), threshold_(threshold), samples_(samples),
        channel_of_body_(m->nbody, -1) {
    for (size_t c = 0; c < layout_.bodies.size(); ++c) {
      if (layout_.bodies[c] >= 0) channel_of_body_[layout_.bodies[c]] = static_cast<int>(c);
    }
    if (layout_.palm >= 0) channel_of_body_[layout_.palm] = layout_.channels() - 1;
    claim_sensor(signal_);
    if (where_ >= 0) claim_sensor(where_);
  }
  int capabilities() const override { return mjhand::kCapSensor; }
  int sensor_width(int id) const override {
    return id == signal_ ? layout_.channels() : id == where_ ? 6 * layout_.channels() : 0;
  }
  int nstate() const override { return 1 + 2 * layout_.channels(); }
  void reset(const mjModel*, const mjData* d, mjtNum* state) const override { state[0] = d->time - 1; }
  void sensor(const mjModel* m, mjData* d, int stage, mjtNum* state) const override {
    if (stage != mjSTAGE_ACC) return;
    const int n = layout_.channels();
    if (d->time > state[0]) {
      state[0] = d->time;
      for (int c = 0; c < n; ++c) state[1 + 2 * c] = state[2 + 2 * c];
    }
    std::vector<double> force(n, 0.0), strongest(n, 0.0);
    std::vector<int> contact_of(n, -1);
    for (int i = 0; i < d->ncon; ++i) {
      const mjContact& con = d->contact[i];
      if (con.efc_address < 0) continue;
      const int c1 = channel_of_body_[m->geom_bodyid[con.geom[0]]], c2 = channel_of_body_[m->geom_bodyid[con.geom[1]]];
      if ((c1 >= 0) == (c2 >= 0)) continue;
      mjtNum f6[6];
      mj_contactForce(m, d, i, f6);
      const int c = c1 >= 0 ? c1 : c2;
      force[c] += f6[0];
      if (f6[0] > strongest[c]) {
        strongest[c] = f6[0];
        contact_of[c] = i;
      }
    }
    mjtNum* out = d->sensordata + m->sensor_adr[signal_];
    mjtNum* where = where_ >= 0 ? d->sensordata + m->sensor_adr[where_] : nullptr;
    for (int c = 0; c < n; ++c) {
      const double run = force[c] > threshold_ ? state[1 + 2 * c] + 1 : 0;
      state[2 + 2 * c] = run;
      out[c] = run >= samples_ ? 1 : 0;
      if (!where) continue;
      mjtNum* w = where + 6 * c;
      std::memset(w, 0, 6 * sizeof(mjtNum));
      if (out[c] == 0 || contact_of[c] < 0) continue;
      const mjContact& con = d->contact[contact_of[c]];
      const int body = c == n - 1 ? layout_.palm : layout_.bodies[c];
      mjtNum rel[3], normal[3];
      mju_sub3(rel, con.pos, d->xpos + 3 * body);
      mju_mulMatTVec(w, d->xmat + 9 * body, rel, 3, 3);
      mju_scl3(normal, con.frame, m->geom_bodyid[con.geom[0]] == body ? 1 : -1);
      mju_mulMatTVec(w + 3, d->xmat + 9 * body, normal, 3, 3);
    }
  }

 private:
  mjhand::ContactLayout layout_;
  int signal_, where_;
  double threshold_;
  int samples_;
  std::vector<int> channel_of_body_;
};

// Registers "test_acc_contact_detection" (the reference above, keys as contact_detection's) and
// "test_acc_hand_closure" (mjhand's HandClosureController as its servo plugin, reading the named detector of any
// type; hand_closure itself accepts only a contact_detection).
void register_reference_types_once() {
  static const bool done = [] {
    mjhand::register_plugin_type(
        "test_acc_contact_detection", "contact_detection sampling at the acceleration stage (reference)",
        [](const mjModel* m, const mjhand::Config& cfg) {
          const int signal = cfg.get_object("sensor", mjOBJ_SENSOR);
          const int where = cfg.has("where") ? cfg.get_object("where", mjOBJ_SENSOR) : -1;
          if (cfg.get_string("fingers", "all") != "all") cfg.fail("fingers", "the reference takes only 'all'");
          mjhand::ContactLayout layout =
              mjhand::contact_layout(m, mjhand::embedded_finger_names(m), cfg.get_string("palm", "palm"));
          const double threshold = cfg.get_double_or("threshold", 0.01, 0, 1e6);
          const int samples = cfg.get_int_or("samples", 10, 1, 1000000);
          return std::unique_ptr<mjhand::Plugin>(
              new AccStageDetector(m, std::move(layout), signal, where, threshold, samples));
        },
        {"sensor", "where", "fingers", "palm", "threshold", "samples"}, mjSTAGE_ACC);
    mjhand::register_plugin_type(
        "test_acc_hand_closure", "hand_closure reading any detector (reference)",
        [](const mjModel* m, const mjhand::Config& cfg) {
          const int detector = mj_name2id(m, mjOBJ_PLUGIN, cfg.get_string("detector").c_str());
          if (detector < 0) cfg.fail("detector", "no such instance");
          mjhand::HandClosureController::Options o;
          const mjhand::ContactLayout layout =
              mjhand::configured_contact_layout(m, mjhand::native_config(m, detector), &o.signal_sensor, nullptr);
          const double increment = cfg.get_double("increment", -0.1, 0.1);
          for (int a = 0; a < m->nu; ++a) {
            const char* joint = mj_id2name(m, mjOBJ_JOINT, m->actuator_trnid[2 * a]);
            std::vector<int> blocking;
            for (size_t f = 0; f < layout.fingers.size() && blocking.empty(); ++f) {
              for (int k = 0; k < layout.phalanges; ++k) {
                if (!joint || mjhand::joint_name(layout.fingers[f], k) != joint) continue;
                for (int j = k; j < layout.phalanges; ++j) blocking.push_back(static_cast<int>(f) * layout.phalanges + j);
                break;
              }
            }
            if (blocking.empty()) cfg.fail("detector", "an actuator on no watched finger joint");
            o.actuators.push_back(a);
            o.increment.push_back(increment);
            o.blocking.push_back(blocking);
          }
          o.start = cfg.get_double_or("start", 0.0, 0.0, 1e9);
          o.servo = true;  // as the hand_closure plugin: setpoints clamped to the joints' ranges
          return mjhand::make_servo_plugin<mjhand::HandClosureController>(cfg, std::move(o));
        },
        {"detector", "increment", "start", "kp", "kv"});
    mjhand::register_native_plugins();
    return true;
  }();
  (void)done;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("Contact detection at the end of the step moves the campaign scene bit for bit as at the acc stage",
          "[contact_detection]") {
  register_reference_types_once();
  const std::string shipped =
      replaced(mjhand_test::read_all(source_path("models/scenarios/power_sphere_batch.xml")), "${density}", "700");
  const std::string option = "<option timestep=\"0.0001\" gravity=\"0 0 0\" cone=\"elliptic\"";
  // The split stepping (mj_step1 / mj_step2) runs Euler.
  for (const char* integrator : {"Euler", "implicitfast", "implicit", "Euler, mj_step1 + mj_step2"}) {
    CAPTURE(integrator);
    const bool split = std::string(integrator).find("mj_step1") != std::string::npos;
    const std::string text =
        replaced(shipped, option, option + " integrator=\"" + (split ? "Euler" : integrator) + "\"");
    const std::string reference = replaced(replaced(text, "\"mjhand.contact_detection\"", "\"mjhand.test_acc_contact_detection\""),
                                           "\"mjhand.hand_closure\"", "\"mjhand.test_acc_hand_closure\"");
    mjhand::ModelPtr m = mjhand_test::load_xml_string(text), r = mjhand_test::load_xml_string(reference);
    // What the change is for: no sensor at the acceleration stage left, so MuJoCo skips mj_rnePostConstraint.
    for (int s = 0; s < m->nsensor; ++s) CHECK(m->sensor_needstage[s] != mjSTAGE_ACC);
    REQUIRE(r->nsensordata == m->nsensordata);
    mjhand::DataPtr d = mjhand_test::make_data(m.get()), dr = mjhand_test::make_data(r.get());
    const int signal = m->sensor_adr[mj_name2id(m.get(), mjOBJ_SENSOR, mjhand::kSceneDetector)];
    const int channels = m->sensor_dim[mj_name2id(m.get(), mjOBJ_SENSOR, mjhand::kSceneDetector)];
    std::vector<int> ever(channels, 0);
    int drops = 0;
    const auto same = [&](const mjtNum* a, const mjtNum* b, int n) { return std::memcmp(a, b, sizeof(mjtNum) * n) == 0; };
    for (int step = 0; step < 4000; ++step) {
      std::vector<mjtNum> before(d->sensordata + signal, d->sensordata + signal + channels);
      for (mjData* x : {d.get(), dr.get()}) {
        const mjModel* mx = x == d.get() ? m.get() : r.get();
        if (split) {
          mj_step1(mx, x);
          mj_step2(mx, x);
        } else {
          mj_step(mx, x);
        }
      }
      INFO("step " << step);
      REQUIRE(same(d->qpos, dr->qpos, m->nq));
      REQUIRE(same(d->qvel, dr->qvel, m->nv));
      REQUIRE(same(d->actuator_force, dr->actuator_force, m->nu));
      REQUIRE(same(d->sensordata, dr->sensordata, m->nsensordata));
      for (int c = 0; c < channels; ++c) {
        ever[c] |= d->sensordata[signal + c] > 0.5;
        drops += before[c] > 0.5 && d->sensordata[signal + c] < 0.5;
      }
    }
    // The comparison covered the grasp: contacts on most channels (the closure held those joints), some lost again.
    int on = 0;
    for (int c = 0; c < channels; ++c) on += ever[c];
    CHECK(on >= 7);
    CHECK(drops > 0);
  }
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

// Any MJCF hand (issue 18): on the Allegro scene, which has no mjhand naming, fingers=all watches the fingers
// `mjhand analyze` infers (each finger's bodies, root to tip) and the inferred palm; in the held grasp each channel's
// signal equals a debounced count rebuilt here from MuJoCo's contacts and mj_contactForce after every step.
TEST_CASE("contact_detection: any MJCF hand, fingers and palm inferred (Allegro grasp)", "[contact_detection]") {
  const std::string dir = mjhand_test::fresh_temp_dir("contact_detection_allegro");
  const std::string hand = mjhand_test::read_all(source_path("models/real/allegro_hand.xml"));
  std::ofstream(dir + "/allegro_hand.xml") << hand;
  std::string scene = mjhand_test::read_all(source_path("models/real/allegro_scene.xml"));
  const int samples = 5;
  const double threshold = 0.01;
  scene.insert(scene.rfind("</mujoco>"),
               "<extension><plugin plugin=\"mjhand.contact_detection\"><instance name=\"cd\">"
               "<config key=\"sensor\" value=\"touch\"/><config key=\"samples\" value=\"" + std::to_string(samples) +
               "\"/></instance></plugin></extension><sensor><plugin name=\"touch\" instance=\"cd\"/></sensor>\n");
  std::ofstream(dir + "/allegro_scene.xml") << scene;
  mjhand::ModelPtr m = mjhand_test::load_xml_file(dir + "/allegro_scene.xml");
  const mjhand::ContactLayout layout = mjhand::declared_contact_layout(m.get(), "cd", nullptr);
  // The four fingers, named by their roots, five bodies each from the knuckle to the tip body; the palm (base_link).
  CHECK(layout.fingers == std::vector<std::string>{"link_0.0", "link_4.0", "link_8.0", "link_12.0"});
  REQUIRE(layout.phalanges == 5);
  for (size_t f = 0; f < layout.fingers.size(); ++f) {
    for (int k = 1; k < 5; ++k) CHECK(m->body_parentid[layout.bodies[f * 5 + k]] == layout.bodies[f * 5 + k - 1]);
  }
  REQUIRE(layout.palm >= 0);
  CHECK(std::string(mj_id2name(m.get(), mjOBJ_BODY, layout.palm)) == "base_link");
  // Fingers named by root bodies take their subtrees; a body watched twice is refused by name.
  CHECK(mjhand::contact_layout(m.get(), {"link_0.0", "link_4.0"}, "base_link").bodies.size() == 10);
  CHECK_THROWS_WITH(mjhand::contact_layout(m.get(), {"link_0.0", "link_1.0"}, ""),
                    Contains("'link_1.0' belongs to finger 'link_0.0' and to finger 'link_1.0'"));
  CHECK_THROWS_WITH(mjhand::contact_layout(m.get(), {"link_0.0"}, "link_2.0"),
                    Contains("'link_2.0' belongs to finger 'link_0.0' and to the palm"));

  mjhand::DataPtr d = mjhand_test::make_data(m.get());
  mj_resetDataKeyframe(m.get(), d.get(), mj_name2id(m.get(), mjOBJ_KEY, "grasp"));
  const int adr = m->sensor_adr[mj_name2id(m.get(), mjOBJ_SENSOR, "touch")];
  std::vector<int> channel(m->nbody, -1), run(layout.channels(), 0);
  for (int c = 0; c < static_cast<int>(layout.bodies.size()); ++c) channel[layout.bodies[c]] = c;
  channel[layout.palm] = layout.channels() - 1;
  for (int step = 0; step < 50; ++step) {
    mj_step(m.get(), d.get());
    std::vector<double> force(layout.channels(), 0.0);
    for (int i = 0; i < d->ncon; ++i) {
      const int c1 = channel[m->geom_bodyid[d->contact[i].geom[0]]], c2 = channel[m->geom_bodyid[d->contact[i].geom[1]]];
      if ((c1 >= 0) == (c2 >= 0) || d->contact[i].efc_address < 0) continue;
      mjtNum f6[6];
      mj_contactForce(m.get(), d.get(), i, f6);
      force[c1 >= 0 ? c1 : c2] += f6[0];
    }
    for (int c = 0; c < layout.channels(); ++c) {
      run[c] = force[c] > threshold ? run[c] + 1 : 0;
      INFO("step " << step << ", channel " << c);
      CHECK(d->sensordata[adr + c] == (run[c] >= samples ? 1.0 : 0.0));  // 0/1 signals: exact
    }
  }
  // The keyframe's grasp: the ball held by the thumb tip and the index and middle fingers' links.
  int held_fingers = 0;
  for (size_t f = 0; f < layout.fingers.size(); ++f) {
    bool any = false;
    for (int k = 0; k < 5; ++k) any = any || d->sensordata[adr + f * 5 + k] == 1.0;
    held_fingers += any;
  }
  CHECK(held_fingers >= 3);
}
