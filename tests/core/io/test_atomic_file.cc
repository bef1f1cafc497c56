// write_file_atomically (core/mjhand/io/atomic_file.h), the one writer behind every mjhand output file (make-hand,
// make-scene, run, scenario, current-study, identify-coupling, the batch engine and its plots): the final name only
// ever holds a complete file, the temporary lives in the same folder and is gone after success and failure alike,
// and errors name the path.
#include <catch2/catch.hpp>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include <mjhand/io/atomic_file.h>
#include <mjhand/io/model_io.h>  // still declares it for the callers that included it from there
#include "test_util.h"

using namespace mjhand;
using Catch::Contains;
using mjhand_test::read_all;
namespace fs = std::filesystem;

namespace {
// Every file name under dir that looks like a leftover temporary.
std::vector<std::string> leftovers(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".tmp" || ext == ".partial") out.push_back(e.path().string());
  }
  return out;
}
}  // namespace

TEST_CASE("atomic write: new and replaced files, through a temporary in the same folder", "[atomic_file]") {
  const std::string dir = mjhand_test::fresh_temp_dir("atomic_write");
  const std::string path = dir + "/out.csv";
  write_file_atomically(path, "first\n");
  CHECK(read_all(path) == "first\n");
  int renames = 0;
  WriteHooks hooks;
  hooks.before_rename = [&](const std::string& tmp, const std::string& final_path) {
    ++renames;
    CHECK(final_path == path);
    CHECK(fs::path(tmp).parent_path() == fs::path(path).parent_path());  // same file system: rename is atomic
    CHECK(read_all(tmp) == "second, longer\n");                          // complete before the rename
    CHECK(read_all(path) == "first\n");                                  // readers still see the old file
  };
  write_file_atomically(path, "second, longer\n", &hooks);
  CHECK(renames == 1);
  CHECK(read_all(path) == "second, longer\n");
  write_file_atomically(path, "");  // an empty file is a file
  CHECK(fs::exists(path));
  CHECK(fs::file_size(path) == 0);
  CHECK(leftovers(dir).empty());
}

TEST_CASE("atomic write: a failed write keeps the old file, removes the temporary and names the path",
          "[atomic_file]") {
  const std::string dir = mjhand_test::fresh_temp_dir("atomic_fail");
  const std::string path = dir + "/summary.csv";
  write_file_atomically(path, "old\n");
  WriteHooks full;
  full.fail_errno = [](const std::string&) { return ENOSPC; };
  CHECK_THROWS_WITH(write_file_atomically(path, "new\n", &full),
                    path + ": cannot write (write of " + path + ".tmp failed): No space left on device");
  CHECK(read_all(path) == "old\n");
  CHECK(leftovers(dir).empty());

  const std::string missing = dir + "/no/such/folder/x.csv";
  CHECK_THROWS_WITH(write_file_atomically(missing, "x"),
                    missing + ": cannot write (cannot create " + missing + ".tmp): No such file or directory");

  // The final name is taken by a folder that is not empty: the rename fails, the temporary goes.
  const std::string taken = dir + "/taken";
  fs::create_directories(taken + "/inside");
  CHECK_THROWS_WITH(write_file_atomically(taken, "x"),
                    Contains(taken + ": cannot write (rename of " + taken + ".tmp failed)"));
  CHECK(fs::is_directory(taken));
  CHECK(leftovers(dir).empty());
}

