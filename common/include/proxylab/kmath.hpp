// Portable math functions for kernels: Kokkos 3.4-3.6 keeps them in Kokkos::Experimental, Kokkos 3.7+
// in Kokkos::. Kernels call proxylab::kmath::sqrt(x) etc. and compile against both (host and device).
#pragma once
#include <Kokkos_Core.hpp>

namespace proxylab::kmath {
#if KOKKOS_VERSION >= 30700
#define PROXYLAB_KMATH_NS Kokkos
#else
#define PROXYLAB_KMATH_NS Kokkos::Experimental
#endif
using PROXYLAB_KMATH_NS::acos;
using PROXYLAB_KMATH_NS::asin;
using PROXYLAB_KMATH_NS::atan;
using PROXYLAB_KMATH_NS::atan2;
using PROXYLAB_KMATH_NS::cbrt;
using PROXYLAB_KMATH_NS::cos;
using PROXYLAB_KMATH_NS::exp;
using PROXYLAB_KMATH_NS::fabs;
using PROXYLAB_KMATH_NS::floor;
using PROXYLAB_KMATH_NS::fmax;
using PROXYLAB_KMATH_NS::fmin;
using PROXYLAB_KMATH_NS::log;
using PROXYLAB_KMATH_NS::pow;
using PROXYLAB_KMATH_NS::sin;
using PROXYLAB_KMATH_NS::sqrt;
using PROXYLAB_KMATH_NS::tan;
#undef PROXYLAB_KMATH_NS
}  // namespace proxylab::kmath
