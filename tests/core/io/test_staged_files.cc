// StagedFiles (core/mjhand/io/staged_files.h): the one place MJCF held in memory is staged in MuJoCo's virtual file
// system and compiled, behind compile_xml_string (make-hand, make-scene) and compile_with_overrides (run --set,
// campaigns, the viewer's edits).
#include <catch2/catch.hpp>

#include <string>

#include <mjhand/io/model_io.h>
#include <mjhand/io/staged_files.h>
#include <mjhand/native/native_overrides.h>

using namespace mjhand;
using Catch::Contains;

namespace {
const std::string kMain = R"(<mujoco><include file="part.xml"/><worldbody><body name="a"><geom size="0.1"/></body>
</worldbody></mujoco>)";
const std::string kPart = R"(<mujoco><worldbody><body name="from_part"><geom size="0.2"/></body></worldbody></mujoco>)";
}  // namespace

TEST_CASE("staged files: a model and the file it includes compile from memory", "[staged_files]") {
  StagedFiles files;
  REQUIRE(files.add("main.xml", kMain));
  REQUIRE(files.add("part.xml", kPart));
  CHECK_FALSE(files.add("part.xml", kPart));  // MuJoCo refuses a name twice: reported, not ignored
  std::string error;
  ModelPtr m = files.compile("main.xml", error);
  REQUIRE(m);
  CHECK(error.empty());
  CHECK(mj_name2id(m.get(), mjOBJ_BODY, "a") >= 0);
  CHECK(mj_name2id(m.get(), mjOBJ_BODY, "from_part") >= 0);
  // Staged files stay for further compiles of the same object.
  CHECK(files.compile("main.xml", error));
}

TEST_CASE("staged files: MuJoCo's message when a file is missing or the model is wrong", "[staged_files]") {
  StagedFiles files;
  REQUIRE(files.add("main.xml", kMain));  // without part.xml
  std::string error;
  CHECK_FALSE(files.compile("main.xml", error));
  CHECK_THAT(error, Contains("part.xml"));
  std::string bad_error;
  CHECK_FALSE(compile_xml_string("<mujoco><worldbody><geom type=\"nonsense\"/></worldbody></mujoco>", "bad.xml",
                                 bad_error));
  CHECK_THAT(bad_error, Contains("nonsense"));
  std::string ok_error;
  CHECK(compile_xml_string(kPart, "part_alone.xml", ok_error));
}

TEST_CASE("staged files: compile_with_overrides stages the main text through them", "[staged_files]") {
  ModelPtr m = compile_with_overrides("alone.xml", kPart, {});
  REQUIRE(m);
  CHECK(mj_name2id(m.get(), mjOBJ_BODY, "from_part") >= 0);
  CHECK_THROWS_WITH(compile_with_overrides("alone.xml", "<mujoco><bad/></mujoco>", {}),
                    Contains("alone.xml") && Contains("MuJoCo cannot load"));
}
