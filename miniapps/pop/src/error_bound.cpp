// The error bound of POP2's convergence criterion (see error_bound.hpp).
#include "error_bound.hpp"

#include <cmath>
#include <limits>

#include "proxylab/comm/reduce.hpp"

namespace proxylab::pop {

ErrorBound error_bound(const Domain& d, const Operator& op, const View2D<double>& xstar) {
  GlobalSum exact(ReduceStrategy::reproducible, d.comm());
  const auto mask = op.mask, tarea = op.tarea, a0 = op.A.a0;
  const auto s = exact.sum_2d<3>(
      "pop::error_bound_norms", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(), KOKKOS_LAMBDA(int j, int i, double* c) {
        c[0] = mask(j, i) * tarea(j, i) * tarea(j, i);
        c[1] = mask(j, i) * tarea(j, i) * xstar(j, i) * xstar(j, i);
        c[2] = mask(j, i) * a0(j, i) * a0(j, i);
      });
  constexpr double huge = std::numeric_limits<double>::max();
  double local[2] = {-reduce_2d<Kokkos::Min<double>>(  // smallest ocean cell, negated so that one MPI_MAX takes both
                         "pop::error_bound_min_tarea", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(),
                         KOKKOS_LAMBDA(int j, int i, double& a) {
                           const double v = mask(j, i) > 0 ? tarea(j, i) : huge;
                           a = v < a ? v : a;
                         }),
                     reduce_2d<Kokkos::Max<double>>(
                         "pop::error_bound_max_x", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(),
                         KOKKOS_LAMBDA(int j, int i, double& a) {
                           const double v = mask(j, i) * kmath::fabs(xstar(j, i));
                           a = v > a ? v : a;
                         })};
  local[1] = local[1] < 0 ? 0 : local[1];  // the Max identity on an empty (all-land) block
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, d.comm());
  const double min_tarea = -global[0], max_x = global[1];
  const double scale = d.spec().time_term() * std::sqrt(min_tarea) * std::sqrt(s[1]);
  const double rho = 20.0 * std::numeric_limits<double>::epsilon() * 4.0 * max_x * std::sqrt(s[2]);
  ErrorBound e;
  e.per_crit = std::sqrt(s[0]) / scale;
  e.rounding = rho / scale;
  e.residual_round_off = rho / std::sqrt(s[0]);
  return e;
}

}  // namespace proxylab::pop
