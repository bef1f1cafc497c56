// HandSpec -> the final MJCF of a hand, checked the way a program will use it: compiled by MuJoCo with mjhand's native
// plugins registered (so every instance is validated by its own init), every chain readable. The one path
// from a description to a model file, shared by `mjhand make-hand` and library users.
#pragma once

#include <stdexcept>
#include <string>

#include <mjhand/hand/hand_spec.h>
#include <mjhand/io/model_io.h>
#include <mjhand/util/error.h>

namespace mjhand {

// MuJoCo refused the generated MJCF; xml is the rejected text, kept so the caller can save it for inspection.
class ModelRejectedError : public Error {
 public:
  ModelRejectedError(const std::string& message, std::string rejected_xml)
      : Error(message), xml(std::move(rejected_xml)) {}
  std::string xml;
};

// A hand description built into MJCF and compiled (not grasp/contact_frames.h's HandModel, which describes
// the hand of a grasp).
struct BuiltHand {
  std::string xml;  // the model file's contents
  ModelPtr model;   // xml compiled by MuJoCo
};

// Writes the MJCF (write_mjcf; the comment names the base name of spec.source_name), compiles it in memory and
// validates it. Throws SpecError citing spec.source_name, the YAML line and the field for an unknown plugin type or
// key and for a configuration the instance rejects ("plugins[i].config.KEY: <mjhand's message>"), and
// ModelRejectedError when MuJoCo rejects the MJCF for another reason.
BuiltHand build_hand_model(const HandSpec& spec);

}  // namespace mjhand
