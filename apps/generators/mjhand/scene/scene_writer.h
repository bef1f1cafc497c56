// SceneSpec -> one self-contained MJCF (hand + objects + contact parameters + optional grasp plugins), compiled and
// validated the way build_hand_model checks a hand. The one path from a scene description to a model file.
#pragma once

#include <string>
#include <vector>

#include <mjhand/generators/build_model.h>
#include <mjhand/io/model_io.h>
#include <mjhand/scene/scene_spec.h>

namespace mjhand {

struct SceneWriteOptions {
  // Write `${name}` placeholders into the MJCF (for `mjhand batch`, which substitutes them before loading) instead of
  // their defaults. The compiled check model always uses the defaults.
  bool keep_placeholders = false;
  // Directory the MJCF will be saved in: mesh files are referenced relative to it. Empty: absolute paths.
  std::string output_dir;
};

// Solver parameters given to one object's geom (for reports and tests).
struct ObjectContact {
  std::string object;
  double reference_mass = 0;  // [kg] the mass the Kelvin-Voigt mapping used
  double mass = 0;            // [kg] the object's mass in the compiled model
  MujocoContact mujoco;
};

struct BuiltScene {
  std::string xml;      // the model file's contents (placeholders kept if asked)
  ModelPtr model;       // compiled with the placeholder defaults
  std::vector<ObjectContact> contacts;
};

// Builds and checks the scene. Throws SpecError (citing the description) for problems that show only once compiled,
// ModelRejectedError when MuJoCo rejects the MJCF.
BuiltScene build_scene(const SceneSpec& spec, const SceneWriteOptions& options = {});

// Names the scene gives its grasp plugins and sensors (docs/scenes.md).
inline constexpr const char* kSceneDetector = "contacts";        // contact_detection instance and its signal sensor
inline constexpr const char* kSceneWhereSensor = "contact_where";
inline constexpr const char* kSceneCloser = "closure";           // hand_closure instance

}  // namespace mjhand
