// The STREAM triad a = b + s c (McCalpin's STREAM; BabelStream's triad), the memory-bandwidth kernel that the
// stream probe measures and that POP's in-run bandwidth ceiling runs on arrays of its block's size.
#pragma once
#include <string>

#include "proxylab/layout.hpp"
#include "proxylab/mapping.hpp"

namespace proxylab {

constexpr double stream_triad_bytes = 24;  // per element, as STREAM counts: read b and c, write a

inline void stream_triad(const std::string& name, Mapping m, const View1D<double>& a, const View1D<double>& b,
                         const View1D<double>& c, double scalar) {
  for_each_1d(
      name, m, 0, int(a.extent(0)), KOKKOS_LAMBDA(int i) { a(i) = b(i) + scalar * c(i); });
}

}  // namespace proxylab
