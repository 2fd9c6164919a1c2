// Kernel launches and host waits (fences) per iteration of every solver variant, as each is designed, counted by the
// LaunchCounter the app keeps. Per iteration (the convergence checks excluded):
//
//   variant            kernels  sums  halos  the kernels
//   pcg fused              3      2      1    direction (+ deferred X update), operator+dot, R update+dot
//   pcg unfused            7      2      1    precondition, dot, direction, operator, dot, X, R
//   chrongear fused        2      1      1    operator+2 dots, all updates+precondition
//   chrongear unfused      7      1      1    precondition, operator, 2 dots, S, Q, X, R
//   pcsi fused             2      0      1    update (dx, x), residual
//   pcsi unfused           4      0      1    precondition, dx, x, residual
//   pipecg fused           3      1      1    precondition+2 dots, operator, all updates
//   pipecg unfused        11      1      1    2 dots, precondition, operator, 8 updates
//
// A global sum is one reduction kernel into device memory, where the next kernels read its words
// (GlobalSum::start_2d_on_device). At one rank it is the global sum: no host wait. At more ranks (or with the
// reproducible strategy) the host reads the local result (one fence) for MPI and a one-point kernel puts the words
// back: one launch more. A halo update costs what the exchange itself is designed to (test_halo.cpp), measured here
// on the same domain. So per iteration:
//   launches = kernels + halos x (halo's launches) + (sums, where they pass through the host)
//   fences   = halos x (halo's fences) + (sums, where they pass through the host)
// and the app's per-phase timers, off where each of their fences would be a host wait (a device), add none. A change
// that adds a kernel or a host round trip to an iteration fails here, on the host back end, where the count is the
// same as on a GPU.
#include "problem.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;
using namespace proxylab::pop;
using proxylab::pop::testing::Problem;
using proxylab::pop::testing::small_grid;

namespace {

struct Design {
  SolverKind kind;
  bool fused;
  int kernels, sums, halos;
};
const Design designs[] = {
    {SolverKind::pcg, true, 3, 2, 1},       {SolverKind::pcg, false, 7, 2, 1},
    {SolverKind::chrongear, true, 2, 1, 1}, {SolverKind::chrongear, false, 7, 1, 1},
    {SolverKind::pcsi, true, 2, 0, 1},      {SolverKind::pcsi, false, 4, 0, 1},
    {SolverKind::pipecg, true, 3, 1, 1},    {SolverKind::pipecg, false, 11, 1, 1},
};

struct Counts {
  double launches = 0, fences = 0;
};

// Launches and fences of a benchmark-mode solve of n iterations with its one convergence check at the end, timed by
// `timers`.
Counts solve_counts(Problem& pb, SolverOptions o, ReduceStrategy red, Timers& timers, int n) {
  o.crit = 0;
  o.max_iters = n;
  o.check_freq = 1000;
  LaunchCounter counter;
  const SolveStats st = pb.solve(o, red, timers);
  REQUIRE(st.iterations == n);
  return {double(counter.launches()), double(counter.fences())};
}

// Per iteration: the difference of two solves that differ only in their number of iterations (set-up and check
// cancel).
Counts per_iteration(Problem& pb, const SolverOptions& o, ReduceStrategy red, bool fenced_timers) {
  Timers timers(nullptr, fenced_timers);
  const int n1 = 4, n2 = 8;
  const Counts a = solve_counts(pb, o, red, timers, n1), b = solve_counts(pb, o, red, timers, n2);
  return {(b.launches - a.launches) / (n2 - n1), (b.fences - a.fences) / (n2 - n1)};
}

}  // namespace

TEST_CASE("pop: kernel launches and host waits per iteration as each solver variant is designed", "[pop][mpi]") {
  GridSpec g = small_grid(48, 40);
  g.dt = 1200.0;
  Problem pb(MPI_COMM_WORLD, g, 2, HaloStrategy::packed);
  Counts halo;
  {
    const View2D<double> f = pb.dom.field("halo_probe");
    LaunchCounter counter;
    pb.dom.exchange(f);
    halo = {double(counter.launches()), double(counter.fences())};
  }
  const bool one_rank = pb.dom.grid().size() == 1;
  for (const ReduceStrategy red : {ReduceStrategy::allreduce, ReduceStrategy::reproducible})
    for (const Mapping mapping : {Mapping::flat, Mapping::mdrange, Mapping::team})
      for (const Design& d : designs) {
        SolverOptions o;
        o.kind = d.kind;
        o.fused = d.fused;
        o.mapping = mapping;
        o.lanczos_steps = 5;
        o.phase_timers = false;  // as on a device
        const int via_host = one_rank && red != ReduceStrategy::reproducible ? 0 : d.sums;
        const Counts c = per_iteration(pb, o, red, false);
        INFO(to_string(d.kind) << (d.fused ? " fused" : " unfused") << ", mapping " << to_string(mapping) << ", "
                               << to_string(red) << ", " << pb.dom.grid().size() << " ranks: halo " << halo.launches
                               << " launches, " << halo.fences << " fences");
        CHECK(c.launches == d.kernels + d.halos * halo.launches + via_host);
        if (LaunchCounter::sees_internal_fences) {
          CHECK(c.fences == d.halos * halo.fences + via_host);
          // the app's timers (fenced) around the solve add no wait to an iteration when the phases are not timed
          const Counts timed = per_iteration(pb, o, red, true);
          CHECK(timed.fences == c.fences);
        }
      }
}
