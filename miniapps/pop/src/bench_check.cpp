// Benchmark mode's verification (see bench_check.hpp).
#include "bench_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "proxylab/comm/reduce.hpp"
#include "verify.hpp"

namespace proxylab::pop {

double energy_norm_difference(const Domain& d, const Operator& op, const View2D<double>& x, const View2D<double>& y) {
  const View2D<double> e = d.field("pop::bench_e"), ye = d.field("pop::bench_y"), ae = d.field("pop::bench_ae"),
                       ay = d.field("pop::bench_ay");
  const auto mask = op.mask;
  for_each_2d(
      "pop::bench_difference", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(), KOKKOS_LAMBDA(int j, int i) {
        e(j, i) = mask(j, i) * (x(j, i) - y(j, i));
        ye(j, i) = mask(j, i) * y(j, i);
      });
  d.exchange(e);
  d.exchange(ye);
  apply_operator(op, d, Mapping::flat, e, ae);
  apply_operator(op, d, Mapping::flat, ye, ay);
  GlobalSum exact(ReduceStrategy::reproducible, d.comm());
  const auto s = exact.sum_2d<2>(
      "pop::bench_energy", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(), KOKKOS_LAMBDA(int j, int i, double* c) {
        c[0] = -e(j, i) * ae(j, i);
        c[1] = -ye(j, i) * ay(j, i);
      });
  return std::sqrt(s[0] / s[1]);
}

ReferenceCheck compare_with_reference(const Domain& d, const Operator& op, const SolverOptions& opt,
                                      const View2D<double>& b, const View2D<double>& x, const View2D<double>& xstar,
                                      int iterations) {
  ReferenceCheck c;
  SolverOptions ref;  // the reference variant of the run's solver family, to the same iteration count
  ref.kind = opt.kind == SolverKind::pcsi ? SolverKind::pcsi : SolverKind::pcg;
  ref.crit = 0;
  ref.max_iters = iterations;
  ref.check_freq = opt.check_freq;
  ref.mapping = Mapping::flat;
  ref.fused = false;
  ref.lanczos_steps = opt.lanczos_steps;
  ref.mu_safety = opt.mu_safety;
  ref.nu_safety = opt.nu_safety;
  c.reference = std::string(to_string(ref.kind)) + " unfused flat allreduce";
  const View2D<double> xref = d.field("pop::bench_xref");
  GlobalSum gsum(ReduceStrategy::allreduce, d.comm());
  Timers untimed(nullptr, false);
  solve(d, op, gsum, untimed, ref, b, xref);
  c.difference = solution_error(d, op, x, xref).rel_l2;
  c.limit = 1000.0 * std::numeric_limits<double>::epsilon() * std::max(iterations, 1) +
            2.0 * solution_error(d, op, xref, xstar).rel_l2;
  return c;
}

}  // namespace proxylab::pop
