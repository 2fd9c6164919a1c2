// What to change when a solve with a criterion (solver.crit > 0) did not converge within solver.max_iters, from
// its residual history: at the rate ||r|| / ||TAREA|| fell over the second half of the iterations, how many it
// needs to reach solver.crit (raise solver.max_iters); or, when it is down at round-off or no longer falls, that
// solver.crit asks for more than this solver reaches on this grid (raise solver.crit).
#pragma once
#include <string>

#include "solver.hpp"

namespace proxylab::pop {

// round_off: the relative residual round-off alone may leave (ErrorBound::residual_round_off).
std::string convergence_hint(const SolveStats& st, const SolverOptions& opt, double round_off);

}  // namespace proxylab::pop
