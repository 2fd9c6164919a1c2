// Timers::reduce over groups of paths: each group summed on its rank, then the max or mean over ranks, in one
// reduction; a one-path group's max equals the region table's max.
#include <unistd.h>

#include "proxylab/testing.hpp"
#include "proxylab/timers.hpp"

TEST_CASE("timers: groups of regions reduced over ranks", "[timers][mpi]") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  proxylab::Timers t;
  {
    auto a = t.scope("forward");
    usleep(useconds_t(2000 * (rank + 1)));  // the last rank is the slowest
  }
  {
    auto b = t.scope("inverse");
    usleep(1000);
  }
  using Over = proxylab::Timers::OverRanks;
  const auto worst = t.reduce(MPI_COMM_WORLD, {{"forward", "inverse"}, {"forward"}, {"never entered"}}, Over::max);
  REQUIRE(worst.size() == 3);
  CHECK(worst[0] >= t.seconds("forward") + t.seconds("inverse"));  // at least this rank's sum
  CHECK(worst[0] >= 0.002 * size + 0.001);                         // the slowest rank's sleeps
  CHECK(worst[2] == 0.0);
  for (const auto& s : t.reduce(MPI_COMM_WORLD))
    if (s.path == "forward") CHECK(s.max == worst[1]);

  const auto mean = t.reduce(MPI_COMM_WORLD, {{"forward"}}, Over::mean);
  REQUIRE(mean.size() == 1);
  CHECK(mean[0] >= 0.001 * (size + 1));  // mean of 2 ms x (rank + 1)
  CHECK(mean[0] <= worst[1]);
}
