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

// Guards against a run that cannot end: extreme states can shrink the Courant step until t_end lies
// days or years of wall time away. 0 switches a guard off.
struct StepGuard {
  double dt_min_ratio = 0;  // RuntimeError when dt < dt_min_ratio * (the first step's dt)
  double wall_limit = 0;    // RuntimeError when reaching t_end at the current Courant step would take longer (s)
};

// Advances to t_end (or max_steps > 0 steps). progress(steps, t) returning false stops early.
// Collective over comm; a non-finite signal rate, and a step that fails the guard, raise RuntimeError
// on every rank.
LoopResult run_to(Domain& d, MPI_Comm comm, double t_end, double courant, long long max_steps,
                  const std::function<bool(long long, double)>& progress = {}, const StepGuard& guard = {});

}  // namespace proxylab::evh1
