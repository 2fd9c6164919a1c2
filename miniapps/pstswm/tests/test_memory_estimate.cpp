// pstswm's memory estimate against what Kokkos allocates in a whole run (T21, 3 levels, 2 steps), for
// both parallel algorithms and every way to combine partial sums. A run is refused
// before any table is computed when the estimate does not fit, so the estimate must count the real arrays.
#include "proxylab/testing.hpp"
#include "src/memory_estimate.hpp"
#include "src/pstswm_app.hpp"
#include "src/truncation.hpp"

using namespace proxylab;

TEST_CASE("pstswm: the memory estimate matches the peak of Kokkos allocations", "[pstswm][memory]") {
  for (const char* parallel : {"{algorithm: transpose}", "{algorithm: distributed, combine: allreduce}",
                               "{algorithm: distributed, combine: reduce_scatter}"})
    for (const char* lt : {"gemm", "loop", "recurrence"}) {
      const testing::AppDeck deck(pstswm::app_spec(), std::string("model: {truncation: 21, levels: 3}\n"
                                                                  "time: {steps: 2}\ntransform: {lt: ") +
                                                          lt + "}\nparallel: " + parallel + "\n");
      const Config& cfg = *deck.config;
      const double peak = testing::peak_kokkos_bytes_of_run(pstswm::app_spec(), cfg, MPI_COMM_WORLD);
      pstswm::TransformOptions opt;
      opt.ntrunc = 21;
      opt.levels = 3;
      const pstswm::GridSize g = pstswm::default_grid(21);
      opt.nlat = g.nlat;
      opt.nlon = g.nlon;
      opt.lt = parse_choice<pstswm::LTVariant>(lt);
      opt.algorithm = cfg.choice<pstswm::Algorithm>("parallel.algorithm");
      opt.combine = cfg.choice<pstswm::Combine>("parallel.combine");
      const double estimate = pstswm::estimate_memory(opt, MPI_COMM_WORLD).view_bytes();
      INFO(parallel << " lt " << lt);
      testing::check_estimate_matches(estimate, peak);
    }
}
