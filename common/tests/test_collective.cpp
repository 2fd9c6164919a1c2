// collective_check: a condition false on one rank raises the same error on every rank.
#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"

TEST_CASE("collective_check: every rank throws the failing rank's message", "[errors][mpi]") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_NOTHROW(proxylab::collective_check(MPI_COMM_WORLD, true, "fine"));
  const int bad = size - 1;
  std::string what;
  try {
    proxylab::collective_check<proxylab::InputError>(MPI_COMM_WORLD, rank != bad,
                                                     "rank " + std::to_string(rank) + " saw NaN");
  } catch (const proxylab::InputError& e) {
    what = e.what();
  }
  CHECK(what.find("rank " + std::to_string(bad) + " saw NaN") != std::string::npos);
}
