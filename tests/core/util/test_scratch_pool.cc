// ScratchPool (core/mjhand/util/scratch_pool.h), the one mechanism behind the per-thread scratch of the grasp_analysis
// sensor and the hand_object controller: a lease returns its slot in its destructor, also when an exception leaves
// the scope that holds it; every slot busy gives a temporary; slots are never handed to two holders at once.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

#include <mjhand/util/scratch_pool.h>

using mjhand::ScratchPool;

namespace {

struct Scratch {
  std::atomic<int> holders{0};  // > 1 would mean two leases share the object
  int id = -1;
};

struct Counter {
  int made = 0;
  std::unique_ptr<Scratch> operator()() {
    auto s = std::make_unique<Scratch>();
    s->id = made++;
    return s;
  }
};

}  // namespace

TEST_CASE("scratch pool: an exception thrown while a slot is held returns the slot", "[scratch_pool]") {
  Counter make;
  ScratchPool<Scratch> pool(2, std::ref(make));
  REQUIRE(make.made == 2);
  REQUIRE(pool.size() == 2);
  // More throws than slots: with a leaking pool the later leases would all be temporaries.
  for (int round = 0; round < 5; ++round) {
    try {
      ScratchPool<Scratch>::Lease lease(pool, std::ref(make));
      CHECK(lease.pooled());
      CHECK(pool.in_use() == 1);
      throw std::runtime_error("the law failed");
    } catch (const std::runtime_error&) {
    }
    CHECK(pool.in_use() == 0);
  }
  CHECK(make.made == 2);  // no temporary was ever needed
  // Both slots are still there to be leased at once, and only a third holder gets a temporary.
  ScratchPool<Scratch>::Lease a(pool, std::ref(make)), b(pool, std::ref(make));
  CHECK(a.pooled());
  CHECK(b.pooled());
  CHECK(&*a != &*b);
  CHECK(pool.in_use() == 2);
  {
    ScratchPool<Scratch>::Lease c(pool, std::ref(make));
    CHECK_FALSE(c.pooled());
    CHECK(c->id == 2);  // made by this lease's callable
    CHECK(make.made == 3);
  }
  CHECK(pool.in_use() == 2);  // a temporary's end does not free anyone's slot
}

TEST_CASE("scratch pool: a returned slot is reused, and a failing temporary leaves nothing held", "[scratch_pool]") {
  Counter make;
  ScratchPool<Scratch> pool(1, std::ref(make));
  const Scratch* first = nullptr;
  {
    ScratchPool<Scratch>::Lease l(pool, std::ref(make));
    first = &*l;
  }
  {
    ScratchPool<Scratch>::Lease l(pool, std::ref(make));
    CHECK(&*l == first);  // the same preallocated object: no allocation after construction
    auto fail = []() -> std::unique_ptr<Scratch> { throw std::bad_alloc(); };
    CHECK_THROWS_AS(ScratchPool<Scratch>::Lease(pool, fail), std::bad_alloc);
    CHECK(pool.in_use() == 1);  // still only l's
  }
  CHECK(pool.in_use() == 0);
}

TEST_CASE("scratch pool: reset refuses while a slot is leased", "[scratch_pool]") {
  Counter make;
  ScratchPool<Scratch> pool;
  CHECK(pool.size() == 0);
  {
    ScratchPool<Scratch>::Lease l(pool, std::ref(make));  // no slots yet: a temporary
    CHECK_FALSE(l.pooled());
  }
  pool.reset(3, std::ref(make));
  CHECK(pool.size() == 3);
  ScratchPool<Scratch>::Lease l(pool, std::ref(make));
  CHECK_THROWS_AS(pool.reset(1, std::ref(make)), std::logic_error);
  CHECK(pool.size() == 3);
}

TEST_CASE("scratch pool: threads never share a slot", "[scratch_pool]") {
  ScratchPool<Scratch> pool(2, [] { return std::make_unique<Scratch>(); });
  std::atomic<int> shared{0}, temporaries{0};
  std::vector<std::thread> threads;
  // More threads than slots; each holds its lease across a yield so that holders overlap even on few cores (how
  // many leases end up temporaries depends on the scheduler, so it is printed, not checked).
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        ScratchPool<Scratch>::Lease l(pool, [] { return std::make_unique<Scratch>(); });
        if (l->holders.fetch_add(1) != 0) shared.fetch_add(1);
        std::this_thread::yield();
        l->holders.fetch_sub(1);
        if (!l.pooled()) temporaries.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(shared == 0);
  CHECK(pool.in_use() == 0);
  std::printf("[scratch_pool] 80000 leases on 2 slots by 4 threads: %d temporaries\n", temporaries.load());
}
