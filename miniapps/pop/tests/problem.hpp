// Test fixture: a small POP problem (grid, decomposition, operator, x*, b = A x*) on a communicator.
#pragma once
#include "btrop_operator.hpp"
#include "solver.hpp"
#include "verify.hpp"

namespace proxylab::pop::testing {

inline GridSpec small_grid(int nx, int ny) {
  GridSpec g;
  g.nx = nx;
  g.ny = ny;
  return g;
}

struct Problem {
  Domain dom;
  Operator op;
  View2D<double> x, xstar, b;
  Problem(MPI_Comm comm, const GridSpec& g, int width, HaloStrategy h, int px = 0, int py = 0)
      : dom(comm, g, px, py, width, h, false, CommOptions{}),
        op(build_operator(dom, Mapping::flat)),
        x(dom.field("x")),
        xstar(dom.field("xstar")),
        b(dom.field("b")) {
    exact_problem(op, dom, Mapping::flat, xstar, b);
  }
  SolveStats solve(const SolverOptions& o, ReduceStrategy r) {
    Timers timers(nullptr, false);
    return solve(o, r, timers);
  }
  SolveStats solve(const SolverOptions& o, ReduceStrategy r, Timers& timers) {
    Kokkos::deep_copy(x, 0.0);
    GlobalSum gsum(r, dom.comm());
    return pop::solve(dom, op, gsum, timers, o, b, x);
  }
};

}  // namespace proxylab::pop::testing
