// Progress::update: the collective stop check (an allreduce) is agreed about every check_interval_s, not at every
// call (a check per step added an allreduce to every step of every proxy), and a signal that reaches one rank stops
// every rank at the same call.
#include <csignal>

#include "proxylab/app.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/testing.hpp"

namespace {
// The common keys alone (the run context reads the comm.* keys, which every proxy's schema has).
proxylab::Schema common_schema() {
  proxylab::Schema s;
  proxylab::declare_common_keys(s);
  return s;
}

struct QuietContext {
  proxylab::Schema schema = common_schema();
  proxylab::Config config{schema, "", "test"};
  proxylab::Trace trace{MPI_COMM_WORLD, false};
  proxylab::Timers timers{nullptr, false};
  proxylab::Report report{"test"};
  proxylab::RunContext ctx{config, MPI_COMM_WORLD, timers, trace, report, true};
};
}  // namespace

TEST_CASE("Progress checks for a stop at agreed calls, far fewer than its calls", "[progress][mpi]") {
  QuietContext c;
  proxylab::Progress progress(c.ctx, 20000, "step");
  for (long long s = 1; s <= 20000; ++s) REQUIRE(progress.update(s));
  // Fast calls: the interval doubles from 1 at every check (1, 3, 7, ... calls), so 20,000 calls take ~14 checks.
  CHECK(progress.checks() >= 1);
  CHECK(progress.checks() <= 40);
  long long checks[2] = {progress.checks(), -progress.checks()};
  MPI_Allreduce(MPI_IN_PLACE, checks, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(checks[0] == -checks[1]);  // every rank made the same checks
}

// Last in this file: the signal flag stays set for the rest of the process.
TEST_CASE("Progress: a signal on one rank stops every rank at the same call", "[progress][mpi]") {
  QuietContext c;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  proxylab::install_stop_handlers();
  proxylab::Progress progress(c.ctx, 1LL << 40, "step");
  const long long signalled_at = 1000;
  long long stopped_at = 0;
  for (long long s = 1; s < (1LL << 40); ++s) {
    if (rank == size - 1 && s == signalled_at) std::raise(SIGINT);
    if (!progress.update(s)) {
      stopped_at = s;
      break;
    }
  }
  CHECK(stopped_at > signalled_at);
  long long at[2] = {stopped_at, -stopped_at};
  MPI_Allreduce(MPI_IN_PLACE, at, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(at[0] == -at[1]);
  CHECK(c.ctx.interrupted());
}
