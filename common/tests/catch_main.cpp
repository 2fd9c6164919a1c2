// Catch2 runner for proxylab tests: MPI and Kokkos around the session; every rank runs the tests and
// the exit code is the worst over ranks, so an MPI test fails if any rank fails. The shutdown order is
// test_runner.hpp's.
#define CATCH_CONFIG_RUNNER
#include <mpi.h>

#include "proxylab/launch_counter.hpp"
#include "proxylab/test_runner.hpp"
#include "proxylab/testing.hpp"

namespace {
bool every_rank_done_ = false;
}

bool proxylab::testing::every_rank_done() { return every_rank_done_; }

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int worst = 0;
  {
    proxylab::LaunchCounter::request_no_global_fences();
    Kokkos::initialize(argc, argv);
    const int result = Catch::Session().run(argc, argv);
    MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    every_rank_done_ = true;
    Kokkos::finalize();
  }
  MPI_Finalize();
  return worst;
}
