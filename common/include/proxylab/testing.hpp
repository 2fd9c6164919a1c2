// Test support shared by every proxy's Catch2 tests: the Catch2 header (v2 or v3), the lists of enabled Kokkos
// back ends for TEMPLATE_LIST_TEST_CASE, an allclose() helper, and a whole app run in-process under the Kokkos
// allocation hooks (the memory-estimate tests).
//
// A test of code that takes its space as a parameter is written once over one of the lists, as Cabana's test harness
// and KokkosKernels' Test_<Backend> files write a body once per enabled back end: a device build then runs it on the
// host and on the device, a host build on its host back ends.
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
#include <Kokkos_Core.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>

#include "proxylab/allocation_tracker.hpp"
#include "proxylab/app.hpp"

namespace proxylab::testing {

// Every enabled host execution space: tests instantiated over this list run on each back end.
using HostSpaces = std::tuple<
#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
    Kokkos::Serial, Kokkos::OpenMP
#elif defined(KOKKOS_ENABLE_OPENMP)
    Kokkos::OpenMP
#elif defined(KOKKOS_ENABLE_SERIAL)
    Kokkos::Serial
#else
    Kokkos::DefaultHostExecutionSpace
#endif
    >;

// The host execution space, and the default one where it is a device: each back end of a library (FFTW and cuFFT,
// host and device MPI buffers) once.
using HostAndDevice = std::conditional_t<mem_space_on_host, std::tuple<HostExec>, std::tuple<HostExec, ExecSpace>>;

// Every enabled host execution space, and the default one where it is a device.
using EnabledSpaces =
    std::conditional_t<mem_space_on_host, HostSpaces, decltype(std::tuple_cat(HostSpaces{}, std::tuple<ExecSpace>{}))>;

// A host copy of any View's data, to check on the host what a test body computed in its space.
template <class View>
auto on_host(const View& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

// |a - b| <= atol + rtol * |b|, as numpy.allclose.
inline bool allclose(double a, double b, double rtol = 1e-12, double atol = 0.0) {
  return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}

// An app's Schema and a Config of it from deck text (the Config refers to the Schema: keep them together).
struct AppDeck {
  Schema schema;
  std::unique_ptr<Config> config;
  AppDeck(const AppSpec& spec, const std::string& deck_text) {
    spec.declare(schema);
    declare_common_keys(schema);
    config = std::make_unique<Config>(schema, deck_text, "test deck");
  }
};

// Runs spec.run() quietly in this process on `comm` and returns the peak bytes Kokkos held meanwhile.
inline double peak_kokkos_bytes_of_run(const AppSpec& spec, const Config& cfg, MPI_Comm comm) {
  AllocationTracker tracker;
  {
    Trace trace(comm, false);
    Timers timers(&trace);
    Report report(spec.name);
    RunContext ctx(cfg, comm, timers, trace, report, true);
    spec.run(ctx);
  }
  return tracker.peak_bytes();
}

// The memory-estimate tests' criterion: an app's MemoryEstimate::view_bytes() covers the peak of its Kokkos
// allocations and exceeds it by at most 15% (an estimate that refuses runs must be neither low nor lavish).
// The estimate's per-thread team scratch and reduction buffers follow Kokkos 4.x; Kokkos 3.x sizes them
// differently (up to +0.52 MB per run on these test-sized decks, where arrays are small: evh1, Kokkos 3.4.01), so
// below 4.0 the estimate must lie within 15% above, or 1 MB below, the peak (arrays are counted; scratch is not).
inline void check_estimate_matches(double estimate, double peak) {
  INFO("estimate " << estimate << " B, Kokkos peak " << peak << " B (Kokkos " << KOKKOS_VERSION << ")");
#if KOKKOS_VERSION >= 40000
  CHECK(estimate >= peak);
#else
  CHECK(estimate >= peak - 1e6);
#endif
  CHECK(estimate <= 1.15 * peak);
}

}  // namespace proxylab::testing
