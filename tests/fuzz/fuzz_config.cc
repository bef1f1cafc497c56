// libFuzzer target: plugin configuration strings (MJCF <custom><text data="..."> and --set values). The input is
// parsed by parse_key_values, and every key is then read through one of Config's typed getters (chosen by the key's
// position, so the fuzzer reaches each getter with arbitrary values) against a small model with joints, sites and
// actuators. Documented outcome for bad input: ConfigError.
#include <mujoco/mujoco.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_util.h"
#include <mjhand/host/config.h>
#include <mjhand/io/model_io.h>

namespace {

const char kModelXml[] = R"(<mujoco>
  <worldbody>
    <body name="b1"><joint name="j1" type="hinge"/><geom size="0.01"/><site name="s1"/>
      <body name="b2"><joint name="j2" type="slide"/><geom size="0.01"/><site name="s2"/></body>
    </body>
  </worldbody>
  <actuator><motor name="a1" joint="j1"/><motor name="a2" joint="j2"/></actuator>
</mujoco>)";

// The model is compiled once, from memory.
const mjModel* fuzz_model() {
  static const mjModel* m = [] {
    std::string error;
    mjhand::ModelPtr model = mjhand::compile_xml_string(kModelXml, "fuzz_config.xml", error);
    if (!model) {
      std::fprintf(stderr, "fuzz_config: the built-in model does not compile: %s\n", error.c_str());
      std::abort();
    }
    return model.release();  // lives for the process
  }();
  return m;
}

// Reads `key` with the getter numbered `which`, as a plugin type would.
void read_key(const mjhand::Config& c, const std::string& key, size_t which) {
  switch (which % 12) {
    case 0:
      c.get_string(key);
      break;
    case 1:
      c.get_double(key);
      break;
    case 2:
      c.get_double(key, 0.0, 1.0);
      break;
    case 3:
      c.get_double_or(key, 0.5, -1.0, 1.0);
      break;
    case 4:
      c.get_int(key, -5, 5);
      break;
    case 5:
      c.get_int_or(key, 0, 0, 1000000);
      break;
    case 6:
      c.get_bool_or(key, false);
      break;
    case 7:
      c.get_doubles(key);
      break;
    case 8:
      c.get_doubles(key, 3);
      break;
    case 9:
      c.get_choice_or(key, "pid", {"pid", "posture", "coupling"});
      break;
    case 10:
      c.get_object(key, mjOBJ_JOINT);
      break;
    case 11:
      c.get_objects(key, key.size() % 2 ? mjOBJ_ACTUATOR : mjOBJ_SITE, true);
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = mjhand_fuzz::as_text(data, size);
  const auto where = [] { return std::string("fuzz.xml:1: instance 'fuzz'"); };
  std::vector<std::pair<std::string, std::string>> values;
  try {
    values = mjhand::parse_key_values(text, where);
  } catch (const mjhand::ConfigError& e) {
    mjhand_fuzz::documented(e);
    return 0;
  }
  std::vector<std::string> keys;
  for (const auto& kv : values) keys.push_back(kv.first);
  mjhand::Config config(
      fuzz_model(), "fuzz", "fuzz", [] { return std::string("fuzz.xml:1"); }, std::move(values));
  if (!keys.empty()) config.set_origin(keys.front(), "--set");
  for (size_t i = 0; i < keys.size(); ++i) {
    try {
      read_key(config, keys[i], i + size);
    } catch (const mjhand::ConfigError& e) {
      mjhand_fuzz::documented(e);
    }
  }
  try {
    config.get_string("missing_key");
  } catch (const mjhand::ConfigError& e) {
    mjhand_fuzz::documented(e);
  }
  try {
    config.check_all_used();
  } catch (const mjhand::ConfigError& e) {
    mjhand_fuzz::documented(e);
  }
  return 0;
}
