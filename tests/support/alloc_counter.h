// Counting heap allocations in a test (the grasp sensor's per-step check). Every heap allocation of the process
// (operator new, Eigen, MuJoCo, GLPK, qhull all end in malloc) counts while counting is on. Builds with a sanitizer
// link alloc_counter_off.cc instead: the sanitizer runtime owns malloc there (tests/CMakeLists.txt).
#pragma once

namespace mjhand_test {

// Whether this build counts allocations (false under a sanitizer).
bool allocation_counting_available();

// Starts counting; stop_counting_allocations() returns the number of mallocs since.
void start_counting_allocations();
long stop_counting_allocations();

}  // namespace mjhand_test
