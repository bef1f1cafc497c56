#include <mjhand/io/mj_stack.h>

namespace mjhand {

void mark_stack(mjData* d) { mj_markStack(d); }
void free_stack(mjData* d) { mj_freeStack(d); }

}  // namespace mjhand
