// `mjhand synergies record|fit` and the postures file it reads (controllers/mjhand/synergy/posture_recording.h):
// bad input is named with its file, line and column.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <mjhand/synergy/posture_recording.h>
#include "test_util.h"

using namespace mjhand;
using mjhand_test::source_path;

namespace {
const std::string kPostures = "models/synergies/direct_drive_hand_postures.csv";
}  // namespace

TEST_CASE("synergies CLI and postures file: bad input is named", "[synergy]") {
  const std::string dir = mjhand_test::fresh_temp_dir("synergy_cli");
  auto r = mjhand_test::run_cli("synergies record --count 2");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("give the output file with -o FILE"));
  r = mjhand_test::run_cli("synergies fit " + dir + "/none.csv -k 3 -o " + dir + "/s.csv");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains(dir + "/none.csv: cannot open"));
  r = mjhand_test::run_cli("synergies fit " + source_path(kPostures) + " -k 16 -o " + dir + "/s.csv");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("k = 16 must be in 1..15"));
  r = mjhand_test::run_cli("synergies fit " + source_path(kPostures) + " -k 2 --seed 3 -o " + dir + "/s.csv");
  CHECK(r.status == 2);
  // A posture row with a bad number and one with a missing field: FILE:LINE and the column.
  const std::string text = mjhand_test::read_all(source_path(kPostures));
  const size_t row = text.find("\n0,box,") + 1;  // line 5: the first posture
  std::string bad = text;
  bad.replace(bad.find(",f2+f3,", row) + 7, 18, "x.5");
  const std::string path = dir + "/bad.csv";
  std::ofstream(path) << bad;
  CHECK_THROWS_WITH(read_postures(path), Catch::StartsWith(path + ":5: f1_j1: not a finite number: 'x.5"));
  std::string short_row = text;
  short_row.insert(short_row.find('\n', row), "\n1,sphere,0.02");
  std::ofstream(path) << short_row;
  CHECK_THROWS_WITH(read_postures(path), Catch::StartsWith(path + ":6: has 3 fields, the header 24"));
  r = mjhand_test::run_cli("synergies fit " + path + " -o " + dir + "/s.csv");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains(path + ":6:"));
}
