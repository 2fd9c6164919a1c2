// Peak bytes of live Kokkos allocations in the default memory space (the GPU's on a device back end: host mirrors
// and MPI staging copies there are host memory, which a MemoryEstimate lists apart), seen through the Kokkos Tools
// allocate/deallocate callbacks (core API since Kokkos 3.3). The unit tests run an app on a small deck under a
// tracker and compare the peak with the app's MemoryEstimate::view_bytes() (memory_budget.hpp). One tracker at a time;
// not thread-safe (Kokkos allocates from the host thread).
#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <map>

namespace proxylab {

class AllocationTracker {
 public:
  AllocationTracker() {
    state() = State{};
    Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(on_deallocate);
  }
  ~AllocationTracker() {
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
  }
  AllocationTracker(const AllocationTracker&) = delete;
  AllocationTracker& operator=(const AllocationTracker&) = delete;

  double peak_bytes() const { return double(state().peak); }
  double live_bytes() const { return double(state().live); }

 private:
  struct State {
    std::uint64_t live = 0, peak = 0;
    std::map<const void*, std::uint64_t> sizes;
  };
  static State& state() {
    static State s;
    return s;
  }
  static void on_allocate(Kokkos::Tools::SpaceHandle space, const char*, const void* ptr, std::uint64_t size) {
    if (std::strcmp(space.name, Kokkos::DefaultExecutionSpace::memory_space::name()) != 0) return;
    State& s = state();
    s.sizes[ptr] = size;
    s.live += size;
    if (s.live > s.peak) s.peak = s.live;
  }
  static void on_deallocate(Kokkos::Tools::SpaceHandle, const char*, const void* ptr, std::uint64_t) {
    State& s = state();
    auto it = s.sizes.find(ptr);
    if (it == s.sizes.end()) return;  // allocated before the tracker started
    s.live -= it->second;
    s.sizes.erase(it);
  }
};

}  // namespace proxylab
