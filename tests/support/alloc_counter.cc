// The counting malloc (alloc_counter.h): glibc's malloc is __libc_malloc, so forwarding to it changes nothing else.
#include "alloc_counter.h"

#include <atomic>
#include <cstddef>

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

extern "C" void* __libc_malloc(size_t size);
extern "C" void* malloc(size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}

namespace mjhand_test {

bool allocation_counting_available() { return true; }

void start_counting_allocations() {
  g_allocations = 0;
  g_counting = true;
}

long stop_counting_allocations() {
  g_counting = false;
  return g_allocations.load();
}

}  // namespace mjhand_test
