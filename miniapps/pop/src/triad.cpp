// STREAM triad ceiling (see triad.hpp).
#include "triad.hpp"

#include <mpi.h>

#include <algorithm>

#include "proxylab/stream_triad.hpp"

namespace proxylab::pop {

double triad_bandwidth(long long n, int repeats, Mapping m) {
  View1D<double> a("pop::triad_a", n), b("pop::triad_b", n), c("pop::triad_c", n);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const double s = 0.4;
  double best = 1e300;
  for (int k = 0; k < repeats; ++k) {
    Kokkos::fence();
    const double t0 = MPI_Wtime();
    stream_triad("pop::stream_triad", m, a, b, c, s);
    Kokkos::fence();
    best = std::min(best, MPI_Wtime() - t0);
  }
  return stream_triad_bytes * double(n) / best * 1e-9;
}

}  // namespace proxylab::pop
