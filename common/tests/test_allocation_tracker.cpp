// AllocationTracker: the peak of live allocations in the default memory space; a host mirror of a device view is
// host memory and is not counted (on a host back end both are one space).
#include "proxylab/allocation_tracker.hpp"
#include "proxylab/layout.hpp"
#include "proxylab/testing.hpp"

TEST_CASE("allocation tracker: the peak of the default memory space's allocations", "[memory]") {
  proxylab::AllocationTracker tracker;
  {
    proxylab::View1D<double> a("a", 1000);
    {
      proxylab::View1D<double> b("b", 500);
      CHECK(tracker.live_bytes() == 12000);
    }
    CHECK(tracker.live_bytes() == 8000);
    const auto mirror = Kokkos::create_mirror(a);  // a new allocation in host memory
    CHECK(tracker.live_bytes() == (proxylab::mem_space_on_host ? 16000 : 8000));
  }
  CHECK(tracker.live_bytes() == 0);
  CHECK(tracker.peak_bytes() == (proxylab::mem_space_on_host ? 16000 : 12000));
}
