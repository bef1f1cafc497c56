// MuJoCo's mjData stack frames, callable from every build of mjhand.
#pragma once

#include <mujoco/mujoco.h>

namespace mjhand {

// mj_markStack / mj_freeStack of the linked libmujoco. Under AddressSanitizer MuJoCo's header turns these into
// mj__markStack / mj__freeStack, which only an ASan build of MuJoCo exports (the wheel's release build does not), so
// they are called from a file compiled without ASan (plugin/CMakeLists.txt).
void mark_stack(mjData* d);
void free_stack(mjData* d);

}  // namespace mjhand
