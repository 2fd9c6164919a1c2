#include "time_loop.hpp"

#include <algorithm>
#include <cmath>

#include "proxylab/errors.hpp"

namespace proxylab::evh1 {
namespace {

// VH-1: dtcon. Courant limit from the global maximum signal rate (MPI_MAX: exact, so every
// decomposition gets the same dt), growth at most 10% per step, the last step ends at t_end.
double next_dt(const Domain& d, MPI_Comm comm, double courant, double dt_prev, double t, double t_end) {
  double rate = d.max_signal_rate(), global = 0;
  MPI_Allreduce(&rate, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  collective_check(comm, std::isfinite(global) && global > 0,
                   "Courant signal rate is " + std::to_string(global) + " (the state holds NaN or Inf)");
  double dt = courant / global;
  dt = dt_prev > 0 ? std::min(dt, 1.1 * dt_prev) : 0.1 * dt;  // VH-1 starts small and lets dt grow
  return std::min(dt, t_end - t);
}

}  // namespace

LoopResult run_to(Domain& d, MPI_Comm comm, double t_end, double courant, long long max_steps,
                  const std::function<bool(long long, double)>& progress) {
  LoopResult r;
  double dt = next_dt(d, comm, courant, 0, 0, t_end);
  while (r.time < t_end && (max_steps == 0 || r.steps < max_steps)) {
    if (r.steps % 2 == 0) {  // x y | y x
      d.sweep_x(dt);
      d.sweep_y(dt);
    } else {
      d.sweep_y(dt);
      d.sweep_x(dt);
    }
    r.time = dt >= t_end - r.time ? t_end : r.time + dt;
    ++r.steps;
    if (r.time < t_end) dt = next_dt(d, comm, courant, dt, r.time, t_end);
    if (progress && !progress(r.steps, r.time)) break;
  }
  return r;
}

}  // namespace proxylab::evh1
