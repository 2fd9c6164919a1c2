// The five BabelStream kernels on Kokkos Views (STREAM: McCalpin; BabelStream: Deakin et al.):
//   copy c = a; mul b = s*c; add c = a + b; triad a = b + s*c; dot sum(a*b)
// Each runs through the chosen loop mapping (common/mapping.hpp).
#pragma once
#include <string>

#include "proxylab/layout.hpp"
#include "proxylab/mapping.hpp"
#include "proxylab/stream_triad.hpp"

namespace proxylab::stream {

struct Arrays {
  View1D<double> a, b, c;
  explicit Arrays(int n) : a("stream::a", n), b("stream::b", n), c("stream::c", n) {}
  int size() const { return static_cast<int>(a.extent(0)); }
};

constexpr double init_a = 0.1, init_b = 0.2, init_c = 0.0;

void init(Arrays& x, Mapping m);
void copy(Arrays& x, Mapping m);
void mul(Arrays& x, Mapping m, double scalar);
void add(Arrays& x, Mapping m);
void triad(Arrays& x, Mapping m, double scalar);
double dot(Arrays& x, Mapping m);
// Seconds per launch of an empty kernel (one index per thread) followed by a fence, the best of `batches` batches
// of `launches`: the fixed cost every kernel pays (the performance model's kernel_launch_us, docs/model.md).
double launch_seconds(int batches, int launches);

// Bytes moved per element, counted as STREAM does (8-byte words read + written).
constexpr double bytes_copy = 16, bytes_mul = 16, bytes_add = 24, bytes_triad = stream_triad_bytes, bytes_dot = 16;

}  // namespace proxylab::stream
