// BabelStream kernels (see stream_kernels.hpp).
#include "stream_kernels.hpp"

#include <algorithm>
#include <chrono>

namespace proxylab::stream {

void init(Arrays& x, Mapping m) {
  auto a = x.a, b = x.b, c = x.c;
  // First touch through the same mapping the kernels use (pages land near the threads that use them).
  for_each_1d(
      "stream::init", m, 0, x.size(), KOKKOS_LAMBDA(int i) {
        a(i) = init_a;
        b(i) = init_b;
        c(i) = init_c;
      });
}

void copy(Arrays& x, Mapping m) {
  auto a = x.a, c = x.c;
  for_each_1d(
      "stream::copy", m, 0, x.size(), KOKKOS_LAMBDA(int i) { c(i) = a(i); });
}

void mul(Arrays& x, Mapping m, double scalar) {
  auto b = x.b, c = x.c;
  for_each_1d(
      "stream::mul", m, 0, x.size(), KOKKOS_LAMBDA(int i) { b(i) = scalar * c(i); });
}

void add(Arrays& x, Mapping m) {
  auto a = x.a, b = x.b, c = x.c;
  for_each_1d(
      "stream::add", m, 0, x.size(), KOKKOS_LAMBDA(int i) { c(i) = a(i) + b(i); });
}

void triad(Arrays& x, Mapping m, double scalar) { stream_triad("stream::triad", m, x.a, x.b, x.c, scalar); }

double dot(Arrays& x, Mapping m) {
  auto a = x.a, b = x.b;
  return reduce_1d<Kokkos::Sum<double>>(
      "stream::dot", m, 0, x.size(), KOKKOS_LAMBDA(int i, double& acc) { acc += a(i) * b(i); });
}

double launch_seconds(int batches, int launches) {
  const int threads = HostExec().concurrency();
  double best = 1e300;
  for (int b = 0; b < batches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int l = 0; l < launches; ++l) {
      Kokkos::parallel_for("stream::empty_launch", Kokkos::RangePolicy<HostExec>(0, threads), KOKKOS_LAMBDA(int){});
      Kokkos::fence();
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / launches);
  }
  return best;
}

}  // namespace proxylab::stream
