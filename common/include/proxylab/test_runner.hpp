// The Catch2 test runner's life cycle (common/tests/catch_main.cpp), in this order:
//   MPI_Init_thread -> Kokkos::initialize -> the tests -> the exit code reduced over the ranks
//   -> Kokkos::finalize -> MPI_Finalize.
// The reduction is also the point after which no rank communicates: no rank finalizes Kokkos (its device
// memory, streams and the host copies MPI was handed) while another rank is still inside a test's exchanges, and MPI
// outlives Kokkos. test_shutdown.cpp keeps this order.
#pragma once

namespace proxylab::testing {

// Whether every rank has finished its tests (the exit code has been reduced over the ranks).
bool every_rank_done();

}  // namespace proxylab::testing
