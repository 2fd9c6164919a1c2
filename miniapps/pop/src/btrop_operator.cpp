// Construction and application of POP's 9-point barotropic operator (see btrop_operator.hpp).
#include "btrop_operator.hpp"

#include <algorithm>

#include "proxylab/stop.hpp"

namespace proxylab::pop {

Operator build_operator(const Domain& d, Mapping m) {
  const int ny = d.ny_local() + 2 * d.width(), nx = d.nx_local() + 2 * d.width();
  Operator op;
  op.A.a0 = View2D<double>("pop::A0", ny, nx);
  op.A.an = View2D<double>("pop::AN", ny, nx);
  op.A.ae = View2D<double>("pop::AE", ny, nx);
  op.A.ane = View2D<double>("pop::ANE", ny, nx);
  op.rA0 = View2D<double>("pop::rA0", ny, nx);
  op.mask = View2D<double>("pop::mask", ny, nx);
  op.tarea = View2D<double>("pop::TAREA", ny, nx);
  const GridSpec g = d.spec();
  const int gi0 = d.i0() - d.width(), gj0 = d.j0() - d.width();
  const double time_factor = g.time_term();
  // Depths, each evaluated once (the synthetic bathymetry is the costly part of the set-up):
  // ht(J, I) = HT at global T-point (gi0 - 1 + I, gj0 - 1 + J), one point beyond the ghosts on each side;
  // hu(J, I) = HU at global U-point (gi0 - 1 + I, gj0 - 1 + J), the minimum of its four T depths.
  View2D<double> ht("pop::HT", ny + 2, nx + 2), hu("pop::HU", ny + 1, nx + 1);
  // In blocks of rows, so that Ctrl-C is seen within a fraction of a second (10 s at 0.1 degree on 2 ranks);
  // after a stop the caller's collective check ends the run, the depths left zero are never used.
  const int rows = ny + 2, block = std::max(1, rows / 64);
  for (int jb = 0; jb < rows && !stop_pending(); jb += block)
    for_each_2d(
        "pop::depth_t", m, jb, std::min(rows, jb + block), 0, nx + 2,
        KOKKOS_LAMBDA(int j, int i) { ht(j, i) = g.ht(gi0 - 1 + i, gj0 - 1 + j); });
  // POP: HU from KMU (the shallowest of the four surrounding T cells), as GridSpec::hu
  for_each_2d(
      "pop::depth_u", m, 0, ny + 1, 0, nx + 1, KOKKOS_LAMBDA(int j, int i) {
        hu(j, i) = GridSpec::min4(ht(j, i), ht(j, i + 1), ht(j + 1, i), ht(j + 1, i + 1));
      });
  auto A = op.A;
  auto rA0 = op.rA0, mask = op.mask, tarea = op.tarea;
  // POP: btrop_operator coefficient set-up (barotropic.F90 init), corner terms at the four U-points
  for_each_2d(
      "pop::build_operator", m, 0, ny, 0, nx, KOKKOS_LAMBDA(int j, int i) {
        const int gj = gj0 + j;
        const double dyu = g.dyu();
        // x and y corner weights at the U-point north-east of local T-point (ii, jj); zero outside the closed rows
        auto xw = [&](int ii, int jj) {
          return gj0 + jj < 0 || gj0 + jj >= g.ny ? 0.0 : 0.25 * hu(jj + 1, ii + 1) * dyu / g.dxu(gj0 + jj);
        };
        auto yw = [&](int ii, int jj) {
          return gj0 + jj < 0 || gj0 + jj >= g.ny ? 0.0 : 0.25 * hu(jj + 1, ii + 1) * g.dxu(gj0 + jj) / dyu;
        };
        const double xne = xw(i, j), xse = xw(i, j - 1), xnw = xw(i - 1, j), xsw = xw(i - 1, j - 1);
        const double yne = yw(i, j), yse = yw(i, j - 1), ynw = yw(i - 1, j), ysw = yw(i - 1, j - 1);
        const bool ocean = gj >= 0 && gj < g.ny && ht(j + 1, i + 1) > 0.0;
        const double area = gj >= 0 && gj < g.ny ? g.tarea(gj) : 0.0;
        A.ane(j, i) = xne + yne;
        A.ae(j, i) = xne + xse - yne - yse;
        A.an(j, i) = yne + ynw - xne - xnw;
        const double ac = -((xne + yne) + (xse + yse) + (xnw + ynw) + (xsw + ysw));
        const double a0 = ocean ? ac - area * time_factor : 0.0;
        A.a0(j, i) = a0;
        rA0(j, i) = ocean ? 1.0 / a0 : 0.0;
        mask(j, i) = ocean ? 1.0 : 0.0;
        tarea(j, i) = area;
      });
  return op;
}

void apply_operator(const Operator& op, const Domain& d, Mapping m, const View2D<double>& x, const View2D<double>& q) {
  const Stencil A = op.A;
  for_each_2d(
      "pop::apply_operator", m, d.jb(), d.je(), d.ib(), d.ie(),
      KOKKOS_LAMBDA(int j, int i) { q(j, i) = A.apply(x, j, i); });
}

void residual(const Operator& op, const Domain& d, Mapping m, const View2D<double>& b, const View2D<double>& x,
              const View2D<double>& r) {
  const Stencil A = op.A;
  // POP: btropOperator followed by R = B - R (the true residual of the convergence check)
  for_each_2d(
      "pop::residual", m, d.jb(), d.je(), d.ib(), d.ie(),
      KOKKOS_LAMBDA(int j, int i) { r(j, i) = b(j, i) - A.apply(x, j, i); });
}

void exact_problem(const Operator& op, const Domain& d, Mapping m, const View2D<double>& xstar,
                   const View2D<double>& b) {
  const GridSpec g = d.spec();
  const int gi0 = d.i0() - d.width(), gj0 = d.j0() - d.width();
  const int ny = d.ny_local() + 2 * d.width(), nx = d.nx_local() + 2 * d.width();
  auto mask = op.mask;
  for_each_2d(
      "pop::exact_solution", m, 0, ny, 0, nx,
      KOKKOS_LAMBDA(int j, int i) { xstar(j, i) = mask(j, i) * exact_solution(g, gi0 + i, gj0 + j); });
  apply_operator(op, d, m, xstar, b);
}

}  // namespace proxylab::pop
