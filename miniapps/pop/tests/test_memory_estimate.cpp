// pop's memory estimate against what Kokkos allocates in a whole run of a small deck (every solver: they
// hold different work arrays). A run is refused before set-up when the estimate does
// not fit, so the estimate must count the real arrays.
#include "memory_estimate.hpp"
#include "pop_app.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;

TEST_CASE("pop: the memory estimate matches the peak of Kokkos allocations", "[pop][memory]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const char* solver : {"pcg", "chrongear", "pcsi", "pipecg"}) {
    const testing::AppDeck deck(pop::app_spec(), std::string("grid: {nx: 240, ny: 200}\nsolver: {name: ") + solver +
                                                     ", crit: 0, max_iters: 20}\npcsi: {lanczos_steps: 5}\n");
    const double peak = testing::peak_kokkos_bytes_of_run(pop::app_spec(), *deck.config, MPI_COMM_WORLD);
    const double estimate = pop::estimate_memory(pop::read_options(*deck.config), size).view_bytes();
    INFO(solver);
    testing::check_estimate_matches(estimate, peak);
  }
}
