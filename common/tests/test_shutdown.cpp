// The test runner's shutdown order (test_runner.hpp): when Kokkos finalizes, every rank has finished its tests and MPI
// is still up; when MPI finalizes, Kokkos has. Checked from inside the shutdown (a Kokkos finalize hook, and the
// delete callback of an attribute on MPI_COMM_SELF, which MPI_Finalize calls first): a step out of order ends the
// process with exit code 1 and the reason, after Catch has reported, so the test program fails.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "proxylab/test_runner.hpp"
#include "proxylab/testing.hpp"

namespace {

[[noreturn]] void out_of_order(const char* what) {
  std::fprintf(stderr, "test runner shutdown out of order: %s\n", what);
  std::fflush(stderr);
  std::_Exit(1);
}

void on_kokkos_finalize() {
  int mpi_finalized = 0;
  MPI_Finalized(&mpi_finalized);
  if (mpi_finalized) out_of_order("Kokkos finalizes after MPI");
  if (!proxylab::testing::every_rank_done()) out_of_order("Kokkos finalizes before every rank has finished its tests");
}

int on_mpi_finalize(MPI_Comm, int, void*, void*) {
  if (Kokkos::is_initialized()) out_of_order("MPI finalizes before Kokkos");  // (is_finalized: Kokkos 4 only)
  return MPI_SUCCESS;
}

}  // namespace

TEST_CASE("test runner: Kokkos finalizes after every rank's tests, MPI after Kokkos", "[mpi][shutdown]") {
  CHECK_FALSE(proxylab::testing::every_rank_done());  // the tests are running
  Kokkos::push_finalize_hook(on_kokkos_finalize);
  int key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_mpi_finalize, &key, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
}
