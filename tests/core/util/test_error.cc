// One exception base (core/mjhand/util/error.h): every kind of error the library throws for input it refuses derives
// from mjhand::Error, which is a std::runtime_error, and a real refusal of each layer is caught as mjhand::Error.
#include <catch2/catch.hpp>

#include <type_traits>

#include <mjhand/coupling/fit.h>
#include <mjhand/generators/build_model.h>
#include <mjhand/grasp/contact_frames.h>
#include <mjhand/hand/yaml_fields.h>
#include <mjhand/host/config.h>
#include <mjhand/parallel/screws.h>
#include <mjhand/util/error.h>

static_assert(std::is_base_of_v<std::runtime_error, mjhand::Error>);
static_assert(std::is_base_of_v<mjhand::Error, mjhand::SpecError>);
static_assert(std::is_base_of_v<mjhand::Error, mjhand::GraspError>);
static_assert(std::is_base_of_v<mjhand::Error, mjhand::ParallelError>);
static_assert(std::is_base_of_v<mjhand::Error, mjhand::FitError>);
static_assert(std::is_base_of_v<mjhand::Error, mjhand::ConfigError>);
static_assert(std::is_base_of_v<mjhand::Error, mjhand::ModelRejectedError>);

TEST_CASE("refusals of the core and the plugin layer are caught as mjhand::Error", "[error]") {
  CHECK_THROWS_AS(mjhand::require_cone_edges(2), mjhand::Error);                  // GraspError
  CHECK_THROWS_AS(mjhand::parse_key_values("type=pid kp", [] { return std::string("test"); }), mjhand::Error);
  CHECK_THROWS_WITH(mjhand::require_cone_edges(2), Catch::Contains("cone_edges"));
}
