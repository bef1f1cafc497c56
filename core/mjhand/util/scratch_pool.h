// Preallocated scratch objects shared by the threads that step one model. A plugin or controller object is shared by
// every mjData of its model, so per-step scratch cannot be a plain member; a fixed set of slots, each with an atomic
// busy flag, is handed out instead. A Lease holds one slot and returns it in its destructor, so a slot is returned on
// every path out of the scope that took it, exceptions included (a hand-rolled acquire/release pair leaked its slot
// whenever the code between them threw; once every slot had leaked, every step allocated).
#pragma once

#include <atomic>
#include <memory>
#include <stdexcept>
#include <vector>

namespace mjhand {

template <typename T>
class ScratchPool {
 public:
  ScratchPool() = default;  // no slots until reset(): every lease is a temporary
  // `slots` objects from make() (a callable returning std::unique_ptr<T>), all made now.
  template <typename Make>
  ScratchPool(int slots, Make&& make) {
    reset(slots, make);
  }
  // Leases point into the pool, and the owner's make() usually refers to its owner: neither may move.
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;

  // Replaces every slot (for an owner that can build its scratch only after validating its input). Throws
  // std::logic_error while a slot is leased: the lease would be left pointing at a freed object.
  template <typename Make>
  void reset(int slots, Make&& make) {
    if (in_use() > 0) throw std::logic_error("ScratchPool::reset while a slot is leased");
    std::vector<std::unique_ptr<T>> fresh;
    fresh.reserve(static_cast<size_t>(slots > 0 ? slots : 0));
    for (int i = 0; i < slots; ++i) fresh.push_back(make());
    auto busy = std::make_unique<std::atomic<bool>[]>(fresh.size());
    for (size_t i = 0; i < fresh.size(); ++i) busy[i].store(false, std::memory_order_relaxed);
    slots_ = std::move(fresh);
    busy_ = std::move(busy);
  }

  // One slot for the lifetime of the lease, or, when every slot is busy (more threads stepping at once than slots),
  // a temporary from make(), which allocates but stays correct. make is a callable returning std::unique_ptr<T>,
  // called only in that case, so it can use the caller's current arguments (the mjModel of this call). Not copyable
  // or movable: the lease returns what it holds exactly once, in its destructor.
  class Lease {
   public:
    template <typename Make>
    Lease(ScratchPool& pool, Make&& make) : pool_(pool) {
      for (size_t i = 0; i < pool.slots_.size(); ++i) {
        if (!pool.busy_[i].exchange(true, std::memory_order_acquire)) {
          index_ = static_cast<int>(i);
          return;
        }
      }
      temporary_ = make();  // if this throws, nothing is held
    }
    ~Lease() {
      if (index_ >= 0) pool_.busy_[index_].store(false, std::memory_order_release);
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    T& operator*() const { return index_ >= 0 ? *pool_.slots_[index_] : *temporary_; }
    T* operator->() const { return &**this; }
    bool pooled() const { return index_ >= 0; }  // false: a temporary (every slot was busy)

   private:
    ScratchPool& pool_;
    int index_ = -1;
    std::unique_ptr<T> temporary_;
  };

  int size() const { return static_cast<int>(slots_.size()); }
  // Slots leased right now (a snapshot; for tests, diagnostics and reset's check).
  int in_use() const {
    int n = 0;
    for (size_t i = 0; i < slots_.size(); ++i) n += busy_[i].load(std::memory_order_relaxed) ? 1 : 0;
    return n;
  }

 private:
  std::vector<std::unique_ptr<T>> slots_;
  std::unique_ptr<std::atomic<bool>[]> busy_;
};

}  // namespace mjhand
