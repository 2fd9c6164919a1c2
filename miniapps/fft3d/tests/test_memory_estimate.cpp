// fft3d's memory estimate against what Kokkos allocates in a whole run of a small grid on every rank, for
// slabs and pencils, plain transforms and NAS FT. A run is refused before planning
// when the estimate does not fit, so the estimate must count the real arrays.
#include "fft3d_app.hpp"
#include "memory_estimate.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;

TEST_CASE("fft3d: the memory estimate matches the peak of Kokkos allocations", "[fft3d][memory]") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // (fuse_transpose false: a device's path, whose send buffer holds a whole stage)
  for (const char* decomposition : {"slab", "pencil"})
    for (const char* mode : {"fft", "ft"})
      for (const char* fuse : {"true", "false"}) {
        const testing::AppDeck deck(fft3d::app_spec(), std::string("fft3d: {nx: 32, ny: 24, nz: 20, iterations: 2, "
                                                                   "decomposition: ") +
                                                           decomposition + ", mode: " + mode +
                                                           ", fuse_transpose: " + fuse + "}\n");
        const Config& cfg = *deck.config;
        const double peak = testing::peak_kokkos_bytes_of_run(fft3d::app_spec(), cfg, MPI_COMM_WORLD);
        const fft3d::Decomposition d = fft3d::Decomposition::make(
            decomposition == std::string("slab") ? fft3d::DecompKind::slab : fft3d::DecompKind::pencil, 32, 24, 20,
            size, 0, 0);
        const double estimate =
            fft3d::estimate_memory(d, fft3d::read_options(cfg, read_comm_options(cfg)), rank, size).view_bytes();
        INFO(decomposition << " " << mode << " fuse_transpose " << fuse << " on rank " << rank);
        testing::check_estimate_matches(estimate, peak);
      }
}
