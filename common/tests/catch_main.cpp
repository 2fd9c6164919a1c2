// Catch2 runner for proxylab tests: MPI and Kokkos around the session; every rank runs the tests and
// the exit code is the worst over ranks, so an MPI test fails if any rank fails.
#define CATCH_CONFIG_RUNNER
#include <mpi.h>

#include "proxylab/launch_counter.hpp"
#include "proxylab/testing.hpp"

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int result = 0;
  {
    proxylab::LaunchCounter::request_no_global_fences();
    Kokkos::initialize(argc, argv);
    result = Catch::Session().run(argc, argv);
    Kokkos::finalize();
  }
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
