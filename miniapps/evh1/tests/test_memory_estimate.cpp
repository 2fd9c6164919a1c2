// evh1's memory estimate against what Kokkos allocates in a whole run of a small deck, for both algorithms
// and mappings. A run is refused before the domain is built when the estimate does
// not fit, so the estimate must count the real arrays. The runs go from the smallest sweep scratch to the
// largest: Kokkos keeps its team scratch between runs and reallocates it only to grow.
#include "evh1_app.hpp"
#include "memory_estimate.hpp"
#include "problems.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;

TEST_CASE("evh1: the memory estimate matches the peak of Kokkos allocations", "[evh1][memory]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  REQUIRE(size == 1);  // the halo case below uses a 1 x 1 block grid
  // in order of growing team scratch: Kokkos keeps a host thread's scratch pool once allocated, so a run whose
  // scratch fits the pool allocates none
  for (const char* variant :
       {"{algorithm: transpose, mapping: tiled, tile: 32}", "{algorithm: transpose, mapping: pencil}",
        "{algorithm: halo, mapping: batched, lanes: 4}", "{algorithm: halo, mapping: tiled, tile: 512}",
        "{algorithm: transpose, mapping: batched, lanes: 8}", "{algorithm: halo, mapping: batched, lanes: 16}"}) {
    // Kokkos 3.4 (the floor) does not report the tiled runs' level-0 team scratch to the allocation hooks: its peak
    // missed the 151 KB of a 512-thread tile
    if (KOKKOS_VERSION < 40000 && std::string(variant).find("tiled") != std::string::npos) continue;
    const testing::AppDeck deck(
        evh1::app_spec(),
        std::string("grid: {nx: 96, ny: 64}\ntime: {t_end: 0.06, max_steps: 2}\nevh1: ") + variant + "\n");
    const Config& cfg = *deck.config;
    const double peak = testing::peak_kokkos_bytes_of_run(evh1::app_spec(), cfg, MPI_COMM_WORLD);
    const evh1::RunOptions o = evh1::read_options(cfg);
    const bool halo = o.algorithm == evh1::DomainAlgorithm::halo;
    const double estimate =
        evh1::estimate_memory(o, read_comm_options(cfg), evh1::make_problem(o, cfg).grid, 0, size, halo, halo)
            .view_bytes();
    INFO(variant);
    testing::check_estimate_matches(estimate, peak);
  }
}

// Each rank holds only its own zones, verification included, so that a grid that fits the machine in pieces can be
// run and verified: the estimate for one grid falls as 1 / ranks, for both algorithms and every problem.
TEST_CASE("evh1: the memory per rank falls as 1 / ranks", "[evh1][memory]") {
  for (const char* problem : {"sedov", "sod", "advection"})
    for (const bool halo : {false, true}) {
      const testing::AppDeck deck(evh1::app_spec(), std::string("problem: {name: ") + problem +
                                                        "}\ngrid: {nx: 16384, ny: 16384}\ntime: {t_end: 0.01}\n");
      const evh1::RunOptions o = evh1::read_options(*deck.config);
      const evh1::GridSpec g = evh1::make_problem(o, *deck.config).grid;
      const CommOptions comm = read_comm_options(*deck.config);
      auto bytes = [&](int ranks) {
        const int side = int(std::lround(std::sqrt(double(ranks))));
        const int px = halo ? (side * side == ranks ? side : ranks) : 0, py = halo ? ranks / px : 0;
        return evh1::estimate_memory(o, comm, g, 1, ranks, px, py).bytes();  // rank 1: no density file, as most ranks
      };
      const double one = bytes(1);
      for (int ranks : {2, 4, 64}) {
        INFO(problem << (halo ? " halo " : " transpose ") << ranks << " ranks: " << bytes(ranks) << " bytes, " << one
                     << " at 1 rank");
        CHECK(bytes(ranks) * ranks / one > 0.9);
        CHECK(bytes(ranks) * ranks / one < 1.2);
      }
    }
}
