// Solver dispatch, workspace bookkeeping and POP2's convergence check (see solver.hpp).
#include "solver.hpp"

#include <cmath>
#include <limits>

#include "proxylab/errors.hpp"

namespace proxylab::pop {

Workspace::Workspace(const Domain& d, const Operator& o, GlobalSum& g, Timers& t, const SolverOptions& opts)
    : dom(d), op(o), gsum(g), timers(t), opt(opts), scalars("pop::step_scalars", scalar_slots) {
  Kokkos::deep_copy(Kokkos::subview(scalars, one_slot), 1.0);
}

void Workspace::halo(const View2D<double>& f) {
  auto t = phase("halo", Category::communication);
  dom.exchange(f);
  ++halo_count_;
}

void Workspace::apply(const View2D<double>& x, const View2D<double>& q) {
  auto t = phase("operator");
  apply_operator(op, dom, opt.mapping, x, q);
  count(6, 17);  // 9 products, 8 sums
}

bool Workspace::check(int m, const View2D<double>& b, const View2D<double>& x, const View2D<double>& r,
                      bool recompute) {
  if (recompute) {
    halo(x);
    auto t = phase("operator");
    residual(op, dom, opt.mapping, b, x, r);
    count(7, 18);  // r = b - A x
  }
  auto mask = op.mask;
  const double rr = sum<1>(
      "reduction", "pop::residual_norm", 2, 3,
      KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = mask(j, i) * r(j, i) * r(j, i); })[0];
  stats.history.emplace_back(m, rr);
  stats.rr_final = rr;
  if (!std::isfinite(rr))  // a global value: every rank throws alike
    throw RuntimeError("pop: the true residual is not finite at iteration " + std::to_string(m) +
                       " (the solver diverged; for pcsi try a larger pcsi.mu_safety)");
  stats.converged = rr < stats.tolerance2;
  rz_from_true_ = true;
  const bool go_on = on_check ? on_check(m) : true;
  return stats.converged || !go_on;
}

int Workspace::next_rz() {
  int at = 1;
  while (at == rz_at_ || at == rz_prev_ || (at == rz_ref_ && !rz_from_true_)) at += 2;
  rz_prev_ = rz_at_;
  rz_at_ = at;
  if (rz_from_true_) rz_ref_ = at;
  rz_from_true_ = false;
  return at;
}

bool Workspace::recurrence_spent(int at, const std::optional<double>& rz) {
  if (!rz) return false;
  if (at == rz_ref_) {
    rz_true_ = *rz;
    return false;
  }
  constexpr double eps = std::numeric_limits<double>::epsilon();
  return std::fabs(*rz) < eps * eps * std::fabs(rz_true_);
}

void Workspace::begin_iterations() {
  if (!opt.phase_timers) iterations_.emplace(timers, "iterations", Category::compute);
  stats.setup_halo_updates = halo_count_;
  stats.setup_reductions = gsum.reductions() - red0_;
  halo0_ = halo_count_;
  red0_ = gsum.reductions();
  words0_ = gsum.words();
  bytes0_ = bytes_;
  flops0_ = flops_;
}

void Workspace::end_iterations(int iterations) {
  iterations_.reset();
  stats.iterations = iterations;
  stats.halo_updates = halo_count_ - halo0_;
  stats.reductions = gsum.reductions() - red0_;
  stats.reduction_words = gsum.words() - words0_;
  stats.bytes = bytes_ - bytes0_;
  stats.flops = flops_ - flops0_;
}

SolveStats solve(const Domain& d, const Operator& op, GlobalSum& gsum, Timers& timers, const SolverOptions& o,
                 const View2D<double>& b, const View2D<double>& x, std::function<bool(int)> on_check) {
  auto t = timers.scope("solve");
  Workspace w(d, op, gsum, timers, o);  // its "iterations" region, if open, closes before "solve"
  w.on_check = std::move(on_check);
  // crit^2 * sum(TAREA^2) over ocean points, and the initial true residual
  auto mask = op.mask, tarea = op.tarea;
  const View2D<double> r = w.field("pop::r0");
  w.halo(x);
  residual(op, d, o.mapping, b, x, r);
  auto s = gsum.sum_2d<2>(
      "pop::norms", o.mapping, d.jb(), d.je(), d.ib(), d.ie(), KOKKOS_LAMBDA(int j, int i, double* c) {
        c[0] = mask(j, i) * tarea(j, i) * tarea(j, i);
        c[1] = mask(j, i) * r(j, i) * r(j, i);
      });
  w.stats.tarea2 = s[0];
  w.stats.tolerance2 = o.crit * o.crit * s[0];
  w.stats.rr_initial = w.stats.rr_final = s[1];
  switch (o.kind) {
    case SolverKind::pcg:
      solve_pcg(w, b, x);
      break;
    case SolverKind::chrongear:
      solve_chrongear(w, b, x);
      break;
    case SolverKind::pcsi:
      solve_pcsi(w, b, x);
      break;
    case SolverKind::pipecg:
      solve_pipecg(w, b, x);
      break;
  }
  return w.stats;
}

}  // namespace proxylab::pop
