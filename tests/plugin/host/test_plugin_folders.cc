// One folder per plugin type (docs/architecture.md): every type register_builtin_plugins adds has
// plugin/mjhand/<type>/ with its factory (<type>_plugin.h/.cc) and a README that names an example model which loads
// and declares an instance of mjhand.<type>; plugin/mjhand/ holds nothing else but the framework (host/, native/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include <mjhand/host/registry.h>
#include "test_util.h"

using mjhand_test::read_all;
using mjhand_test::source_path;

TEST_CASE("every plugin type has its folder with factory, README and a loading example model", "[plugin_types]") {
  mjhand::PluginRegistry registry;
  mjhand::register_builtin_plugins(registry);
  const std::vector<std::string> types = registry.names();
  REQUIRE(types.size() >= 14);
  const std::string root = source_path("plugin/mjhand");
  for (const std::string& type : types) {
    INFO("type " << type);
    const std::string dir = root + "/" + type;
    CHECK(std::filesystem::exists(dir + "/" + type + "_plugin.h"));
    CHECK(std::filesystem::exists(dir + "/" + type + "_plugin.cc"));
    CHECK_FALSE(registry.find(type)->keys.empty());
    REQUIRE(std::filesystem::exists(dir + "/README.md"));
    const std::string readme = read_all(dir + "/README.md");
    CHECK(readme.rfind("# " + type + " ", 0) == 0);
    // The README's example models: at least one declares the type and loads with mjhand's plugins.
    const std::regex model_path("models/[A-Za-z0-9_/.-]+\\.xml");
    int examples = 0;
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), model_path); it != std::sregex_iterator(); ++it) {
      const std::string path = source_path(it->str());
      INFO("example " << it->str());
      REQUIRE(std::filesystem::exists(path));
      if (read_all(path).find("plugin=\"mjhand." + type + "\"") == std::string::npos) continue;
      CHECK(mjhand_test::load_xml_file(path) != nullptr);
      ++examples;
    }
    CHECK(examples >= 1);
  }
  // Nothing else lives beside the type folders but the framework.
  std::set<std::string> expected(types.begin(), types.end());
  expected.insert({"host", "native"});
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    INFO(entry.path().string());
    CHECK(expected.count(entry.path().filename().string()) == 1);
  }
}
