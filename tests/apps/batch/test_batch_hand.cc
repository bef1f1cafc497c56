// mjhand batch with the hand-structure keys (palm, fingers, with_wrist) of a scenario: the compiled variant carries
// infer_hand_structure's hand, the keys enter the rollout hash only when given, and a bad body is a named error.
#include <catch2/catch.hpp>

#include <string>

#include <mjhand/grasp/hand_structure.h>
#include "rollout.h"
#include "test_util.h"

using mjhand_test::source_path;
using namespace mjhand::batch;

namespace {

Campaign shadow_campaign(const std::string& keys) {
  const std::string dir = mjhand_test::fresh_temp_dir("batch_hand");
  const std::string yaml = "name: hands\noutput: " + dir + "/out\nduration: 0.01\nscenarios:\n  - name: shadow\n"
                           "    model: " + source_path("models/real/shadow_scene.xml") +
                           "\n    keyframe: grasp\n    object: ball\n" + keys;
  return parse_campaign(yaml, dir + "/hands.yaml", dir);
}

}  // namespace

TEST_CASE("batch: a scenario's palm/fingers/with_wrist choose the hand of its grasp metrics", "[batch_hand]") {
  const Campaign inferred = shadow_campaign("");
  const Campaign given = shadow_campaign("    palm: rh_palm\n    fingers: [rh_ffknuckle, rh_mfknuckle, rh_thbase]\n"
                                         "    finger_tips: [rh_thdistal]\n    with_wrist: true\n");
  CHECK(given.scenarios[0].fingers == "rh_ffknuckle,rh_mfknuckle,rh_thbase");
  const auto a = expand_campaign(inferred), b = expand_campaign(given);
  REQUIRE(a.size() == 1);
  CHECK(a[0].hash != b[0].hash);  // the hand changes the metrics, so it invalidates stored results
  const auto va = compile_variant(inferred, a[0]);
  const auto vb = compile_variant(given, b[0]);
  REQUIRE(va->error.empty());
  REQUIRE(vb->error.empty());
  // The default is the inferred structure: 5 fingers below rh_palm, the two wrist joints held.
  const mjModel* m = va->model.get();
  CHECK(va->has_hand);
  CHECK(va->hand.palm_body == mj_name2id(m, mjOBJ_BODY, "rh_palm"));
  CHECK(va->hand.num_fingers() == 5);
  CHECK(va->hand.num_hand_dofs() == 22);
  CHECK(vb->hand.num_fingers() == 3);
  CHECK(vb->hand.finger_tip == std::vector<int>{-1, -1, mj_name2id(m, mjOBJ_BODY, "rh_thdistal")});
  CHECK(vb->hand.num_hand_dofs() == 4 + 4 + 5 + 2);  // FF, MF, thumb and the 2 wrist dofs
  // A rollout runs with it: the grasp holds contacts on the chosen fingers.
  const auto d = mjhand_test::make_data(vb->model.get());
  const RolloutResult r = run_rollout(given, b[0], *vb, d.get(), nullptr);
  CHECK(r.status == RolloutResult::Status::kOk);
  CHECK(r.contacts > 0);

  const Campaign bad = shadow_campaign("    fingers: rh_ffknuckle,rh_nope\n");
  const auto vbad = compile_variant(bad, expand_campaign(bad)[0]);
  CHECK_THAT(vbad->error, Catch::Contains("scenario 'shadow': fingers (entry 2): no body named 'rh_nope'"));
  const Campaign overlap = shadow_campaign("    fingers: [rh_ffknuckle, rh_ffmiddle]\n");
  CHECK_THAT(compile_variant(overlap, expand_campaign(overlap)[0])->error,
             Catch::Contains("finger roots overlap: 'rh_ffmiddle' lies inside finger 'rh_ffknuckle'"));
}
