#include "time_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "proxylab/errors.hpp"

namespace proxylab::evh1 {
namespace {

// VH-1: dtcon. Courant limit from the global maximum signal rate (MPI_MAX: exact, so every
// decomposition gets the same dt). Returns the Courant step itself; the caller limits growth.
double courant_dt(const Domain& d, MPI_Comm comm, double courant) {
  double rate = d.max_signal_rate(), global = 0;
  MPI_Allreduce(&rate, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  collective_check(comm, std::isfinite(global) && global > 0,
                   "Courant signal rate is " + std::to_string(global) + " (the state holds NaN or Inf)");
  return courant / global;
}

// VH-1 starts small and lets dt grow at most 10% per step; the last step ends at t_end.
double next_dt(double dt_courant, double dt_prev, double t, double t_end) {
  const double dt = dt_prev > 0 ? std::min(dt_courant, 1.1 * dt_prev) : 0.1 * dt_courant;
  return std::min(dt, t_end - t);
}

std::string g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The guard's checks; every rank sees the same dt (a global maximum) and the same elapsed time (a
// global maximum every 16 steps), so all ranks throw together.
class Guard {
 public:
  Guard(const StepGuard& limits, MPI_Comm comm) : limits_(limits), comm_(comm), t0_(MPI_Wtime()) {}

  void check(long long step, double t, double t_end, double dt_courant, double dt) {
    if (dt_first_ == 0) dt_first_ = dt;
    if (limits_.dt_min_ratio > 0 && dt < limits_.dt_min_ratio * dt_first_ && t + dt < t_end)
      throw RuntimeError("evh1: the time step collapsed: dt = " + g(dt) + " at t = " + g(t) + " (step " +
                         std::to_string(step) + ") is below time.dt_min_ratio = " + g(limits_.dt_min_ratio) +
                         " x the first step's dt " + g(dt_first_) +
                         "; the state has gone extreme (check the problem's densities, pressures and energies)");
    if (limits_.wall_limit <= 0 || step < 10 || step % 16 != 0) return;
    double elapsed = MPI_Wtime() - t0_;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm_);
    const double steps_left = (t_end - t) / dt_courant, wall_left = steps_left * elapsed / double(step);
    if (elapsed + wall_left > limits_.wall_limit)
      throw RuntimeError("evh1: t_end is out of reach: at the Courant step dt = " + g(dt_courant) + " (t = " + g(t) +
                         " of " + g(t_end) + " after " + std::to_string(step) + " steps) it needs ~" + g(steps_left) +
                         " more steps, an estimated " + g(wall_left) + " s of wall time beyond time.wall_limit = " +
                         g(limits_.wall_limit) + " s (raise it, lower time.t_end or use milder states)");
  }

 private:
  StepGuard limits_;
  MPI_Comm comm_;
  double t0_, dt_first_ = 0;
};

}  // namespace

LoopResult run_to(Domain& d, MPI_Comm comm, double t_end, double courant, long long max_steps,
                  const std::function<bool(long long, double)>& progress, const StepGuard& guard) {
  LoopResult r;
  Guard check(guard, comm);
  double dt_courant = courant_dt(d, comm, courant);
  double dt = next_dt(dt_courant, 0, 0, t_end);
  while (r.time < t_end && (max_steps == 0 || r.steps < max_steps)) {
    check.check(r.steps, r.time, t_end, dt_courant, dt);
    if (r.steps % 2 == 0) {  // x y | y x
      d.sweep_x(dt);
      d.sweep_y(dt);
    } else {
      d.sweep_y(dt);
      d.sweep_x(dt);
    }
    r.time = dt >= t_end - r.time ? t_end : r.time + dt;
    ++r.steps;
    if (r.time < t_end) {
      dt_courant = courant_dt(d, comm, courant);
      dt = next_dt(dt_courant, dt, r.time, t_end);
    }
    if (progress && !progress(r.steps, r.time)) break;
  }
  return r;
}

}  // namespace proxylab::evh1
