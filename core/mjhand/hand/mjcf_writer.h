// Spec -> MJCF text that MuJoCo compiles: one body per DH link laid out with dh_split, so MuJoCo's
// fingertip sites coincide with mjhand's DH FK, the DH tables themselves as <custom> numeric fields, and
// the plugin instances as native <extension> plugins.
#pragma once

#include <string>

#include <mjhand/hand/hand_spec.h>

namespace mjhand {

// The MJCF document for a hand. source_name (e.g. the YAML file's name) goes into the "generated from" comment;
// keep it free of machine-specific paths so regenerating elsewhere gives identical bytes.
std::string write_mjcf(const HandSpec& spec, const std::string& source_name);

}  // namespace mjhand
