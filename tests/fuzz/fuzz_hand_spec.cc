// libFuzzer target: hand descriptions (plugin/hand YAML: DH tables, fingers, actuators, couplings). A description
// that parses is also written back to YAML and parsed again, which must succeed: the writer's output is part of the
// format, and written as MJCF, which must hold finite numbers only. Documented outcome for bad input: SpecError.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_util.h"
#include <mjhand/hand/hand_spec.h>
#include <mjhand/hand/mjcf_writer.h>
#include <mjhand/hand/yaml_fields.h>

namespace {
// A number the MJCF writer printed as nan or inf (MuJoCo would read it as 0 or reject the file): a token of the
// document, delimited by whitespace, quotes or '>' '<'.
bool has_non_finite_token(const std::string& xml) {
  std::string token;
  for (size_t i = 0; i <= xml.size(); ++i) {
    const char ch = i < xml.size() ? xml[i] : ' ';
    if (ch == ' ' || ch == '"' || ch == '\n' || ch == '>' || ch == '<' || ch == '\t') {
      if (token == "nan" || token == "-nan" || token == "inf" || token == "-inf") return true;
      token.clear();
    } else {
      token += ch;
    }
  }
  return false;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mjhand::HandSpec spec;
  try {
    spec = mjhand::parse_hand_spec(mjhand_fuzz::as_text(data, size), "fuzz_hand.yaml");
  } catch (const mjhand::SpecError& e) {
    mjhand_fuzz::documented(e);
    return 0;
  }
  const std::string again = mjhand::hand_spec_to_yaml(spec);
  try {
    mjhand::parse_hand_spec(again, "fuzz_hand_rewritten.yaml");
  } catch (const mjhand::SpecError& e) {
    std::fprintf(stderr, "a parsed hand description does not survive hand_spec_to_yaml: %s\n%s\n", e.what(),
                 again.c_str());
    std::abort();
  }
  // The MJCF writer is the parser's consumer: a description the parser accepts must be writable, without NaN/inf.
  const std::string xml = mjhand::write_mjcf(spec, "fuzz_hand.yaml");
  if (has_non_finite_token(xml)) {
    std::fprintf(stderr, "write_mjcf printed a non-finite number for an accepted description:\n%s\n", xml.c_str());
    std::abort();
  }
  return 0;
}
