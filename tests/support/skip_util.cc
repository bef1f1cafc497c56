// skip_without (test_util.h): a missing outside dependency is a skip ctest shows, or a failure where it is required.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "test_util.h"

namespace mjhand_test {

bool skip_without(bool available, const std::string& what) {
  if (available) return false;
  const char* require = std::getenv("MJHAND_REQUIRE_TEST_DEPS");
  if (require && std::strcmp(require, "1") == 0) {
    FAIL("missing " << what << ", which this test needs (MJHAND_REQUIRE_TEST_DEPS=1: no test may be skipped)");
  }
  std::cout << "MJHAND_SKIP: needs " << what << std::endl;
  WARN("skipped: needs " << what);
  return true;
}

}  // namespace mjhand_test
