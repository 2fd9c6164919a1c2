// Test support shared by every proxy's Catch2 tests: the Catch2 header (v2 or v3), the list of
// enabled Kokkos host back ends for TEMPLATE_LIST_TEST_CASE, and an allclose() helper.
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
#include <Kokkos_Core.hpp>
#include <cmath>
#include <tuple>

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

// |a - b| <= atol + rtol * |b|, as numpy.allclose.
inline bool allclose(double a, double b, double rtol = 1e-12, double atol = 0.0) {
  return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}

}  // namespace proxylab::testing
