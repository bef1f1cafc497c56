// `mjhand fit-coupling` (core/mjhand/coupling/fit.h behind it; its unit tests in tests/core/coupling/): the law,
// its statistics and the MJCF equality printed, a bad order refused.
#include <catch2/catch.hpp>

#include <string>

#include "test_util.h"

using mjhand_test::source_path;

TEST_CASE("mjhand fit-coupling prints the law and statistics and the MJCF equality", "[fitcoupling]") {
  const auto r = mjhand_test::run_cli("fit-coupling " + source_path("tests/data/berul_thumb_capture.csv") +
                                      " --x joint_1 --y joint_2 --deg --supplement --mjcf --joint1 thumb_j3"
                                      " --joint2 thumb_j2 --ref1 0.1 --ref2 -0.05");
  INFO(r.output);
  REQUIRE(r.status == 0);
  // polycoef a0 = law(ref2) - ref1 = 1.0078 + 1.0552 (-0.05) - 0.1 = 0.85504: the law re-expanded about the refs.
  CHECK_THAT(r.output, Catch::Contains("R^2 = 1.0000000") && Catch::Contains("y = 1.0078 + 1.0552 x") &&
                           Catch::Contains("joint1=\"thumb_j3\" joint2=\"thumb_j2\" polycoef=\"0.8550"));
  const auto bad = mjhand_test::run_cli("fit-coupling " + source_path("tests/data/berul_thumb_capture.csv") +
                                        " --x joint_1 --y frame --order 5");
  CHECK(bad.status == 2);
}
