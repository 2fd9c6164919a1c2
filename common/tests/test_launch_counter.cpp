// LaunchCounter: every parallel dispatch while it lives, none after; a tool's callback still runs; counting puts no
// fence before a launch (the runner asks for none before Kokkos::initialize, as the apps do).
#include "proxylab/launch_counter.hpp"
#include "proxylab/testing.hpp"

namespace {
int tool_calls = 0;
void tool_begin_for(const char*, std::uint32_t, std::uint64_t*) { ++tool_calls; }
int fences = 0;
void count_fence(const char*, std::uint32_t, std::uint64_t*) { ++fences; }
}  // namespace

TEST_CASE("launch counter: counts parallel_for, reduce and scan while alive, and chains a tool", "[launch]") {
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>;
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(tool_begin_for);
  tool_calls = 0;
  {
    proxylab::LaunchCounter counter;
    for (int i = 0; i < 3; ++i) Kokkos::parallel_for("count::for", Policy(0, 10), [](int) {});
    double sum = 0;
    Kokkos::parallel_reduce(
        "count::reduce", Policy(0, 10), [](int i, double& s) { s += i; }, sum);
    Kokkos::parallel_scan("count::scan", Policy(0, 10), [](int, int& u, bool) { u += 1; });
    CHECK(counter.launches() == 5);
    CHECK(sum == 45);
    CHECK(tool_calls == 3);  // the tool saw its parallel_fors
  }
  Kokkos::parallel_for("count::after", Policy(0, 10), [](int) {});
  CHECK(tool_calls == 4);  // the tool's callback is back in place
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  proxylab::LaunchCounter fresh;
  CHECK(fresh.launches() == 0);
}

TEST_CASE("launch counter: no fence before each launch while counting", "[launch]") {
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>;
  Kokkos::fence();
  Kokkos::Tools::Experimental::set_begin_fence_callback(count_fence);
  fences = 0;
  {
    proxylab::LaunchCounter counter;
    for (int i = 0; i < 3; ++i) Kokkos::parallel_for("count::unfenced", Policy(0, 10), KOKKOS_LAMBDA(int){});
    CHECK(counter.launches() == 3);
  }
  Kokkos::Tools::Experimental::set_begin_fence_callback(nullptr);
  if (proxylab::LaunchCounter::can_request_no_fences) CHECK(fences == 0);
  Kokkos::fence();
}

TEST_CASE("launch counter: counts the host's waits (fences), and chains a tool's fence callback", "[launch]") {
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>;
  Kokkos::View<double, proxylab::MemSpace> on_device("count::sum");
  Kokkos::fence();
  Kokkos::Tools::Experimental::set_begin_fence_callback(count_fence);
  fences = 0;
  {
    proxylab::LaunchCounter counter;
    Kokkos::parallel_reduce(
        "count::into_view", Policy(0, 10), KOKKOS_LAMBDA(int i, double& s) { s += i; }, on_device);
    const std::uint64_t after_view = counter.fences();
    double on_host = 0;
    Kokkos::parallel_reduce(
        "count::into_value", Policy(0, 10), KOKKOS_LAMBDA(int i, double& s) { s += i; }, on_host);
    const std::uint64_t after_value = counter.fences();
    Kokkos::fence();
    CHECK(on_host == 45);
    if (proxylab::LaunchCounter::sees_internal_fences) {  // (Kokkos 3.4 tells the tools of no fence here)
      CHECK(counter.fences() > after_value);              // a global fence: one per execution space Kokkos has
      CHECK(after_view == 0);                             // a reduction into device memory leaves the host free
      CHECK(after_value == 1);                            // one into a host value waits for it
    }
    CHECK(fences == int(counter.fences()));  // the tool saw every one
  }
  Kokkos::Tools::Experimental::set_begin_fence_callback(nullptr);
}
