// Names and numbers in messages: how mjhand refers to MJCF objects and values in every error it writes.
#pragma once

#include <mujoco/mujoco.h>

#include <string>

namespace mjhand {

// Human name of an MJCF object type for messages ("joint", "site", ...).
const char* object_type_name(mjtObj type);

// A number for messages, with 10 significant digits (enough to copy a computed value such as an armature back
// into the MJCF).
std::string format_value(double v);

// "'NAME'" of object id, or "#ID" when it has no name: safe to put in any message.
std::string object_label(const mjModel* m, mjtObj type, int id);

}  // namespace mjhand
