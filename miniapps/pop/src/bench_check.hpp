// Benchmark mode's verification (solver.crit = 0: a fixed number of iterations, nothing converges, so POP2's
// residual criterion cannot judge the run). Two measures that a solver which did nothing, or something else, fails:
//  - the energy norm of the error, ||x - x*||_A / ||x*||_A from x0 = 0, must be below 1: every solver here is a
//    Krylov method whose A-norm error cannot grow (CG minimises it over the Krylov space; PCSI's scaled Chebyshev
//    polynomial is below 1 in magnitude on (0, mu]); one that leaves x at 0 gives exactly 1;
//  - the iterate must equal the reference variant's after the same iterations (pcg for the CG family, whose
//    iterates chrongear and pipecg reproduce in exact arithmetic; pcsi for pcsi; unfused, flat mapping, allreduce),
//    run here untimed, within round-off grown over the iterations (1000 eps each) plus twice the reference's own
//    error against x*: a variant no less accurate than the reference is within that of it. Before convergence the
//    variants agree to round-off, far inside the limit (x1, 124 iterations: 2e-15 against 1.5e-3); far past it, with
//    nothing left to converge, each iterate wanders at the level of its own error (x1, pcg fused vs unfused after
//    11000 iterations: 2.8e-5 apart, the reference's error 3.4e-5), which a tenth of that error did not allow. A
//    solver that stops early is caught while its error is above three times the reference's.
#pragma once
#include <string>

#include "btrop_operator.hpp"
#include "solver.hpp"

namespace proxylab::pop {

// The run's iterate x after `iterations` iterations of `opt` from 0 (ghosts need not be current) against the
// reference variant's after as many.
struct ReferenceCheck {
  std::string reference;  // the reference variant, e.g. "pcg unfused flat allreduce"
  double difference = 0;  // area-weighted L2 of x - x_ref over that of x_ref
  double limit = 0;       // 1000 eps per iteration + 2 x the reference's error against x*
};
ReferenceCheck compare_with_reference(const Domain& d, const Operator& op, const SolverOptions& opt,
                                      const View2D<double>& b, const View2D<double>& x, const View2D<double>& xstar,
                                      int iterations);

// The A-norm of x - y relative to that of y (A is negative definite on the ocean: the norm of e is sqrt(-e.Ae)).
double energy_norm_difference(const Domain& d, const Operator& op, const View2D<double>& x, const View2D<double>& y);

}  // namespace proxylab::pop
