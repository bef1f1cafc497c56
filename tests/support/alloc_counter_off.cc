// alloc_counter.h in a sanitizer build: ASan and TSan own malloc, so nothing is counted.
#include "alloc_counter.h"

namespace mjhand_test {

bool allocation_counting_available() { return false; }
void start_counting_allocations() {}
long stop_counting_allocations() { return 0; }

}  // namespace mjhand_test
