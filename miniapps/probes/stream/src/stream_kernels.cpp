// BabelStream kernels (see stream_kernels.hpp).
#include "stream_kernels.hpp"

namespace proxylab::stream {

void init(Arrays& x, Mapping m) {
  auto a = x.a, b = x.b, c = x.c;
  // First touch through the same mapping the kernels use (pages land near the threads that use them).
  for_each_1d("stream::init", m, 0, x.size(), KOKKOS_LAMBDA(int i) {
    a(i) = init_a;
    b(i) = init_b;
    c(i) = init_c;
  });
}

void copy(Arrays& x, Mapping m) {
  auto a = x.a, c = x.c;
  for_each_1d("stream::copy", m, 0, x.size(), KOKKOS_LAMBDA(int i) { c(i) = a(i); });
}

void mul(Arrays& x, Mapping m, double scalar) {
  auto b = x.b, c = x.c;
  for_each_1d("stream::mul", m, 0, x.size(), KOKKOS_LAMBDA(int i) { b(i) = scalar * c(i); });
}

void add(Arrays& x, Mapping m) {
  auto a = x.a, b = x.b, c = x.c;
  for_each_1d("stream::add", m, 0, x.size(), KOKKOS_LAMBDA(int i) { c(i) = a(i) + b(i); });
}

void triad(Arrays& x, Mapping m, double scalar) { stream_triad("stream::triad", m, x.a, x.b, x.c, scalar); }

double dot(Arrays& x, Mapping m) {
  auto a = x.a, b = x.b;
  return reduce_1d<Kokkos::Sum<double>>("stream::dot", m, 0, x.size(),
                                         KOKKOS_LAMBDA(int i, double& acc) { acc += a(i) * b(i); });
}

}  // namespace proxylab::stream
