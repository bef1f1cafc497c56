// HandSpec -> the final MJCF of a hand, checked the way a program will use it: compiled by MuJoCo, <size nuserdata>
// large enough for its plugin instances, every instance accepted by Host::attach, every chain readable. The one path
// from a description to a model file, shared by `mjhand make-hand` and library users.
#pragma once

#include <stdexcept>
#include <string>

#include "hand/hand_spec.h"
#include "io/model_io.h"

namespace mjhand {

// MuJoCo refused the generated MJCF; xml is the rejected text, kept so the caller can save it for inspection.
class ModelRejectedError : public std::runtime_error {
 public:
  ModelRejectedError(const std::string& message, std::string rejected_xml)
      : std::runtime_error(message), xml(std::move(rejected_xml)) {}
  std::string xml;
};

// A hand description built into MJCF and compiled (not grasp/contact_frames.h's HandModel, which describes
// the hand of a grasp).
struct BuiltHand {
  std::string xml;  // the model file's contents
  ModelPtr model;   // xml compiled by MuJoCo (no Host attached)
  int nuserdata = 0;  // what <size nuserdata> ended up as: spec.nuserdata, or the plugins' need when that was 0
};

// Writes the MJCF (write_mjcf; the comment names the base name of spec.source_name), compiles it in memory and
// validates it. When spec.nuserdata is 0, nuserdata is sized to what the plugin instances need.
// Throws ModelRejectedError when MuJoCo rejects the MJCF, and SpecError citing spec.source_name, the YAML line and the
// field for problems only the compiled model reveals: a plugin instance the host rejects
// ("plugins[i].config.KEY: <host message>"), an nuserdata below the plugins' need, a need above kMaxNuserdata.
BuiltHand build_hand_model(const HandSpec& spec);

}  // namespace mjhand
