// Test runner: mjhand's native plugins are registered with MuJoCo once, before any test loads a model.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <mjhand/native/native_plugins.h>

int main(int argc, char* argv[]) {
  mjhand::register_native_plugins();
  return Catch::Session().run(argc, argv);
}
