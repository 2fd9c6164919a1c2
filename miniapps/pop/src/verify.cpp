// Solution error and ocean fraction (see verify.hpp).
#include "verify.hpp"

#include <cmath>

#include "proxylab/comm/reduce.hpp"

namespace proxylab::pop {

SolutionError solution_error(const Domain& d, const Operator& op, const View2D<double>& x,
                             const View2D<double>& xstar) {
  GlobalSum exact(ReduceStrategy::reproducible, d.comm());
  const auto mask = op.mask, tarea = op.tarea;
  const auto s = exact.sum_2d<2>(
      "pop::error_l2", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(), KOKKOS_LAMBDA(int j, int i, double* c) {
        const double e = x(j, i) - xstar(j, i);
        c[0] = mask(j, i) * tarea(j, i) * e * e;
        c[1] = mask(j, i) * tarea(j, i) * xstar(j, i) * xstar(j, i);
      });
  using Max = Kokkos::Max<double>;
  double mx[2] = {
      reduce_2d<Max>(
          "pop::error_max", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(),
          KOKKOS_LAMBDA(int j, int i, double& e) {
            const double v = mask(j, i) * kmath::fabs(x(j, i) - xstar(j, i));
            e = v > e ? v : e;
          }),
      reduce_2d<Max>(
          "pop::exact_max", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(), KOKKOS_LAMBDA(int j, int i, double& a) {
            const double v = mask(j, i) * kmath::fabs(xstar(j, i));
            a = v > a ? v : a;
          })};
  for (double& v : mx) v = v < 0 ? 0 : v;  // the Max identity on an empty (all-land) block
  double g[2];
  MPI_Allreduce(mx, g, 2, MPI_DOUBLE, MPI_MAX, d.comm());
  SolutionError e;
  e.rel_l2 = std::sqrt(s[0] / s[1]);
  e.rel_max = g[0] / g[1];
  return e;
}

double ocean_fraction(const Domain& d, const Operator& op) {
  GlobalSum exact(ReduceStrategy::reproducible, d.comm());
  const auto mask = op.mask;
  const auto s = exact.sum_2d<1>(
      "pop::ocean_points", Mapping::flat, d.jb(), d.je(), d.ib(), d.ie(),
      KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = mask(j, i); });
  return s[0] / (double(d.spec().nx) * d.spec().ny);
}

}  // namespace proxylab::pop
