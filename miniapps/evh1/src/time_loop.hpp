// The time loop of VH-1 (vhone): steps of two sweeps, x y then y x (second-order Strang-type operator
// splitting), with the Courant time step of VH-1's dtcon from a global maximum of the signal rate.
#pragma once
#include <mpi.h>

#include <functional>

#include "domain.hpp"

namespace proxylab::evh1 {

struct LoopResult {
  double time = 0;
  long long steps = 0;
};

// Advances to t_end (or max_steps > 0 steps). progress(steps, t) returning false stops early.
// Collective over comm; a non-finite signal rate raises RuntimeError on every rank.
LoopResult run_to(Domain& d, MPI_Comm comm, double t_end, double courant, long long max_steps,
                  const std::function<bool(long long, double)>& progress = {});

}  // namespace proxylab::evh1
